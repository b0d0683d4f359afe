package forms

import "github.com/labelcov/labelcov/interp/syntax"

// FeatureError is a feature expression FeatureHolds cannot decide; Node is
// the part at fault.
type FeatureError struct {
	Node syntax.Node
	Msg  string
}

func (e *FeatureError) Error() string { return e.Msg }

// FeatureHolds evaluates the feature expression of a reader conditional
// (#+x, #-x) against the features for which has is true: a symbol or
// keyword names a feature; (:or ...), (:and ...) and (:not x) combine them
// (the operators may be written as keywords or symbols). The compiler
// decides with labelcov's features, coverage/sbcover with SBCL's.
func FeatureHolds(n syntax.Node, has func(name string) bool) (bool, error) {
	switch n := n.(type) {
	case *syntax.Keyword:
		return has(n.Name), nil
	case *syntax.Symbol:
		return has(n.Name), nil
	case *syntax.List:
		if len(n.Elems) > 0 {
			var op string
			switch h := n.Elems[0].(type) {
			case *syntax.Keyword:
				op = h.Name
			case *syntax.Symbol:
				op = h.Name
			}
			args := n.Elems[1:]
			switch op {
			case "or", "and":
				for _, a := range args {
					v, err := FeatureHolds(a, has)
					if err != nil {
						return false, err
					}
					if v == (op == "or") {
						return v, nil
					}
				}
				return op == "and", nil
			case "not":
				if len(args) != 1 {
					return false, &FeatureError{n, "feature expression (:not X) takes one argument"}
				}
				v, err := FeatureHolds(args[0], has)
				return !v, err
			}
		}
	}
	return false, &FeatureError{n, "unsupported feature expression " + syntax.NodeString(n) +
		" (use a feature name, (:or ...), (:and ...) or (:not ...))"}
}
