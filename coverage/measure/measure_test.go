package measure

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

const suite = "../../testdata/tests/thermostat"

func newMeasurer(t testing.TB, path, criteria string, opts Options) *Measurer {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria(criteria)
	if err != nil {
		t.Fatal(err)
	}
	opts.Labels = labels.Options{Criteria: c}
	m, err := New(f, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func thermostat(t *testing.T, criteria string) *Report {
	t.Helper()
	m := newMeasurer(t, filepath.Join(suite, "thermostat.plan"), criteria, Options{})
	tests, err := m.LoadTests(suite)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(context.Background(), tests)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %q", r.Warnings)
	}
	return r
}

// The thermostat suite: inside (0 10 5), above (0 10 20), far-above
// (0 10 30), narrow (0 5 9) and cold.bin (20 30 5 as 8-byte integers).
func TestThermostatCounts(t *testing.T) {
	r := thermostat(t, "all")
	want := map[labels.Key][2]int{
		labels.MCC: {5, 6}, labels.CC: {6, 6}, labels.WMABS: {9, 21},
		labels.WMAOR: {3, 3}, labels.WMCOR: {1, 1}, labels.WMROR: {9, 12},
	}
	for k, w := range want {
		c := r.Criteria[k]
		if c == nil || c.Covered != w[0] || c.Total != w[1] {
			t.Errorf("%s: got %+v, want %d/%d", k, c, w[0], w[1])
		}
	}
	if r.All.Covered != 33 || r.All.Total != 49 || r.All.Trivial != 3 {
		t.Errorf("all: %+v", r.All)
	}
	if ror := r.Criteria[labels.WMROR]; ror.Trivial != 3 || ror.Operators["< -> <="].Covered != 0 || ror.Operators["< -> <="].Total != 2 {
		t.Errorf("wm-ror detail: %+v %+v", ror, ror.Operators["< -> <="])
	}
	mcc := r.Criteria[labels.MCC]
	if got := strings.Join(mcc.OperatorOrder, " "); got != "T F TT TF FT FF" {
		t.Errorf("mcc operator order %q", got)
	}
	if ff := mcc.Operators["FF"]; ff.Covered != 0 || ff.Total != 1 {
		t.Errorf("FF: %+v", ff)
	}
	if b := r.Coverage.Branches; r.Coverage.Instructions.Covered != r.Coverage.Instructions.Total || b.Covered != 8 || b.Total != 8 || b.Percent == nil || *b.Percent != 100 {
		t.Errorf("plain coverage %+v", r.Coverage)
	}
	if r.Coverage.Actions != nil {
		t.Errorf("actions without a world: %+v", r.Coverage.Actions)
	}
	if len(r.Uncovered) != 16 || r.Uncovered[0].ID != 4 || !strings.HasSuffix(r.Uncovered[0].Pos, "thermostat.plan:5:6") {
		t.Errorf("uncovered: %d, first %+v", len(r.Uncovered), r.Uncovered[0])
	}
	for _, l := range r.Uncovered {
		if l.Covered || len(l.Tests) != 0 || !l.WasReached() {
			t.Errorf("uncovered label %+v", l)
		}
	}
}

func labelByOp(r *Report, key labels.Key, op string) *LabelResult {
	for _, l := range r.Labels {
		if l.Criterion == key && l.Operator == op {
			return l
		}
	}
	return nil
}

func base(names []string) string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Base(n))
	}
	return strings.Join(out, " ")
}

// A label is covered by the tests that reach it with its predicate true,
// and only by them.
func TestCoveringTests(t *testing.T) {
	r := thermostat(t, "mcc")
	cases := map[string]string{
		"TT": "inside.args",
		"TF": "above.args far-above.args narrow.args",
		"FT": "cold.bin",
		"FF": "",
		"T":  "above.args cold.bin far-above.args",
		"F":  "narrow.args",
	}
	for op, want := range cases {
		l := labelByOp(r, labels.MCC, op)
		if l == nil {
			t.Fatalf("no mcc %s label", op)
		}
		if got := base(l.Tests); got != want {
			t.Errorf("mcc %s covered by %q, want %q", op, got, want)
		}
	}
	// Per test: inside covers TT and not TF; narrow the other way round.
	for _, tr := range r.Tests {
		has := map[int]bool{}
		for _, id := range tr.Labels {
			has[id] = true
		}
		tt, tf := labelByOp(r, labels.MCC, "TT").ID, labelByOp(r, labels.MCC, "TF").ID
		switch filepath.Base(tr.Name) {
		case "inside.args":
			if !has[tt] || has[tf] {
				t.Errorf("inside covers %v", tr.Labels)
			}
		case "narrow.args":
			if has[tt] || !has[tf] {
				t.Errorf("narrow covers %v", tr.Labels)
			}
		}
	}
	// The second cond clause is not reached by inside: its labels are
	// reached by the others.
	if l := labelByOp(r, labels.MCC, "F"); !l.WasReached() || l.TraceCount() != 1 {
		t.Errorf("mcc F: %+v", l)
	}
}

