package golang

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// count returns how many labels of criterion k at line have status st
// (any status when st is "").
func count(res *Result, line int, k labels.Key, st labels.Status) int {
	n := 0
	for _, l := range res.Labels {
		if l.Pos.Line == line && l.Criterion == k && (st == "" || l.Status == st) {
			n++
		}
	}
	return n
}

// TestConditionsCountedRight: testdata/go/conditions holds the decisions
// issue 13 lists; each gets its labels, and the annotated package passes
// its tests and go vet.
func TestConditionsCountedRight(t *testing.T) {
	needGo(t)
	dir, err := filepath.Abs("../../testdata/go/conditions")
	if err != nil {
		t.Fatal(err)
	}
	res := annotateWhole(t, dir, "all,mcdc")
	for _, c := range []struct {
		what          string
		line          int
		k             labels.Key
		all, inactive int
	}{
		// One label set per atom behind a call: 3 atoms, 6 CC, 8 MCC of
		// which 4 ask an operand Go never evaluated for a value.
		{"atoms behind calls, cc", 14, labels.CC, 6, 0},
		{"atoms behind calls, mcc", 14, labels.MCC, 8, 4},
		{"five atoms, cc", 22, labels.CC, 10, 0},
		{"five atoms, mcc", 22, labels.MCC, 32, 20}, // 6 paths of pos(a)…pos(d), e > 0 either way
		{"return", 30, labels.CC, 4, 0},
		{"assignment", 35, labels.CC, 4, 0},
		{"assignment, mcc", 35, labels.MCC, 4, 1},
		{"call argument", 41, labels.CC, 4, 0},
		{"if init statement", 46, labels.WMCOR, 1, 0},
		{"for post statement", 55, labels.WMAOR, 6, 0},
		{"goto", 65, labels.CC, 4, 0},
		{"goto, behind calls", 69, labels.CC, 4, 0},
		{"goto target, behind calls", 87, labels.CC, 4, 0},
		{"equivalent mutants", 79, labels.WMAOR, 6, 3}, // 2 equivalent, x / 0 trivial
		// MC/DC: one label per short-circuit test vector, none infeasible.
		{"atoms behind calls, mcdc", 14, labels.MCDC, 4, 0},
		{"five atoms, mcdc", 22, labels.MCDC, 8, 0},
		{"return, mcdc", 30, labels.MCDC, 3, 0},
		{"call argument, mcdc", 41, labels.MCDC, 3, 0},
	} {
		all, inactive := count(res, c.line, c.k, ""), count(res, c.line, c.k, "")-count(res, c.line, c.k, labels.Active)
		if all != c.all || inactive != c.inactive {
			t.Errorf("%s (line %d): %d %s labels, %d not active; want %d, %d", c.what, c.line, all, c.k, inactive, c.all, c.inactive)
		}
	}
	if n := count(res, 79, labels.WMAOR, labels.Infeasible); n != 2 {
		t.Errorf("equivalent AOR mutants: %d infeasible, want 2", n)
	}
	for _, l := range res.Labels {
		if l.Criterion == labels.MCC && l.Pos.Line == 14 && l.Status == labels.Infeasible &&
			!strings.Contains(l.Reason, "is only evaluated when") {
			t.Errorf("MCC %s: reason %q", l.Operator, l.Reason)
		}
		if l.Criterion == labels.WMAOR && l.Pos.Line == 79 && l.Status == labels.Infeasible &&
			!strings.Contains(l.Reason, "equivalent mutant") {
			t.Errorf("AOR %s: reason %q", l.Operator, l.Reason)
		}
		// Reports show the source, never temporaries.
		for _, s := range []string{l.Source, l.Expr} {
			if strings.Contains(s, "lc") {
				t.Errorf("label %d %s %s shows a temporary: %q", l.ID, l.Criterion, l.Operator, s)
			}
		}
		if strings.Contains(l.Predicate, "lc") && l.Expr == "" {
			t.Errorf("label %d %s: predicate %q has temporaries but no Expr", l.ID, l.Criterion, l.Predicate)
		}
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
	vet := exec.Command("go", "vet", "-overlay", ov, ".")
	vet.Dir = dir
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet on the overlay: %v\n%s", err, out)
	}
	// Labels of a goto target run when goto jumps there: the label moves
	// to the first of them.
	var src string
	for _, p := range res.Packages {
		for _, f := range p.Files {
			src += string(f.Source)
		}
	}
	if !strings.Contains(src, "loop:\n\tif i < len(xs) {\n\t} // label ") {
		t.Error("goto target's labels are not under its label")
	}
}

// TestAnnotateNothingIntoNewDir: a package without anything to label
// still writes overlay.json and labels.json into a directory that does not
// exist yet.
func TestAnnotateNothingIntoNewDir(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": "package m\n\nfunc F() int { return 1 }\n"})
	res := annotate(t, dir, "all")
	if res.Active() != 0 {
		t.Fatalf("%d labels", res.Active())
	}
	out := filepath.Join(t.TempDir(), "new", "dir")
	ov, err := res.WriteOverlay(out)
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
}
