package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSlurmScriptInDocs: docs/compare.md shows the script that
// `compare --slurm-script` writes for its example, byte for byte (paths of
// the binary and the working directory aside).
func TestSlurmScriptInDocs(t *testing.T) {
	dir := t.TempDir()
	args := []string{"compare", "--bench", "warehouse-sort,kitchen", "--criteria", "none,mcc,wm,mcc+wm", "--runs", "10", "--budget", "5m",
		"--workers", "2", "--slurm-array", "20%5", "--out", "cmp", "--slurm-script", filepath.Join(dir, "grid.sh")}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "80 campaign(s) in 20 Slurm array task(s) of at most 4"; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	script, err := os.ReadFile(filepath.Join(dir, "grid.sh"))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.NewReplacer(shellQuote(exe), "/home/you/go/bin/labelcov", shellQuote(wd), "/home/you/labelcov",
		dir+string(filepath.Separator), "").Replace(string(script))
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	const start = "```bash\n#!/bin/bash\n# A labelcov comparison grid"
	i := strings.Index(string(doc), start)
	if i < 0 {
		t.Fatal("docs/compare.md shows no script of compare --slurm-script")
	}
	block := string(doc[i+len("```bash\n"):])
	block = block[:strings.Index(block, "```\n")]
	if block != got {
		t.Errorf("docs/compare.md shows another script than compare --slurm-script writes; it writes:\n%s", got)
	}
	for _, want := range []string{"#SBATCH --array=1-20%5\n", "#SBATCH --cpus-per-task=2\n", "#SBATCH --time=0-00:18:00\n",
		"--dependency=\"afterok:$array\"", `--shard "$SLURM_ARRAY_TASK_ID/20"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the script has no %q", want)
		}
	}
}

func TestSlurmScriptErrors(t *testing.T) {
	grid := []string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none,mcc", "--runs", "2", "--budget", "1s"}
	script := filepath.Join(t.TempDir(), "grid.sh")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--slurm-array", "2"}, "--slurm-array goes with --slurm-script"},
		{[]string{"--slurm-script", script, "--slurm-array", "5"}, "the grid has 4 campaign(s), so at most 4 tasks"},
		{[]string{"--slurm-script", script, "--slurm-array", "0"}, "want N or N%K"},
		{[]string{"--slurm-script", script, "--slurm-array", "2%0"}, "must be at least 1"},
		{[]string{"--slurm-script", script, "--slurm-array", "x%2"}, "want N or N%K"},
		{[]string{"--slurm-script", script, "--shard", "1/2"}, "--shard does not go with --slurm-script"},
		{[]string{"--merge", "--slurm-script", script, "x"}, "--slurm-script does not go with --merge"},
	} {
		code, _, stderr := execLabelcov(append(append([]string{}, grid...), c.args...)...)
		if c.args[0] == "--merge" {
			code, _, stderr = execLabelcov(append([]string{"compare"}, c.args...)...)
		}
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	if _, err := os.Stat(script); err == nil {
		t.Error("a failed --slurm-script wrote the script")
	}
}
