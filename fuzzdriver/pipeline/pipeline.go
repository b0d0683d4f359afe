package pipeline

import (
	"errors"
	"fmt"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/labels/srcpos"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// Options say which plan under test to build.
type Options struct {
	// Plan names the def-plan that runs ("": main, or the only plan).
	Plan string
	// World is the world the plan runs in (nil: none). Its ranges prune
	// labels (sim.LabelDomains) unless Feasible.Domains is given.
	World *sim.World
	// Guide are the criteria the plan is annotated with for fuzzing (the
	// labels reach a fuzzer as branches); Measure the yardstick of label
	// coverage. Zero builds no such annotated plan; equal criteria share
	// one.
	Guide, Measure labels.Criteria
	// Labels configures the enumeration (MCCMaxAtoms); its Criteria are
	// ignored (Guide and Measure say them).
	Labels labels.Options
	// Feasible configures the analyses that prune labels (NoValues,
	// Domains).
	Feasible feasible.Options
	// Normalize configures normalization; the simulator's queries are
	// always added to its PureFuncs.
	Normalize normalize.Options
	// Original, when set, is f compiled already (compile.Compile; the
	// caller checked it): Build does not compile f again.
	Original *compile.Program
	// Compiled, when set, is called with every program Build compiles
	// (tests count them: one original, one per annotated plan).
	Compiled func(*compile.Program)
	// NoTree keeps no annotated tree: Annotated.File, Transform.File and
	// Transform.Whens are nil once the labels are mapped to their
	// branches, and the program forgets its nodes (ForgetTree). For a
	// fuzzing process, which only runs the programs and would otherwise
	// keep the annotated tree live, for every collection of its campaign
	// to mark.
	NoTree bool
}

// PlanUnderTest is a plan built once for every verb: the original plan and
// its annotated plans, compiled, with each active label's counter. It is
// plain data, immutable and safe for concurrent use.
type PlanUnderTest struct {
	// File is the plan as read; Original is it compiled and Plan the
	// def-plan that runs.
	File     *syntax.File
	Original *compile.Program
	Plan     *compile.Func
	// World is Options.World.
	World *sim.World
	// Guide is the plan annotated with Options.Guide, Measure with
	// Options.Measure; nil for zero criteria, the same value when equal.
	Guide, Measure *Annotated
}

// Annotated is one annotated plan: the annotation (labels, manifest,
// normalized tree, text, and the annotated tree built with the text), its
// program, and the counter of every active label.
type Annotated struct {
	Criteria labels.Criteria
	// Transform is the annotation: Transform.Labels holds every label,
	// Transform.Source the annotated text.
	Transform *transform.Result
	// File is the annotated plan's tree (positions in Transform.Source;
	// nil with Options.NoTree); Program is it compiled and Plan the
	// def-plan that runs.
	File    *syntax.File
	Program *compile.Program
	Plan    *compile.Func
	// Active are the labels the annotated plan evaluates, in id order.
	Active []*labels.Label

	branchOf map[int]int // active label id -> branch in Program
}

// Build composes the pipeline: source tree → normalize → labels →
// transform → compile, once per program. Errors in f are *syntax.Error
// (file:line:col).
func Build(f *syntax.File, o Options) (*PlanUnderTest, error) {
	if f == nil {
		return nil, errors.New("pipeline: no plan")
	}
	orig := o.Original
	if orig == nil {
		var err error
		if orig, err = compileOnce(f, o); err != nil {
			return nil, err
		}
	}
	fn, err := sim.SelectPlan(orig, o.Plan)
	if err != nil {
		return nil, err
	}
	p := &PlanUnderTest{File: f, Original: orig, Plan: fn, World: o.World}
	// The plan under test runs through its entry (the runner): a function
	// nothing it runs names is never called (feasible.Options.Entry).
	o.Feasible.Entry = fn.Name
	if o.Guide != 0 {
		if p.Guide, err = annotatePlan(f, o.Guide, o); err != nil {
			return nil, err
		}
	}
	switch {
	case o.Measure == 0:
	case o.Measure == o.Guide:
		p.Measure = p.Guide
	default:
		if p.Measure, err = annotatePlan(f, o.Measure, o); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// annotatePlan is Annotate with the def-plan of o selected.
func annotatePlan(f *syntax.File, c labels.Criteria, o Options) (*Annotated, error) {
	a, err := Annotate(f, c, o)
	if err != nil {
		return nil, err
	}
	if a.Plan, err = sim.SelectPlan(a.Program, o.Plan); err != nil {
		return nil, err
	}
	return a, nil
}

func compileOnce(f *syntax.File, o Options) (*compile.Program, error) {
	p, err := compile.Compile(f)
	if err == nil && o.Compiled != nil {
		o.Compiled(p)
	}
	return p, err
}

// Annotate is one annotated plan of Build: it annotates f with criteria c
// (o's other criteria are ignored), compiles the annotated tree (built
// with the text, never parsed) and maps every active label to the branch
// of its injected when node. Plan is
// left nil: Annotate serves files of several plans, none of them main.
func Annotate(f *syntax.File, c labels.Criteria, o Options) (*Annotated, error) {
	lo := o.Labels
	lo.Criteria = c
	fo := WorldFacts(o.Feasible, o.World)
	no := o.Normalize
	no.PureFuncs = PureFuncs(no.PureFuncs)
	res, err := transform.Plan(f, transform.Options{Labels: lo, Feasible: fo, Normalize: no})
	if err != nil {
		return nil, err
	}
	af := res.File // built while the text was written: no parse
	prog, err := compileOnce(af, o)
	if err != nil {
		return nil, fmt.Errorf("compiling the annotated plan (a labelcov bug): %w", err)
	}
	a := &Annotated{Criteria: c, Transform: res, File: af, Program: prog, Active: res.Labels.Active(),
		branchOf: map[int]int{}}
	// Each label's when is a node of af (labels of different criteria
	// with the same predicate at the same point may share one): the
	// compiler names the node of every branch.
	whenOf := make(map[syntax.Node][]int, len(res.Whens))
	for id, w := range res.Whens {
		whenOf[w] = append(whenOf[w], id)
	}
	for i := 0; i < prog.NumBranches(); i++ {
		b := prog.Branch(i)
		if b.Head != "when" {
			continue
		}
		for _, id := range whenOf[b.Node] {
			a.branchOf[id] = i
		}
	}
	for _, l := range a.Active {
		if _, ok := a.branchOf[l.ID]; !ok {
			return nil, fmt.Errorf("label %d (%s) has no branch in the annotated plan (a labelcov bug)", l.ID, l.Pos)
		}
	}
	if o.NoTree {
		a.File, res.File, res.Whens = nil, nil, nil
		prog.ForgetTree()
	}
	return a, nil
}

// WorldFacts completes fo with what world w declares (nil: no world) to
// the static analyses, where fo does not say it already: the ranges of
// its queries (labels the world rules out are infeasible) and the
// failures its actions and queries may signal (handlers no action can
// enter). Every verb that labels a plan run in a world takes its facts
// from here, so that they all judge the same labels the same way.
func WorldFacts(fo feasible.Options, w *sim.World) feasible.Options {
	if fo.Domains == nil {
		fo.Domains = sim.LabelDomains(w)
	}
	if fo.Signals == nil {
		fo.Signals = sim.LabelSignals(w)
	}
	return fo
}

// Counter is the index in Program's counters of active label id's branch
// taken (outcome true: the label's predicate held) or not taken.
func (a *Annotated) Counter(id int, outcome bool) int {
	return a.Program.BranchCounter(a.branchOf[id], outcome)
}

// Covered appends to dst the ids of the active labels whose predicate
// held in a run that left counters (of Program), in id order: a run's
// label hits.
func (a *Annotated) Covered(counters []uint8, dst []int) []int {
	for _, l := range a.Active {
		if counters[a.Counter(l.ID, true)] > 0 {
			dst = append(dst, l.ID)
		}
	}
	return dst
}

// Positions maps positions in the annotated plan (its Program's
// failures) to the original plan's text.
func (a *Annotated) Positions() *srcpos.Map { return a.Transform.Positions }

// Labels is the set of every label of the annotation (active, infeasible,
// trivial), with its warnings.
func (a *Annotated) Labels() *labels.Set { return a.Transform.Labels }

// Warnings are the label enumeration's warnings (e.g. MCC falling back to
// CC), each naming file:line:col.
func (a *Annotated) Warnings() []string {
	var out []string
	for _, w := range a.Transform.Labels.Warnings {
		out = append(out, w.Error())
	}
	return out
}

// PureFuncs is extra and the simulator's queries: the functions a plan
// calls that have no effects. The queries only read the world, so calls of
// them may stay inside conditions and be re-evaluated by labels.
func PureFuncs(extra []string) []string {
	out := append([]string(nil), extra...)
	for _, q := range sim.Queries() {
		out = append(out, q.Name)
	}
	return out
}
