package transform

import (
	"bytes"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

// TestReaderMacrosPassThrough: backquotes, #' and reader conditionals are
// opaque to the label passes. No label point lies inside a backquote or in
// a list that holds a reader conditional (its elements depend on the
// feature set), their bytes survive annotation, and the annotated plan
// behaves as the original.
func TestReaderMacrosPassThrough(t *testing.T) {
	src := `(defun twice (x) (* 2 x))

(defun build (x ys)
  (if (> x 1)
      ` + "`" + `(a ,x ,@ys ,(if (< x 5) 'small 'big) ,(+ x 1))
      (list (funcall #'twice x) #\a 1/2 (> x 0))))

(defun pick (x)
  (if (and (> x 0) #+sbcl (< x 10) #-sbcl (> x 100))
      (> x #+sbcl 1 #-sbcl 2)
      'out))

(def-plan main ()
  (list (build 3 '(1 2)) (build 1 nil) (pick 5) (pick 50)
        #+examples (print "never") (when (pick 2) ` + "`" + `(,#'twice))))
`
	r := annotate(t, "rm.plan", src, "all")
	if !isSubsequence([]byte(src), r.Source) {
		t.Fatalf("original text not preserved:\n%s", r.Source)
	}
	for _, keep := range []string{"`(a ,x ,@ys ,(if (< x 5) 'small 'big) ,(+ x 1))", "#+sbcl (< x 10) #-sbcl (> x 100)", "#+examples (print \"never\")", "#'twice"} {
		if !bytes.Contains(r.Source, []byte(keep)) {
			t.Errorf("annotated plan lost %q:\n%s", keep, r.Source)
		}
	}
	f := mustParse(t, src)
	var opaque [][2]int // byte ranges no label may point into
	var whole []string  // lists holding a conditional: copied whole or not at all
	for _, form := range f.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			s, e := n.Span()
			switch n := n.(type) {
			case *syntax.List:
				for _, el := range n.Elems {
					if _, ok := el.(*syntax.Conditional); ok {
						whole = append(whole, src[s.Offset:e.Offset])
						break
					}
				}
			case *syntax.Prefixed:
				if n.Mark == syntax.MarkBackquote {
					opaque = append(opaque, [2]int{s.Offset, e.Offset})
				}
			case *syntax.Conditional:
				opaque = append(opaque, [2]int{s.Offset, e.Offset})
			}
			return true
		})
	}
	if len(opaque) != 7 || len(whole) != 3 {
		t.Fatalf("found %d opaque ranges", len(opaque))
	}
	active := r.Labels.Active()
	if len(active) == 0 {
		t.Fatal("no labels at all")
	}
	for _, l := range active {
		for _, o := range opaque {
			if off := l.Pos.Offset; off >= o[0] && off < o[1] {
				t.Errorf("label %d (%s %s) at %v lies inside %q", l.ID, l.Criterion, l.Operator, l.Pos, src[o[0]:o[1]])
			}
		}
		if strings.Contains(l.Predicate, "#+") || strings.Contains(l.Predicate, "#-") {
			ok := false
			for _, w := range whole {
				ok = ok || strings.Contains(l.Predicate, w)
			}
			if !ok {
				t.Errorf("label %d splits a list holding a reader conditional: %s", l.ID, l.Predicate)
			}
		}
	}
	af, err := readBack(r)
	if err != nil {
		t.Fatal(err)
	}
	sameBehaviour(t, f, af)
}
