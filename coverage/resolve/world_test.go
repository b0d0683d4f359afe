package resolve

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// measured measures plan on world (criteria cc) and gives the tests of
// suite and the items they cover.
func measured(t *testing.T, plan, world, suite string) (*measure.Measurer, []*measure.Test, map[string]bool) {
	t.Helper()
	w, err := sim.LoadWorld(world)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse(plan, src)
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria("cc")
	if err != nil {
		t.Fatal(err)
	}
	m, err := measure.New(f, measure.Options{World: w, Labels: labels.Options{Criteria: c}})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := m.LoadTests(suite)
	if err != nil {
		t.Fatal(err)
	}
	items, err := m.Items(context.Background(), ts)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, its := range items {
		for _, it := range its {
			have[it] = true
		}
	}
	return m, ts, have
}

// crowded measures testdata/crowded.plan on the kitchen world, its suite
// the empty environment.
func crowded(t *testing.T) (*measure.Measurer, []*measure.Test, map[string]bool) {
	t.Helper()
	return measured(t, "testdata/crowded.plan", "../../testdata/worlds/kitchen.world", "testdata/empty.env")
}

// labelAt is the id of m's active label of criterion cc with operator op
// whose source is expr.
func labelAt(t *testing.T, m *measure.Measurer, op, expr string) int {
	t.Helper()
	for _, l := range m.Labels() {
		if l.Operator == op && l.Predicate == expr {
			return l.ID
		}
	}
	t.Fatalf("no label %s %s", op, expr)
	return 0
}

// TestEnvironmentSearch: on a plan with a world, gentests --solve's
// environment search finds the scenario a label needs (13 objects on the
// counter: a packed region) within a bounded number of runs, replays it
// and writes it; it never claims a label no environment covers (more
// objects than an environment holds), which ends unresolved with what
// was tried; the same seed writes the same scenario.
func TestEnvironmentSearch(t *testing.T) {
	var texts []string
	for range 2 {
		m, ts, have := crowded(t)
		full, never := labelAt(t, m, "true", "(> n 12)"), labelAt(t, m, "true", "(> m 99)")
		var written []string
		write := func(text, ext string, id int, adds []string) (string, error) {
			if ext != ".env" {
				t.Errorf("a world plan's test written as %s", ext)
			}
			written = append(written, text)
			return "found.env", nil
		}
		r, err := Uncovered(context.Background(), m, have, Options{Write: write, Seeds: ts, Seed: 7, Runs: 400})
		if err != nil {
			t.Fatal(err)
		}
		by := map[int]Label{}
		for _, l := range r.Labels {
			by[l.ID] = l
		}
		if l := by[full]; l.Status != measure.StatusCovered || l.Test != "found.env" {
			t.Fatalf("label %d (> n 12): %+v, want covered by the scenario found", full, l)
		}
		if l := by[never]; l.Status != measure.StatusUnresolved || !strings.Contains(l.Reason, "400 environment(s) run") {
			t.Errorf("label %d (> m 99): %+v, want unresolved after the 400 runs", never, l)
		}
		if len(written) != 1 {
			t.Fatalf("%d scenarios written, want 1", len(written))
		}
		// What was written replays to the label on its own.
		wt, err := m.ParseTest("found.env", []byte(written[0]))
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Items(context.Background(), []*measure.Test{wt})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(" "+strings.Join(got[0], " ")+" ", " "+measure.LabelItem(full)+" ") {
			t.Errorf("the scenario written does not cover label %d: %s", full, written[0])
		}
		texts = append(texts, written[0])
	}
	if texts[0] != texts[1] {
		t.Errorf("the same seed wrote two scenarios:\n%s\n%s", texts[0], texts[1])
	}
}

// TestEnvironmentSearchCancelled: a context already done runs nothing;
// the labels no test covers end unresolved, without an error.
func TestEnvironmentSearchCancelled(t *testing.T) {
	m, ts, have := crowded(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Uncovered(ctx, m, have, Options{Seeds: ts, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Labels {
		if l.Status == measure.StatusUnresolved && !strings.Contains(l.Reason, "0 environment(s) run") {
			t.Errorf("label %d: %s", l.ID, l.Reason)
		}
	}
}

// TestEnvironmentSearchReports: without Write (cover --solve), a scenario
// that covers a label is named in its reason, as one line.
func TestEnvironmentSearchReports(t *testing.T) {
	m, ts, have := crowded(t)
	full := labelAt(t, m, "true", "(> n 12)")
	r, err := Uncovered(context.Background(), m, have, Options{Seeds: ts, Seed: 7, Runs: 400})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Labels {
		if l.ID == full && (l.Status != measure.StatusUnresolved || !strings.Contains(l.Reason, "(object bottle (region counter)") || strings.Contains(l.Reason, "\n")) {
			t.Errorf("label %d: %+v, want unresolved naming the scenario found", l.ID, l)
		}
	}
}

// TestEnvironmentSearchKitchen: on the kitchen
// benchmark, from its reproducers alone, the search finds within 1000
// runs the scenario that enters deliver's manipulation-failure handler at
// the counter (storing a bottle on a counter with no free reachable place:
// a packed region), which no campaign of the benchmark table reached.
func TestEnvironmentSearchKitchen(t *testing.T) {
	m, ts, have := measured(t, "../../testdata/bench/kitchen/kitchen.plan", "../../testdata/worlds/kitchen.world", "../../testdata/bench/kitchen/reproducers")
	atCounter := 0
	for _, l := range m.Labels() {
		if l.Pos.Line == 123 && l.Pos.Col == 42 && l.Operator == "true" {
			atCounter = l.ID
		}
	}
	if atCounter == 0 || have[measure.LabelItem(atCounter)] {
		t.Fatalf("label at kitchen.plan:123:42 (cc true): id %d, covered by the reproducers %v", atCounter, have[measure.LabelItem(atCounter)])
	}
	var written string
	write := func(text, ext string, id int, adds []string) (string, error) {
		if id == atCounter || written == "" {
			written = text
		}
		return "found.env", nil
	}
	r, err := Uncovered(context.Background(), m, have, Options{Write: write, Seeds: ts, Seed: 1, Runs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Labels {
		if l.ID == atCounter && l.Status != measure.StatusCovered {
			t.Fatalf("label %d: %+v, want covered", l.ID, l)
		}
	}
	if !strings.Contains(written, "(object bottle (region counter)") {
		t.Errorf("the scenario written has no bottle on the counter:\n%s", written)
	}
}

// TestEnvironmentSearchStalls: with no deadline and no bound on runs
// (cover --solve), the search ends once it has run every one-object
// scenario and then found nothing in stallRuns runs, saying so.
func TestEnvironmentSearchStalls(t *testing.T) {
	m, ts, have := crowded(t)
	never := labelAt(t, m, "true", "(> m 99)")
	r, err := Uncovered(context.Background(), m, have, Options{Seeds: ts, Seed: 3, Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range r.Labels {
		if l.ID == never && (!strings.Contains(l.Reason, "1536 of the world's 1536 one-object environments") || !strings.Contains(l.Reason, "run(s) without a find")) {
			t.Errorf("label %d: %s", l.ID, l.Reason)
		}
	}
}
