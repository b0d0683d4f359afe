package transform

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// densePlan writes a plan of at least n lines of random statements, one a
// line, full of arithmetic and effects in conditions: about 20 labels a
// line with every criterion, far denser than hand-written plans.
func densePlan(n int) string {
	g := &planGen{r: rand.New(rand.NewPCG(1, 2))}
	var b strings.Builder
	b.WriteString("(defparameter *g* 0)\n(defun f (v) (incf *g*) (format t \"f~a \" v) v)\n(defun dbl (v) (* v 2))\n")
	lines := 3
	for i := 0; lines < n; i++ {
		fmt.Fprintf(&b, "; step %d\n(defun step%d (x y)\n", i, i)
		for j := 0; j < 8; j++ {
			b.WriteString("  " + g.stmt(2) + "\n")
		}
		b.WriteString("  (list x y))\n")
		lines += 11
	}
	return b.String()
}

// samplePlan repeats testdata/labels/sample.plan, renaming its
// definitions, until it has at least n lines: a hand-written style plan.
func samplePlan(tb testing.TB, n int) string {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "labels", "sample.plan"))
	if err != nil {
		tb.Fatal(err)
	}
	var b strings.Builder
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		r := strings.NewReplacer("*moves*", fmt.Sprintf("*moves%d*", i), "heavy-p", fmt.Sprintf("heavy-p%d", i),
			"(note", fmt.Sprintf("(note%d", i), "main", fmt.Sprintf("main%d", i))
		b.WriteString(r.Replace(string(src)))
	}
	return b.String()
}

func benchAnnotate(b *testing.B, src []byte) {
	nlines := strings.Count(string(src), "\n")
	crit, _ := labels.ParseCriteria("all")
	f, err := syntax.Parse("big.plan", src)
	if err != nil {
		b.Fatal(err)
	}
	var active, size int
	for b.Loop() {
		r, err := Plan(f, Options{Labels: labels.Options{Criteria: crit}})
		if err != nil {
			b.Fatal(err)
		}
		active, size = len(r.Labels.Active()), len(r.Source)
	}
	b.ReportMetric(float64(nlines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
	b.ReportMetric(float64(active), "labels")
	b.ReportMetric(float64(size)/float64(len(src)), "growth")
}

// BenchmarkAnnotate1000Lines: normalize + enumerate (every criterion) +
// render, for a 1,000-line plan already parsed (parsing is the reader's
// cost; see interp/syntax benchmarks).
func BenchmarkAnnotate1000Lines(b *testing.B) { benchAnnotate(b, []byte(samplePlan(b, 1000))) }

// BenchmarkAnnotate1000LinesDense is the same on machine-generated code
// with about 20 labels a line.
func BenchmarkAnnotate1000LinesDense(b *testing.B) { benchAnnotate(b, []byte(densePlan(1000))) }

// sampleMachines compiles the sample plan, original and annotated with
// crit, and checks both run.
func sampleMachines(b *testing.B, crit string) (orig, ann *machine) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "labels", "sample.plan"))
	if err != nil {
		b.Fatal(err)
	}
	orig = newMachine(b, raw)
	ann = newMachine(b, annotate(b, "sample.plan", string(raw), crit).Source)
	for _, mc := range []*machine{orig, ann} {
		if o := mc.run(3, 4); o.Outcome != vm.OutcomeOK {
			b.Fatalf("sample run: %+v", o)
		}
	}
	return orig, ann
}

// benchRatio interleaves batches of original and annotated runs, so that
// load from other processes hits both alike, and reports the throughput
// of the annotated plan as a fraction of the original's.
func benchRatio(b *testing.B, crit string) {
	orig, ann := sampleMachines(b, crit)
	var tOrig, tAnn time.Duration
	batch := func(mc *machine) time.Duration {
		t0 := time.Now()
		for x := int64(-3); x < 9; x++ {
			mc.run(x, 7-x)
		}
		return time.Since(t0)
	}
	for b.Loop() {
		tOrig += batch(orig)
		tAnn += batch(ann)
	}
	b.ReportMetric(float64(tOrig)/float64(tAnn), "annotated/original")
	b.ReportMetric(12*float64(b.N)/tOrig.Seconds(), "orig-runs/s")
	b.ReportMetric(12*float64(b.N)/tAnn.Seconds(), "ann-runs/s")
}

// BenchmarkThroughputMCCWM: runs/s of the sample plan annotated with MCC
// and every WM operator, relative to the original.
func BenchmarkThroughputMCCWM(b *testing.B) { benchRatio(b, "mcc,wm") }

// BenchmarkThroughputAll: the same with every criterion.
func BenchmarkThroughputAll(b *testing.B) { benchRatio(b, "all") }

// condPlan is one cond of n clauses ((= x i) i): the shape of a
// generated lookup table, about 12 labels a clause with every criterion.
func condPlan(n int) string {
	var b strings.Builder
	b.WriteString("(def-plan main (x)\n  (cond")
	for i := range n {
		fmt.Fprintf(&b, "\n   ((= x %d) %d)", i, i)
	}
	b.WriteString("\n   (t -1)))\n")
	return b.String()
}

// BenchmarkAnnotateCond20k annotates a 20,000-clause cond (issue 11: a
// 100k-clause cond took > 30 s); lines/s should not fall with n.
func BenchmarkAnnotateCond20k(b *testing.B) { benchAnnotate(b, []byte(condPlan(20_000))) }
