package fuzzdriver

import (
	"fmt"
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/sim"
)

// EnvObjects returns an ObjectCount for Campaign.Objects: the number of
// objects an input places in w (incomplete and overlapping objects are
// dropped by the decoder), with the runner's maxObjects. It decodes into
// fresh storage, so workers may share it.
func EnvObjects(w *sim.World, maxObjects int) engine.ObjectCount {
	return func(input []byte) int { return len(w.DecodeEnv(input, maxObjects).Objects) }
}

// EnvBeside returns a Campaign.SaveFinding hook that writes the finding's
// environment in the readable .env format to path+".env", next to the bytes.
func EnvBeside(w *sim.World, maxObjects int) func(path string, input []byte, rec engine.FindingRecord) error {
	return func(path string, input []byte, _ engine.FindingRecord) error {
		if err := os.WriteFile(path+".env", w.FormatEnv(w.DecodeEnv(input, maxObjects)), 0o644); err != nil {
			return fmt.Errorf("fuzzdriver: %w", err)
		}
		return nil
	}
}
