package transform

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
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
