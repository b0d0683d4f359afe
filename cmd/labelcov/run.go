package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// Placeholder until the command lands; it fails clearly rather than pretend.
func newRunCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "run",
		Short: "(not yet available)",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("run: not implemented yet")
		},
	}
}
