package main

import (
	"runtime"
	"testing"
)

// TestUsableCPUsSlurm: Slurm's allocation caps the default, the smaller of
// its two variables wins, and it never raises it past what the process may
// use; values that are not positive numbers are ignored.
func TestUsableCPUsSlurm(t *testing.T) {
	base := usableCPUs(func(string) string { return "" })
	if base < 1 || base > runtime.NumCPU() {
		t.Fatalf("without Slurm: %d CPUs (runtime.NumCPU %d)", base, runtime.NumCPU())
	}
	for _, c := range []struct {
		env  map[string]string
		want int
	}{
		{map[string]string{"SLURM_CPUS_PER_TASK": "1"}, 1},
		{map[string]string{"SLURM_CPUS_ON_NODE": "1"}, 1},
		{map[string]string{"SLURM_CPUS_PER_TASK": "1", "SLURM_CPUS_ON_NODE": "64"}, 1},
		{map[string]string{"SLURM_CPUS_PER_TASK": "64", "SLURM_CPUS_ON_NODE": " 1 "}, 1},
		{map[string]string{"SLURM_CPUS_PER_TASK": "4096", "SLURM_CPUS_ON_NODE": "4096"}, base},
		{map[string]string{"SLURM_CPUS_PER_TASK": "0", "SLURM_CPUS_ON_NODE": "-3"}, base},
		{map[string]string{"SLURM_CPUS_PER_TASK": "2(x3)", "SLURM_CPUS_ON_NODE": ""}, base},
	} {
		if got := usableCPUs(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("%v: %d CPUs, want %d", c.env, got, c.want)
		}
	}
}
