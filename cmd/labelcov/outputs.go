package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/spf13/cobra"
)

// Outputs never destroy inputs: every verb that writes a file checks it
// with refuseOverwrite before writing, so that a slip of the hand (annotate
// p.plan -o p.plan, env encode w.world s.env -o s.env) is an error (exit 2)
// and not a lost plan.

// refuseOverwrite fails when the output path out names the same file as
// one of inputs ("" and "-" are neither). flag names the output's flag in
// the message.
func refuseOverwrite(flag, out string, inputs ...string) error {
	if out == "" || out == "-" {
		return nil
	}
	oi, err := os.Stat(out)
	if err != nil {
		return nil // a file that does not exist is no input
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		ii, err := os.Stat(in)
		if err != nil {
			continue
		}
		if os.SameFile(oi, ii) {
			return fmt.Errorf("%s %s would overwrite the input %s; write the output elsewhere", flag, out, in)
		}
		if ii.IsDir() && oi.Mode().IsRegular() {
			if inside, _ := within(in, out); inside {
				return fmt.Errorf("%s %s would overwrite a file of the input %s; write the output elsewhere", flag, out, in)
			}
		}
	}
	return nil
}

// refuseInside fails when the output directory out is dir or lies inside
// it: annotated Go files written into the module they come from become
// packages of that module (go list ./... then lists them, and the next
// annotate refuses the module).
func refuseInside(flag, out, dir, what string) error {
	if out == "" || dir == "" {
		return nil
	}
	inside, err := within(dir, out)
	if err != nil || !inside {
		return nil
	}
	return fmt.Errorf("%s %s is inside %s (%s): the files written there would become part of the input; write them outside, e.g. %s %s",
		flag, out, what, dir, flag, filepath.Join(os.TempDir(), "labelcov-annotated"))
}

// within reports whether path is dir or lies under it, comparing absolute
// paths with symbolic links resolved as far as they exist.
func within(dir, path string) (bool, error) {
	d, err := resolvedAbs(dir)
	if err != nil {
		return false, err
	}
	p, err := resolvedAbs(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(d, p)
	if err != nil {
		return false, nil
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))), nil
}

// resolvedAbs is path made absolute with the symbolic links of its longest
// existing prefix resolved (the rest need not exist yet).
func resolvedAbs(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for p := abs; ; {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// positiveFlag refuses a count flag that is zero or negative, instead of
// letting a library read it as "the default".
func positiveFlag(name string, v int) error {
	if v <= 0 {
		return fmt.Errorf("--%s must be positive, got %d", name, v)
	}
	return nil
}

// worldHint names the world a truth.json beside the plan names, as
// " (the benchmark's truth.json names W)", or "".
func worldHint(plan string) string {
	if plan == "-" {
		return ""
	}
	if w, err := runner.WorldBeside(plan); err == nil && w != "" {
		return "; the benchmark's truth.json names " + w
	}
	return ""
}

// argsNamed is a cobra.PositionalArgs that names what is missing or too
// much: names are the positional arguments in order (the last may repeat
// when max < 0).
func argsNamed(min, max int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min {
			return fmt.Errorf("missing %s (usage: %s)", strings.Join(names[len(args):min], " and "), cmd.UseLine())
		}
		if max >= 0 && len(args) > max {
			return fmt.Errorf("too many arguments: %s takes %s, got %d (%s) (usage: %s)",
				cmd.Name(), strings.Join(names[:max], " "), len(args), strings.Join(args, " "), cmd.UseLine())
		}
		return nil
	}
}

// refuseGoSource fails when a report path names a file of a Go module
// (.go source, go.mod, go.sum): a report written there would destroy the
// code it measures.
func refuseGoSource(flag, out string) error {
	base := filepath.Base(out)
	if out == "" || !strings.HasSuffix(base, ".go") && base != "go.mod" && base != "go.sum" {
		return nil
	}
	if _, err := os.Stat(out); err != nil {
		return nil
	}
	return fmt.Errorf("%s %s would overwrite Go source; write the report elsewhere (e.g. cover.html)", flag, out)
}
