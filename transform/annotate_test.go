package transform

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// allCriteria selects every criterion.
const allCriteria = labels.Criteria(1<<6 - 1)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/labels")

func annotate(t testing.TB, name, src, crit string) *Result {
	t.Helper()
	f, err := syntax.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Plan(f, Options{Labels: labels.Options{Criteria: c}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./transform -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output (run with -update after checking):\n%s", path, got)
	}
}

// TestGolden pins the annotated sample plan and its manifest.
func TestGolden(t *testing.T) {
	dir := filepath.Join("..", "testdata", "labels")
	src, err := os.ReadFile(filepath.Join(dir, "sample.plan"))
	if err != nil {
		t.Fatal(err)
	}
	r := annotate(t, "sample.plan", string(src), "all")
	golden(t, filepath.Join(dir, "sample.annotated.plan"), r.Source)
	var b bytes.Buffer
	if err := r.Manifest("sample.annotated.plan").Write(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, filepath.Join(dir, "sample.manifest.json"), b.Bytes())
	if _, err := labels.ReadManifest(&b); err != nil {
		t.Errorf("golden manifest does not read back: %v", err)
	}
}

// isSubsequence reports whether a's bytes occur in b in order.
func isSubsequence(a, b []byte) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}

var injected = regexp.MustCompile(`\(progn (\(when \(ignore-errors .*\)\) ; label [0-9]+ [a-z-]+ .*\n *)+`)

// TestOnlyInsertions: without effects in conditions, annotation only
// inserts text — the original is a subsequence of the output, and the
// inserted bytes are exactly the (progn (when ...) ...  and ) wrappers.
func TestOnlyInsertions(t *testing.T) {
	src := `;; header comment
(defun f (a b) ; trailing
  #| block
     comment |#
  (if (and (< a b)   ; why
           (or (= a 0) (> b 10)))
      (+ a    b)     ; odd spacing kept
      (- (* a 2) b)))
(def-plan main (x) (f x 3))
`
	r := annotate(t, "t.plan", src, "all")
	if r.Normalized.Changed() {
		t.Fatal("sample should need no normalization")
	}
	if !isSubsequence([]byte(src), r.Source) {
		t.Fatalf("original text not preserved:\n%s", r.Source)
	}
	wrappers := injected.FindAll(r.Source, -1)
	extra := 0
	for _, w := range wrappers {
		extra += len(w) + 1 // and the closing ')'
	}
	if len(r.Source)-len(src) != extra {
		t.Errorf("output has %d extra bytes, wrappers account for %d:\n%s", len(r.Source)-len(src), extra, r.Source)
	}
	af, err := readBack(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range af.Comments {
		if !strings.Contains(c.Text, "; label ") {
			got = append(got, c.Text)
		}
	}
	want := []string{";; header comment", "; trailing", "#| block\n     comment |#", "; why", "; odd spacing kept"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("comments %q, want %q", got, want)
	}
}

func TestAnnotatedPositionsPointAtWhens(t *testing.T) {
	r := annotate(t, "t.plan", "(def-plan main (x y)\n  (when (or (< x y) (= x 0)) (- x y)))", "all")
	active := r.Labels.Active()
	if len(active) == 0 {
		t.Fatal("no labels")
	}
	af, err := readBack(r)
	if err != nil {
		t.Fatal(err)
	}
	whens := map[int]bool{}
	for _, form := range af.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok && syntax.Head(l) == "when" {
				whens[l.Open.Offset] = true
			}
			return true
		})
	}
	for _, l := range active {
		a := l.Annotated
		if a == nil {
			t.Fatalf("label %d has no annotated position", l.ID)
		}
		if !whens[a.Offset] {
			t.Errorf("label %d: no when form at offset %d", l.ID, a.Offset)
		}
		rest := string(r.Source[a.Offset:])
		line := rest[:strings.IndexByte(rest, '\n')]
		if !strings.HasPrefix(line, "(when (ignore-errors "+l.Predicate+"))") ||
			!strings.Contains(line, "; label "+strconv.Itoa(l.ID)+" "+string(l.Criterion)+" "+l.Operator) {
			t.Errorf("label %d at %d:%d: %q", l.ID, a.Line, a.Col, line)
		}
		lines := strings.Split(string(r.Source), "\n")
		if lines[a.Line-1][a.Col-1:] != line {
			t.Errorf("label %d: line/col %d:%d disagree with offset %d", l.ID, a.Line, a.Col, a.Offset)
		}
	}
}

