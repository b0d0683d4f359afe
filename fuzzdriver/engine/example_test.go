package engine_test

import (
	"context"
	"fmt"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// passwordTarget checks a password byte by byte, with one counter pair per
// comparison, as the VM counts a conditional jump.
type passwordTarget struct{ counters [8]uint8 }

func (p *passwordTarget) Run(_ context.Context, in []byte) (engine.Outcome, error) {
	p.counters = [8]uint8{}
	for i, want := range []byte("plan") {
		if i >= len(in) || in[i] != want {
			p.counters[2*i+1]++
			return engine.Outcome{}, nil
		}
		p.counters[2*i]++
	}
	return engine.Outcome{Findings: []engine.Finding{{Category: "password-accepted"}}}, nil
}

func (p *passwordTarget) Counters() []uint8 { return p.counters[:] }

func Example() {
	sum, err := engine.Campaign{
		NewTarget: func() (engine.Target, error) { return &passwordTarget{}, nil },
		Seed:      1,
		Runs:      50_000,
		// Out: "out", Instance: "builtin", Progress: os.Stderr, ...
	}.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range sum.Findings {
		fmt.Printf("%s: %q\n", f.Category, f.Data)
	}
	// Output: password-accepted: "plan"
}
