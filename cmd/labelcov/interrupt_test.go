package main

import (
	"bufio"
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// startUntil starts the built binary with args and waits until a line of its
// stderr contains marker; the rest of stderr keeps being collected. It
// returns the running command and the buffers of stdout and stderr, which
// are complete once cmd.Wait has returned.
func startUntil(t *testing.T, bin, marker string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer, <-chan struct{}) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	seen := make(chan bool, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		r := bufio.NewReader(pipe)
		found := false
		for {
			line, err := r.ReadString('\n')
			stderr.WriteString(line)
			if !found && strings.Contains(line, marker) {
				found = true
				seen <- true
			}
			if err != nil {
				if !found {
					seen <- false
				}
				return
			}
		}
	}()
	if !<-seen {
		<-drained
		_ = cmd.Wait()
		t.Fatalf("%s %s ended before printing %q:\n%s", bin, strings.Join(args, " "), marker, stderr.String())
	}
	return cmd, &stdout, &stderr, drained
}

// exitCode waits for cmd (after its stderr is drained) and returns its exit
// status; a death by signal fails t.
func exitCode(t *testing.T, cmd *exec.Cmd, drained <-chan struct{}) int {
	t.Helper()
	<-drained
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.Exited():
		return ee.ExitCode()
	default:
		t.Fatalf("%s: %v (not a clean exit)", cmd, err)
		return -1
	}
}

// TestSIGTERMInterruptsCampaigns: a campaign that scancel or a Slurm time
// limit stops (SIGTERM) before its budget saves what it has, says so, and
// exits 3, so that the scheduler records the task as failed.
func TestSIGTERMInterruptsCampaigns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildLabelcov(t)
	plan := filepath.Join(benchDir, "temperature", "temperature.plan")

	t.Run("fuzz", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "out")
		cmd, stdout, stderr, drained := startUntil(t, bin, "fuzz: elapsed: ",
			"fuzz", plan, "--budget", "10m", "--workers", "1", "--progress", "50ms", "--out", out, "--allow-findings")
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := exitCode(t, cmd, drained); code != exitInterrupted {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitInterrupted, stdout, stderr)
		}
		if !strings.Contains(stdout.String(), "builtin campaign interrupted after") {
			t.Errorf("the summary does not say the campaign was interrupted:\n%s", stdout)
		}
		if !strings.Contains(stderr.String(), "labelcov: campaign interrupted after") ||
			!strings.Contains(stderr.String(), "before its budget (10m0s)") {
			t.Errorf("stderr does not say the campaign was interrupted:\n%s", stderr)
		}
		// Saved: the same --out resumes with the corpus of the first session.
		code, _, errs := execLabelcov("fuzz", plan, "--runs", "1", "--budget", "0", "--workers", "1", "--progress", "0",
			"--out", out, "--allow-findings", "--json")
		if code != exitOK {
			t.Fatalf("resume: exit %d: %s", code, errs)
		}
		if queue, _ := filepath.Glob(filepath.Join(out, "labelcov", "queue", "id:*")); len(queue) == 0 {
			t.Errorf("no queue saved in %s", out)
		}
	})

	t.Run("compare", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "cmp")
		cmd, stdout, stderr, drained := startUntil(t, bin, "compare: 2 campaign(s)",
			"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none", "--runs", "2",
			"--budget", "10m", "--workers", "1", "--out", out)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		if code := exitCode(t, cmd, drained); code != exitInterrupted {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitInterrupted, stdout, stderr)
		}
		if !strings.Contains(stdout.String(), "0 campaign(s) finished, 2 missing") {
			t.Errorf("the report does not count the unfinished campaigns:\n%s", stdout)
		}
		if !strings.Contains(stderr.String(), "interrupted with 2 of 2 campaign(s) to run unfinished") {
			t.Errorf("stderr does not say the grid was interrupted:\n%s", stderr)
		}
	})
}
