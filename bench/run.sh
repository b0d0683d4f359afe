#!/bin/sh
# Standard labelcov benchmark comparison: runs every benchmark in this module
# COUNT times (default 6) and prints benchstat's table with one column per
# system. Extra arguments go to the test binary, e.g.
#   ./run.sh -test.bench Fib30        # only BenchmarkFib30
#   COUNT=10 ./run.sh
# The raw output is kept in $OUT (default out.txt) for later comparisons.
#
# The test binary is built once and run COUNT times with -test.count 1, so the
# systems are interleaved (lua, starlark, labelcov, lua, ...): on a shared or
# noisy machine a burst of load then hits every system instead of all samples
# of one (`go test -count N` runs the N samples of a benchmark back to back).
set -eu
cd "$(dirname "$0")"

COUNT=${COUNT:-6}
OUT=${OUT:-out.txt}

BENCHSTAT=$(command -v benchstat || true)
if [ -z "$BENCHSTAT" ]; then
	BENCHSTAT="$(go env GOPATH)/bin/benchstat"
	if [ ! -x "$BENCHSTAT" ]; then
		echo "installing benchstat..." >&2
		go install golang.org/x/perf/cmd/benchstat@latest
	fi
fi

BIN=$(mktemp -d)/bench.test
trap 'rm -rf "$(dirname "$BIN")"' EXIT
go test -c -o "$BIN" .

# Check every system's answers first (TestWorkloads): a fast wrong answer is
# worthless. Each benchmark checks its answer too.
"$BIN" -test.run . >/dev/null || { echo "correctness tests failed" >&2; "$BIN" -test.run . -test.v >&2; exit 1; }

: >"$OUT"
i=1
while [ "$i" -le "$COUNT" ]; do
	echo "run $i/$COUNT" >&2
	"$BIN" -test.run '^$' -test.bench . -test.count 1 "$@" >>"$OUT"
	i=$((i + 1))
done
# Peers side by side: one column per system, ratios against the first.
"$BENCHSTAT" -col /system -filter '.name:(Fib30 OR Loop)' "$OUT"
# The simulator benchmark (labelcov only): annotated against original.
if grep -q '^BenchmarkWarehouse/' "$OUT"; then
	echo
	"$BENCHSTAT" -col /variant -filter '.name:Warehouse' "$OUT"
fi
# The label-cost benchmark: annotated variants against none, per plan.
if grep -q '^BenchmarkLabels/' "$OUT"; then
	echo
	"$BENCHSTAT" -col /variant -row /plan -filter '.name:Labels' "$OUT"
fi
