package testenv

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// SlurmVar opts in to tests that submit jobs to a Slurm cluster: the one
// SLURM_CONF names, or else a single-node cluster they start on this
// machine with the repository's .ci/slurm-up (root, Debian's slurm-wlm and
// munge).
const SlurmVar = "LABELCOV_SLURM_TESTS"

// Slurm skips t unless SlurmVar is set. When it is set, it returns the
// slurm.conf of the cluster to submit to: $SLURM_CONF when set (.ci/run
// starts one and sets it), else a cluster started now in a temporary
// directory by .ci/slurm-up and stopped by .ci/slurm-down when t ends. It
// fails t when Slurm's commands are missing or the cluster does not start.
func Slurm(t testing.TB) string {
	t.Helper()
	if !enabled(SlurmVar) {
		t.Skipf("needs Slurm: set %s=1 to run (Debian: apt-get install slurm-wlm munge; .ci/run does both and starts a cluster)", SlurmVar)
	}
	for _, p := range []string{"sbatch", "scontrol", "sinfo"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("%s=1 but %s is not on PATH (Debian: apt-get install slurm-wlm munge): %v", SlurmVar, p, err)
		}
	}
	if conf := os.Getenv("SLURM_CONF"); conf != "" {
		return conf
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatalf("%s=1 without SLURM_CONF: starting a cluster needs the repository's .ci/slurm-up: %v", SlurmVar, err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", filepath.Join(root, ".ci", "slurm-up"), dir).CombinedOutput()
	t.Cleanup(func() {
		if out, err := exec.Command("bash", filepath.Join(root, ".ci", "slurm-down"), dir).CombinedOutput(); err != nil {
			t.Errorf(".ci/slurm-down: %v\n%s", err, out)
		}
	})
	if err != nil {
		t.Fatalf("%s=1 without SLURM_CONF: .ci/slurm-up: %v\n%s", SlurmVar, err, out)
	}
	return filepath.Join(dir, "slurm.conf")
}

// repoRoot is the nearest directory at or above the working directory
// that holds .ci/slurm-up.
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".ci", "slurm-up")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("no .ci/slurm-up in " + wd + " or any parent directory")
		}
	}
}
