package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

func main() {
	tuneGC(os.Getenv)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// softMemoryLimit is the heap size past which the collector stops trading
// memory for CPU (GOGC=400 below).
const softMemoryLimit = 512 << 20

// tuneGC sets the collector for plan runs; GOGC and GOMEMLIMIT set in the
// environment still win.
func tuneGC(getenv func(string) string) {
	// Plan runs allocate little that lives long, and on a busy machine
	// about half of a run's CPU went to the collector at the default
	// GOGC=100; 400 cuts that at a small cost in memory. Labelling a plan
	// runs at 400 too: its garbage (a few MB since the analyses memoize)
	// fills the heap the runs grow to anyway, so collecting it early only
	// cost CPU (3-9 ms of a campaign's set-up, peak RSS unchanged).
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	// But GOGC=400 lets the heap grow to five times what a run keeps
	// live: a campaign whose two workers each print a 1.9M-level list
	// (within the allocation budget) reached 2.7 GB of RSS, 1.3 GB with
	// one worker. A soft limit makes the collector work harder only near
	// it (0.6 GB for the same campaign, everyday campaigns unchanged); it
	// is no cap, so a plan that needs more still runs.
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
}

// run executes the CLI with args, so tests can drive it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// A signal cancels the verb's context; fuzz and compare stop cleanly
	// with what they have saved, the others stop where they are. Either
	// way the verb did not finish: exit 3, whatever it returned.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := root.ExecuteContext(ctx)
	if ctx.Err() != nil {
		var ie *interruptedError
		if !errors.As(err, &ie) {
			err = interruptedBy(err)
		}
	}
	if err != nil {
		reportError(stderr, err)
		return exitCodeOf(err)
	}
	return exitOK
}

// interruptedBy is the error of a verb a signal stopped: its own error, if
// any, said as an interruption.
func interruptedBy(err error) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return interrupted("interrupted")
	}
	return interrupted("interrupted: %v", err)
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "labelcov",
		Short: "Fine-grained coverage (MCC, CC, weak mutation) for robot plans and Go packages",
		Long: `labelcov tests robot plans written in a CPL-style Lisp with coverage finer than
branches. It runs plans on a fast deterministic simulator, turns fuzzer bytes into
initial environments, and injects coverage labels (multiple-condition, condition,
weak-mutation) as empty conditionals so that any stock branch-coverage fuzzer keeps
the inputs that cover them.`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("labelcov {{.Version}}\n")
	for _, c := range []*cobra.Command{
		newRunCmd(),
		newFmtCmd(),
		newDisasmCmd(),
		newLabelsCmd(),
		newAnnotateCmd(),
		newCoverCmd(),
		newEnvCmd(),
		newSampleCmd(),
		newFuzzCmd(),
		newReplayCmd(),
		newAFLTargetCmd(),
		newCompareCmd(),
		newSarifCmd(),
		newReduceCmd(),
		newGentestsCmd(),
	} {
		root.AddCommand(c)
	}
	return root
}

// version is the module version the binary was built from ("v1.2.3" from
// `go install …@v1.2.3`, "(devel)" from a checkout) plus the VCS revision
// when the build recorded one, and the Go version.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown build)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v + " " + bi.GoVersion
}

// reportError prints err for a person: the file:line:col message and, for
// source errors, the offending line with a caret.
func reportError(w io.Writer, err error) {
	fmt.Fprintln(w, "labelcov:", err)
	if s := subject.Snippet(err); s != "" {
		fmt.Fprintln(w, s)
	}
}
