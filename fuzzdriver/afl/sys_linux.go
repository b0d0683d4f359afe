package afl

import (
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// shmAttach maps System V segment id read-write. The slice covers the
// whole segment (unix.SysvShmAttach sizes it with IPC_STAT).
func shmAttach(id int) ([]byte, func(), error) {
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		return nil, nil, err
	}
	return mem, func() { _ = unix.SysvShmDetach(mem) }, nil
}

// workerSysProcAttr makes the kernel SIGKILL the worker when the front dies.
// afl-fuzz ends a campaign by SIGKILLing the fork server (the front), which
// gets no chance to clean up; without this the worker would linger until its
// next read of the request pipe, or forever if it is stuck in a run.
func workerSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// forkServerFDsOpen reports whether fds 198 and 199 are both open, i.e.
// whether afl-fuzz (or afl-showmap, afl-tmin...) started us as a fork server.
func forkServerFDsOpen() bool {
	for _, fd := range []int{ForkServerCtlFD, ForkServerStatusFD} {
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			return false
		}
	}
	return true
}

// prepareForkServerFD wraps an inherited fork-server fd, close-on-exec so
// that the worker never inherits AFL's pipes: a worker holding the status
// pipe would keep AFL from seeing EOF when the front dies.
func prepareForkServerFD(fd int, name string) (*os.File, error) {
	unix.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), name), nil
}

// dieBySignal ends the process with sig and its default action, so the
// parent's waitpid sees WIFSIGNALED, as for a C program calling abort().
// The Go runtime handles SIGABRT itself (stack dump, exit status 2), so the
// default disposition is restored first with a raw rt_sigaction: an
// all-zero struct sigaction is SIG_DFL with no flags and an empty mask on
// every Linux architecture. The signal goes to the calling thread, which
// then cannot run anything else. If the process somehow survives, it exits
// with the shell's 128+signal code.
func dieBySignal(sig syscall.Signal) {
	var act [4]uint64
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	runtime.LockOSThread()
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	time.Sleep(time.Second)
	os.Exit(128 + int(sig))
}
