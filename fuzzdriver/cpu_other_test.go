//go:build !unix

package fuzzdriver

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