func TestRefusesAnnotatedInput(t *testing.T) {
	r := annotate(t, "t.plan", "(def-plan main (x) (if (< x 1) 1 2))", "cc")
	f, err := syntax.Parse("t.ann.plan", r.Source)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Plan(f, Options{Labels: labels.Options{Criteria: allCriteria}})
	var serr *syntax.Error
	if !errors.As(err, &serr) || !strings.Contains(err.Error(), "already annotated") {
		t.Fatalf("annotating an annotated plan: %v", err)
	}
	if serr.Pos.Line != 1 || !strings.HasPrefix(string(f.Src[serr.Pos.Offset:]), "; label 1 cc") {
		t.Errorf("error at %v, want the first label comment", serr.Pos)
	}
	// Someone else's comment that mentions labels is fine.
	if _, err := Plan(mustParse(t, "; label the boxes\n(def-plan main () 1)"), Options{Labels: labels.Options{Criteria: allCriteria}}); err != nil {
		t.Errorf("ordinary comment refused: %v", err)
	}
}

func mustParse(t testing.TB, src string) *syntax.File {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func FuzzTransform(f *testing.F) {
	for _, s := range []string{
		"(def-plan main (x) (if (< (+ x (incf x)) 10) 1 2))",
		"(defun f (v) (print v) v) (def-plan main (x) (cond ((or (f 1) (> x 2)) 1) ((> (f x) 3) 2)))",
		"(def-plan main (x) ; c\n (while (and (< (incf x) 3) (print x)) (setq x (- x (abs x)))))",
		"(def-plan main (a b) (when (and (>= a 1) (<= a 1) (/= a 1) (- a)) (/ a b)))",
		"(x (y) '(z (incf q)) #| b |# (lambda (q) (< q (funcall q))))",
		"(defparameter *g* 1) (defun f (v) (incf *g*) (print v)) (def-plan main () (let ((x 2) (y 0)) (when (or (> (f x) 1) (= (setq y (* y 3)) 0)) (- (incf x) (f y))) (list x y *g*)))",
		"(def-plan main () (let ((l '(1 2 3)) (n 0)) (dolist (e l) (cond ((evenp (incf n)) (push e l)) ((and (> e 1) (pop l)) (return e)))) (list n l)))",
		"(def-plan main () (let ((x 2)) (if (and (> x 0) #+sbcl (< x 10) #-sbcl (print x)) `(a ,x ,@(list (+ x 1))) (funcall #'+ x #\\a))))",
		// Big operands bound to temporaries (normalize.BigOperand), a
		// failing one among them, an impure one after them.
		"(def-plan main () (let ((x 2)) (< (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 x))))))))) (* x (car x)))))",
		"(def-plan main () (let ((x 2)) (- (+ x (+ x (+ x (+ x (+ x (+ x (+ x (+ x 1)))))))) (incf x) (/ x 0))))",
		"(def-plan main () (let ((x 2)) (and (> (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 x)))))))) 3) (print x) (< x (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 (+ 1 x)))))))))))))",
		// Duplicates merged in one region; a relation and its mirror.
		"(def-plan main () (let ((a -1)) (list (> (+ a a) (* a 2)) (< a 3) (> 3 a) (if (< a 3) a (- a)))))",
		// dist's prefix stones: string= and equal against string
		// constants and between values, impure and failing operands.
		"(defun f (v) (print v) v) (def-plan main (x) (let ((s (format nil \"~a~a\" (code-char (+ 99 (mod x 3))) \"é\"))) (list (string= s \"cé\") (equal \"\" s) (equal x \"ab\") (string= (f s) (subseq \"cabbage\" 0 (mod x 9))) (or (string= 'ab s) (mismatch s \"c\")))))",
	} {
		f.Add(s)
	}
	withDist, err := labels.ParseCriteria("all,dist")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := syntax.Parse("fuzz.plan", []byte(src))
		if err != nil || CheckNotAnnotated(file) != nil {
			return
		}
		r, err := Plan(file, Options{Labels: labels.Options{Criteria: withDist, MCCMaxAtoms: 4}})
		if err != nil {
			t.Fatalf("%v\ninput %q", err, src)
		}
		af, err := readBack(r)
		if err != nil {
			t.Fatalf("output does not parse: %v\n%q", err, r.Source)
		}
		// Deterministic: the same input gives the same output.
		r2, err := Plan(file, Options{Labels: labels.Options{Criteria: withDist, MCCMaxAtoms: 4}})
		if err != nil || !bytes.Equal(r.Source, r2.Source) {
			t.Fatalf("not deterministic: %v", err)
		}
		sameBehaviour(t, file, af)
		if len(r.Labels.Active()) > 0 {
			if err := CheckNotAnnotated(af); err == nil {
				t.Fatalf("annotated output not recognised as annotated:\n%s", r.Source)
			}
		} else if !bytes.Equal(r.Source, r.Normalized.Source) {
			t.Fatalf("no labels, yet output differs from the normalized plan")
		}
	})
}

