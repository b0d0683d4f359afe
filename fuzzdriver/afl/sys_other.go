//go:build !linux

package afl

import (
	"context"
	"errors"
	"os"
	"syscall"
)

var errUnsupported = errors.New("afl: the AFL++ adapter needs Linux (System V shared memory, fork-server fds)")

func shmAttach(int) ([]byte, func(), error) { return nil, nil, errUnsupported }

func workerSysProcAttr() *syscall.SysProcAttr { return nil }

func forkServerFDsOpen() bool { return false }

func prepareForkServerFD(int, string) (*os.File, error) { return nil, errUnsupported }

func dieBySignal(sig syscall.Signal) { os.Exit(128 + int(sig)) }

// ServeForkServer needs Linux.
func ServeForkServer(context.Context, Config, *os.File, *os.File) error { return errUnsupported }
