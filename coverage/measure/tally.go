package measure

import (
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/labels"
)

// Tally accumulates the coverage of inputs: hits of the original plan's
// instructions, branches and action buckets, and, per active label of the
// measuring plan, the inputs covering it. The Measurer (cover) and
// fuzzing's coverage meter both count with it. Not safe for concurrent
// use.
type Tally struct {
	orig *compile.Program
	ann  *pipeline.Annotated // nil: no labels
	// InstrHits are hits per instruction of the original plan (summed
	// over inputs); BranchHit says which branch counters were ever hit.
	InstrHits []int
	BranchHit []bool
	// ActionHits are performed actions per bucket (nil without a world).
	ActionHits []uint64
	// Covering lists, per label id, the inputs (numbered as given to
	// AddLabels) covering it; Reached the labels reached at all (their
	// predicate true or false).
	Covering map[int][]int
	Reached  map[int]bool
}

// NewTally makes an empty tally of orig (with world w, or nil) and the
// annotated plan ann (nil: no labels).
func NewTally(orig *compile.Program, w *sim.World, ann *pipeline.Annotated) *Tally {
	t := &Tally{orig: orig, ann: ann, InstrHits: make([]int, orig.NumInstructions()),
		BranchHit: make([]bool, 2*orig.NumBranches()), Covering: map[int][]int{}, Reached: map[int]bool{}}
	if w != nil {
		t.ActionHits = make([]uint64, w.NumBuckets())
	}
	return t
}

// AddOriginal counts a run of the original plan.
func (t *Tally) AddOriginal(res *runner.Result) {
	cs := res.Counters
	for pc := range t.InstrHits {
		t.InstrHits[pc] += int(cs[pc])
	}
	ni := len(t.InstrHits)
	for i := range t.BranchHit {
		if cs[ni+i] > 0 {
			t.BranchHit[i] = true
		}
	}
	for i, h := range res.Sim.Hits {
		if i < len(t.ActionHits) {
			t.ActionHits[i] += uint64(h)
		}
	}
}

// AddLabels counts a run of the annotated plan (a runner with its
// LabelMap) as input number input.
func (t *Tally) AddLabels(input int, res *runner.Result) {
	for _, id := range res.Labels {
		t.Covering[id] = append(t.Covering[id], input)
		t.Reached[id] = true
	}
	for _, l := range t.ann.Active {
		if !t.Reached[l.ID] && res.Counters[t.ann.Counter(l.ID, false)] > 0 {
			t.Reached[l.ID] = true
		}
	}
}

// Instructions, Branches and Actions are the covered/total counts so far
// (Actions is zero without a world); Labels the active labels covered.
func (t *Tally) Instructions() labels.Fraction {
	var c labels.Fraction
	for _, h := range t.InstrHits {
		c.Add(h > 0)
	}
	return c
}

func (t *Tally) Branches() labels.Fraction {
	var c labels.Fraction
	for _, h := range t.BranchHit {
		c.Add(h)
	}
	return c
}

func (t *Tally) Actions() labels.Fraction {
	var c labels.Fraction
	for _, h := range t.ActionHits {
		c.Add(h > 0)
	}
	return c
}

func (t *Tally) Labels() labels.Fraction {
	return labels.Fraction{Covered: len(t.Covering), Total: len(t.ann.Active)}
}
