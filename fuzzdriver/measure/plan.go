package measure

import (
	"fmt"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// Plan is a plan under measurement: the original plan and the plan annotated
// with labels, both compiled, and for every active label the branch of its
// injected when in the annotated program. It is built once here for every
// user — the Measurer (cover), fuzzing's coverage meter, replay and compare —
// and is immutable.
type Plan struct {
	// Original is the plan as read; Result the annotation (labels,
	// manifest, annotated source).
	Original *syntax.File
	Result   *transform.Result
	// OrigProg and AnnProg are the compiled original and annotated plans.
	OrigProg, AnnProg *compile.Program
	// Active are the labels the annotated plan evaluates, in label order.
	Active []*labels.Label

	branchOf map[int]int // active label id -> branch in AnnProg
}

// NewPlan annotates f as to says, compiles the original and the annotated
// plan and maps every active label to its injected branch. Errors in f
// are *syntax.Error.
func NewPlan(f *syntax.File, to transform.Options) (*Plan, error) {
	res, err := transform.Plan(f, to)
	if err != nil {
		return nil, err
	}
	origProg, err := compile.Compile(f)
	if err != nil {
		return nil, err
	}
	af, err := syntax.Parse(f.Name, res.Source)
	if err != nil {
		return nil, fmt.Errorf("reading the annotated plan (a labelcov bug): %w", err)
	}
	annProg, err := compile.Compile(af)
	if err != nil {
		return nil, fmt.Errorf("compiling the annotated plan (a labelcov bug): %w", err)
	}
	p := &Plan{Original: f, Result: res, OrigProg: origProg, AnnProg: annProg, Active: res.Labels.Active(),
		branchOf: map[int]int{}}
	// Labels of different criteria with the same predicate at the same
	// point may share one when: several ids per offset.
	byOff := map[int][]int{}
	for _, l := range p.Active {
		if l.Annotated != nil {
			byOff[l.Annotated.Offset] = append(byOff[l.Annotated.Offset], l.ID)
		}
	}
	for i := 0; i < annProg.NumBranches(); i++ {
		b := annProg.Branch(i)
		if b.Head != "when" {
			continue
		}
		for _, id := range byOff[b.Form.Offset] {
			p.branchOf[id] = i
		}
	}
	for _, l := range p.Active {
		if _, ok := p.branchOf[l.ID]; !ok {
			return nil, fmt.Errorf("label %d (%s) has no branch in the annotated plan (a labelcov bug)", l.ID, l.Pos)
		}
	}
	return p, nil
}

// Counter is the index in AnnProg's counters of active label id's branch
// taken (outcome true: the label's predicate held) or not taken.
func (p *Plan) Counter(id int, outcome bool) int {
	return p.AnnProg.BranchCounter(p.branchOf[id], outcome)
}

// Warnings are the label enumeration's warnings (e.g. MCC falling back to
// CC), each naming file:line:col.
func (p *Plan) Warnings() []string {
	var out []string
	for _, w := range p.Result.Labels.Warnings {
		out = append(out, w.Error())
	}
	return out
}
