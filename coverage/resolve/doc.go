// Package resolve gives every active label of a plan that no test covers a
// resolution. Without a world it uses z3 (package labels/solve): arguments
// the solver found and a replay on the plan confirmed (Options.Write turns
// them into a test: gentests --solve), a proof that no integer arguments
// reach the label (infeasible, with the reason) or what was tried
// (unresolved). With a world, whose query results the environment decides
// through the simulator, it searches scenarios instead (world.go: seeds,
// regions packed full, every one-object scenario, then mutations of the
// scenarios closest to each label, deterministic from Options.Seed): a
// scenario found is replayed and written as the arguments are; the search
// never calls a label infeasible. cover --solve and gentests --solve both
// call Uncovered; measure.Measurer.Resolve puts the verdicts into a
// coverage report.
//
// It trusts no model or scenario before the replay on the measurer's plan:
// a model of an exact reach condition that does not cover its label means
// the translation disagrees with the VM on this plan, and then none of the
// plan's infeasibility proofs is reported (those labels stay unresolved,
// saying so).
//
// It must never write files or print: the caller's Write does.
package resolve
