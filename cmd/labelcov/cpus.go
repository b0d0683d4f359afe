package main

import (
	"runtime"
	"strconv"
	"strings"
)

// Slurm's environment: the CPUs a job step was allocated. SLURM_CPUS_PER_TASK
// is set when the job asked for --cpus-per-task; SLURM_CPUS_ON_NODE always,
// the CPUs of the job on this node (whole cores, so it can be larger than
// what was asked for). Without cgroup pinning (task/none, many clusters)
// the affinity mask is the whole node, and only these say what the task was
// given.
var slurmCPUVars = []string{"SLURM_CPUS_PER_TASK", "SLURM_CPUS_ON_NODE"}

// workersFlagHelp ends the help of every --workers flag.
const workersFlagHelp = "; by default one per CPU this process may use (the smallest of its affinity mask, GOMAXPROCS, and Slurm's SLURM_CPUS_PER_TASK and SLURM_CPUS_ON_NODE)"

// usableCPUs is how many CPUs this process may use: the smallest of its
// affinity mask (read now: runtime.NumCPU is the mask at start), GOMAXPROCS
// (which follows a cgroup CPU limit) and the CPUs Slurm allocated, read
// through getenv.
func usableCPUs(getenv func(string) string) int {
	n := runtime.NumCPU()
	if a, err := affinityCPUs(); err == nil && a > 0 {
		n = a
	}
	n = min(n, runtime.GOMAXPROCS(0))
	for _, name := range slurmCPUVars {
		// Unset, empty or not a positive number (a malformed
		// environment): no limit from it.
		if c, err := strconv.Atoi(strings.TrimSpace(getenv(name))); err == nil && c > 0 {
			n = min(n, c)
		}
	}
	return n
}
