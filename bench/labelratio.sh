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
# that a burst of load hits all four; CPU is perf's task-clock (user + system of every thread,
# in ms) where perf can count it, else user + system as /usr/bin/time reports it (10 ms steps). The
# figures are the medians over ROUNDS (default 3) of each campaign's CPU and of each round's
# ratio none ÷ CRITERIA. BASE is any revision git knows (default: main).
#
# Campaigns' outputs are kept until the script ends: deleting one right
# before the next campaign creates its queue's files made ext4 scan the
# freshly freed inodes, a cost that grows with the number of files a
# campaign keeps, not with its labels. TMPDIR=/dev/shm puts builds and
# outputs on tmpfs, where creating a file costs no disk structures at all.
#
# PIN=CPU runs every campaign on that one processor (taskset), so that a
# campaign's goroutines never spread over two and its neighbours' load moves
# it less. INSTR=1 also counts each campaign's instructions once (they do not
# depend on load) under valgrind's cachegrind, GOMAXPROCS=1, leaving out
# what the clock drives rather than the runs (the stats file rewritten every
# second, which under valgrind's slowdown would weigh fifty times more:
# encoding/json, reflect and system calls), and prints their ratio too.
set -eu
if [ $# -lt 3 ]; then
	sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
fi
plan=$(realpath "$1")
runs=$2
crit=$3
shift 3
base=${BASE:-main}
rounds=${ROUNDS:-3}
pin=""
[ -n "${PIN:-}" ] && pin="taskset -c $PIN"
perf=""
perf stat -x, -e task-clock -o /dev/null true >/dev/null 2>&1 && perf=1
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
	if [ -n "$perf" ]; then
		perf stat -x, -e task-clock -o "$tmp/time" $pin "$b" fuzz "$plan" --criteria "$c" --runs "$runs" \
			--seed 1 --workers 1 --measure none --allow-findings --out "$out/o" "$@" >/dev/null 2>&1 || true
		awk -F, '$3 == "task-clock" { printf "%.4f\n", $1 / 1000 }' "$tmp/time"
	else
		/usr/bin/time -f '%U %S' -o "$tmp/time" $pin "$b" fuzz "$plan" --criteria "$c" --runs "$runs" \
			--seed 1 --workers 1 --measure none --allow-findings --out "$out/o" "$@" >/dev/null 2>&1 || true
		awk '{ printf "%.3f\n", $1 + $2 }' "$tmp/time"
	fi
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

# instructions BIN CRITERIA: prints the campaign's instructions, clock-driven work left out
instructions() {
	b=$1
	c=$2
	shift 2
	out=$(mktemp -d "$tmp/outXXXXXX")
	# The runtime reads the time stamp counter with RDTSCP, which valgrind
	# does not know: cpu.rdtscp=off makes it use RDTSC.
	GODEBUG=cpu.rdtscp=off GOMAXPROCS=1 $pin valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file="$out/cg" "$b" fuzz "$plan" --criteria "$c" --runs "$runs" \
		--seed 1 --workers 1 --measure none --allow-findings --progress 0 --out "$out/o" "$@" >/dev/null 2>&1 || true
	cg_annotate --threshold=0 "$out/cg" | sed -n '/file:function/,/^$/p' | awk '
		{ gsub(",", "", $1) }
		$1 ~ /^[0-9]+$/ { all += $1; if ($0 ~ /:(encoding\/json|reflect|syscall|internal\/runtime\/syscall)\./) clock += $1 }
		END { printf "%.0f\n", all - clock }'
	rm -rf "$out"
}

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
if [ -n "${INSTR:-}" ]; then
	printf '%-10s %14s %14s %14s\n' build "none instr" "$crit instr" "none/$crit"
	for bin in base tree; do
		n=$(instructions "$tmp/$bin" none "$@")
		l=$(instructions "$tmp/$bin" "$crit" "$@")
		name=$bin
		[ "$bin" = base ] && name="base $base"
		printf '%-10s %14s %14s %14s\n' "$name" "$n" "$l" "$(awk -v n="$n" -v l="$l" 'BEGIN { printf "%.4f", n / l }')"
	done
fi
