#!/bin/sh
# samelabels.sh OLD NEW: checks that two labelcov binaries list the same
# labels and write the same annotated plans, byte for byte: `labels --json`
# of every plan under testdata with criteria dist, all and mcc,wm, and
# `annotate` with dist, each without a world and in every world under
# testdata/worlds (a plan a world does not fit fails alike in both, and
# its error is compared too). Build each binary at its revision with
# `go build -o FILE ./cmd/labelcov` and run this from the repository's
# root: bench/samelabels.sh OLD NEW.
set -u
old=$1 new=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=0 bad=0
check() { # name, then the arguments after the binary
	name=$1
	shift
	"$old" "$@" >"$out/old" 2>&1
	echo "exit $?" >>"$out/old"
	"$new" "$@" >"$out/new" 2>&1
	echo "exit $?" >>"$out/new"
	n=$((n + 1))
	if ! cmp -s "$out/old" "$out/new"; then
		bad=$((bad + 1))
		echo "differ: $name"
	fi
}
for plan in $(find testdata -name '*.plan' | sort); do
	for world in "" $(find testdata/worlds -name '*.world' | sort); do
		set --
		[ -n "$world" ] && set -- --world "$world"
		for crit in dist all mcc,wm; do
			check "labels $plan $crit $world" labels "$plan" --criteria "$crit" --json "$@"
		done
		check "annotate $plan dist $world" annotate "$plan" --criteria dist "$@"
	done
done
echo "$n comparisons, $bad differ"
[ "$bad" -eq 0 ]
