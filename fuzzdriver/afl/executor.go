package afl

import (
	"context"
	"io"
	"time"
)

// Executor runs one input. The worker makes one Executor and calls Exec
// sequentially, never concurrently.
type Executor interface {
	// Exec runs one input. counters is the VM's flat coverage (one counter
	// per instruction, then two per conditional jump, saturating at 255);
	// it must have the same length on every call, and Exec may reuse the
	// slice on the next call. crashed reports a finding the fuzzer should
	// save as a crash. A non-nil err means the harness itself failed (not
	// that the plan did); the input is then reported as a crash of its own
	// kind (SIGSEGV) so that it can be replayed. input is only valid during
	// the call.
	Exec(ctx context.Context, input []byte) (counters []uint8, crashed bool, err error)
}

// ExecutorFunc adapts a function to Executor, e.g. a closure over the
// built-in engine's Target:
//
//	afl.ExecutorFunc(func(ctx context.Context, in []byte) ([]uint8, bool, error) {
//		out, err := target.Run(ctx, in)
//		return target.Counters(), len(out.Findings) > 0, err
//	})
type ExecutorFunc func(ctx context.Context, input []byte) ([]uint8, bool, error)

// Exec calls f.
func (f ExecutorFunc) Exec(ctx context.Context, input []byte) ([]uint8, bool, error) {
	return f(ctx, input)
}

// CounterSizer is implemented by Executors that know their counter count
// before the first run (for a plan: NumInstructions()+2*NumBranches()). The
// worker must announce the map size before AFL sends any input; without
// CounterSizer it runs the empty input once to learn it.
type CounterSizer interface {
	NumCounters() int
}

// Factory builds the Executor. It is called once per worker process (and
// once in standalone mode), so this is where a plan is parsed and a world
// loaded: parse once, run many.
type Factory func(ctx context.Context) (Executor, error)

// WorkerEnv is the environment variable that makes Main run as the worker.
// The front sets it when it re-executes its own binary; its value is the
// number of the control fd (the result fd follows it).
const WorkerEnv = "LABELCOV_AFL_WORKER"

// ExecsFileEnv names Config.ExecsFile in the environment, so that whoever
// starts afl-fuzz (labelcov fuzz --engine afl) can learn each instance's
// execs live: afl-fuzz rewrites its fuzzer_stats only about once a minute.
const ExecsFileEnv = "LABELCOV_AFL_EXECS_FILE"

// Config describes a target. Only Factory is required.
type Config struct {
	// Factory builds the Executor in the worker (and in standalone mode).
	Factory Factory

	// InputPath is the file the current input is read from, for AFL's @@
	// mode ("afl-fuzz ... -- labelcov afl-target PLAN @@"); the CLI passes
	// whatever argument AFL substituted. Empty means standard input, AFL's
	// default, where stdin is AFL's .cur_input file that AFL rewrites and
	// rewinds before every run.
	InputPath string

	// WorkerPath and WorkerArgs tell the front how to re-execute itself as
	// the worker. They default to os.Executable() and os.Args[1:], which is
	// right for a CLI command: the worker parses the same flags and calls
	// Main with the same Config.
	WorkerPath string
	WorkerArgs []string

	// StartTimeout bounds how long the front waits for a worker to build
	// its Executor and say hello. Default 2 minutes; afl-fuzz applies its
	// own, usually shorter, limit to the first hello (AFL_FORKSRV_INIT_TMOUT).
	StartTimeout time.Duration

	// RunTimeout, when positive, makes the front kill a worker whose run
	// takes longer and report it as killed, as AFL would. Zero (the
	// default) relies on the fuzzer's own timeout (afl-fuzz -t), which
	// kills the worker because the front reports it as the child pid.
	RunTimeout time.Duration

	// ExecsFile, when set, is where the fork server keeps the number of
	// runs it served (decimal), rewritten about once a second and at the
	// end. Main takes it from $LABELCOV_AFL_EXECS_FILE when empty.
	ExecsFile string

	// Stderr receives diagnostics. Default os.Stderr. afl-fuzz sends the
	// target's stderr to /dev/null unless AFL_DEBUG_CHILD=1.
	Stderr io.Writer
}
