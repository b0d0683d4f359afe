package planverbs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Format is fmt: each plan file of names ("-": stdin) in the canonical
// layout, printed on stdout; with write, rewritten in place; with check,
// the names of the files whose layout differs listed, and a *FoundError
// when there are any.
func Format(stdin io.Reader, stdout io.Writer, names []string, write, check bool) error {
	if write && check {
		return errors.New("fmt: -w and --check exclude each other")
	}
	var changed []string
	for _, name := range names {
		display, src, err := subject.ReadSource(stdin, name)
		if err != nil {
			return fmt.Errorf("fmt: %w", err)
		}
		out, err := formatSource(display, src)
		if err != nil {
			return err
		}
		same := bytes.Equal(src, out)
		switch {
		case check:
			if !same {
				changed = append(changed, display)
				fmt.Fprintln(stdout, display)
			}
		case write && name != "-":
			if !same {
				if err := writeFileAtomic(name, out); err != nil {
					return err
				}
			}
		default:
			if _, err := stdout.Write(out); err != nil {
				return fmt.Errorf("fmt: %w", err)
			}
		}
	}
	if len(changed) > 0 {
		return subject.Found("fmt --check: %d of %d file(s) not formatted", len(changed), len(names))
	}
	return nil
}

// Disasm prints the bytecode the plan file path ("-": stdin) compiles to.
func Disasm(stdin io.Reader, w io.Writer, path string) error {
	_, p, err := subject.LoadPlan(stdin, path, compile.Options{})
	if err != nil {
		return err
	}
	return p.Disasm(w)
}

// formatSource parses src and returns its canonical layout; parse errors are
// *syntax.Error so the caller prints file:line:col and a caret.
func formatSource(name string, src []byte) ([]byte, error) {
	f, err := syntax.Parse(name, src)
	if err != nil {
		return nil, err
	}
	return syntax.Format(f), nil
}

// writeFileAtomic replaces name with data through a temporary file in the
// same directory, so an interrupted rewrite never leaves half a plan.
func writeFileAtomic(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".labelcov-fmt-*")
	if err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("fmt: writing %s: %w", name, err)
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("fmt: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("fmt: writing %s: %w", name, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("fmt: %w", err)
	}
	return nil
}
