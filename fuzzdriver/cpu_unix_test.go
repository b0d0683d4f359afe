//go:build unix

package fuzzdriver

import (
	"syscall"
	"time"
)

// processCPU is the CPU time of this process so far. On a shared machine,
// CPU time per exec is far less disturbed than wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