// sameBehaviour checks that an annotated plan compiles whenever the
// original does and, for a zero-argument plan main that finishes well
// within budget, runs to the same outcome, value, output and failure.
func sameBehaviour(t *testing.T, orig, ann *syntax.File) {
	t.Helper()
	po, err := compile.Compile(orig)
	if err != nil {
		return
	}
	pa, err := compile.Compile(ann)
	if err != nil {
		t.Fatalf("original compiles, annotated does not: %v\n%s", err, ann.Src)
	}
	fo, fa := po.Plan("main"), pa.Plan("main")
	if fo == nil || len(fo.Params) != 0 {
		return
	}
	run := func(p *compile.Program, fn *compile.Func, steps int64) (vm.Result, string) {
		var out bytes.Buffer
		m, err := vm.New(p, vm.Config{Stdout: &out, MaxSteps: steps})
		if err != nil {
			t.Fatal(err)
		}
		return m.Run(context.Background(), fn, nil), out.String()
	}
	ro, oo := run(po, fo, 10_000)
	if ro.Outcome == vm.OutcomeTimeout || ro.Steps > 1_000 {
		return
	}
	ra, oa := run(pa, fa, 1_000_000)
	same := ro.Outcome == ra.Outcome && oo == oa && ro.Value.String() == ra.Value.String()
	if ro.Failure != nil {
		same = same && ra.Failure != nil && ro.Failure.Kind == ra.Failure.Kind && ro.Failure.Message == ra.Failure.Message
	}
	if !same {
		t.Fatalf("behaviour changed:\noriginal  %v %v %q %+v\nannotated %v %v %q %+v\n%s", ro.Outcome, ro.Value, oo, ro.Failure, ra.Outcome, ra.Value, oa, ra.Failure, ann.Src)
	}
}

// TestEnumerate: Enumerate lists the labels Plan injects when it keeps
// the calls in place, and refuses an annotated plan as Plan does.
func TestEnumerate(t *testing.T) {
	src := "(def-plan main (x y) (when (and (< x (abs y)) (> y 2)) (print x)) (if (or (= x 1) (< (+ x y) 7)) 1 2))"
	o := Options{Labels: labels.Options{Criteria: allCriteria}}
	set, err := Enumerate(mustParse(t, src), o)
	if err != nil {
		t.Fatal(err)
	}
	o.KeepCalls = true
	r, err := Plan(mustParse(t, src), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Labels) == 0 || len(set.Labels) != len(r.Labels.Labels) {
		t.Fatalf("Enumerate: %d labels, Plan: %d", len(set.Labels), len(r.Labels.Labels))
	}
	for i, l := range set.Labels {
		p := r.Labels.Labels[i]
		if l.ID != p.ID || l.Criterion != p.Criterion || l.Predicate != p.Predicate || l.Status != p.Status || l.Pos != p.Pos {
			t.Errorf("label %d: Enumerate %+v, Plan %+v", i, l, p)
		}
	}
	ann, err := syntax.Parse("t.ann.plan", r.Source)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Enumerate(ann, o); err == nil || !strings.Contains(err.Error(), "already annotated") {
		t.Errorf("enumerating an annotated plan: %v", err)
	}
}
