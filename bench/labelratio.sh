#!/bin/sh
# labelratio.sh: the label-cost ratio of whole fuzzing campaigns, CPU without labels ÷ CPU with
# them, for the working tree and a baseline revision measured in the same run.
#
#   ./labelratio.sh PLAN RUNS CRITERIA [extra fuzz flags...]
#   BASE=ccb0bc6 ROUNDS=5 ./labelratio.sh ../testdata/bench/docking/docking.plan 1000000 mcc,wm
#   ./labelratio.sh ../testdata/bench/warehouse-sort/warehouse-sort.plan 20000 dist \
#       --world ../testdata/worlds/warehouse.world
#
# Each campaign is `labelcov fuzz PLAN --criteria C --runs RUNS --seed 1 --workers 1 --measure
# none` in a fresh --out directory (set-up included: labels, analyses, annotation, compilation).
# A round runs the four campaigns (baseline and tree, none and CRITERIA) one after the other, so
# that a burst of load hits all four; CPU is user + system as /usr/bin/time reports it. The
# figures are the medians over ROUNDS (default 3) of each campaign's CPU and of each round's
# ratio none ÷ CRITERIA. BASE is any revision git knows (default: main).
set -eu
if [ $# -lt 3 ]; then
	sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
fi
plan=$(realpath "$1")
runs=$2
crit=$3
shift 3
base=${BASE:-main}
rounds=${ROUNDS:-3}
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/tree" ./cmd/labelcov)
mkdir "$tmp/src"
git -C "$root" archive "$base" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/base" ./cmd/labelcov)

# campaign BIN CRITERIA: prints its user+system CPU seconds
campaign() {
	b=$1
	c=$2
	shift 2
	out=$(mktemp -d "$tmp/outXXXXXX")
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$b" fuzz "$plan" --criteria "$c" --runs "$runs" \
		--seed 1 --workers 1 --measure none --allow-findings --out "$out/o" "$@" >/dev/null 2>&1 || true
	rm -rf "$out"
	awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/time"
}

: >"$tmp/rows"
i=0
while [ "$i" -lt "$rounds" ]; do
	for bin in base tree; do
		n=$(campaign "$tmp/$bin" none "$@")
		l=$(campaign "$tmp/$bin" "$crit" "$@")
		echo "$bin $n $l" >>"$tmp/rows"
	done
	i=$((i + 1))
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "$(basename "$plan") --runs $runs --criteria $crit, $rounds rounds (medians; CPU s = user + system)"
printf '%-10s %10s %10s %14s\n' build "none s" "$crit s" "none/$crit"
for bin in base tree; do
	n=$(awk -v b="$bin" '$1 == b { print $2 }' "$tmp/rows" | median)
	l=$(awk -v b="$bin" '$1 == b { print $3 }' "$tmp/rows" | median)
	r=$(awk -v b="$bin" '$1 == b && $3 > 0 { printf "%.4f\n", $2 / $3 }' "$tmp/rows" | median)
	name=$bin
	[ "$bin" = base ] && name="base $base"
	printf '%-10s %10s %10s %14s\n' "$name" "$n" "$l" "$r"
done
