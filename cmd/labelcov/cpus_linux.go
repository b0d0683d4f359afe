package main

import "golang.org/x/sys/unix"

// affinityCPUs counts the CPUs in the calling thread's affinity mask, the
// one taskset and a scheduler set (Go threads inherit the process's).
func affinityCPUs() (int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return 0, err
	}
	return set.Count(), nil
}
