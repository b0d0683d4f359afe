//go:build !unix

package cputime

import "time"

// Process returns false: CPU time is not available here.
func Process() (time.Duration, bool) { return 0, false }
