#!/bin/sh
# Standard labelcov benchmark comparison: runs every benchmark in this module
# COUNT times (default 6) and prints benchstat's table with one column per
# system. Extra arguments go to `go test`, e.g.
#   ./run.sh -bench Fib30        # only BenchmarkFib30
#   COUNT=10 ./run.sh
# The raw output is kept in $OUT (default out.txt) for later comparisons.
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

# -run '^$' skips the tests (they check every system's answer; run them
# with `go test .`). Each benchmark also checks its answer before timing.
go test -run '^$' -bench . -count "$COUNT" "$@" . | tee "$OUT" >&2
echo >&2
"$BENCHSTAT" -col /system "$OUT"
