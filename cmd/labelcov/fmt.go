package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// Placeholder until the command lands; it fails clearly rather than pretend.
func newFmtCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "fmt",
		Short: "(not yet available)",
		RunE: func(*cobra.Command, []string) error {
			return errors.New("fmt: not implemented yet")
		},
	}
}