// Traces: above, far-above and cold all end in wide-outside with no
// actions, so they share one trace; inside and narrow have their own.
func TestTraces(t *testing.T) {
	r := thermostat(t, "cc")
	byName := map[string]*TestResult{}
	for _, tr := range r.Tests {
		byName[filepath.Base(tr.Name)] = tr
	}
	if a, f, c := byName["above.args"].Trace, byName["far-above.args"].Trace, byName["cold.bin"].Trace; a != f || a != c {
		t.Errorf("wide-outside traces differ: %s %s %s", a, f, c)
	}
	if byName["inside.args"].Trace == byName["narrow.args"].Trace || byName["inside.args"].Trace == byName["above.args"].Trace {
		t.Errorf("distinct outcomes share a trace")
	}
	if r.Diversity.Traces != 3 {
		t.Errorf("distinct traces %d, want 3", r.Diversity.Traces)
	}
	if got := byName["cold.bin"]; got.Kind != KindBytes || got.Result != "wide-outside" || got.Outcome != "ok" {
		t.Errorf("cold.bin: %+v", got)
	}
	want := "outcome ok inside\n"
	if got := TraceText(vm.Result{Outcome: vm.OutcomeOK, Value: value.Symbol("inside")}, nil, nil, nil); got != want {
		t.Errorf("TraceText %q, want %q", got, want)
	}
	fail := vm.Result{Outcome: vm.OutcomeFailure, Failure: &vm.Failure{Kind: "object-unreachable", Message: "far"}}
	want = "outcome failure object-unreachable\nerror left-on-table\ncheck-error c failure\naction navigating -> ok\n"
	if got := TraceText(fail, []string{"left-on-table"}, []string{"c failure"}, []string{"navigating -> ok"}); got != want {
		t.Errorf("TraceText %q, want %q", got, want)
	}
	if TraceID("a") == TraceID("b") || len(TraceID("a")) != 12 {
		t.Errorf("TraceID %q %q", TraceID("a"), TraceID("b"))
	}
}

