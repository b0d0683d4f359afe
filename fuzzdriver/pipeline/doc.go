// Package pipeline builds the plan under test once, for every verb:
//
//	source tree ──normalize──▶ normal form ──labels──▶ label set + manifest
//	     │                                                   │
//	  compile                                   transform (labels injected as empty whens)
//	     ▼                                                   ▼
//	Original program                     annotated tree (read once) ──compile──▶ program
//	                                                                       + label id → counter
//
// Build composes the stages in one short function, as expr.Compile
// composes parse, check and compile, and returns a PlanUnderTest: plain,
// immutable data (the original program and its def-plan, the guiding and
// the measuring annotated plans, each Annotated with its labels, tree,
// program and label counters). Positions stay values (labels.Position,
// syntax.Pos) throughout. Equal guiding and measuring criteria share one
// annotated plan; Options.Compiled sees every program compiled, so tests
// count that a process compiles each program once. Options.NoTree drops
// the annotated tree once the labels know their branches: a fuzzing
// process, which only runs the programs, would otherwise keep it live for
// its whole campaign.
//
// Label hits per input, for measures built on them (MC/DC, which test
// covers what, reduction): Annotated.Covered turns one run's counters into
// the ids of the labels covered, in id order; fuzzdriver/runner does it
// for every run when given the Annotated as its LabelMap (Result.Labels).
//
// It never runs a plan: package fuzzdriver/runner does.
package pipeline
