// Package experiments holds no code: its sub-packages compare fuzzing
// criteria on benchmarks.
//
//	experiments/compare               grids of campaigns (plans, Go fuzz targets), analysis, reports, plots
//	experiments/compare/significance  Mann-Whitney U, Vargha-Delaney A12, Holm adjustment
//	experiments/grid                  the compare verb's front end: grids run, sharded, merged, Slurm scripts
//
// See docs/compare.md and docs/architecture.md.
package experiments