// Hill numbers of MCC coverage by hand. Abundances (distinct traces per
// covered label): TT 1 (inside), TF 2 (wide-outside, outside), FT 1, T 1,
// F 1; total 6. D0 = 5; D1 = exp(4·(1/6)·ln 6 + (1/3)·ln 3) = 108^(1/3);
// D2 = 1 / (4/36 + 4/36) = 4.5.
func TestHillByHand(t *testing.T) {
	r := thermostat(t, "mcc")
	d := r.Criteria[labels.MCC].Diversity
	if d.D0 != 5 || math.Abs(d.D1-math.Cbrt(108)) > 1e-6 || d.D2 != 4.5 || d.Traces != 3 {
		t.Errorf("mcc diversity %+v, want D0 5, D1 %.6f, D2 4.5, 3 traces", d, math.Cbrt(108))
	}
	if *r.Diversity != *d {
		t.Errorf("overall diversity %+v differs from the only key's %+v", r.Diversity, d)
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := json.Marshal(thermostat(t, "all"))
	b, _ := json.Marshal(thermostat(t, "all"))
	if string(a) != string(b) {
		t.Error("two runs give different reports")
	}
}

func TestBytesWithoutWorld(t *testing.T) {
	m := newMeasurer(t, filepath.Join(suite, "thermostat.plan"), "cc", Options{})
	data := make([]byte, 20)                             // temp's 8 bytes are incomplete: read as 0x0403 little-endian
	binary.LittleEndian.PutUint64(data, uint64(1<<64-3)) // lo = -3
	binary.LittleEndian.PutUint64(data[8:], 9)           // hi = 9
	data[16], data[17] = 3, 4
	tc, err := m.ParseTest("x.bin", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{tc.Args[0].String(), tc.Args[1].String(), tc.Args[2].String()}; !reflect.DeepEqual(got, []string{"-3", "9", "1027"}) {
		t.Errorf("args %v", got)
	}
}

func TestBadTests(t *testing.T) {
	plan := filepath.Join(suite, "thermostat.plan")
	noWorld := newMeasurer(t, plan, "cc", Options{})
	cases := []struct {
		name, src, want string
	}{
		{"many.args", "1\n2\n3 4\n", "many.args:3:3: plan main takes 3 arguments (lo hi temp); this is argument 4"},
		{"few.args", "; two\n1\n2\n", "few.args:3:2: plan main takes 3 arguments (lo hi temp), the file gives 2"},
		{"empty.args", "", "empty.args:1:1: plan main takes 3 arguments (lo hi temp), the file gives 0"},
		{"broken.args", "1 2\n(3", "broken.args:2:1:"},
		{"s.env", "(environment)", "s.env: a .env scenario needs a world (--world)"},
	}
	for _, c := range cases {
		_, err := noWorld.ParseTest(c.name, []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want prefix %q", c.name, err, c.want)
		}
	}
	w, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	withWorld := newMeasurer(t, plan, "cc", Options{World: w})
	_, err = withWorld.ParseTest("bad.env", []byte("(environment\n  (object milk (region nowhere) (cell 1 1) (orientation 0)))"))
	var serr *syntax.Error
	if !errors.As(err, &serr) || serr.File != "bad.env" || serr.Pos.Line != 2 {
		t.Errorf("bad.env: %v", err)
	}
	// The plan takes arguments: with a world, byte tests cannot give them.
	tc, err := withWorld.ParseTest("x.bin", []byte{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := withWorld.Run(context.Background(), []*Test{tc}); err == nil || !strings.Contains(err.Error(), "x.bin: plan main takes 3 argument(s), got 0; with a world, give the plan's arguments as .args tests") {
		t.Errorf("bytes for a plan with parameters: %v", err)
	}
}

func TestExpandPaths(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.args", "a.env", "c", "README.md", ".hidden", "truth.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := ExpandPaths([]string{dir, filepath.Join(dir, "README.md"), filepath.Join(dir, "a.env")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.env", "b.args", "c", "README.md"}
	if base(got) != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := ExpandPaths([]string{filepath.Join(dir, "sub")}); err == nil || !strings.Contains(err.Error(), "no test files") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := ExpandPaths([]string{filepath.Join(dir, "missing")}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestCancelled(t *testing.T) {
	m := newMeasurer(t, filepath.Join(suite, "thermostat.plan"), "cc", Options{})
	tests, err := m.LoadTests(suite)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Run(ctx, tests); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

// With a world: .env, bytes and an empty .args test (a plan without
// parameters starts in the empty environment) run in the simulator; action
// coverage is reported.
func TestWorld(t *testing.T) {
	w, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(t.TempDir(), "sort.plan")
	src := `(defun home (type) (case type (milk 'board-1) (cereal 'board-2) (otherwise 'board-3)))
(def-plan main ()
  (let ((n 0))
    (dolist (?obj (all-objects) n)
      (when (and (eq (object-region ?obj) 'table) (> (length (all-objects)) 1))
        (incf n)))))
(def-check unsorted ()
  (dolist (?obj (all-objects))
    (unless (eq (object-region ?obj) (home (object-type ?obj)))
      (return 'object-not-sorted))))
`
	if err := os.WriteFile(plan, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// As the CLI does: queries only read the world, so they stay in
	// conditions and labels re-evaluate them.
	m := newMeasurer(t, plan, "mcc", Options{World: w, WorldPath: "warehouse.world",
		Normalize: normalize.Options{PureFuncs: sim.QueryNames()}})
	var tests []*Test
	for _, c := range []struct{ name, src string }{
		{"empty.args", ""},
		{"three.env", "(environment (object milk (region table) (cell 3 3) (orientation 0)) (object cereal (region table) (cell 9 3) (orientation 0)) (object bowl (region board-3) (cell 3 3) (orientation 0)))"},
		{"one.bin", "\x00\x00"},
	} {
		tc, err := m.ParseTest(c.name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, tc)
	}
	r, err := m.Run(context.Background(), tests)
	if err != nil {
		t.Fatal(err)
	}
	if r.World != "warehouse.world" || r.Coverage.Actions == nil || r.Coverage.Actions.Total != w.NumBuckets() {
		t.Fatalf("world report: %q %+v", r.World, r.Coverage.Actions)
	}
	got := map[string]string{}
	for _, tr := range r.Tests {
		got[tr.Name] = tr.Result + " " + strings.Join(tr.Errors, ",")
	}
	want := map[string]string{"empty.args": "0 ", "three.env": "2 object-not-sorted", "one.bin": "0 object-not-sorted"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	// mcc of the when: TT only with three objects, TF with one object on
	// the table; FT and FF: the bowl on board-3 (first atom false).
	for op, tests := range map[string]string{"TT": "three.env", "TF": "one.bin", "FT": "three.env", "FF": ""} {
		if l := labelByOp(r, labels.MCC, op); l == nil || base(l.Tests) != tests {
			t.Errorf("mcc %s: %+v, want tests %q", op, l, tests)
		}
	}
}

// The original and the annotated plan run on every test; when their traces
// differ, the report warns. Labels cannot make them differ (that is the
// point of annotation, and probes are not even charged steps), so the test
// sabotages the annotated program: its sum starts at 1.
func TestDivergenceWarning(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "loop.plan")
	src := "(def-plan main (n) (let ((s 0)) (dotimes (i n) (when (> i 2) (setq s (+ s i)))) s))\n"
	if err := os.WriteFile(plan, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newMeasurer(t, plan, "all", Options{})
	tc, err := m.ParseTest("ten.args", []byte("10"))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := m.Run(context.Background(), []*Test{tc}); err != nil || len(r.Warnings) != 0 {
		t.Fatalf("faithful annotation: %v, warnings %q", err, r.Warnings)
	}
	annSrc := m.ann.Transform.Source
	sabotaged := bytes.Replace(annSrc, []byte("(let ((s 0))"), []byte("(let ((s 1))"), 1)
	if bytes.Equal(sabotaged, annSrc) {
		t.Fatalf("the annotated plan has no (let ((s 0)) to sabotage:\n%s", annSrc)
	}
	af, err := syntax.Parse(plan, sabotaged)
	if err != nil {
		t.Fatal(err)
	}
	ann := *m.ann
	if ann.Program, err = compile.Compile(af); err != nil {
		t.Fatal(err)
	}
	m.ann = &ann
	r, err := m.Run(context.Background(), []*Test{tc})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "ten.args: the annotated plan behaved differently from the original") ||
		!strings.Contains(r.Warnings[0], "outcome ok 42\nannotated:\noutcome ok 43\n") {
		t.Errorf("warnings %q", r.Warnings)
	}
	if r.Tests[0].Outcome != "ok" || r.Tests[0].Result != "42" {
		t.Errorf("the test's outcome is the original plan's: %+v", r.Tests[0])
	}
}

func TestPercentEmptyIsNil(t *testing.T) {
	if p := Percent(0, 0); p != nil {
		t.Errorf("Percent(0, 0) = %v, want nil (n/a)", *p)
	}
	if p := Percent(2, 3); p == nil || *p != 66.7 {
		t.Errorf("Percent(2, 3) = %v", p)
	}
}

// TestSortOperatorsGroupsMutants: report rows of a mutation criterion are
// grouped by the original operator, whatever order the labels came in.
func TestSortOperatorsGroupsMutants(t *testing.T) {
	ops := []string{"< -> <=", "< -> >", "<= -> <", "> -> >=", "<= -> =", "> -> /=", "< -> =", "true", "FT", "TT"}
	SortOperators(ops)
	want := []string{"true", "TT", "FT", "< -> <=", "< -> >", "< -> =", "<= -> <", "<= -> =", "> -> >=", "> -> /="}
	if strings.Join(ops, ",") != strings.Join(want, ",") {
		t.Errorf("got  %q\nwant %q", ops, want)
	}
}
