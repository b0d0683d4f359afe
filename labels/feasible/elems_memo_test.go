package feasible

import (
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// forget drops what e keeps between labels (the fields its evaluation
// fills as it asks); keepRuns false also keeps no filter's runs: e then
// judges as an analysis that keeps nothing.
func (e *elemAnalysis) forget(keepRuns bool) {
	e.globals = map[string]globalDef{}
	e.heads = map[string]*cHead{}
	e.data = map[syntax.Node]*cval{}
	e.untemped = map[syntax.Node]syntax.Node{}
	e.filters = nil
	if keepRuns {
		e.filters = map[string]*filterRun{}
	}
}

// twoFilters (kitchen world) pushes detected objects on one list under
// two filters, on the region and on the type: of judge's (and (eq
// region 'dining-table) (eq type 'cup)) only TF is infeasible (an
// object on the dining table is kept only if it is a cup), which only
// the two filters' runs kept apart tell (TT holds under the second).
const twoFilters = `(defun region-of (d) (desig-prop d 'region))
(defun type-of (d) (desig-prop d 'type))
(defun judge (region type) (if (and (eq region 'dining-table) (eq type 'cup)) 1 2))
(defun survey ()
  (let ((found nil))
    (with-failure-handling ((object-not-found () nil))
      (dolist (d (perform (an action (type detecting)))) (push d found)))
    found))
(def-plan main ()
  (let ((all (survey)) (kept nil) (n 0))
    (dolist (d all)
      (when (eq (region-of d) 'counter) (push d kept))
      (when (eq (type-of d) 'cup) (push d kept)))
    (dolist (x kept) (incf n (judge (region-of x) (type-of x))))
    n))
`

// TestElemMemoSameVerdicts: the element analysis keeps, for as long as
// it lives, what its evaluation asks again and again (each global's
// init, each call head's reading, quoted data, untemped conditions,
// each filter's runs under each choice). Judging every label of a world
// plan in one analysis, last label first (so what later labels left
// serves earlier ones), gives each label the verdict and the reason an
// analysis that keeps nothing gives it; and, once all are judged, what
// the analysis keeps is what the plan's forms say now (none was
// rewritten under it).
func TestElemMemoSameVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name, plan, world, crit string
		infeasible              []string // labels the analysis rules out, when the case says
	}{
		{"two filters", "", "kitchen", "mcc", []string{"t.plan:3:32 TF"}},
		{"warehouse-sort", "../../testdata/bench/warehouse-sort/warehouse-sort.plan", "warehouse", "mcc,wm", nil},
		{"kitchen in the warehouse", "../../testdata/bench/kitchen/kitchen.plan", "warehouse", "mcc,wm", nil},
		{"kitchen", "../../testdata/bench/kitchen/kitchen.plan", "kitchen", "all", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(twoFilters)
			if tc.plan != "" {
				var err error
				if src, err = os.ReadFile(tc.plan); err != nil {
					t.Fatal(err)
				}
			}
			e, pls := elemJudged(t, src, tc.world, tc.crit)
			type verdict struct {
				why string
				ok  bool
			}
			alone := make([]verdict, len(pls))
			for i, pl := range pls {
				e.forget(false)
				alone[i].why, alone[i].ok = e.decide(pl)
			}
			e.forget(true)
			var ruled []string
			for i := len(pls) - 1; i >= 0; i-- {
				why, ok := e.decide(pls[i])
				if ok {
					ruled = append(ruled, pls[i].l.Pos.String()+" "+pls[i].l.Operator)
				}
				if why != alone[i].why || ok != alone[i].ok {
					t.Errorf("label %s %s at %s: kept across labels %v %q, alone %v %q", pls[i].l.Criterion, pls[i].l.Operator, pls[i].l.Pos, ok, why, alone[i].ok, alone[i].why)
				}
			}
			slices.Sort(ruled)
			if len(ruled) == 0 {
				t.Fatalf("no label ruled out by the element analysis: the comparison says nothing")
			}
			if tc.infeasible != nil && !slices.Equal(ruled, tc.infeasible) {
				t.Errorf("ruled out %v, want %v", ruled, tc.infeasible)
			}
			if len(e.globals) == 0 && tc.plan != "" || len(e.heads) == 0 || len(e.filters) == 0 {
				t.Fatalf("kept %d globals, %d heads, %d filters: the analysis kept nothing to compare", len(e.globals), len(e.heads), len(e.filters))
			}
			for name, g := range e.globals {
				if init, ok := globalInitIn(e.res, name); init != g.init || ok != g.ok {
					t.Errorf("global %s: kept %v %v, the forms say %v %v", name, g.init, g.ok, init, ok)
				}
			}
			for h, k := range e.heads {
				if now := e.classify(h); !reflect.DeepEqual(now, k) {
					t.Errorf("head %s: kept %+v, the plan says %+v", h, *k, *now)
				}
			}
			for n, u := range e.untemped {
				if now := untempAll(e.res, n); e.h.show(now) != e.h.show(u) {
					t.Errorf("%s: kept untemped %s, now %s", e.h.show(n), e.h.show(u), e.h.show(now))
				}
			}
			for n, v := range e.data {
				now, err := cdata(n)
				if (err != nil) != (v == nil) || v != nil && cString(now) != cString(v) {
					t.Errorf("%s: kept datum %v, now %v (%v)", e.h.show(n), v, now, err)
				}
			}
		})
	}
}

// elemJudged lists and judges the labels of plan src with criteria crit
// under world as the pipeline does, and returns a new element analysis
// of the plan with the listed labels that have a point.
func elemJudged(t *testing.T, src []byte, world, crit string) (*elemAnalysis, []*pathLabel) {
	t.Helper()
	w, err := sim.LoadWorld("../../testdata/worlds/" + world + ".world")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("t.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := normalize.Plan(f, normalize.Options{PureFuncs: sim.QueryNames()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Domains: sim.LabelDomains(w), Signals: sim.LabelSignals(w), Entry: "main"}
	var j *judge
	lo := labels.Options{Criteria: c, Judge: func(res *normalize.Result, show func(syntax.Node) string) labels.Judge {
		j = o.judge(res, show).(*judge)
		return j
	}}
	if _, err := labels.Enumerate(res, lo); err != nil {
		t.Fatal(err)
	}
	h := &handlerAnalysis{res: j.res, a: j.dom.a, show: j.dom.show}
	h.collectDefs()
	h.findSites()
	e := newElemAnalysis(h, j.sig)
	if e == nil {
		t.Fatal("no element analysis of the plan")
	}
	pls := slices.DeleteFunc(slices.Clone(j.paths), func(pl *pathLabel) bool { return pl.l.Point == nil })
	return e, pls
}
