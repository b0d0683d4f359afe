package planverbs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
)

// ReplayOptions are replay's flags.
type ReplayOptions struct {
	subject.SetupOptions
	Trace bool
	JSON  bool
}

// Replay runs each input on the plan planPath as a campaign would and
// reports what it finds (text or JSON on stdout); a *FoundError when an
// input reproduces a finding.
func Replay(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, planPath string, inputs []string, o ReplayOptions) error {
	if o.World == "" {
		for _, in := range inputs {
			if strings.HasSuffix(in, ".env") {
				return fmt.Errorf("%s is a .env scenario: replaying it needs --world (the world it is an environment of)%s", in, WorldHint(planPath))
			}
		}
	}
	pf, err := subject.BuildFuzzer(stdin, planPath, o.SetupOptions)
	if err != nil {
		return err
	}
	// As fuzz: a plan that acts on a world replayed without one is one
	// error, not a warning per world query and a no-world run per input.
	if err := pf.NeedsWorld(); err != nil {
		return err
	}
	if err := subject.CheckCalls(stderr, pf.Setup.Plan, pf.Original, runner.Link{World: pf.Setup.World != nil}); err != nil {
		return err
	}
	var reps []*campaign.ReplayReport
	for _, in := range inputs {
		data, err := pf.ReadInput(in)
		if err != nil {
			return err
		}
		rp, err := pf.Replay(ctx, data)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		reps = append(reps, rp.Report(pf, in, data, o.Trace))
	}
	if o.JSON {
		return errors.Join(subject.WriteJSON(stdout, replayJSON{Version: 1, Inputs: reps}), replayVerdict(reps))
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := r.WriteText(stdout, o.Trace); err != nil {
			return err
		}
	}
	return replayVerdict(reps)
}

// replayJSON is replay --json's output; "version" versions its shape.
type replayJSON struct {
	Version int                      `json:"version"`
	Inputs  []*campaign.ReplayReport `json:"inputs"`
}

// replayVerdict is replay's exit status: found (1) when an input
// reproduces a finding, as go test -run=FuzzX/HASH fails then.
func replayVerdict(reps []*campaign.ReplayReport) error {
	n := 0
	for _, r := range reps {
		if len(r.Findings) > 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return subject.Found("replay: %d of %d input(s) reproduce a finding (exit status 1)", n, len(reps))
}

// WorldHint names the world a truth.json beside the plan names, as
// " (the benchmark's truth.json names W)", or "".
func WorldHint(plan string) string {
	if plan == "-" {
		return ""
	}
	if w, err := runner.WorldBeside(plan); err == nil && w != "" {
		return "; the benchmark's truth.json names " + w
	}
	return ""
}
