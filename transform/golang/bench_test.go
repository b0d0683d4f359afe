package golang

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// genPackage writes a package of about lines lines of Go with a test. The
// code mixes documented types, straight-line code and decisions about as
// densely as real libraries (pflag, go-cmp: 0.3 to 1 active label per
// line with every criterion); dense makes every function a thicket of
// compound conditions instead (about 8 labels per line).
func genPackage(t testing.TB, lines int, dense bool) string {
	var b strings.Builder
	b.WriteString("package gen\n\nimport \"strings\"\n\n")
	n := 0
	for i := 0; strings.Count(b.String(), "\n") < lines; i++ {
		if dense {
			fmt.Fprintf(&b, `// F%[1]d mixes decisions, calls and arithmetic.
func F%[1]d(a, b int, s string, xs []int) int {
	total := 0
	for i := 0; i < len(xs) && total < 1000; i++ {
		if xs[i] > a && (xs[i] < b || strings.HasPrefix(s, "x")) {
			total += xs[i] * 2
		} else if xs[i] == a+b {
			total -= a - b
		}
	}
	switch {
	case a < 0 && b > 0:
		total++
	case a == %[1]d:
		total += a / (b*b + 1)
	}
	if len(s) > 3 || total > a*b {
		return total + len(s)
	}
	return -total
}

`, i)
		} else {
			fmt.Fprintf(&b, `// T%[1]d is a record with a name and a few counters.
type T%[1]d struct {
	Name  string
	Count int
	Items []string
	Seen  map[string]bool
}

// New%[1]d returns an empty T%[1]d called name.
func New%[1]d(name string) *T%[1]d {
	return &T%[1]d{Name: name, Seen: map[string]bool{}}
}

// Add records item once and reports whether it was new.
func (t *T%[1]d) Add(item string) bool {
	if t.Seen[item] {
		return false
	}
	t.Seen[item] = true
	t.Items = append(t.Items, item)
	t.Count++
	return true
}

// Summary describes t in one line.
func (t *T%[1]d) Summary(max int) string {
	var parts []string
	for i, it := range t.Items {
		if i >= max && max > 0 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, strings.ToUpper(it))
	}
	return t.Name + ": " + strings.Join(parts, ", ")
}

// F%[1]d is a little arithmetic.
func F%[1]d(a, b int, s string, xs []int) int {
	total := 0
	for _, x := range xs {
		total += x * 2
	}
	if a > b {
		total -= a - b
	}
	return total + len(s)
}

`, i)
		}
		n++
	}
	b.WriteString("func All(a, b int) int {\n\ts := 0\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\ts += F%d(a, b, \"xyz\", []int{a, b, a + b})\n", i)
	}
	b.WriteString("\treturn s\n}\n")
	return writeModule(t, map[string]string{
		"gen.go":      b.String(),
		"gen_test.go": "package gen\n\nimport \"testing\"\n\nfunc TestAll(t *testing.T) {\n\tif All(1, 2) == All(1, 2)+1 {\n\t\tt.Fatal()\n\t}\n}\n",
	})
}

// BenchmarkAnnotate5000 annotates a generated 5,000-line package with
// every criterion, loading and type-checking included.
func BenchmarkAnnotate5000(b *testing.B) {
	for _, dense := range []bool{false, true} {
		b.Run(fmt.Sprintf("dense=%v", dense), func(b *testing.B) { benchAnnotate(b, dense) })
	}
}

func benchAnnotate(b *testing.B, dense bool) {
	needGo(b)
	dir := genPackage(b, 5000, dense)
	c := crit(b, "all")
	// Warm the go command's caches (export data of dependencies).
	if _, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Active()), "labels")
	}
	b.ReportMetric(5000*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestAnnotateScalesLinearly: annotating four times as many lines makes
// about four times as many allocations and labels (a quadratic step would
// make sixteen), and the annotated package still passes its test. Counts,
// not times: a shared machine cannot make it flaky.
func TestAnnotateScalesLinearly(t *testing.T) {
	needGo(t)
	c := crit(t, "all")
	type run struct {
		allocs uint64
		labels int
		res    *Result
		dir    string
	}
	measure := func(lines int) run {
		dir := genPackage(t, lines, false)
		// Load once first: the go command's caches and lazy package state
		// are not what is measured.
		if _, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir}); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return run{after.Mallocs - before.Mallocs, res.Active(), res, dir}
	}
	lines := testenv.Sized(500, 1000)
	small, large := measure(lines), measure(4*lines)
	ratio := float64(large.allocs) / float64(small.allocs)
	t.Logf("%d lines: %d labels, %d allocations; %d lines: %d labels, %d allocations (x%.2f)",
		lines, small.labels, small.allocs, 4*lines, large.labels, large.allocs, ratio)
	if lr := float64(large.labels) / float64(small.labels); lr < 3.5 || lr > 4.5 {
		t.Errorf("labels grew x%.2f for x4 lines", lr)
	}
	if ratio > 6 {
		t.Errorf("allocations grew x%.2f for x4 lines: not linear", ratio)
	}
	ov, err := large.res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, large.dir, "-overlay", ov, ".")
}
