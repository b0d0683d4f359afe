package afl

import (
	"fmt"
	"os"
	"strconv"
)

// sharedMap is AFL's coverage map attached in this process, or nothing when
// ShmEnvVar is unset (mem == nil: the caller uses a private buffer).
type sharedMap struct {
	mem    []byte
	detach func()
}

// fsSetupError is a setup failure that AFL has a message for: code is one
// of the FS_ERROR_* values, sent to afl-fuzz in an FS_OPT_ERROR hello.
type fsSetupError struct {
	code uint32
	err  error
}

func (e *fsSetupError) Error() string { return e.err.Error() }
func (e *fsSetupError) Unwrap() error { return e.err }

// attachShm attaches the System V segment named by __AFL_SHM_ID. Its size,
// not AFL_MAP_SIZE, bounds the map: it is what afl-fuzz allocated (8 MiB by
// default in 4.04c, 64 KiB + 8 with AFL_SKIP_BIN_CHECK, AFL_MAP_SIZE when
// set), and writing past it would fault.
func attachShm() (sharedMap, error) {
	v, ok := os.LookupEnv(ShmEnvVar)
	if !ok || v == "" {
		return sharedMap{detach: func() {}}, nil
	}
	id, err := strconv.Atoi(v)
	if err != nil || id < 0 {
		// An afl-fuzz built with USEMMAP passes a POSIX shm path here;
		// the Debian build uses System V ids.
		return sharedMap{}, &fsSetupError{fsErrorShmOpen,
			fmt.Errorf("afl: %s=%q is not a System V shared-memory id", ShmEnvVar, v)}
	}
	mem, detach, err := shmAttach(id)
	if err != nil {
		return sharedMap{}, &fsSetupError{fsErrorShmat,
			fmt.Errorf("afl: attaching %s=%d: %w", ShmEnvVar, id, err)}
	}
	return sharedMap{mem: mem, detach: detach}, nil
}
