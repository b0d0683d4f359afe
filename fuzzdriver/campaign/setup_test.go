package campaign

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

const warehouseWorld = "../../testdata/worlds/warehouse.world"

func readPlanFile(t testing.TB, path string) *syntax.File {
	t.Helper()
	f, err := syntax.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mccWM(t *testing.T) labels.Criteria {
	c, err := labels.ParseCriteria("mcc,wm")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlanSetupArgs fuzzes the range plan (no world) guided by MCC and WM
// labels and checks that the finding keeps the original plan's position.
func TestPlanSetupArgs(t *testing.T) {
	f := readPlanFile(t, "testdata/range.plan")
	pf, err := Setup{Plan: f, Criteria: mccWM(t)}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if pf.Fuzzed == pf.Original || pf.GuideLabels == 0 || pf.PUT.Guide == nil {
		t.Fatalf("not annotated: %d labels", pf.GuideLabels)
	}
	if pf.Fuzzed.NumBranches() <= pf.Original.NumBranches() {
		t.Errorf("annotated plan has %d branches, original %d", pf.Fuzzed.NumBranches(), pf.Original.NumBranches())
	}
	if pf.MaxLen() != 24 {
		t.Errorf("MaxLen = %d, want 8 per parameter", pf.MaxLen())
	}
	// lo=10, hi=17, temp=12: inside a range of width 7.
	in := make([]byte, 24)
	in[0], in[8], in[16] = 10, 17, 12
	orig, err := pf.NewOriginalTarget()
	if err != nil {
		t.Fatal(err)
	}
	ann, err := pf.NewTarget()
	if err != nil {
		t.Fatal(err)
	}
	oo, err := orig.Run(context.Background(), in)
	if err != nil || len(oo.Findings) != 1 {
		t.Fatalf("original: %v %+v", err, oo)
	}
	want := oo.Findings[0].Key()
	ao, err := ann.Run(context.Background(), in)
	if err != nil || len(ao.Findings) != 1 || ao.Findings[0].Key() != want {
		t.Fatalf("annotated: %v %+v, want key %s", err, ao, want)
	}
	if !strings.HasPrefix(want, "range-bug@testdata/range.plan:6:7") {
		t.Errorf("key %s", want)
	}
	// The annotation's map names the position: the same finding, typed.
	if got := ao.Findings[0].Pos; got != oo.Findings[0].Pos {
		t.Errorf("annotated finding at %+v, original at %+v", got, oo.Findings[0].Pos)
	}

	ex, err := pf.NewExecutor()
	if err != nil {
		t.Fatal(err)
	}
	cs, crashed, err := ex.Exec(context.Background(), in)
	if err != nil || !crashed || len(cs) != pf.Fuzzed.NumCounters() {
		t.Errorf("executor: %d counters, crashed %v, %v", len(cs), crashed, err)
	}
	if _, crashed, _ := ex.Exec(context.Background(), nil); crashed {
		t.Errorf("all-zero input crashed")
	}

	rp, err := pf.Replay(context.Background(), in)
	if err != nil || rp.Sim != nil || len(rp.Args) != 3 || rp.Args[1] != 17 || len(rp.Findings) != 1 || rp.VM.Failure == nil {
		t.Errorf("replay: %v %+v", err, rp)
	} else if rp.FailureAt != oo.Findings[0].Pos || rp.Findings[0].Key() != want {
		t.Errorf("replay: failure at %+v, finding %s; the original failed at %+v", rp.FailureAt, rp.Findings[0].Key(), oo.Findings[0].Pos)
	}

	m, err := pf.NewMeter()
	if err != nil {
		t.Fatal(err)
	}
	before := m.Figures()
	if err := m.Add(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	after := m.Figures()
	if before["labels"].Covered != 0 || after["labels"].Covered == 0 || after["labels"].Total == 0 {
		t.Errorf("labels %v -> %v", before["labels"], after["labels"])
	}
	if _, ok := after["actions"]; ok {
		t.Errorf("actions without a world")
	}
	byc := m.ByCriterion()
	if byc["mcc"].Total == 0 || byc["wm"].Total == 0 || byc["cc"].Total == 0 {
		t.Errorf("by criterion %+v", byc)
	}
}

// TestPlanSetupCampaign runs a short campaign on the warehouse with the
// helpers of Fuzzer: label coverage appears in the summary.
func TestPlanSetupCampaign(t *testing.T) {
	w, err := sim.LoadWorld(warehouseWorld)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := Setup{Plan: readPlanFile(t, "testdata/sort.plan"), World: w, MaxObjects: 6}.Build()
	if err != nil {
		t.Fatal(err)
	}
	c, m, err := pf.Campaign()
	if err != nil {
		t.Fatal(err)
	}
	c.Seed, c.Runs = 1, 1000
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	for _, k := range []string{"labels", "actions", "branches", "instructions"} {
		if f := sum.Coverage[k]; f.Covered == 0 || f.Covered > f.Total {
			t.Errorf("%s: %v", k, f)
		}
	}
	if len(sum.Findings) == 0 {
		t.Errorf("no findings in 1000 runs")
	}
}

func TestPlanSetupErrors(t *testing.T) {
	if _, err := (Setup{}).Build(); err == nil {
		t.Error("nil plan accepted")
	}
	f, err := syntax.Parse("two.plan", []byte("(def-plan alpha () 1)\n(def-plan beta () 2)\n"))
	if err != nil {
		t.Fatal(err)
	}
	// The error stays sim's (errors.Is), with what the user can do.
	want := "two.plan has several plans and none is called main (plans: alpha, beta); choose one with --plan"
	if _, err := (Setup{Plan: f}).Build(); err == nil || !errors.Is(err, sim.ErrSeveralPlans) || !strings.Contains(err.Error(), want) {
		t.Errorf("two plans: %v", err)
	}
	if _, err := (Setup{Plan: f, PlanName: "beta"}).Build(); err != nil {
		t.Errorf("--plan beta: %v", err)
	}
}

// TestPlanSetupNoMeasure: with NoMeasure (--measure none) no plan is
// annotated for measuring and the meter reports the original plan's
// coverage only, while the guide still annotates.
func TestPlanSetupNoMeasure(t *testing.T) {
	f := readPlanFile(t, "testdata/range.plan")
	pf, err := Setup{Plan: f, Criteria: mccWM(t), NoMeasure: true}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if pf.PUT.Measure != nil || len(pf.keys) != 0 || pf.GuideLabels == 0 {
		t.Fatalf("measure plan %v with %d labels, guide %d labels", pf.PUT.Measure != nil, len(pf.keys), pf.GuideLabels)
	}
	m, err := pf.NewMeter()
	if err != nil {
		t.Fatal(err)
	}
	in := make([]byte, 24)
	in[0], in[8], in[16] = 10, 17, 12
	if err := m.Add(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	fig := m.Figures()
	if _, ok := fig["labels"]; ok {
		t.Errorf("labels measured with NoMeasure: %v", fig["labels"])
	}
	if fig["branches"].Covered == 0 || fig["instructions"].Covered == 0 {
		t.Errorf("plan coverage not measured: %v", fig)
	}
	if len(m.ByCriterion()) != 0 {
		t.Errorf("by criterion %v", m.ByCriterion())
	}
	if got := pf.measureKeys(); got == nil || len(got) != 0 {
		t.Errorf("measure keys %q, want []", got)
	}
}

// TestFuzzCompilesEachProgramOnce counts the programs a campaign compiles
// (Setup.Compiled): the original plan once and each annotated plan
// once, however many targets, meters and workers the campaign makes; a
// guide equal to the yardstick is one annotated plan.
func TestFuzzCompilesEachProgramOnce(t *testing.T) {
	w, err := sim.LoadWorld(warehouseWorld)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		guide, measure string
		want           int
	}{{"none", "mcc,cc,wm", 2}, {"mcc,wm", "mcc,cc,wm", 3}, {"mcc,wm", "mcc,wm", 2}, {"mcc,wm", "none", 2}} {
		var compiled []*compile.Program
		s := Setup{Plan: readPlanFile(t, "testdata/sort.plan"), World: w, MaxObjects: 6,
			Compiled: func(p *compile.Program) { compiled = append(compiled, p) }}
		if tc.guide != "none" {
			s.Criteria = mustCriteria(tc.guide)
		}
		if tc.measure == "none" {
			s.NoMeasure = true
		} else {
			s.Measure = mustCriteria(tc.measure)
		}
		pf, err := s.Build()
		if err != nil {
			t.Fatal(err)
		}
		sum, err := pf.Fuzz(context.Background(), Options{Workers: 2, Seed: 1, Runs: 500, Out: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Execs < 500 {
			t.Fatalf("guide %s: %d execs", tc.guide, sum.Execs)
		}
		if _, err := pf.Replay(context.Background(), make([]byte, 8)); err != nil {
			t.Fatal(err)
		}
		if len(compiled) != tc.want {
			t.Errorf("guide %s, measure %s: %d programs compiled, want %d", tc.guide, tc.measure, len(compiled), tc.want)
		}
		if len(compiled) == 0 || compiled[0] != pf.Original || (s.Criteria != 0 && compiled[1] != pf.Fuzzed) {
			t.Errorf("guide %s: the programs compiled are not the ones fuzzed", tc.guide)
		}
	}
}
