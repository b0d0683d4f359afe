package main

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// allowedCPUs lists the CPUs of this thread's affinity mask.
func allowedCPUs(t *testing.T) []int {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

// onCPUs runs f on an OS thread whose affinity mask is cpus. The thread is
// never unlocked, so it ends with f's goroutine and no other goroutine
// inherits the narrowed mask; processes started by f inherit it, as they
// inherit taskset's.
func onCPUs(t *testing.T, cpus []int, f func()) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var set unix.CPUSet
		for _, c := range cpus {
			set.Set(c)
		}
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			errc <- err
			return
		}
		defer func() { errc <- nil }()
		f()
	}()
	if err := <-errc; err != nil {
		t.Fatalf("sched_setaffinity %v: %v", cpus, err)
	}
}

// TestUsableCPUsReadsTheMaskNow: a mask narrowed after the process started
// counts (runtime.NumCPU is the mask at start), here on this thread.
func TestUsableCPUsReadsTheMaskNow(t *testing.T) {
	cpus := allowedCPUs(t)
	noEnv := func(string) string { return "" }
	var got, gotAff int
	onCPUs(t, cpus[:1], func() {
		gotAff, _ = affinityCPUs()
		got = usableCPUs(noEnv)
	})
	if gotAff != 1 || got != 1 {
		t.Errorf("on a 1-CPU mask: affinity %d, usable %d; want 1 and 1 (runtime.NumCPU %d)", gotAff, got, runtime.NumCPU())
	}
}

// TestWorkersDefaultFollowsTheMask execs the built binary with a 1-CPU and
// (when this process may use two) a 2-CPU affinity mask, as taskset -c or a
// scheduler's pinning gives it: --workers of fuzz, compare and sample
// default to the CPUs of the mask, and Slurm's allocation caps them.
func TestWorkersDefaultFollowsTheMask(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildLabelcov(t)
	cpus := allowedCPUs(t)
	defaultRe := regexp.MustCompile(`--workers int .*\(default (\d+)\)`)
	workersDefault := func(mask []int, env []string, verb string) string {
		var out []byte
		var err error
		onCPUs(t, mask, func() {
			cmd := exec.Command(bin, verb, "--help")
			// Neither the test's GOMAXPROCS nor a Slurm job it runs in
			// may decide.
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "GOMAXPROCS=") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, env...)
			out, err = cmd.CombinedOutput()
		})
		if err != nil {
			t.Fatalf("%s --help on CPUs %v: %v\n%s", verb, mask, err, out)
		}
		m := defaultRe.FindSubmatch(out)
		if m == nil {
			t.Fatalf("%s --help names no default of --workers:\n%s", verb, out)
		}
		if !strings.Contains(string(out), "CPU this process may use") {
			t.Errorf("%s --help does not say where the default of --workers comes from", verb)
		}
		return string(m[1])
	}
	type tc struct {
		mask []int
		env  []string
		want string
	}
	cases := []tc{
		{cpus[:1], nil, "1"},
		{cpus[:1], []string{"SLURM_CPUS_PER_TASK=4", "SLURM_CPUS_ON_NODE=4"}, "1"},
	}
	if len(cpus) >= 2 {
		cases = append(cases,
			tc{cpus[:2], nil, "2"},
			tc{cpus[:2], []string{"SLURM_CPUS_PER_TASK=1", "SLURM_CPUS_ON_NODE=2"}, "1"},
			tc{cpus[:2], []string{"SLURM_CPUS_ON_NODE=1"}, "1"},
			tc{cpus[:2], []string{"SLURM_CPUS_ON_NODE=bogus"}, "2"},
			tc{cpus[:2], []string{"GOMAXPROCS=1"}, "1"},
		)
	} else {
		t.Logf("only CPU %v may be used: the 2-CPU cases are left out", cpus)
	}
	for _, c := range cases {
		for _, verb := range []string{"fuzz", "compare", "sample"} {
			if got := workersDefault(c.mask, c.env, verb); got != c.want {
				t.Errorf("%s on CPUs %v with %v: --workers defaults to %s, want %s", verb, c.mask, c.env, got, c.want)
			}
		}
	}
}
