package planverbs

import (
	"context"
	"errors"
	"io"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
)

// AFLTarget is afl-target: the plan (args[0], with the flags so) or the
// worker description setup run as afl-fuzz's target (AFL++'s fork server),
// or once on the input args name when afl-fuzz did not start it.
func AFLTarget(ctx context.Context, stderr io.Writer, setup string, args []string, so subject.SetupOptions) error {
	build := func() (*campaign.Fuzzer, error) {
		s, err := campaign.LoadWorker(setup)
		if err != nil {
			return nil, err
		}
		return s.Build()
	}
	switch {
	case setup != "" && len(args) == 2:
		return errors.New("afl-target --setup takes no PLAN: the description names it")
	case setup == "" && len(args) == 0:
		return errors.New("afl-target needs a PLAN or --setup FILE")
	case setup == "":
		if args[0] == "-" {
			return errors.New("afl-target needs a plan file: standard input carries the fuzzer's inputs")
		}
		plan := args[0]
		args = args[1:]
		build = func() (*campaign.Fuzzer, error) { return subject.BuildFuzzer(nil, plan, so) }
	}
	cfg := afl.Config{
		Factory: func(ctx context.Context) (afl.Executor, error) {
			pf, err := build()
			if err != nil {
				return nil, err
			}
			return pf.NewExecutor()
		},
		Stderr: stderr,
	}
	if len(args) == 1 {
		cfg.InputPath = args[0]
	}
	return afl.Main(ctx, cfg)
}
