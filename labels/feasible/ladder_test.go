package feasible

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// rungJudge wraps the judge of one plan: it counts the dist predicates
// Enumerate asks it about, and judges every dist label listed active
// again on its own, as Enumerate judged each rung before it inferred the
// rungs between a ladder's ends (and renders its predicate, which
// Enumerate renders once a ladder).
type rungJudge struct {
	labels.Judge
	t              *testing.T
	asked, decided int // dist predicates asked about; of them, not active
	listed         int // dist labels listed active
}

func isRung(p syntax.Node) bool {
	l, ok := p.(*syntax.List)
	if !ok || syntax.Head(l) != "and" {
		return false
	}
	c, ok := l.Elems[1].(*syntax.List)
	return ok && syntax.Head(c) == "<" && len(c.Elems) == 3 && syntax.Head(c.Elems[1]) == "abs"
}

func (r *rungJudge) Predicate(p syntax.Node) (labels.Status, string) {
	s, why := r.Judge.Predicate(p)
	if isRung(p) {
		r.asked++
		if s != labels.Active {
			r.decided++
		}
	}
	return s, why
}

func (r *rungJudge) Listed(l *labels.Label, p syntax.Node) {
	if l.Criterion == labels.DIST && isRung(p) {
		r.listed++
		if s := syntax.NodeString(p); l.Predicate != s {
			r.t.Errorf("%s %s: predicate %s, rendered %s", l.Pos, l.Operator, l.Predicate, s)
		}
		if s, why := r.Judge.Predicate(p); s != labels.Active {
			r.t.Errorf("%s %s: listed active, but judged alone %s: %s", l.Pos, l.Operator, s, why)
		}
	}
	r.Judge.Listed(l, p)
}

// TestLadderSameVerdicts: Enumerate judges a dist ladder at its two ends
// and, when both are active, lists the rungs between as active unjudged.
// On every plan under testdata, without a world and in each world, each
// dist label listed active is active when judged alone; ladders are
// inferred (fewer rungs asked than listed), and some ladders have rungs
// the judge decides (judged one by one).
func TestLadderSameVerdicts(t *testing.T) {
	plans, err := filepath.Glob("../../testdata/*/*.plan")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../testdata/*/*/*.plan")
	plans = append(plans, more...)
	worlds, _ := filepath.Glob("../../testdata/worlds/*.world")
	dist, err := labels.ParseCriteria("dist")
	if err != nil {
		t.Fatal(err)
	}
	var asked, decided, listed, runs int
	for _, w := range append([]string{""}, worlds...) {
		o := Options{}
		if w != "" {
			world, err := sim.LoadWorld(w)
			if err != nil {
				t.Fatal(err)
			}
			o.Domains, o.Signals = sim.LabelDomains(world), sim.LabelSignals(world)
		}
		for _, p := range plans {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, err := syntax.Parse(p, src)
			if err != nil {
				continue // (no plan of testdata fails to parse today)
			}
			res, err := normalize.Plan(f, normalize.Options{PureFuncs: sim.QueryNames()})
			if err != nil {
				continue // an annotated plan
			}
			var r *rungJudge
			lo := labels.Options{Criteria: dist, Judge: func(res *normalize.Result, show func(syntax.Node) string) labels.Judge {
				r = &rungJudge{Judge: o.judge(res, show), t: t}
				return r
			}}
			if _, err := labels.Enumerate(res, lo); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			asked, decided, listed, runs = asked+r.asked, decided+r.decided, listed+r.listed, runs+1
		}
	}
	if runs < 40 || listed == 0 || asked >= listed || decided == 0 {
		t.Errorf("%d plans and worlds: %d dist labels listed, %d rungs judged, %d of them decided", runs, listed, asked, decided)
	}
}
