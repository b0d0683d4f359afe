//go:build !linux

package main

import "errors"

// affinityCPUs is Linux-only; elsewhere runtime.NumCPU stands.
func affinityCPUs() (int, error) { return 0, errors.New("no affinity mask on this system") }
