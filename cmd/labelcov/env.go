package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

// newEnvCmd is the `env` command group: conversions between fuzzer bytes
// and readable .env scenario files for a given world.
func newEnvCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Convert environments between bytes and .env files",
		Long: `An environment is the dynamic part of a scenario: which objects stand where at the
start of a run. Fuzzers produce it as bytes; people read and write it as .env files.
Both formats are described in docs/environment.md; the byte layout depends on the
world (its object types, regions, cells per region and orientations).`,
		Example: `  labelcov env decode testdata/worlds/warehouse.world testdata/envs/warehouse-three.bin
  labelcov env encode testdata/worlds/warehouse.world testdata/envs/warehouse-three.env -o seed.bin`,
	}
	cmd.AddCommand(newEnvDecodeCmd(), newEnvEncodeCmd())
	return cmd
}

func newEnvDecodeCmd() *cobra.Command {
	var maxObjects int
	cmd := &cobra.Command{
		Use:   "decode WORLD FILE.bin",
		Short: "Print the .env environment that a byte string decodes to",
		Long: `Decode reads FILE.bin as fuzzer bytes for WORLD and prints the environment they
decode to: objects of the world's bytes-per-object size each, at most --max-objects
of them, a trailing incomplete object ignored, overlapping objects dropped.`,
		Example: `  labelcov env decode testdata/worlds/warehouse.world crash-1234.bin
  labelcov env decode testdata/worlds/warehouse.world input.bin --max-objects 8 > input.env`,
		Args: argsNamed(2, 2, "WORLD", "FILE.bin"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := positiveFlag("max-objects", maxObjects); err != nil {
				return err
			}
			return planverbs.EnvDecode(cmd.OutOrStdout(), args[0], args[1], maxObjects)
		},
	}
	cmd.Flags().IntVar(&maxObjects, "max-objects", subject.DefaultMaxObjects, "object slots read from the bytes")
	return cmd
}

func newEnvEncodeCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "encode WORLD FILE.env",
		Short: "Write the bytes that decode to a .env environment",
		Long: `Encode reads FILE.env for WORLD and writes its canonical byte encoding, to stdout
or to the file named by -o. Decoding those bytes gives the same environment back.`,
		Example: `  labelcov env encode testdata/worlds/warehouse.world scenario.env -o seed.bin
  labelcov env encode testdata/worlds/warehouse.world scenario.env | xxd`,
		Args: argsNamed(2, 2, "WORLD", "FILE.env"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return planverbs.EnvEncode(cmd.OutOrStdout(), args[0], args[1], out)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the bytes to this file instead of stdout")
	return cmd
}
