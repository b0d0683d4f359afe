package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// Outputs never destroy inputs: fuzzdriver/subject writes every file of a
// verb through one outputs.Guard, told what the invocation reads and
// keeps, so that a slip of the hand (annotate p.plan -o p.plan, sarif
// p.plan camp -o camp/labelcov/campaign.json) is an error (exit 2) and not
// a lost plan. What stays here checks the shape of flags and arguments.

// positiveFlag refuses a count flag that is zero or negative, instead of
// letting a library read it as "the default".
func positiveFlag(name string, v int) error {
	if v <= 0 {
		return fmt.Errorf("--%s must be positive, got %d", name, v)
	}
	return nil
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
