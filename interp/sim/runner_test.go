package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
)

func loadRunner(t testing.TB, plan string) *Runner {
	t.Helper()
	r, err := LoadRunner("testdata/"+plan, "../../testdata/worlds/warehouse.world", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChecksRunAfterAnyOutcome(t *testing.T) {
	r := loadRunner(t, "checks.plan")
	env, err := r.World().ParseEnv("e.env", []byte("(environment (object milk (region table) (cell 7 4) (orientation 0)))"))
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), env)
	if res.VM.Outcome != vm.OutcomeFailure || res.VM.Failure.Kind != "plan-gave-up" {
		t.Fatalf("plan outcome %v %v", res.VM.Outcome, res.VM.Failure)
	}
	if !reflect.DeepEqual(res.Errors, []string{"milk-moved", "milk-on-4-4"}) {
		t.Errorf("errors %v", res.Errors)
	}
	if len(res.CheckErrors) != 1 || res.CheckErrors[0].Check != "broken" || res.CheckErrors[0].Kind != KindObjectNotFound ||
		!strings.HasPrefix(res.CheckErrors[0].Pos.String(), "testdata/checks.plan:22:") {
		t.Errorf("check errors %+v", res.CheckErrors)
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, res.Actions); err != nil {
		t.Fatal(err)
	}
	want := `  1 picking-up arm=left object=milk-1 -> ok
  2 parking-arms -> ok
  3 navigating target=shelf-left -> ok
  4 placing arm=left object=milk-1 target=board-2 (4 4) -> ok
`
	if buf.String() != want {
		t.Errorf("trace:\n%s\nwant:\n%s", buf.String(), want)
	}
	buf.Reset()
	WriteErrors(&buf, res)
	if !strings.Contains(buf.String(), "error: milk-moved\n") || !strings.Contains(buf.String(), "check broken failed: object-not-found") {
		t.Errorf("WriteErrors:\n%s", buf.String())
	}
	// The JSON summary has the documented fields.
	js, err := json.Marshal(map[string]any{"errors": res.Errors, "actions": res.Actions, "coverage": map[string]any{"actions": r.World().Coverage(res.Hits)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"errors":["milk-moved","milk-on-4-4"]`, `"type":"placing"`, `"outcome":"ok"`, `"covered":4,"total":88`, `"bucket":"placing arm=left type=milk region=board-2","hits":1`} {
		if !strings.Contains(string(js), s) {
			t.Errorf("JSON lacks %s:\n%s", s, js)
		}
	}
	// A second run on an empty world (nil means empty) starts afresh.
	res = r.Run(context.Background(), nil)
	if len(res.Actions) != 1 || res.Actions[0].Outcome != KindObjectNotFound || res.Covered != 0 {
		t.Errorf("second run: %+v covered %d", res.Actions, res.Covered)
	}
}

func TestDeterminism(t *testing.T) {
	r1 := loadRunner(t, "sort.plan")
	r2 := loadRunner(t, "sort.plan")
	ctx := context.Background()
	for i, data := range sixObjectInputs(t, r1.World(), 50) {
		a := r1.RunBytes(ctx, data).Clone()
		ca := append([]uint8(nil), r1.Counters()...)
		fa := r1.State().objs
		// Interleave another input so that leftovers would show.
		r2.RunBytes(ctx, sixObjectInputs(t, r1.World(), 51)[50])
		b := r2.RunBytes(ctx, data)
		if !reflect.DeepEqual(a.Actions, b.Actions) || !slices.Equal(a.Errors, b.Errors) || !reflect.DeepEqual(a.Hits, b.Hits) ||
			a.VM.Steps != b.VM.Steps || !bytes.Equal(ca, r2.Counters()) || !reflect.DeepEqual(fa, r2.State().objs) {
			t.Fatalf("input %d (% x): runs differ: %v %v %v %v %v %v", i, data, !reflect.DeepEqual(a.Actions, b.Actions), !slices.Equal(a.Errors, b.Errors), !reflect.DeepEqual(a.Hits, b.Hits),
				a.VM.Steps != b.VM.Steps, !bytes.Equal(ca, r2.Counters()), !reflect.DeepEqual(fa, r2.State().objs))
		}
	}
}

func TestSortPlanSortsReachableObjects(t *testing.T) {
	r := loadRunner(t, "sort.plan")
	// Everything in easy reach and view: the plan sorts it all.
	env, err := r.World().ParseEnv("e.env", []byte(`(environment
	  (object milk (region table) (cell 7 4) (orientation 0))
	  (object bowl (region board-1) (cell 8 3) (orientation 0))
	  (object cereal (region board-3) (cell 3 3) (orientation 0)))`))
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), env)
	if res.VM.Outcome != vm.OutcomeOK || len(res.Errors) != 0 || len(res.CheckErrors) != 0 {
		var b bytes.Buffer
		WriteTrace(&b, res.Actions)
		t.Fatalf("outcome %v, errors %v %v\n%s", res.VM.Outcome, res.Errors, res.CheckErrors, b.String())
	}
	if res.VM.Value.Int() != 3 {
		t.Errorf("moved %v objects, want 3", res.VM.Value)
	}
}

func TestNoWorldBuiltins(t *testing.T) {
	f, err := syntax.Parse("q.plan", []byte("(def-plan main () (object-region 'milk-1))"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := vm.New(p, vm.Config{Builtins: NoWorldBuiltins()})
	if err != nil {
		t.Fatal(err)
	}
	res := m.Run(context.Background(), p.Plan("main"), nil)
	if res.Outcome != vm.OutcomeFailure || res.Failure.Kind != "no-world" {
		t.Errorf("outcome %v %v", res.Outcome, res.Failure)
	}
	if len(QueryNames()) != len(Queries()) || QueryNames()[0] != "object-type" {
		t.Errorf("QueryNames %v", QueryNames())
	}
}

func TestRunnerErrors(t *testing.T) {
	if _, err := LoadRunner("testdata/missing.plan", "../../testdata/worlds/warehouse.world", Options{}); err == nil {
		t.Error("missing plan accepted")
	}
	if _, err := LoadRunner("testdata/sort.plan", "../../testdata/worlds/warehouse.world", Options{Plan: "nope"}); err == nil || !strings.Contains(err.Error(), "no plan named") {
		t.Errorf("unknown plan: %v", err)
	}
	if _, err := LoadRunner("testdata/sort.plan", "testdata/sort.plan", Options{}); err == nil || !strings.Contains(err.Error(), "sort.plan:") {
		t.Errorf("plan as world: %v", err)
	}
}

func TestPolicies(t *testing.T) {
	r := loadRunner(t, "policy.plan")
	env, err := r.World().ParseEnv("e.env", []byte(`(environment
	  (object milk (region table) (cell 7 4) (orientation 0))
	  (object milk (region table) (cell 9 4) (orientation 0)))`))
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), env)
	if res.VM.Outcome != vm.OutcomeOK {
		t.Fatalf("outcome %v %v", res.VM.Outcome, res.VM.Failure)
	}
	// Flagged after the second pick and again after parking, and by the
	// final check: listed once.
	if !slices.Equal(res.Errors, []string{"both-hands-full"}) {
		t.Errorf("errors %v", res.Errors)
	}
	if len(res.CheckErrors) != 1 || res.CheckErrors[0].Check != "broken-policy" || res.CheckErrors[0].Kind != "type-error" {
		t.Errorf("check errors %+v", res.CheckErrors)
	}
	var b bytes.Buffer
	WriteTrace(&b, res.Actions)
	want := `  1 picking-up arm=left object=milk-1 -> ok
  2 picking-up arm=right object=milk-2 -> ok !both-hands-full
  3 parking-arms -> ok !both-hands-full
`
	if b.String() != want {
		t.Errorf("trace:\n%s", b.String())
	}
	// Budgets: a policy that spins ends the run as a timeout.
	r2, err := LoadRunner("testdata/policy-loop.plan", "../../testdata/worlds/warehouse.world", Options{MaxSteps: 10000})
	if err != nil {
		t.Fatal(err)
	}
	res = r2.Run(context.Background(), &Env{})
	if res.VM.Outcome != vm.OutcomeTimeout {
		t.Errorf("spinning policy: outcome %v", res.VM.Outcome)
	}
}
