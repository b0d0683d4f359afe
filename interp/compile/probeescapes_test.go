package compile

import (
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// walkEscapes is what probeForm asked syntax.Walk before probeEscapes:
// any node of n whose head is an escaping form.
func walkEscapes(n syntax.Node) bool {
	escapes := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if h := forms.Head(n); h == "return" || h == "return-from" || h == "retry" || h == "do-retry" || h == "loop" {
			escapes = true
		}
		return !escapes
	})
	return escapes
}

// TestProbeEscapesAsWalk checks probeEscapes against the walk on every
// node of every plan and script and on forms that hide an escape in a
// quote, a #' prefix, a reader conditional or deep in a call.
func TestProbeEscapesAsWalk(t *testing.T) {
	src := `(a (b (c (return-from f 1))))
'(return 1)
#'(lambda () (loop))
#+sbcl (retry)
#-(or x (do-retry)) y
(when (ignore-errors (< (abs (- a b)) 4)))
(f 'return (return))
(return)
(g (h) (i (j (k (do-retry)))))
(g (h) (i (j (k do-retry))))
`
	f, err := syntax.Parse("escapes.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	files := []*syntax.File{f}
	plans, _ := filepath.Glob(filepath.Join(plansDir, "*.plan"))
	scripts, _ := filepath.Glob(filepath.Join("testdata", "scripts", "*.plan"))
	for _, p := range append(plans, scripts...) {
		pf, err := syntax.ParseFile(p)
		if err != nil {
			continue // scripts that test the reader's errors
		}
		files = append(files, pf)
	}
	if len(files) < 3 {
		t.Fatalf("only %d files read", len(files))
	}
	nodes, escaping := 0, 0
	for _, pf := range files {
		for _, top := range pf.Forms {
			syntax.Walk(top, func(n syntax.Node) bool {
				nodes++
				want := walkEscapes(n)
				if want {
					escaping++
				}
				if got := probeEscapes(n); got != want {
					t.Errorf("%s: probeEscapes(%s) = %v, the walk says %v", pf.Name, syntax.NodeString(n), got, want)
				}
				return true
			})
		}
	}
	if escaping < 10 || escaping == nodes {
		t.Fatalf("%d of %d nodes escape: the cases do not exercise both answers", escaping, nodes)
	}
}

// TestDistRungWrittenExactly: only a rung written as the dist ladder
// writes it compiles to a dist compare probe; each near miss (another
// operand order, constant, operator or spacing the reader keeps in a
// literal's text) compiles otherwise.
func TestDistRungWrittenExactly(t *testing.T) {
	rungs := map[string]bool{
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- x y))) (eq (< x y) (< (- x y) 0)))":                        true,
		"(and (< (abs (- x (* 2 y))) 4) (<= 0 (abs (- x (* 2 y)))) (eq (< x (* 2 y)) (< (- x (* 2 y)) 0)))": true,
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- y x))) (eq (< x y) (< (- x y) 0)))":                        false,
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- x y))) (eq (< x y) (< (- x y) 1)))":                        false,
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- x y))) (eq (<= x y) (< (- x y) 0)))":                       false,
		"(and (< (abs (- x y)) 16) (<= 00 (abs (- x y))) (eq (< x y) (< (- x y) 0)))":                       false,
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- x y))) (eq (< x y) (< (- x y) 0)) t)":                      false,
		"(and (< (abs (- x y)) 16) (<= 0 (abs (- x z))) (eq (< x y) (< (- x y) 0)))":                        false,
	}
	for pred, want := range rungs {
		src := "(defun f (a) a)\n(def-plan main () (let ((x 1) (y 2) (z 3)) (when (ignore-errors " + pred + ")) z))\n"
		p, err := compileString(t, src)
		if err != nil {
			t.Fatalf("%s: %v", pred, err)
		}
		got := false
		for _, pc := range p.Probes {
			got = got || pc.Cmp == 'd'
		}
		if got != want {
			t.Errorf("%s: compiled to a dist compare probe: %v, want %v", pred, got, want)
		}
	}
}
