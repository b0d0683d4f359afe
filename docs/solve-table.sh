#!/bin/sh
# Regenerates the table of docs/solve.md: gentests --solve on every
# benchmark plan whose inputs are arguments (no world), one after the
# other, each with a 30 s fuzzing budget and the solver's 5 s per label.
# Run from the repository's root: sh docs/solve-table.sh
set -e
go build -o /tmp/labelcov-solve-table ./cmd/labelcov
echo "| plan | active labels | covered after fuzzing | covered with --solve | proven infeasible | unresolved | solving time | total time |"
echo "|------|------:|------:|------:|------:|------:|------:|------:|"
for p in temperature docking gripper battery; do
  out=$(mktemp -d)
  start=$(date +%s)
  line=$(/tmp/labelcov-solve-table gentests testdata/bench/$p/$p.plan --tests testdata/bench/$p/reproducers \
    --out "$out/gen" --budget 30s --seed 1 --criteria all,mcdc --solve | grep '^solve:')
  end=$(date +%s)
  echo "$line" | sed -E "s/^solve: [0-9]+ solved test\(s\) in ([0-9.]+)s; of ([0-9]+) active labels: covered ([0-9]+) -> ([0-9]+), proven infeasible ([0-9]+), unresolved ([0-9]+)$/| $p | \2 | \3 | \4 | \5 | \6 | \1 s | $((end - start)) s |/"
  rm -rf "$out"
done
