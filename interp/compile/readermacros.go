package compile

import (
	"errors"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// Features is the feature set against which reader conditionals (#+feature
// form, #-feature form) are decided. labelcov stands in for the Lisp that
// runs CRAM's plans, SBCL under ROS, so code written for that system is the
// code compiled here; invented features CRAM uses to comment code out
// (#+examples, #+old-stuff) are absent.
var Features = []string{"labelcov", "common-lisp", "ansi-cl", "sbcl", "ros"}

// hasFeature reports whether name is one of Features.
func hasFeature(name string) bool {
	for _, f := range Features {
		if f == name {
			return true
		}
	}
	return false
}

// featureTrue evaluates a feature expression against Features
// (forms.FeatureHolds).
func (c *compiler) featureTrue(n syntax.Node) (bool, error) {
	v, err := forms.FeatureHolds(n, hasFeature)
	var fe *forms.FeatureError
	if errors.As(err, &fe) {
		return false, c.errf(fe.Node, "%s", fe.Msg)
	}
	return v, err
}

// expandConditionals returns f with every reader conditional decided: a
// #+/#- form whose test holds is replaced by its form, one whose test fails
// disappears, as if the reader had skipped it. Nodes without conditionals
// are shared with f; only the lists on the path to a conditional are
// copied. It runs before compilation, so no special form ever sees a
// conditional.
func (c *compiler) expandConditionals(f *syntax.File) (*syntax.File, error) {
	forms, changed, err := c.expandElems(f.Forms)
	if err != nil || !changed {
		return f, err
	}
	g := *f
	g.Forms = forms
	return &g, nil
}

func (c *compiler) expandElems(elems []syntax.Node) ([]syntax.Node, bool, error) {
	var out []syntax.Node // nil until something changes
	for i, e := range elems {
		n, keep, err := c.expandNode(e)
		if err != nil {
			return nil, false, err
		}
		if out == nil && (!keep || n != e) {
			out = append(make([]syntax.Node, 0, len(elems)), elems[:i]...)
		}
		if out != nil && keep {
			out = append(out, n)
		}
	}
	if out == nil {
		return elems, false, nil
	}
	return out, true, nil
}

// expandNode decides the conditionals in n; keep is false when n itself is
// a conditional whose form is skipped.
func (c *compiler) expandNode(n syntax.Node) (syntax.Node, bool, error) {
	switch n := n.(type) {
	case *syntax.Conditional:
		v, err := c.featureTrue(n.Feature)
		if err != nil || v != n.Plus {
			return nil, false, err
		}
		return c.expandNode(n.X)
	case *syntax.List:
		elems, changed, err := c.expandElems(n.Elems)
		if err != nil || !changed {
			return n, true, err
		}
		cp := &syntax.List{Open: n.Open, Close: n.Close, Elems: elems}
		if c.copiedFrom == nil {
			c.copiedFrom = map[*syntax.List]*syntax.List{}
		}
		c.copiedFrom[cp] = n
		return cp, true, nil
	case *syntax.Quote:
		x, keep, err := c.expandNode(n.X)
		if err != nil || x == n.X {
			return n, true, err
		}
		if !keep {
			return nil, false, c.errf(n, "the form after ' is skipped by a reader conditional")
		}
		return &syntax.Quote{Start: n.Start, X: x}, true, nil
	case *syntax.Prefixed:
		x, keep, err := c.expandNode(n.X)
		if err != nil || x == n.X {
			return n, true, err
		}
		if !keep {
			return nil, false, c.errf(n, "the form after %s is skipped by a reader conditional", n.Mark)
		}
		return &syntax.Prefixed{Start: n.Start, Mark: n.Mark, X: x}, true, nil
	}
	return n, true, nil
}

// readerMacro compiles the reader-macro forms: #'f as (function f), a
// backquote as the list-building calls it stands for, a character as a
// one-character string (the VM has no character type), a vector #(...) and
// #p"..." as the constant list and string they contain.
func (fs *fstate) readerMacro(n syntax.Node) error {
	switch n := n.(type) {
	case *syntax.Char:
		fs.emit(CONST, fs.c.constIndex(value.String(string(n.Value))), 0, n.Start)
		return nil
	case *syntax.Prefixed:
		switch n.Mark {
		case syntax.MarkFunction:
			return fs.expr(synthList(n.Start, n.X, synthSym(n.Start, "function"), n.X))
		case syntax.MarkBackquote:
			x, err := fs.c.quasiquote(n.X)
			if err != nil {
				return err
			}
			return fs.expr(x)
		case syntax.MarkUnquote, syntax.MarkSplice, syntax.MarkNSplice:
			return fs.c.errf(n, "%s outside a backquote", n.Mark)
		case syntax.MarkVector, "#p", "#P":
			fs.constant(Literal(n), n.Start)
			return nil
		case syntax.MarkEval:
			return fs.c.errf(n, "#. (read-time evaluation) is not supported")
		}
		return fs.c.errf(n, "reader macro %s is not supported", n.Mark)
	case *syntax.Conditional:
		// expandConditionals removed them all; a conditional here was
		// built by a caller that skipped Compile's preprocessing.
		return fs.c.errf(n, "reader conditional was not expanded")
	}
	return fs.c.errf(n, "unexpected %s", describe(n))
}

// literalOther is Literal for the reader's Common Lisp nodes: a character
// is a one-character string, #'f is (function f), a vector or #p"..." its
// contents, any other prefix the list (MARK x) (as `x quoted as data).
func literalOther(n syntax.Node) value.Value {
	switch n := n.(type) {
	case *syntax.Char:
		return value.String(string(n.Value))
	case *syntax.Prefixed:
		switch n.Mark {
		case syntax.MarkFunction:
			return value.List(value.Symbol("function"), Literal(n.X))
		case syntax.MarkVector, "#p", "#P":
			return Literal(n.X)
		}
		return value.List(value.Symbol(n.Mark), Literal(n.X))
	case *syntax.Conditional:
		return Literal(n.X)
	}
	return value.Nil
}

// quasiquote expands the template of a backquote into the calls that build
// it: constant parts become quote, ,x becomes x and ,@x spliced with
// append; lists are built from the right with cons and append, so a dotted
// tail `(a . ,b) works too. Nested backquotes are refused.
func (c *compiler) quasiquote(n syntax.Node) (syntax.Node, error) {
	start, _ := n.Span()
	if !hasUnquote(n) {
		return &syntax.Quote{Start: start, X: n}, nil
	}
	switch n := n.(type) {
	case *syntax.Prefixed:
		switch n.Mark {
		case syntax.MarkUnquote:
			return n.X, nil
		case syntax.MarkSplice, syntax.MarkNSplice:
			return nil, c.errf(n, "%s must be inside a list in a backquote", n.Mark)
		case syntax.MarkBackquote:
			return nil, c.errf(n, "nested backquote is not supported")
		}
		if n.Mark != syntax.MarkFunction {
			return nil, c.errf(n, "%s with an unquote inside is not supported in a backquote", n.Mark)
		}
		x, err := c.quasiquote(n.X)
		if err != nil {
			return nil, err
		}
		return synthList(start, n, synthSym(start, "list"), quoted(start, "function"), x), nil
	case *syntax.Quote:
		x, err := c.quasiquote(n.X)
		if err != nil {
			return nil, err
		}
		return synthList(start, n, synthSym(start, "list"), quoted(start, "quote"), x), nil
	case *syntax.List:
		elems := n.Elems
		var tail syntax.Node = synthSym(n.Open, "nil")
		if k := len(elems); k >= 3 && syntax.IsSymbol(elems[k-2], ".") {
			t, err := c.quasiquote(elems[k-1])
			if err != nil {
				return nil, err
			}
			tail, elems = t, elems[:k-2]
		}
		for i := len(elems) - 1; i >= 0; i-- {
			e := elems[i]
			es, _ := e.Span()
			if p, ok := e.(*syntax.Prefixed); ok && (p.Mark == syntax.MarkSplice || p.Mark == syntax.MarkNSplice) {
				tail = synthList(es, e, synthSym(es, "append"), p.X, tail)
				continue
			}
			x, err := c.quasiquote(e)
			if err != nil {
				return nil, err
			}
			tail = synthList(es, e, synthSym(es, "cons"), x, tail)
		}
		return tail, nil
	}
	return &syntax.Quote{Start: start, X: n}, nil
}

// hasUnquote reports whether a backquote template holds a , ,@ ,. or a
// nested backquote (which quasiquote refuses rather than quoting it).
func hasUnquote(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if p, ok := m.(*syntax.Prefixed); ok {
			switch p.Mark {
			case syntax.MarkUnquote, syntax.MarkSplice, syntax.MarkNSplice, syntax.MarkBackquote:
				found = true
			}
		}
		return !found
	})
	return found
}

func synthSym(at syntax.Pos, name string) *syntax.Symbol {
	return &syntax.Symbol{Start: at, End: at, Name: name}
}

// synthList builds a generated list that reports its position as the span
// of the source node it stands for.
func synthList(at syntax.Pos, of syntax.Node, elems ...syntax.Node) *syntax.List {
	_, end := of.Span()
	end.Offset--
	end.Col--
	return &syntax.List{Open: at, Close: end, Elems: elems}
}

func quoted(at syntax.Pos, name string) syntax.Node {
	return &syntax.Quote{Start: at, X: synthSym(at, name)}
}
