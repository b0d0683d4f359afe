package feasible

import (
	"fmt"
	"slices"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Tests of a detected object's region through the plan's functions.
// Besides (eq (obj-region d) 'R), a label's conjunct may test the
// region through plan functions of one body form — a predicate
// (on-table-p d) that is (eq (obj-region d) 'table), a table
// (board-level (obj-region d)) written as a case on its parameter — and
// through let bindings nothing assigns: (> level 0) where level is bound
// to (board-level (obj-region d)). The conjunct is evaluated over finite
// sets of values, every region read giving each region the object may be
// in (each read on its own: two reads need not see the same object), a
// plan function's body under its arguments' sets, and the builtins eq,
// eql, member of a quoted list, not, null, the numeric comparisons of
// numbers, case, if and progn by their rules. Anything else (another
// variable, a call the text does not define once, a value that is
// neither a symbol nor a number) leaves the conjunct undecided. A
// conjunct never true over these sets makes the label infeasible.

// rval is one value of such an evaluation: a symbol (sym, "nil" and
// "t" included), an integer (isNum), the detected object itself (desig,
// its loop's binding key) or a non-nil value that is none of these
// (nonNil: what member returns).
type rval struct {
	sym    string
	num    float64
	isNum  bool
	desig  string
	nonNil bool
}

func (v rval) isNil() bool { return !v.isNum && v.desig == "" && !v.nonNil && v.sym == "nil" }

// maxRegionVals bounds the values a set may hold and the argument
// combinations a call is evaluated with.
const maxRegionVals = 64

// regionEval evaluates a conjunct over the regions of detected objects.
type regionEval struct {
	h     *handlerAnalysis
	loops map[string][]string    // detecting loop variable key -> regions
	inits map[string]syntax.Node // let binding key -> init
	// keys are the loops whose regions the conjunct read; notes, the let
	// bindings it read, for the reason.
	keys  []string
	notes []string
	// leaf, when set, may decide a form first (untaken.go: the queries
	// and properties of one object).
	leaf func(l *syntax.List, env map[string][]rval) ([]rval, bool)
}

// truthOf says whether a value of vals may be true (non-nil) and may be
// false (nil).
func truthOf(vals []rval) (mayTrue, mayFalse bool) {
	for _, v := range vals {
		if v.isNil() {
			mayFalse = true
		} else {
			mayTrue = true
		}
	}
	return mayTrue, mayFalse
}

func truthVal(b bool) rval {
	if b {
		return rval{sym: "t"}
	}
	return rval{sym: "nil"}
}

func addVal(vals []rval, v rval) []rval {
	if slices.Contains(vals, v) {
		return vals
	}
	return append(vals, v)
}

// builtin reports whether head names the builtin, not a plan function.
func (e *regionEval) builtin(head string) bool {
	return e.h.defs[head] == nil && !e.h.local[head] && !e.h.res.IsUserFunc(head)
}

// eval is the set of values n may have; env binds the parameters of the
// plan function being evaluated (nil at the conjunct's level).
func (e *regionEval) eval(n syntax.Node, env map[string][]rval, depth int) ([]rval, bool) {
	if depth > 8 {
		return nil, false
	}
	switch x := n.(type) {
	case *syntax.Int:
		return []rval{{num: float64(x.Value), isNum: true}}, true
	case *syntax.Quote:
		switch q := x.X.(type) {
		case *syntax.Symbol:
			return []rval{{sym: q.Name}}, true
		case *syntax.Int:
			return []rval{{num: float64(q.Value), isNum: true}}, true
		}
		return nil, false
	case *syntax.Symbol:
		return e.symbol(x, env, depth)
	case *syntax.List:
		return e.list(x, env, depth)
	}
	return nil, false
}

func (e *regionEval) symbol(s *syntax.Symbol, env map[string][]rval, depth int) ([]rval, bool) {
	if s.Name == "nil" || s.Name == "t" {
		return []rval{{sym: s.Name}}, true
	}
	if env != nil {
		v, ok := env[s.Name]
		return v, ok
	}
	h := e.h
	if h.res.IsTemp(s.Name) {
		if o := h.res.Origin(s); o != nil && o != syntax.Node(s) {
			return e.eval(o, nil, depth+1)
		}
		return nil, false
	}
	k, met := h.a.symKey[s]
	if !met || k == conflictKey || k == "" || h.a.assignedKeys[k] || h.a.closureAssigned()[s.Name] {
		return nil, false
	}
	if _, isLoop := e.loops[k]; isLoop {
		return []rval{{desig: k}}, true
	}
	init, ok := e.inits[k]
	if !ok {
		return nil, false
	}
	v, ok := e.eval(init, nil, depth+1)
	if ok {
		e.notes = append(e.notes, fmt.Sprintf("%s is %s", s.Name, h.show(init)))
	}
	return v, ok
}

func (e *regionEval) list(l *syntax.List, env map[string][]rval, depth int) ([]rval, bool) {
	head := forms.Head(l)
	if head == "" {
		return nil, false
	}
	if !e.builtin(head) {
		return e.call(head, l, env, depth)
	}
	if e.leaf != nil {
		if vs, ok := e.leaf(l, env); ok {
			return vs, true
		}
	}
	args := l.Elems[1:]
	switch head {
	case "desig-prop":
		q, isQ := argAt(l, 2).(*syntax.Quote)
		if len(args) != 2 || !isQ || !syntax.IsSymbol(q.X, "region") {
			return nil, false
		}
		ds, ok := e.eval(args[0], env, depth+1)
		if !ok {
			return nil, false
		}
		var out []rval
		for _, d := range ds {
			regions, isLoop := e.loops[d.desig]
			if d.desig == "" || !isLoop {
				return nil, false
			}
			if !slices.Contains(e.keys, d.desig) {
				e.keys = append(e.keys, d.desig)
			}
			for _, r := range regions {
				out = addVal(out, rval{sym: r})
			}
		}
		return out, true
	case "not", "null":
		if len(args) != 1 {
			return nil, false
		}
		vs, ok := e.eval(args[0], env, depth+1)
		if !ok {
			return nil, false
		}
		var out []rval
		for _, v := range vs {
			out = addVal(out, truthVal(v.isNil()))
		}
		return out, true
	case "progn":
		if len(args) == 0 {
			return nil, false
		}
		return e.eval(args[len(args)-1], env, depth+1)
	case "if":
		if len(args) < 2 || len(args) > 3 {
			return nil, false
		}
		ts, ok := e.eval(args[0], env, depth+1)
		if !ok {
			return nil, false
		}
		mayTrue, mayFalse := truthOf(ts)
		var out []rval
		if mayTrue {
			vs, ok := e.eval(args[1], env, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, vs...)
		}
		if mayFalse {
			vs := []rval{{sym: "nil"}}
			if len(args) == 3 {
				if vs, ok = e.eval(args[2], env, depth+1); !ok {
					return nil, false
				}
			}
			for _, v := range vs {
				out = addVal(out, v)
			}
		}
		return out, true
	case "member":
		q, isQ := argAt(l, 2).(*syntax.Quote)
		if len(args) != 2 || !isQ {
			return nil, false
		}
		ql, ok := q.X.(*syntax.List)
		if !ok {
			return nil, false
		}
		var items []rval
		for _, it := range ql.Elems {
			switch it := it.(type) {
			case *syntax.Symbol:
				items = append(items, rval{sym: it.Name})
			case *syntax.Int:
				items = append(items, rval{num: float64(it.Value), isNum: true})
			default:
				return nil, false
			}
		}
		vs, ok := e.eval(args[0], env, depth+1)
		if !ok {
			return nil, false
		}
		var out []rval
		for _, v := range vs {
			if v.desig != "" || v.nonNil {
				return nil, false
			}
			if slices.Contains(items, v) {
				out = addVal(out, rval{nonNil: true})
			} else {
				out = addVal(out, rval{sym: "nil"})
			}
		}
		return out, true
	case "eq", "eql", "<", "<=", ">", ">=", "=", "/=":
		if len(args) != 2 {
			return nil, false
		}
		as, ok := e.eval(args[0], env, depth+1)
		if !ok {
			return nil, false
		}
		bs, ok := e.eval(args[1], env, depth+1)
		if !ok || len(as)*len(bs) > maxRegionVals {
			return nil, false
		}
		var out []rval
		for _, a := range as {
			for _, b := range bs {
				r, ok := compareVals(head, a, b)
				if !ok {
					return nil, false
				}
				out = addVal(out, truthVal(r))
			}
		}
		return out, true
	case "case":
		return e.caseOf(l, env, depth)
	}
	return nil, false
}

// compareVals applies relation head to a and b: eq and eql of symbols,
// eql of integers, the numeric relations of integers.
func compareVals(head string, a, b rval) (bool, bool) {
	if a.desig != "" || b.desig != "" || a.nonNil || b.nonNil {
		return false, false
	}
	switch head {
	case "eq", "eql":
		if a.isNum || b.isNum {
			if head == "eq" || !a.isNum || !b.isNum {
				return false, false
			}
			return a.num == b.num, true
		}
		return a.sym == b.sym, true
	}
	if !a.isNum || !b.isNum {
		return false, false
	}
	switch head {
	case "<":
		return a.num < b.num, true
	case "<=":
		return a.num <= b.num, true
	case ">":
		return a.num > b.num, true
	case ">=":
		return a.num >= b.num, true
	case "=":
		return a.num == b.num, true
	case "/=":
		return a.num != b.num, true
	}
	return false, false
}

// caseOf evaluates (case KEY (KEYS BODY...)...): for each value of KEY
// the last form of the first clause whose keys hold it (eql), nil when
// none does.
func (e *regionEval) caseOf(l *syntax.List, env map[string][]rval, depth int) ([]rval, bool) {
	if len(l.Elems) < 3 {
		return nil, false
	}
	ks, ok := e.eval(l.Elems[1], env, depth+1)
	if !ok {
		return nil, false
	}
	var out []rval
	for _, k := range ks {
		if k.desig != "" || k.nonNil {
			return nil, false
		}
		matched := false
		for _, c := range l.Elems[2:] {
			cl, ok := c.(*syntax.List)
			if !ok || len(cl.Elems) < 2 {
				return nil, false
			}
			hit, ok := caseKeyHolds(cl.Elems[0], k)
			if !ok {
				return nil, false
			}
			if !hit {
				continue
			}
			vs, ok := e.eval(cl.Elems[len(cl.Elems)-1], env, depth+1)
			if !ok {
				return nil, false
			}
			for _, v := range vs {
				out = addVal(out, v)
			}
			matched = true
			break
		}
		if !matched {
			out = addVal(out, rval{sym: "nil"})
		}
	}
	return out, true
}

// caseKeyHolds reports whether a case clause's keys hold k.
func caseKeyHolds(keys syntax.Node, k rval) (bool, bool) {
	one := func(n syntax.Node) (bool, bool) {
		switch x := n.(type) {
		case *syntax.Symbol:
			return !k.isNum && k.sym == x.Name, true
		case *syntax.Int:
			return k.isNum && k.num == float64(x.Value), true
		}
		return false, false
	}
	switch x := keys.(type) {
	case *syntax.Symbol:
		if x.Name == "otherwise" || x.Name == "t" {
			return true, true
		}
		return one(x)
	case *syntax.List:
		for _, it := range x.Elems {
			hit, ok := one(it)
			if !ok {
				return false, false
			}
			if hit {
				return true, true
			}
		}
		return false, true
	}
	return one(keys)
}

// call evaluates a call of a plan function defined once, with plain
// parameters and one body form, under its arguments' values.
func (e *regionEval) call(head string, l *syntax.List, env map[string][]rval, depth int) ([]rval, bool) {
	h := e.h
	f := h.defs[head]
	if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return nil, false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != len(l.Elems)-1 {
		return nil, false
	}
	inner := map[string][]rval{}
	combos := 1
	for i, p := range ps.Elems {
		s, ok := p.(*syntax.Symbol)
		if !ok || len(s.Name) == 0 || s.Name[0] == '&' {
			return nil, false
		}
		vs, ok := e.eval(l.Elems[i+1], env, depth+1)
		if !ok {
			return nil, false
		}
		if combos *= len(vs); combos > maxRegionVals {
			return nil, false
		}
		inner[s.Name] = vs
	}
	return e.eval(f.Elems[3], inner, depth+1)
}

// detection returns the perform of the detecting action n is, or that
// a call n of a plan function whose one body form it is runs (its
// arguments moving nothing): (look) for (defun look () (perform (an
// action (type detecting)))).
func (h *handlerAnalysis) detection(n syntax.Node) (*syntax.List, bool) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return nil, false
	}
	if head := forms.Head(l); head != "perform" {
		f := h.defs[head]
		if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
			return nil, false
		}
		for _, x := range l.Elems[1:] {
			if h.mayNavigate(x, 0) {
				return nil, false
			}
		}
		if l, ok = f.Elems[3].(*syntax.List); !ok || forms.Head(l) != "perform" {
			return nil, false
		}
	}
	if h.defs["perform"] != nil || h.local["perform"] {
		return nil, false
	}
	if typ, _, ok := actionDesig(l); !ok || typ != h.sig.Detects {
		return nil, false
	}
	return l, true
}
