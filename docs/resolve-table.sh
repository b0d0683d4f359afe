#!/bin/sh
# Regenerates the resolution table of docs/solve.md: on every benchmark plan,
# gentests (30 s of fuzzing, seed 1, criteria all,mcdc) from its reproducers,
# then, on the plans whose inputs are arguments (no world), gentests again
# with --solve (z3's 5 s per label). Each row gives the labels covered,
# proven infeasible and unresolved by the reproducers with the generated
# tests (gentests' closing resolution, "all" row) and the wall-clock time of
# the whole command. One plan after the other. Then the Go sample targets
# (testdata/gobench): gentests with 30 s of go test -fuzz (seed 1) and its
# directed entries, its resolution of the active labels ("all" line).
# Run from the repository's root: sh docs/resolve-table.sh
# (sh docs/resolve-table.sh --go: the Go targets' table alone; --plans:
# the plans' alone).
set -e
only_go=no
only_plans=no
if [ "${1:-}" = "--go" ]; then only_go=yes; fi
if [ "${1:-}" = "--plans" ]; then only_plans=yes; fi
bin=$(mktemp -d)/labelcov
go build -o "$bin" ./cmd/labelcov
# all_row OUTPUT: "covered | infeasible | unresolved" of its resolution.
all_row() {
  printf '%s\n' "$1" | awk '/^resolution of the active labels/ {on = 1} on && $1 == "all" {print $2 " | " $3 " | " $4; exit}'
}
static() {
  n=$(printf '%s\n' "$1" | sed -n 's/^\([0-9]*\) more label(s) infeasible by the static analysis.*/\1/p')
  echo "${n:-0}"
}
total() {
  printf '%s\n' "$1" | awk '/^resolution of the active labels/ {on = 1} on && $1 == "all" {print $2 + $3 + $4; exit}'
}
if [ $only_go = no ]; then
echo "| plan | world | static infeasible | active labels | gentests: covered | infeasible | unresolved | time | with --solve: covered | infeasible | unresolved | time |"
echo "|------|:-----:|------:|------:|------:|------:|------:|------:|------:|------:|------:|------:|"
for p in temperature docking gripper battery warehouse-sort shelf-restock kitchen table-setting fetch-deliver restock-quota; do
  dir=testdata/bench/$p
  world=no
  if grep -q '"world"' "$dir/truth.json"; then world=yes; fi
  out=$(mktemp -d)
  start=$(date +%s)
  text=$("$bin" gentests "$dir/$p.plan" --tests "$dir/reproducers" --out "$out/gen" --budget 30s --seed 1 --criteria all,mcdc)
  end=$(date +%s)
  row="| $p | $world | $(static "$text") | $(total "$text") | $(all_row "$text") | $((end - start)) s"
  start=$(date +%s)
  text=$("$bin" gentests "$dir/$p.plan" --tests "$dir/reproducers" --out "$out/solved" --budget 60s --seed 1 --criteria all,mcdc --solve)
  end=$(date +%s)
  row="$row | $(all_row "$text") | $((end - start)) s |"
  echo "$row"
  rm -rf "$out"
done
echo
fi
if [ $only_plans = yes ]; then
  rm -rf "$(dirname "$bin")"
  exit 0
fi
echo "| Go target | active labels | covered | infeasible (static) | unresolved | time |"
echo "|-----------|------:|------:|------:|------:|------:|"
for t in easy:FuzzFields frame:FuzzDecode header:FuzzDecode ledger:FuzzSettle quota:FuzzReserve sensor:FuzzCalibrate shell:FuzzRun; do
  pkg=${t%%:*}
  fuzz=${t#*:}
  out=$(mktemp -d)
  start=$(date +%s)
  # Exit 1 when a written entry reproduces a bug of the target (shell's,
  # quota's): the table counts labels either way.
  text=$("$bin" gentests "./$pkg" -C testdata/gobench --fuzz "$fuzz" --budget 30s --seed 1 --out "$out") || [ $? -eq 1 ]
  end=$(date +%s)
  printf '%s\n' "$text" | awk -v t="$pkg.$fuzz" -v s=$((end - start)) \
    '/^resolution with the generated entries/ {on = 1} on && $1 == "all" {gsub(",", ""); print "| " t " | " $3 + $7 " | " $3 " | " $5 " | " $7 " | " s " s |"; exit}'
  rm -rf "$out"
done
rm -rf "$(dirname "$bin")"
