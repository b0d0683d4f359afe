//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the user+system CPU time the whole process has used so
// far (all threads, so the garbage collector's background work counts);
// false when the system cannot tell.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
