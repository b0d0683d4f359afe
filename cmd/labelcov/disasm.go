package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// Placeholder until the command lands; it fails clearly rather than pretend.
func newDisasmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "disasm",
		Short: "(not yet available)",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("disasm: not implemented yet")
		},
	}
}
