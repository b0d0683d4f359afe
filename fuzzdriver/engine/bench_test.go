package engine

import (
	"context"
	"testing"

	"github.com/labelcov/labelcov/internal/cputime"
)

// runBench runs c for b.N runs and reports cpu-ns/op beside ns/op.
func runBench(b *testing.B, c Campaign) {
	c.Runs = int64(b.N)
	cputime.Measure(b, func() error {
		_, err := c.Run(context.Background())
		return err
	})
}

// BenchmarkEngineOverhead measures what the engine adds per exec (mutation,
// scheduling, coverage check) with a target that does nothing: ns/op is
// ns/exec. The counter slice has the size of warehouse-sort's (about 1,800
// instructions and 50 jumps), mostly zero as in a real run.
func BenchmarkEngineOverhead(b *testing.B) {
	runBench(b, Campaign{
		NewTarget: func() (Target, error) { return &constTarget{counters: make([]uint8, 1900)}, nil },
		Seed:      1,
		MaxLen:    64,
	})
}

// BenchmarkMaze is a full campaign on the synthetic maze target.
func BenchmarkMaze(b *testing.B) {
	runBench(b, mazeCampaign("LABEL!", 0, 1, 0))
}
