package golang

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestAnnotate5000Fast checks the speed budget (5,000 lines in under 2 s,
// type checking included) and that the generated package still passes.
func TestAnnotate5000Fast(t *testing.T) {
	needGo(t)
	if testing.Short() {
		t.Skip("timing test")
	}
	dir := genPackage(t, 5000, false)
	c := crit(t, "all")
	if _, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	best := time.Hour
	var res *Result
	for i := 0; i < 3; i++ {
		start := time.Now()
		r, err := Annotate(context.Background(), []string{"."}, Options{Criteria: c, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
		res = r
	}
	t.Logf("5,000 lines, %d active labels: best of 3 %v", res.Active(), best)
	if best > 2*time.Second {
		// On a loaded shared machine this can happen without a regression:
		// strict only when asked (LABELCOV_STRICT_TIMING=1).
		if os.Getenv("LABELCOV_STRICT_TIMING") != "" {
			t.Errorf("annotating 5,000 lines took %v, budget 2s", best)
		} else {
			t.Logf("over the 2s budget (%v); set LABELCOV_STRICT_TIMING=1 to fail", best)
		}
	}
	ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
}
