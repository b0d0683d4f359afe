//go:build tools

// Package tools pins the project's chosen dependencies in go.mod before
// every one of them has an importer, so that parallel work on separate
// packages never races to edit go.mod.
package tools

import (
	_ "github.com/alecthomas/participle/v2"
	_ "github.com/dave/dst"
	_ "github.com/spf13/cobra"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/tools/go/packages"
	_ "gonum.org/v1/plot"
)
