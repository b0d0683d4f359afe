//go:build unix

package engine

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive advisory lock on dir, as afl-fuzz does on its
// output directory, so that two campaigns never write one instance
// directory. The kernel releases it when the process dies: no stale locks.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("fuzzdriver: %s is in use by another campaign: %w", dir, err)
		}
		return nil, fmt.Errorf("fuzzdriver: lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
