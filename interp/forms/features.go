package forms

import "github.com/labelcov/labelcov/interp/syntax"

// Features is the feature set reader conditionals are read against:
// #+sbcl FORM counts, #+anything-else FORM does not (CRAM's files use
// #+ with made-up features to comment code out), #-sbcl FORM does not.
// Read-only.
var Features = map[string]bool{
	"common-lisp": true, "ansi-cl": true, "sbcl": true, "labelcov": true,
}

// FeatureActive evaluates a feature expression: a symbol or keyword is
// true when it is in Features; (:or X...), (:and X...) and (:not X)
// combine them.
func FeatureActive(e syntax.Node) bool {
	switch e := e.(type) {
	case *syntax.Keyword:
		return Features[e.Name]
	case *syntax.Symbol:
		return Features[e.Name]
	case *syntax.List:
		if len(e.Elems) == 0 {
			return false
		}
		var op string
		switch h := e.Elems[0].(type) {
		case *syntax.Keyword:
			op = h.Name
		case *syntax.Symbol:
			op = h.Name
		}
		args := e.Elems[1:]
		switch op {
		case "or":
			for _, a := range args {
				if FeatureActive(a) {
					return true
				}
			}
			return false
		case "and":
			for _, a := range args {
				if !FeatureActive(a) {
					return false
				}
			}
			return true
		case "not":
			return len(args) == 1 && !FeatureActive(args[0])
		}
	}
	return false
}

// Resolve applies the reader conditionals in n: a conditional whose
// feature expression holds is replaced by its form, another one is
// dropped (nil when n itself is dropped). Lists without conditionals are
// returned as they are; the others are copied, so n is never changed and
// every other node (symbols, positions) is shared.
func Resolve(n syntax.Node) syntax.Node {
	switch x := n.(type) {
	case *syntax.Conditional:
		if FeatureActive(x.Feature) != x.Plus {
			return nil
		}
		return Resolve(x.X)
	case *syntax.List:
		var out *syntax.List
		for i, e := range x.Elems {
			r := Resolve(e)
			if r == e && out == nil {
				continue
			}
			if out == nil {
				out = &syntax.List{Open: x.Open, Close: x.Close, Elems: append([]syntax.Node(nil), x.Elems[:i]...)}
			}
			if r != nil {
				out.Elems = append(out.Elems, r)
			}
		}
		if out == nil {
			return n
		}
		return out
	case *syntax.Quote:
		if r := Resolve(x.X); r != x.X && r != nil {
			return &syntax.Quote{Start: x.Start, X: r}
		}
	case *syntax.Prefixed:
		if r := Resolve(x.X); r != x.X && r != nil {
			return &syntax.Prefixed{Start: x.Start, Mark: x.Mark, X: r}
		}
	}
	return n
}
