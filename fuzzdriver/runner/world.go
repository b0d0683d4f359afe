package runner

import (
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// Defaults of the limits, as the VM and the simulator take them.
const (
	DefaultMaxSteps   = vm.DefaultMaxSteps
	DefaultMaxObjects = sim.DefaultMaxObjects
)

// ErrSeveralPlans is what New fails with, wrapped, when no plan is named
// and the program has several, none called main (sim.ErrSeveralPlans).
var ErrSeveralPlans = sim.ErrSeveralPlans

// LoadWorld reads a .world file.
func LoadWorld(path string) (*sim.World, error) { return sim.LoadWorld(path) }

// WorldBeside is the world a benchmark folder's truth.json names for plan
// ("" when there is none).
func WorldBeside(plan string) (string, error) { return sim.WorldBeside(plan) }

// OpenWorld reads the world plan runs in: given, else the one a
// truth.json beside plan names; ("", nil, nil) for none (sim.OpenWorld).
func OpenWorld(plan, given string) (string, *sim.World, error) { return sim.OpenWorld(plan, given) }

// SelectPlan is the def-plan of p that runs: name, or "" for main or the
// only plan (sim.SelectPlan).
func SelectPlan(p *compile.Program, name string) (*compile.Func, error) {
	return sim.SelectPlan(p, name)
}

// ArgStrings reads plan fn's arguments from one literal per string
// (labelcov run --arg; sim.ArgStrings).
func ArgStrings(fn *compile.Func, raw []string) ([]value.Value, error) {
	return sim.ArgStrings(fn, raw)
}

// NeedsWorld fails, as a *syntax.Error, when f performs actions or
// queries a world.
func NeedsWorld(f *syntax.File) error { return sim.NeedsWorld(f) }

// Link says how a plan's calls will link: World, a world is given; Later,
// the plan is only read (labels, annotate) and another host may define
// what labelcov does not know.
type Link struct{ World, Later bool }

// CheckCalls lists the calls of p to functions defined nowhere, as they
// link under l (sim.CheckCalls): each with file:line:col and a caret,
// errors unless Warning.
func CheckCalls(f *syntax.File, p *compile.Program, l Link) []sim.LinkProblem {
	return sim.CheckCalls(f, p, sim.LinkOptions{World: l.World, Later: l.Later})
}
