package sbcover

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// unitPlan has top-level reader conditionals, so SBCL's top-level form
// numbers differ from the file's: the #-sbcl form does not exist for SBCL.
const unitPlan = `#-sbcl (defun ignored () 1)
(in-package :cl-user)
#+(or sbcl ccl) (defvar *v* '(a . (b c)))
(defun f (x) (list 'q (if (> x 0) 'a 'b)))
`

// What SBCL 2.2.9's sb-cover:save-coverage-in-file wrote after (f 1) on
// unitPlan annotated with cc (label 1: (> x 0) true, label 2: false),
// trimmed to the records of the labels' whens and two others; and the same
// data in the form SBCL 2.6 writes (paths vector, bit vector).
const (
	saved229 = `((#A((23) BASE-CHAR . "/tmp/sbclwork/uann.lisp") ((0) . T) ((1 1 1 1 2 3 2) . T)
  ((:THEN 1 1 1 2 3 2) . T) ((:ELSE 1 1 1 2 3 2) . SB-C::%CODE-COVERAGE-UNMARKED%)
  ((:THEN 1 1 1 2 1 2 3 2) . T)
  ((:THEN 1 2 1 2 3 2) . SB-C::%CODE-COVERAGE-UNMARKED%) ((:ELSE 1 2 1 2 3 2) . T)
  ((:THEN 1 2 3 2) . T)) ("/tmp/other.lisp" ((:THEN 1 0) . T)))`
	saved26 = `(("/tmp/sbclwork/uann.lisp" #((0) (1 1 1 1 2 3 2) (:THEN 1 1 1 2 3 2) (:ELSE 1 1 1 2 3 2)
  (:THEN 1 2 1 2 3 2) (:ELSE 1 2 1 2 3 2)) . #*111001))`
)

func unitAnnotated(t *testing.T) (*labels.Manifest, *syntax.File) {
	t.Helper()
	f, err := syntax.Parse("u.lisp", []byte(unitPlan))
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria("cc")
	if err != nil {
		t.Fatal(err)
	}
	r, err := transform.Plan(f, transform.Options{Labels: labels.Options{Criteria: c}})
	if err != nil {
		t.Fatal(err)
	}
	ann, err := syntax.Parse("/tmp/sbclwork/uann.lisp", r.Source)
	if err != nil {
		t.Fatal(err)
	}
	m := r.Manifest("uann.lisp")
	if n := len(r.Labels.Active()); n != 2 {
		t.Fatalf("%d active labels, want 2:\n%s", n, r.Source)
	}
	return m, ann
}

// TestLabelCoverageBothFormats: both forms of sb-cover's saved data give
// each label its then (covered) and else (reached) branch; top-level
// reader conditionals are decided with SBCL's features.
func TestLabelCoverageBothFormats(t *testing.T) {
	m, ann := unitAnnotated(t)
	for name, data := range map[string]string{"2.2.9": saved229, "2.6": saved26} {
		s, err := Read(name, strings.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := s.Find(ann.Name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		covered, reached, err := LabelCoverage(m, ann, f, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !covered[1] || !reached[1] || covered[2] || !reached[2] {
			t.Errorf("%s: covered %v reached %v, want label 1 covered, label 2 reached only", name, covered, reached)
		}
	}
}

// TestLabelCoverageErrors: data that does not fit the annotated plan is an
// error naming the labels, never a silent mismatch: other features shift
// the top-level form numbers; another file; a manifest of another plan.
func TestLabelCoverageErrors(t *testing.T) {
	m, ann := unitAnnotated(t)
	s, err := Read("saved", strings.NewReader(saved229))
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Find("uann.lisp") // by base name
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := LabelCoverage(m, ann, f, Options{Features: []string{"ccl"}}); err == nil || !strings.Contains(err.Error(), "label 1") {
		t.Errorf("other features: %v, want an error naming label 1", err)
	}
	if _, err := s.Find("/elsewhere/plan.lisp"); err == nil || !strings.Contains(err.Error(), "/tmp/other.lisp") {
		t.Errorf("unknown file: %v, want an error listing the recorded files", err)
	}
	other, err := syntax.Parse("x.lisp", []byte("(defun f (x) x)\n"+unitPlan))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := LabelCoverage(m, other, f, Options{}); err == nil || !strings.Contains(err.Error(), "no (when ...)") {
		t.Errorf("mismatched plan: %v", err)
	}
}

// TestReadErrors: malformed data is an error with line and column, never
// a panic.
func TestReadErrors(t *testing.T) {
	for _, data := range []string{"", "(", "((\"f\" ((:THEN 1) . T))", "((\"f\" ((:THEN x) . T)))", "((\"f\" #((:THEN 1)) . #*10))",
		"(1 2)", "((\"f\" . 3))", ")", "((\"f\" #A(1)))", "x y", `(("f" ((:THEN 1 . 2) . T)))`} {
		if _, err := Read("d", strings.NewReader(data)); err == nil {
			t.Errorf("Read(%q): no error", data)
		}
	}
}
