package afl

import (
	"encoding/binary"
	"fmt"
	"syscall"
)

// Constants of AFL++'s fork-server protocol as spoken by afl-fuzz 4.04c
// (include/config.h and include/types.h of that release). Every word on the
// two pipes is a 32-bit integer in the host's byte order: AFL reads and
// writes them with read(fd, &u32, 4), so we use binary.NativeEndian.
const (
	// ForkServerCtlFD is FORKSRV_FD: the read end of the control pipe. AFL
	// writes one 4-byte word per run on it (the "was_killed" flag, 1 when
	// AFL killed the previous child on a timeout) and closes it when it
	// exits.
	ForkServerCtlFD = 198
	// ForkServerStatusFD is FORKSRV_FD+1: the write end of the status pipe.
	// The target writes the 4-byte hello, then per run the child pid and
	// the child's waitpid status.
	ForkServerStatusFD = ForkServerCtlFD + 1

	// ShmEnvVar (SHM_ENV_VAR) holds the System V shared-memory id of AFL's
	// coverage map, as a decimal string.
	ShmEnvVar = "__AFL_SHM_ID"

	// fsOptEnabled (FS_OPT_ENABLED) marks a hello word that carries
	// options; without it AFL 4.04c ignores every other bit.
	fsOptEnabled uint32 = 0x80000001
	// fsOptMapSize (FS_OPT_MAPSIZE) says the hello carries the map size
	// the target needs, encoded by fsOptSetMapSize.
	fsOptMapSize uint32 = 0x40000000
	// fsOptError (FS_OPT_ERROR) marks a hello word that reports a setup
	// failure; AFL prints a message for the code and exits.
	fsOptError uint32 = 0xf800008f
	// fsOptMaxMapSize (FS_OPT_MAX_MAPSIZE) is the largest map size the
	// hello can encode (size-1 must fit in 23 bits): 8 MiB.
	fsOptMaxMapSize = (0x00fffffe >> 1) + 1

	// fsErrorShmOpen (FS_ERROR_SHM_OPEN): the shared-memory id was unusable.
	fsErrorShmOpen uint32 = 4
	// fsErrorShmat (FS_ERROR_SHMAT): shmat() on the id failed.
	fsErrorShmat uint32 = 8

	// mapAlign is the granularity of AFL's map: afl-fuzz rounds the size
	// the target announces up to a multiple of 64 and processes the map in
	// 64-bit words, so we announce multiples of 64 ourselves.
	mapAlign = 64
)

// fsOptSetMapSize is FS_OPT_SET_MAPSIZE: size-1 shifted into bits 1..23, so
// that bit 0 stays free for the FS_OPT_ENABLED pattern. Sizes outside
// [2, fsOptMaxMapSize] cannot be encoded and yield 0.
func fsOptSetMapSize(size int) uint32 {
	if size <= 1 || size > fsOptMaxMapSize {
		return 0
	}
	return uint32(size-1) << 1
}

// fsOptSetError is FS_OPT_SET_ERROR: the error code in bits 8..23.
func fsOptSetError(code uint32) uint32 { return (code & 0xffff) << 8 }

// helloWord is the 4-byte hello the front sends once on ForkServerStatusFD:
// options enabled, and the coverage map size this target will write. We
// announce neither FS_OPT_SHDMEM_FUZZ nor FS_OPT_AUTODICT, so AFL 4.04c
// sends nothing back during the handshake and the next word on
// ForkServerCtlFD is the first run request. We do not set FS_OPT_NEWCMPLOG
// either: this target has no CmpLog support, and AFL then refuses a -c
// binary instead of silently running it without comparison logging.
func helloWord(mapSize int) uint32 {
	return fsOptEnabled | fsOptMapSize | fsOptSetMapSize(mapSize)
}

// errorHelloWord is a hello that makes afl-fuzz report a setup failure with
// one of its FS_ERROR_* messages.
func errorHelloWord(code uint32) uint32 {
	return fsOptError | fsOptSetError(code)
}

// Wait statuses in the encoding of waitpid(2) on Linux, which is what AFL
// applies WIFSIGNALED/WTERMSIG/WEXITSTATUS to.
const (
	// statusOK is exit(0): AFL classifies the run as FSRV_RUN_OK.
	statusOK uint32 = 0
	// statusFinding is death by SIGABRT, what an instrumented C target
	// shows when an assertion calls abort(): AFL saves the input under
	// crashes/ with "sig:06" in its name.
	statusFinding = uint32(syscall.SIGABRT)
	// statusHarnessError is death by SIGSEGV: the Executor itself failed
	// (an error or a recovered panic), so the input is saved as a crash
	// with "sig:11" and can be replayed to debug labelcov.
	statusHarnessError = uint32(syscall.SIGSEGV)
)

// putWord encodes one protocol word.
func putWord(b []byte, w uint32) { binary.NativeEndian.PutUint32(b, w) }

// getWord decodes one protocol word.
func getWord(b []byte) uint32 { return binary.NativeEndian.Uint32(b) }

// describeStatus renders a wait status for diagnostics.
func describeStatus(st uint32) string {
	ws := syscall.WaitStatus(st)
	switch {
	case ws.Exited():
		return fmt.Sprintf("exit %d", ws.ExitStatus())
	case ws.Signaled():
		return fmt.Sprintf("signal %d (%v)", int(ws.Signal()), ws.Signal())
	default:
		return fmt.Sprintf("status %#x", st)
	}
}
