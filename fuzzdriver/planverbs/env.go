package planverbs

import (
	"fmt"
	"io"
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
)

// EnvDecode prints the .env environment the bytes of file decode to in
// the world at worldPath (at most maxObjects objects).
func EnvDecode(w io.Writer, worldPath, file string, maxObjects int) error {
	wd, err := runner.LoadWorld(worldPath)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("reading bytes: %w", err)
	}
	_, err = w.Write(wd.FormatEnv(wd.DecodeEnv(data, maxObjects)))
	return err
}

// EnvEncode writes the canonical bytes of the .env environment file of the
// world at worldPath to out (through the output guard), or to w.
func EnvEncode(w io.Writer, worldPath, file, out string) error {
	var g outputs.Guard
	g.Input("the input", worldPath, file)
	if err := g.Check("-o", out); err != nil {
		return err
	}
	wd, err := runner.LoadWorld(worldPath)
	if err != nil {
		return err
	}
	env, err := wd.LoadEnv(file)
	if err != nil {
		return err
	}
	data, err := wd.EncodeEnv(env)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if out != "" {
		return g.WriteFile("-o", out, data, 0o644)
	}
	_, err = w.Write(data)
	return err
}
