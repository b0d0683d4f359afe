package fuzzdriver

import (
	"context"
	"testing"
)

// BenchmarkEngineOverhead measures what the engine adds per exec (mutation,
// scheduling, coverage check) with a target that does nothing: ns/op is
// ns/exec. The counter slice has the size of warehouse-sort's (about 1,800
// instructions and 50 jumps), mostly zero as in a real run.
func BenchmarkEngineOverhead(b *testing.B) {
	c := Campaign{
		NewTarget: func() (Target, error) { return &constTarget{counters: make([]uint8, 1900)}, nil },
		Seed:      1,
		Runs:      int64(b.N),
		MaxLen:    64,
	}
	b.ResetTimer()
	if _, err := c.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkMaze is a full campaign on the synthetic maze target.
func BenchmarkMaze(b *testing.B) {
	c := mazeCampaign("LABEL!", 0, 1, int64(b.N))
	b.ResetTimer()
	if _, err := c.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
}
