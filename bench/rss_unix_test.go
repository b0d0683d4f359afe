//go:build unix

package bench

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

const rssSupported = true

// peakRSS returns the process's peak resident set size in bytes. On Linux
// it reads VmHWM from /proc/self/status: getrusage's ru_maxrss survives
// exec, so a child would inherit the benchmark parent's peak.
func peakRSS() int64 {
	if status, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range bytes.Split(status, []byte("\n")) {
			if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
				kb, err := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024 // KiB on Linux
}
