package campaign

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

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

// ReadInput reads one input file: with a world, a .env file is encoded into
// the bytes it stands for; without one, a .args file (plan literals, one per
// argument) into the bytes that decode to those arguments; anything else is
// raw bytes.
func (p *Fuzzer) ReadInput(path string) ([]byte, error) {
	if strings.EqualFold(filepath.Ext(path), ".args") {
		if p.Setup.World != nil {
			return nil, fmt.Errorf("%s: a .args file gives a world-less plan its arguments; with a world give a .env file or raw bytes", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return sim.ArgsFileInput(path, data, p.Plan())
	}
	if w := p.Setup.World; w != nil && strings.EqualFold(filepath.Ext(path), ".env") {
		env, err := w.LoadEnv(path)
		if err != nil {
			return nil, err
		}
		data, err := w.EncodeEnv(env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// ReadCorpus reads a directory of seed inputs: every regular, non-hidden
// file in name order, each through ReadInput (so .env files are encoded
// with a world). A directory without inputs is an error.
func (p *Fuzzer) ReadCorpus(dir string) ([][]byte, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		data, err := p.ReadInput(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no input files", dir)
	}
	return out, nil
}
