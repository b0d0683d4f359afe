package transform

import (
	"runtime"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// liveHeap is the heap still reachable after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestLabelsMemoryPerLabel bounds what the labels of a 20,000-clause cond
// keep alive (issue 11: 100,000 clauses, a million labels, took 1 GB).
// Each label held its predicate as a tree, about 500 bytes a label in
// all; a Label and its strings now take about 260.
func TestLabelsMemoryPerLabel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 200,000 labels")
	}
	f, err := syntax.Parse("cond.plan", []byte(condPlan(20_000)))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, normalize.Options{HoistCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	crit, err := labels.ParseCriteria("mcc,wm")
	if err != nil {
		t.Fatal(err)
	}
	before := liveHeap()
	set, err := labels.Enumerate(nr, labels.Options{Criteria: crit})
	if err != nil {
		t.Fatal(err)
	}
	after := liveHeap()
	n := len(set.Labels)
	if n < 180_000 {
		t.Fatalf("%d labels, want 10 a clause", n)
	}
	perLabel := float64(after-before) / float64(n)
	const bound = 350
	if perLabel > bound {
		t.Errorf("labels keep %.0f bytes each alive, want at most %d", perLabel, bound)
	}
	runtime.KeepAlive(set)
	runtime.KeepAlive(nr)
}
