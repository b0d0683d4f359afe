package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/spf13/cobra"
)

func newFmtCmd() *cobra.Command {
	var write, check bool
	cmd := &cobra.Command{
		Use:   "fmt FILE...",
		Short: "Print plans in canonical layout, keeping every comment",
		Long: `fmt prints each plan file in the canonical layout: a form written on one
line that fits in 100 columns stays on one line, and a form the author broke
over lines stays broken; otherwise the head and its distinguished arguments
(defun name and parameters, let bindings, when/if tests, dolist specs) stay on
the first line and the body is indented by 2. Comments stay where they were
relative to the code, and literals keep their spelling (1.50 stays 1.50).

With no flag the result goes to stdout. -w rewrites files in place; --check
changes nothing, lists the files whose layout differs and exits with status 1
if there are any (2 for a file that does not parse). A FILE of "-" reads
standard input.`,
		Example: `  labelcov fmt warehouse.plan            # print the formatted plan
  labelcov fmt -w plans/*.plan            # rewrite files in place
  labelcov fmt --check plans/*.plan       # CI: fail if any file is not formatted`,
		Args: argsNamed(1, -1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if write && check {
				return errors.New("fmt: -w and --check exclude each other")
			}
			var changed []string
			for _, name := range args {
				display, src, err := readSource(cmd.InOrStdin(), name)
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
						fmt.Fprintln(cmd.OutOrStdout(), display)
					}
				case write && name != "-":
					if !same {
						if err := writeFileAtomic(name, out); err != nil {
							return err
						}
					}
				default:
					if _, err := cmd.OutOrStdout().Write(out); err != nil {
						return fmt.Errorf("fmt: %w", err)
					}
				}
			}
			if len(changed) > 0 {
				return found("fmt --check: %d of %d file(s) not formatted", len(changed), len(args))
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite files in place instead of printing them")
	cmd.Flags().BoolVar(&check, "check", false, "list files that would change and exit 1 if any would")
	return cmd
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
