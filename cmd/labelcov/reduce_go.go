package main

// Go fuzz targets for `labelcov reduce` and `labelcov gentests`: the
// corpus of one target (testdata/fuzz/FuzzX and go test -fuzz's cache),
// measured entry by entry on coverage binaries (fuzzdriver/gofuzz).

import "github.com/spf13/cobra"

// goFuzzOptions are the flags of reduce and gentests for a Go fuzz target.
type goFuzzOptions struct {
	fuzz      string // --fuzz FuzzX
	fuzzCache string // --fuzz-cache DIR: root of go test -fuzz's corpora
	dir       string // -C DIR
	tags      string // --tags (cover)
	labelPkgs []string
	perTest   bool // --per-test (cover)
	verbose   bool // -v (cover)
	json      bool
}

// register registers the flags; cache: also --fuzz-cache (reduce reads
// the cache, gentests fuzzes with a private one).
func (g *goFuzzOptions) register(cmd *cobra.Command, cache bool) {
	f := cmd.Flags()
	f.StringVar(&g.fuzz, "fuzz", "", "Go packages: the fuzz target whose corpus to work on (FuzzX)")
	if cache {
		f.StringVar(&g.fuzzCache, "fuzz-cache", "", "Go packages: root of go test -fuzz's generated corpora (default $(go env GOCACHE)/fuzz; the target's entries are in DIR/IMPORTPATH/FuzzX)")
	}
	f.StringVarP(&g.dir, "dir", "C", "", "Go packages: run the go command in this directory (default: the module holding the package)")
	f.BoolVar(&g.json, "json", false, "Go packages: print the report as JSON")
	f.StringSliceVar(&g.labelPkgs, "label-pkgs", nil, labelPkgsUsage)
}
