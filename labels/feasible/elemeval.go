package feasible

import (
	"errors"
	"slices"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// A concrete evaluator for the conditions of elems.go: pure builtins
// and plan functions over symbols, integers, lists and one detected
// designator whose type and region are given. Anything else is
// undecided (no verdict); desig-prop of what is no designator is the
// type error the VM signals.

type cKind uint8

const (
	cSym cKind = iota
	cInt
	cDes
	cList
)

type cval struct {
	k     cKind
	s     string
	n     int64
	props map[string]*cval // a detected designator's properties, chosen as read
	xs    []*cval
}

var (
	// cUnknown is a value the evaluation does not know: reading it is
	// undecided.
	cUnknown = &cval{k: cSym, s: "\x00unknown"}
	// cNonNil is a value known only not to be nil: tested for truth it
	// is true, anything else that reads it is undecided.
	cNonNil      = &cval{k: cSym, s: "\x00non-nil"}
	cNil         = &cval{k: cSym, s: "nil"}
	cT           = &cval{k: cSym, s: "t"}
	errUndecided = errors.New("undecided")
	errSignal    = errors.New("signals")
)

func (v *cval) truthy() bool { return !(v.k == cSym && v.s == "nil") }

func cBool(b bool) *cval {
	if b {
		return cT
	}
	return cNil
}

func cListOf(xs []*cval) *cval {
	if len(xs) == 0 {
		return cNil
	}
	return &cval{k: cList, xs: xs}
}

func ceql(a, b *cval) bool {
	if a.k != b.k {
		return false
	}
	switch a.k {
	case cSym:
		return a.s == b.s
	case cInt:
		return a.n == b.n
	case cDes:
		return a == b
	}
	return a == b
}

func cequal(a, b *cval) bool {
	if a.k == cList && b.k == cList {
		if len(a.xs) != len(b.xs) {
			return false
		}
		for i := range a.xs {
			if !cequal(a.xs[i], b.xs[i]) {
				return false
			}
		}
		return true
	}
	return ceql(a, b)
}

// cdata is quoted datum n.
func cdata(n syntax.Node) (*cval, error) {
	switch x := n.(type) {
	case *syntax.Symbol:
		return &cval{k: cSym, s: x.Name}, nil
	case *syntax.Int:
		return &cval{k: cInt, n: x.Value}, nil
	case *syntax.List:
		xs := make([]*cval, len(x.Elems))
		for i, el := range x.Elems {
			v, err := cdata(el)
			if err != nil {
				return nil, err
			}
			xs[i] = v
		}
		return cListOf(xs), nil
	}
	return nil, errUndecided
}

func crest(v *cval) (*cval, error) {
	switch {
	case v.k == cSym && v.s == "nil":
		return cNil, nil
	case v.k == cList:
		return cListOf(v.xs[1:]), nil
	}
	return nil, errUndecided
}

func cfirst(v *cval) (*cval, error) {
	switch {
	case v.k == cSym && v.s == "nil":
		return cNil, nil
	case v.k == cList:
		return v.xs[0], nil
	}
	return nil, errUndecided
}

// ceval evaluates n under env (variables by name).
func (e *elemAnalysis) ceval(n syntax.Node, env map[string]*cval, depth int) (*cval, error) {
	if depth > 12 {
		return nil, errUndecided
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		switch {
		case x.Name == "nil":
			return cNil, nil
		case x.Name == "t":
			return cT, nil
		}
		if v, ok := env[x.Name]; ok {
			if v == cUnknown {
				return nil, errUndecided
			}
			return v, nil
		}
		if init, ok := e.globalInit(x.Name); ok {
			return e.ceval(init, nil, depth+1)
		}
		return nil, errUndecided
	case *syntax.Int:
		return &cval{k: cInt, n: x.Value}, nil
	case *syntax.Quote:
		return e.cdata(x.X)
	case *syntax.List:
		return e.cevalList(x, env, depth)
	}
	return nil, errUndecided
}

func (e *elemAnalysis) cargs(l *syntax.List, env map[string]*cval, depth int) ([]*cval, error) {
	out := make([]*cval, len(l.Elems)-1)
	for i, a := range l.Elems[1:] {
		v, err := e.ceval(a, env, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (e *elemAnalysis) cbody(xs []syntax.Node, env map[string]*cval, depth int) (*cval, error) {
	v := cNil
	for _, x := range xs {
		var err error
		if v, err = e.ceval(x, env, depth+1); err != nil {
			return nil, err
		}
	}
	return v, nil
}

func (e *elemAnalysis) cevalList(l *syntax.List, env map[string]*cval, depth int) (*cval, error) {
	if len(l.Elems) == 0 {
		return cNil, nil
	}
	if _, ok := l.Elems[0].(*syntax.Symbol); !ok {
		return nil, errUndecided
	}
	h := forms.Head(l)
	k := e.head(h)
	switch k.kind {
	case headUndecided:
		return nil, errUndecided
	case headDefun:
		if len(k.ps) != len(l.Elems)-1 {
			return nil, errUndecided
		}
		args, err := e.cargs(l, env, depth)
		if err != nil {
			return nil, err
		}
		if k.special {
			return nil, errUndecided
		}
		inner := make(map[string]*cval, len(k.ps))
		for i, p := range k.ps {
			inner[p] = args[i]
		}
		return e.cbody(k.body, inner, depth)
	case headQuery:
		if e.ch != nil {
			// Any of the world's symbols, whatever the arguments (a failure
			// it may signal only keeps the label from being reached).
			return &cval{k: cSym, s: k.syms[e.ch.choose(len(k.syms))]}, nil
		}
		if k.user {
			return nil, errUndecided
		}
	}
	switch h {
	case "quote":
		if len(l.Elems) == 2 {
			return e.cdata(l.Elems[1])
		}
		return nil, errUndecided
	case "progn":
		return e.cbody(l.Elems[1:], env, depth)
	case "if":
		if len(l.Elems) < 3 || len(l.Elems) > 4 {
			return nil, errUndecided
		}
		t, err := e.ceval(l.Elems[1], env, depth+1)
		if err != nil {
			return nil, err
		}
		if t.truthy() {
			return e.ceval(l.Elems[2], env, depth+1)
		}
		return e.cbody(l.Elems[3:], env, depth)
	case "when", "unless":
		t, err := e.ceval(argAt(l, 1), env, depth+1)
		if err != nil {
			return nil, err
		}
		if t.truthy() == (h == "when") {
			return e.cbody(l.Elems[2:], env, depth)
		}
		return cNil, nil
	case "cond":
		for _, c := range l.Elems[1:] {
			cl := asList(c)
			if cl == nil || len(cl.Elems) == 0 {
				return nil, errUndecided
			}
			t, err := e.ceval(cl.Elems[0], env, depth+1)
			if err != nil {
				return nil, err
			}
			if t.truthy() {
				if len(cl.Elems) == 1 {
					return t, nil
				}
				return e.cbody(cl.Elems[1:], env, depth)
			}
		}
		return cNil, nil
	case "case":
		k, err := e.ceval(argAt(l, 1), env, depth+1)
		if err != nil {
			return nil, err
		}
		if k == cNonNil {
			return nil, errUndecided
		}
		for _, c := range l.Elems[2:] {
			cl := asList(c)
			if cl == nil || len(cl.Elems) == 0 {
				return nil, errUndecided
			}
			keys, err := e.cdata(cl.Elems[0])
			if err != nil {
				return nil, err
			}
			hit := false
			switch {
			case keys.k == cSym && (keys.s == "t" || keys.s == "otherwise"):
				hit = true
			case keys.k == cList:
				for _, kk := range keys.xs {
					hit = hit || ceql(kk, k)
				}
			case keys.k == cSym && keys.s == "nil":
			default:
				hit = ceql(keys, k)
			}
			if hit {
				return e.cbody(cl.Elems[1:], env, depth)
			}
		}
		return cNil, nil
	case "and":
		v := cT
		for _, a := range l.Elems[1:] {
			var err error
			if v, err = e.ceval(a, env, depth+1); err != nil {
				return nil, err
			}
			if !v.truthy() {
				return cNil, nil
			}
		}
		return v, nil
	case "or":
		for _, a := range l.Elems[1:] {
			v, err := e.ceval(a, env, depth+1)
			if err != nil {
				return nil, err
			}
			if v.truthy() {
				return v, nil
			}
		}
		return cNil, nil
	case "let", "let*":
		bl := asList(argAt(l, 1))
		if bl == nil {
			return nil, errUndecided
		}
		inner := map[string]*cval{}
		for k, v := range env {
			inner[k] = v
		}
		for _, b := range bl.Elems {
			bb := asList(b)
			if bb == nil || len(bb.Elems) != 2 {
				return nil, errUndecided
			}
			s, ok := bb.Elems[0].(*syntax.Symbol)
			if !ok || e.h.a.specials[s.Name] {
				return nil, errUndecided
			}
			from := env
			if h == "let*" {
				from = inner
			}
			v, err := e.ceval(bb.Elems[1], from, depth+1)
			if err != nil {
				return nil, err
			}
			inner[s.Name] = v
		}
		return e.cbody(l.Elems[2:], inner, depth)
	}
	args, err := e.cargs(l, env, depth)
	if err != nil {
		return nil, err
	}
	if h != "not" && h != "null" && h != "list" && slices.Contains(args, cNonNil) {
		return nil, errUndecided
	}
	num := func() bool {
		for _, a := range args {
			if a.k != cInt {
				return false
			}
		}
		return len(args) > 0
	}
	switch h {
	case "numberp", "integerp", "realp", "rationalp":
		if len(args) == 1 {
			return cBool(args[0].k == cInt), nil
		}
	case "symbolp":
		if len(args) == 1 {
			return cBool(args[0].k == cSym), nil
		}
	case "consp":
		if len(args) == 1 {
			return cBool(args[0].k == cList), nil
		}
	case "listp":
		if len(args) == 1 {
			return cBool(args[0].k == cList || args[0].k == cSym && args[0].s == "nil"), nil
		}
	case "not", "null":
		if len(args) == 1 {
			return cBool(!args[0].truthy()), nil
		}
	case "eq", "eql":
		if len(args) == 2 {
			return cBool(ceql(args[0], args[1])), nil
		}
	case "equal":
		if len(args) == 2 {
			return cBool(cequal(args[0], args[1])), nil
		}
	case "member":
		if len(args) == 2 {
			for v := args[1]; v.truthy(); {
				f, err := cfirst(v)
				if err != nil {
					return nil, err
				}
				if ceql(f, args[0]) {
					return v, nil
				}
				if v, err = crest(v); err != nil {
					return nil, err
				}
			}
			return cNil, nil
		}
	case "assoc":
		if len(args) == 2 {
			for v := args[1]; v.truthy(); {
				f, err := cfirst(v)
				if err != nil {
					return nil, err
				}
				if f.k == cList && ceql(f.xs[0], args[0]) {
					return f, nil
				}
				if f.k != cList && f.truthy() {
					return nil, errUndecided
				}
				if v, err = crest(v); err != nil {
					return nil, err
				}
			}
			return cNil, nil
		}
	case "first", "car":
		if len(args) == 1 {
			return cfirst(args[0])
		}
	case "rest", "cdr":
		if len(args) == 1 {
			return crest(args[0])
		}
	case "second", "third", "nth":
		var v *cval
		k := 1
		switch {
		case h == "third" && len(args) == 1:
			k, v = 2, args[0]
		case h == "second" && len(args) == 1:
			v = args[0]
		case h == "nth" && len(args) == 2 && args[0].k == cInt && args[0].n >= 0 && args[0].n < 64:
			k, v = int(args[0].n), args[1]
		default:
			return nil, errUndecided
		}
		for ; k > 0; k-- {
			if v, err = crest(v); err != nil {
				return nil, err
			}
		}
		return cfirst(v)
	case "list":
		return cListOf(args), nil
	case "desig-prop":
		if len(args) == 2 {
			if args[0].k != cDes {
				if args[0].k == cSym || args[0].k == cInt || args[0].k == cList {
					return nil, errSignal // (desig-prop NON-DESIGNATOR ...) is a type error
				}
				return nil, errUndecided
			}
			if args[1].k != cSym {
				return nil, errUndecided
			}
			return e.prop(args[0], args[1].s)
		}
	case "=", "<", ">", "<=", ">=", "/=", "+", "-", "abs":
		if len(args) == 2 || h == "abs" && len(args) == 1 {
			if !num() {
				return nil, errSignal // the VM's type error: not a number
			}
		}
	}
	switch h {
	case "=", "<", ">", "<=", ">=", "/=":
		if len(args) == 2 && num() {
			a, b := args[0].n, args[1].n
			switch h {
			case "=":
				return cBool(a == b), nil
			case "<":
				return cBool(a < b), nil
			case ">":
				return cBool(a > b), nil
			case "<=":
				return cBool(a <= b), nil
			case ">=":
				return cBool(a >= b), nil
			}
			return cBool(a != b), nil
		}
	case "+", "-":
		if len(args) == 2 && num() {
			if h == "+" {
				return &cval{k: cInt, n: args[0].n + args[1].n}, nil
			}
			return &cval{k: cInt, n: args[0].n - args[1].n}, nil
		}
	case "abs":
		if len(args) == 1 && num() {
			return &cval{k: cInt, n: max(args[0].n, -args[0].n)}, nil
		}
	}
	return nil, errUndecided
}

// headKind is how cevalList evaluates a call, by its head alone.
type headKind uint8

const (
	headOther     headKind = iota // a builtin, or undecided by the switch
	headUndecided                 // undecided, whatever the arguments
	headDefun                     // a plan defun, its body evaluated
	headQuery                     // a world query, its result chosen
)

// cHead is what cevalList knows of a head before reading the call.
type cHead struct {
	kind    headKind
	ps      []string      // headDefun: the parameters
	body    []syntax.Node // headDefun: the body
	special bool          // headDefun: a parameter is special (undecided once the arguments are)
	syms    []string      // headQuery: the domain's symbols
	user    bool          // headQuery: undecided without a chooser
}

// head classifies h once per analysis: every call of an evaluation asks,
// and the answer depends only on the plan's definitions and the world,
// which do not change while the analysis lives.
func (e *elemAnalysis) head(h string) *cHead {
	if k, ok := e.heads[h]; ok {
		return k
	}
	k := e.classify(h)
	e.heads[h] = k
	return k
}

func (e *elemAnalysis) classify(h string) *cHead {
	if d := e.h.defs[h]; d != nil && forms.Lookup(h) == nil {
		if e.h.dup[h] || e.h.local[h] || forms.Head(d) != "defun" {
			return &cHead{kind: headUndecided}
		}
		ps, ok := params(d)
		if !ok {
			return &cHead{kind: headUndecided}
		}
		k := &cHead{kind: headDefun, ps: ps, body: d.Elems[3:]}
		for _, p := range ps {
			k.special = k.special || e.h.a.specials[p]
		}
		return k
	}
	user := e.res.IsUserFunc(h) || e.h.local[h]
	if syms, ok := e.queryDomain(h); ok && len(syms) > 0 {
		return &cHead{kind: headQuery, syms: syms, user: user}
	}
	if user {
		return &cHead{kind: headUndecided}
	}
	return &cHead{kind: headOther}
}

// cdata is quoted datum n, read once per analysis: each call gets lists
// of its own (eq tells lists apart by identity) around shared atoms
// (nothing tells those apart but by value).
func (e *elemAnalysis) cdata(n syntax.Node) (*cval, error) {
	v, ok := e.data[n]
	if !ok {
		var err error
		if v, err = cdata(n); err != nil {
			v = nil
		}
		e.data[n] = v
	}
	if v == nil {
		return nil, errUndecided
	}
	return freshLists(v), nil
}

// freshLists is v with new lists, its atoms shared.
func freshLists(v *cval) *cval {
	if v.k != cList {
		return v
	}
	xs := make([]*cval, len(v.xs))
	for i, x := range v.xs {
		xs[i] = freshLists(x)
	}
	return &cval{k: cList, xs: xs}
}

// prop is property key of detected designator d: chosen, at its first
// read in a run, among what the world says it may be.
func (e *elemAnalysis) prop(d *cval, key string) (*cval, error) {
	if v, ok := d.props[key]; ok {
		return v, nil
	}
	if d.props == nil || e.ch == nil {
		return nil, errUndecided
	}
	var v *cval
	if syms := e.sig.Perceived[key]; len(syms) > 0 {
		v = &cval{k: cSym, s: syms[e.ch.choose(len(syms))]}
	} else if g := e.sig.PerceivedCell; key == "cell" && g[0] > 0 && g[1] > 0 && e.sig.PerceivedRows != nil {
		// A cell exactly with a region, within the rows it shows.
		r, err := e.prop(d, "region")
		if err != nil {
			return nil, err
		}
		rows, listed := e.sig.PerceivedRows[r.s]
		switch {
		case r.k != cSym:
			return nil, errUndecided
		case r.s == "nil":
			v = cNil
		case !listed || rows > g[1]:
			rows = g[1]
			fallthrough
		default:
			v = cListOf([]*cval{{k: cInt, n: int64(e.ch.choose(g[0]))}, {k: cInt, n: int64(e.ch.choose(rows))}})
		}
	} else if g := e.sig.PerceivedCell; key == "cell" && g[0] > 0 && g[1] > 0 {
		// One more choice: no cell (an object outside every region).
		if c := e.ch.choose(g[0] + 1); c == g[0] {
			v = cNil
		} else {
			v = cListOf([]*cval{{k: cInt, n: int64(c)}, {k: cInt, n: int64(e.ch.choose(g[1]))}})
		}
	} else {
		return nil, errUndecided
	}
	d.props[key] = v
	return v, nil
}
