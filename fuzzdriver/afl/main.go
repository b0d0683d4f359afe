package afl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// binarySignature must appear, NUL-terminated, in the target binary: before
// starting a target, afl-fuzz 4.04c (check_binary in afl-fuzz-init.c)
// memmem()s the file for "__AFL_SHM_ID\0", the string every
// AFL-instrumented program contains, and refuses targets without it ("No
// instrumentation detected") unless AFL_SKIP_BIN_CHECK=1. Passing that check
// matters beyond convenience: only then does afl-fuzz allocate an 8 MiB map
// and honour the map size announced in our hello; with AFL_SKIP_BIN_CHECK it
// allocates 64 KiB (or AFL_MAP_SIZE) and aborts if we announce more. We do
// not embed "##SIG_AFL_PERSISTENT##": that would switch afl-fuzz to
// persistent-mode assumptions (SIGSTOP-ed children) this target does not
// follow. A Go string constant is not NUL-terminated in the binary, hence
// the explicit "\x00", and Main passes it to a non-inlined function so
// the linker keeps the bytes.
const binarySignature = ShmEnvVar + "\x00"

// ErrFinding is returned by RunOnce when the input produced a finding.
var ErrFinding = errors.New("afl: input produced a finding")

// Main runs a target in whichever role the process was started for:
//
//   - worker, when WorkerEnv is set (the front re-executed us): RunWorker on
//     the inherited pipes;
//   - front, when fds 198 and 199 are open (afl-fuzz, afl-showmap, afl-tmin
//     and afl-cmin start targets that way): ServeForkServer;
//   - standalone otherwise: run the input (stdin or cfg.InputPath) once,
//     writing coverage to __AFL_SHM_ID when set. A finding then ends the
//     process by SIGABRT, as abort() ends an instrumented C program, so that
//     AFL_NO_FORKSRV=1 and crash-triage scripts see a crash; Main does not
//     return in that case. Use RunOnce to get an error instead.
//
// A CLI command is a few lines:
//
//	cfg := afl.Config{Factory: func(ctx context.Context) (afl.Executor, error) {
//		return newPlanExecutor(ctx, planPath, worldPath)
//	}}
//	return afl.Main(cmd.Context(), cfg)
func Main(ctx context.Context, cfg Config) error {
	keepSignature(binarySignature)
	if cfg.Factory == nil {
		return errors.New("afl: Config.Factory is nil")
	}
	if v, ok := os.LookupEnv(WorkerEnv); ok {
		fd, err := workerFDs(v)
		if err != nil {
			return err
		}
		cmd := os.NewFile(uintptr(fd), "afl-worker-requests")
		res := os.NewFile(uintptr(fd+1), "afl-worker-results")
		if cmd == nil || res == nil {
			return fmt.Errorf("afl: worker fds %d/%d are not open", fd, fd+1)
		}
		defer cmd.Close()
		defer res.Close()
		return RunWorker(ctx, cfg, cmd, res)
	}
	if forkServerFDsOpen() {
		ctl, err := prepareForkServerFD(ForkServerCtlFD, "afl-forksrv-ctl")
		if err != nil {
			return fmt.Errorf("afl: fork-server control fd: %w", err)
		}
		defer ctl.Close()
		st, err := prepareForkServerFD(ForkServerStatusFD, "afl-forksrv-status")
		if err != nil {
			return fmt.Errorf("afl: fork-server status fd: %w", err)
		}
		defer st.Close()
		if cfg.ExecsFile == "" {
			cfg.ExecsFile = os.Getenv(ExecsFileEnv)
		}
		return ServeForkServer(ctx, cfg, ctl, st)
	}
	err := RunOnce(ctx, cfg)
	if errors.Is(err, ErrFinding) {
		dieBySignal(syscall.SIGABRT)
	}
	return err
}

// keepSignature gives the compiler a use of s it cannot remove, so the
// signature's bytes, NUL included, stay in the binary's read-only data.
//
//go:noinline
func keepSignature(s string) {
	if s[len(s)-1] != 0 { // never true; the test checks the binary
		fmt.Fprint(os.Stderr, s)
	}
}

// RunOnce runs the current input once in this process: it builds the
// Executor, reads stdin (or cfg.InputPath), runs it and writes the counters
// into AFL's map when __AFL_SHM_ID is set (afl-showmap without a fork
// server). It returns an error wrapping ErrFinding when the input produced
// a finding.
func RunOnce(ctx context.Context, cfg Config) error {
	if cfg.Factory == nil {
		return errors.New("afl: Config.Factory is nil")
	}
	shm, err := attachShm()
	if err != nil {
		return err
	}
	defer shm.detach()
	ex, err := cfg.Factory(ctx)
	if err != nil {
		return fmt.Errorf("afl: building executor: %w", err)
	}
	in := inputSource{path: cfg.InputPath}
	input, err := in.read()
	if err != nil {
		return err
	}
	counters, crashed, err := safeExec(ctx, ex, input)
	if err != nil {
		return err
	}
	if shm.mem != nil {
		cm, err := NewCoverageMap(shm.mem, len(counters))
		if err != nil {
			return err
		}
		if err := cm.Write(counters); err != nil {
			return err
		}
	}
	if crashed {
		return fmt.Errorf("%w (%d bytes)", ErrFinding, len(input))
	}
	return nil
}

// workerFDs parses WorkerEnv: the first of the worker's two pipe fds.
func workerFDs(v string) (int, error) {
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return 0, fmt.Errorf("afl: %s=%q is not a file descriptor number", WorkerEnv, v)
	}
	return fd, nil
}
