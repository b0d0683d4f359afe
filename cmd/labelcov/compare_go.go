package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/compare"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"github.com/spf13/cobra"
)

// runCompareGo runs a Go grid: the fuzz targets of --go's packages.
func runCompareGo(cmd *cobra.Command, o *compareOptions) error {
	stderr := cmd.ErrOrStderr()
	if cmd.Flags().Changed("engine") {
		return errors.New("--engine does not go with --go: Go targets are fuzzed by go test -fuzz")
	}
	if cmd.Flags().Changed("bench-dir") {
		return errors.New("--bench-dir does not go with --go: the benchmarks are the fuzz targets of the --go packages")
	}
	shard, err := o.gridShard()
	if err != nil {
		return err
	}
	crits := o.criteria
	if !cmd.Flags().Changed("criteria") {
		crits = []string{compare.Baseline, "dist"}
	}
	for _, c := range crits {
		if _, err := compare.ParseGuide(c); err != nil {
			return fmt.Errorf("--criteria: %w", err)
		}
	}
	ctx := cmd.Context()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var all []*compare.GoBench
	for _, pat := range o.goPkgs {
		dir, p, err := gotransform.PatternDir(pat)
		if err != nil {
			return fmt.Errorf("--go %s: %w", pat, err)
		}
		bs, err := compare.LoadGoBenches(ctx, dir, []string{p})
		if err != nil {
			return fmt.Errorf("--go %s: %w", pat, err)
		}
		for _, b := range bs {
			if b.Target.LabelPkgs, err = subject.ResolveLabelPkgs(ctx, b.Target.Module, o.labelPkgs); err != nil {
				return err
			}
			b.Info.LabelPkgs = b.Target.LabelPkgs
		}
		all = append(all, bs...)
	}
	benches, err := compare.SelectGoBenches(all, o.benches)
	if err != nil {
		return err
	}
	var names []string
	var infos []compare.BenchInfo
	for _, b := range benches {
		o.guard.Folder("the testdata of "+b.Info.Name, filepath.Join(b.Target.Dir, "testdata"))
		names = append(names, b.Info.Name)
		infos = append(infos, b.Info)
	}
	g := compare.Grid{Benches: names, Criteria: crits, Runs: o.runs, Budget: o.budget, Seed: o.seed, Kind: compare.KindGo,
		MinimizeTime: o.minimizeTime}
	if err := g.Validate(); err != nil {
		return err
	}
	if err := o.checkOutputs(); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-compare-go-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	runner := compare.NewGoRunner(benches, compare.GoRunnerOptions{Work: work, KeepGoing: o.keepGoing, MinimizeTime: o.minimizeTime})
	// Annotating and building every (target, criterion) up front reports
	// what does not build before hours of campaigns.
	fmt.Fprintf(stderr, "compare: building %d fuzz target(s) × %d criteria\n", len(benches), len(crits))
	for _, b := range benches {
		for _, c := range crits {
			if err := runner.Prepare(ctx, b.Info.Name, c); err != nil {
				if ctx.Err() != nil {
					return interrupted("compare: interrupted while building the fuzz targets")
				}
				return err
			}
		}
	}
	if o.slurmScript != "" {
		return writeSlurmScript(cmd, o, g)
	}
	n := len(shard.Cells(g))
	waves := (n + o.workers - 1) / o.workers
	fmt.Fprintf(stderr, "compare: %d go test -fuzz campaign(s) of at most %s (shard %s), %d in parallel: at most about %s\n",
		n, o.budget, shard, o.workers, (time.Duration(waves) * o.budget).Round(time.Second))
	res, err := compare.Run(ctx, compare.Options{Grid: g, Shard: shard, Workers: o.workers, Out: o.out, Benches: infos,
		Runner: runner.Run, Command: commandLine(cmd, nil), GridCommand: gridCommandLine(cmd, shard), Progress: stderr})
	if err != nil {
		return err
	}
	return finishCompare(cmd, o, res)
}
