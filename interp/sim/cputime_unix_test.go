//go:build unix

package sim

import (
	"syscall"
	"time"
)

// processCPU returns the user+system CPU time the whole process has used
// (all threads, so the garbage collector's background work counts).
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
