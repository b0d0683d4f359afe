package labels

import (
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Where a decision gets no labels, and why. labelcov's VM evaluates all of
// these, but injecting a label there would change what CRAM's Common Lisp
// does with the code, or the transform cannot place one soundly; each such
// decision is listed as a note among the set's warnings (labels, annotate,
// the manifest).
const (
	whyDesignator = "it is in a designator property value, which CRAM's a/an macro reads as data (only desig:when tests and nested designators are code)"
	whyBackquote  = "it is in a backquote template, which labelcov leaves as written"
	whyFunction   = "it is in a #'(lambda ...), which labelcov leaves as written"
	whyLoop       = "it is in a loop clause, which labelcov does not take apart"
)

// decisionHeads are the forms whose tests are decisions.
var decisionHeads = map[string]bool{"if": true, "when": true, "unless": true, "cond": true, "while": true, "and": true, "or": true}

// loopTests are loop's clause keywords followed by a test.
var loopTests = map[string]bool{"while": true, "until": true, "when": true, "if": true, "unless": true}

// unlabelled notes each decision form inside n (outside quoted data),
// which gets no labels because of why.
func (e *enumerator) unlabelled(n syntax.Node, why string) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.Quote:
			return false
		case *syntax.List:
			if forms.Head(m) == "loop" {
				e.unlabelledLoop(m)
				return false
			}
			if h := forms.Head(m); decisionHeads[h] {
				e.note(m, shortText(m), why)
			}
		}
		return true
	})
}

// unlabelledLoop notes the tests of loop's while, until, when, if and
// unless clauses, and the decisions in any of its forms.
func (e *enumerator) unlabelledLoop(l *syntax.List) {
	for i := 1; i < len(l.Elems); i++ {
		if s, ok := l.Elems[i].(*syntax.Symbol); ok && loopTests[s.Name] && i+1 < len(l.Elems) {
			t := l.Elems[i+1]
			e.note(t, s.Name+" "+shortText(t), whyLoop)
			if tl, ok := t.(*syntax.List); ok && decisionHeads[forms.Head(tl)] {
				// Noted as the clause's test; look inside it only.
				for _, x := range tl.Elems[1:] {
					e.unlabelled(x, whyLoop)
				}
				i++
				continue
			}
		}
		e.unlabelled(l.Elems[i], whyLoop)
	}
}

// unlabelledPrefixed notes the decisions of code under a reader macro
// that the passes leave as written: a backquote's unquoted parts, the
// body of #'(lambda ...).
func (e *enumerator) unlabelledPrefixed(p *syntax.Prefixed) {
	switch p.Mark {
	case syntax.MarkFunction:
		e.unlabelled(p.X, whyFunction)
	case syntax.MarkBackquote:
		syntax.Walk(p.X, func(m syntax.Node) bool {
			if u, ok := m.(*syntax.Prefixed); ok && (u.Mark == syntax.MarkUnquote || u.Mark == syntax.MarkSplice || u.Mark == syntax.MarkNSplice) {
				e.unlabelled(u.X, whyBackquote)
				return false
			}
			return true
		})
	}
}

// note records that the decision at n (described by what) is not
// labelled, and why.
func (e *enumerator) note(n syntax.Node, what, why string) {
	o := e.res.Origin(n)
	if o == nil {
		o = n
	}
	start, _ := o.Span()
	if !start.IsValid() {
		return // generated code has no place to show
	}
	e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, start,
		"note: decision %s is not labelled: %s", what, why))
}

// shortText is n on one line, cut to 40 bytes.
func shortText(n syntax.Node) string {
	s := syntax.NodeString(n)
	if len(s) > 40 {
		s = strings.TrimSpace(s[:37]) + "..."
	}
	return s
}
