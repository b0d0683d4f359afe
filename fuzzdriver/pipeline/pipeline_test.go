package pipeline_test

import (
	"context"
	"encoding/binary"
	"os"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

func criteria(t *testing.T, s string) labels.Criteria {
	t.Helper()
	c, err := labels.ParseCriteria(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Build compiles the original and each distinct annotated plan once (a
// given Original is not compiled again), and a run on the measuring plan
// lists the labels it covered: the active labels whose true counter it set.
func TestBuildOncePerProgramAndLabelHits(t *testing.T) {
	src, err := os.ReadFile("../campaign/testdata/range.plan")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("range.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	var compiled int
	o := pipeline.Options{Guide: criteria(t, "mcc"), Measure: criteria(t, "mcc,wm"), Compiled: func(*compile.Program) { compiled++ }}
	put, err := pipeline.Build(f, o)
	if err != nil {
		t.Fatal(err)
	}
	if compiled != 3 || put.Guide == put.Measure || put.Plan == nil || put.Measure.Plan == nil {
		t.Fatalf("%d compiles, guide and measure shared: %v", compiled, put.Guide == put.Measure)
	}
	compiled = 0
	o.Measure, o.Original = o.Guide, put.Original
	if again, err := pipeline.Build(f, o); err != nil || compiled != 1 || again.Guide != again.Measure || again.Original != put.Original {
		t.Fatalf("equal criteria, original given: %d compiles, %v", compiled, err)
	}

	m := put.Measure
	for _, l := range m.Active {
		c := m.Counter(l.ID, true)
		if c < m.Program.NumInstructions() || c >= m.Program.NumCounters() || c != m.Counter(l.ID, false)-1 {
			t.Fatalf("label %d: counters %d, %d", l.ID, c, m.Counter(l.ID, false))
		}
	}
	r, err := runner.New(runner.Options{Program: m.Program, LabelMap: m})
	if err != nil {
		t.Fatal(err)
	}
	in := binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(nil, 10), 17), 12)
	res, err := r.Run(context.Background(), runner.Input{Bytes: in})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Labels) == 0 || !slices.IsSorted(res.Labels) {
		t.Fatalf("label hits %v", res.Labels)
	}
	for _, l := range m.Active {
		hit := res.Counters[m.Counter(l.ID, true)] > 0
		if hit != slices.Contains(res.Labels, l.ID) {
			t.Errorf("label %d: counter %v, listed %v", l.ID, hit, !hit)
		}
	}
}

// A label inside a reader conditional's list still finds its branch: the
// compiler decides #+/#- by copying the lists on the path to them, and the
// branches it compiles name the annotated tree's nodes, not the copies (a
// label there once had "no branch in the annotated plan").
func TestLabelsBesideReaderConditionals(t *testing.T) {
	src := []byte(`(def-plan p (x)
  (if (eq #+sbcl x #-sbcl 'other 1) (when (and (> x 2) #+labelcov (< x 9)) 1) 2))
`)
	f, err := syntax.Parse("cond.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pipeline.Annotate(f, criteria(t, "mcc,cc,wm,dist"), pipeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Active) == 0 {
		t.Fatalf("%d active labels", len(a.Active))
	}
	for _, l := range a.Active {
		if c := a.Counter(l.ID, true); c < 0 || c >= a.Program.NumCounters() {
			t.Errorf("label %d: counter %d of %d", l.ID, c, a.Program.NumCounters())
		}
	}
}

// With NoTree an Annotated keeps no annotated tree (a fuzzing process's),
// and nothing else changes: the same code, label counters and branches as
// with it.
func TestNoTree(t *testing.T) {
	src, err := os.ReadFile("../../testdata/bench/docking/docking.plan")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("docking.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"mcc,wm", "dist"} {
		with, err := pipeline.Annotate(f, criteria(t, c), pipeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		without, err := pipeline.Annotate(f, criteria(t, c), pipeline.Options{NoTree: true})
		if err != nil {
			t.Fatal(err)
		}
		if with.File == nil || with.Transform.File == nil || without.File != nil || without.Transform.File != nil || without.Transform.Whens != nil {
			t.Fatalf("%s: trees kept %v %v, without %v %v", c, with.File != nil, with.Transform.File != nil, without.File != nil, without.Transform.File != nil)
		}
		p, q := with.Program, without.Program
		if !slices.Equal(p.Code, q.Code) || !slices.Equal(p.A, q.A) || !slices.Equal(p.B, q.B) || p.NumBranches() != q.NumBranches() || len(with.Active) != len(without.Active) {
			t.Fatalf("%s: the programs differ", c)
		}
		for i := range q.NumBranches() {
			if b := q.Branch(i); b.Node != nil || b.PC != p.Branch(i).PC || b.Test != p.Branch(i).Test {
				t.Fatalf("%s: branch %d: %+v, with the tree %+v", c, i, b, p.Branch(i))
			}
		}
		for k, l := range with.Active {
			if l.ID != without.Active[k].ID || with.Counter(l.ID, true) != without.Counter(l.ID, true) {
				t.Fatalf("%s: label %d: counter %d, with the tree %d", c, l.ID, without.Counter(l.ID, true), with.Counter(l.ID, true))
			}
		}
	}
}
