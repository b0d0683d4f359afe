//go:build !unix

package sim

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
