package solve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Limits of the symbolic execution: it never blows up, it gives up (the
// labels it has not decided stay unresolved).
const (
	maxPaths  = 4096    // live paths at any point of the run
	maxWork   = 4000000 // evaluation steps over the whole run
	maxInline = 24      // nested inlined calls
)

// kind is what a symbolic value is on one path.
type kind uint8

const (
	kSym     kind = iota // a constant symbol, keyword (":name"), nil or t
	kInt                 // an int64: constant n, or the bit-vector term t
	kBool                // t when the formula f holds, else nil
	kList                // a proper non-empty list of elems
	kObj                 // some other non-nil value (a string)
	kUnknown             // an unmodelled value: anything
)

type val struct {
	k     kind
	name  string // kSym
	konst bool   // kInt: n is the value
	n     int64
	t     string // kInt term (when !konst), kBool formula
	elems []val  // kList
}

var (
	vNil     = val{k: kSym, name: "nil"}
	vT       = val{k: kSym, name: "t"}
	vUnknown = val{k: kUnknown}
)

func vInt(n int64) val       { return val{k: kInt, konst: true, n: n} }
func vTerm(t string) val     { return val{k: kInt, t: t} }
func vBoolOf(b bool) val     { return map[bool]val{true: vT, false: vNil}[b] }
func vFormula(f string) val  { return val{k: kBool, t: f} }
func isNil(v val) bool       { return v.k == kSym && v.name == "nil" }
func bvConst(n int64) string { return fmt.Sprintf("(_ bv%d 64)", uint64(n)) }
func (v val) term() string {
	if v.konst {
		return bvConst(v.n)
	}
	return v.t
}

// cond is one conjunct of a path condition: the SMT-LIB formula and the
// plan-syntax text a reviewer reads.
type cond struct {
	smt, text string
}

// state is one path: never modified once shared (copies first).
type state struct {
	pc   []cond
	glob []bind
	loc  []bind
	base int // locals below base belong to callers
}

type bind struct {
	name string
	v    val
}

func (s *state) clone() *state {
	return &state{pc: slices.Clip(s.pc), glob: slices.Clip(s.glob), loc: slices.Clip(s.loc), base: s.base}
}

func (s *state) with(c cond) *state {
	n := s.clone()
	n.pc = append(n.pc, c)
	return n
}

func (s *state) global(name string) (val, bool) {
	for _, b := range s.glob {
		if b.name == name {
			return b.v, true
		}
	}
	return val{}, false
}

func (s *state) setGlobal(name string, v val) *state {
	n := s.clone()
	n.glob = slices.Clone(n.glob)
	for i, b := range n.glob {
		if b.name == name {
			n.glob[i].v = v
			return n
		}
	}
	n.glob = append(n.glob, bind{name, v})
	return n
}

func (s *state) local(name string) (int, bool) {
	for i := len(s.loc) - 1; i >= s.base; i-- {
		if s.loc[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// out is one outcome of evaluating an expression on a path: a value, or
// an error (a failure the VM signals) in state st.
type out struct {
	st  *state
	v   val
	err bool
}

// goal is what the run knows of one label: the paths reaching its point
// and, on each, the conditions under which its predicate holds.
type goal struct {
	reaches    []reach
	unmodelled map[string]bool // in its predicate
}

// machine is the symbolic execution of one run of a plan over its
// integer arguments.
type machine struct {
	funcs map[string]*syntax.List
	// goals maps the offset of each label's (when (ignore-errors P)) to
	// the labels evaluated there.
	goals   map[int][]int
	byLabel map[int]*goal
	probe   bool
	probeUn map[string]bool
	// quiet is set inside a probe that is no label: label points there
	// count nothing (the VM counts a probe's code into a sink).
	quiet bool
	// unmodelled names what the run met outside label predicates that it
	// does not model (its values became anything): no label is proven
	// infeasible then.
	unmodelled map[string]bool
	gaveUp     string
	work       int
	writes     int // global assignments outside label predicates
	calls      []string
}

func (m *machine) un(what string) {
	if m.probe {
		m.probeUn[what] = true
		return
	}
	m.unmodelled[what] = true
}

func (m *machine) stopped() bool { return m.gaveUp != "" }

func (m *machine) giveUp(why string) {
	if m.gaveUp == "" {
		m.gaveUp = why
	}
}

// truth splits st by the truth of v: the states where v is non-nil and
// where it is nil (either may be nil).
func truth(st *state, v val, text string) (t, f *state) {
	switch v.k {
	case kSym:
		if v.name == "nil" {
			return nil, st
		}
		return st, nil
	case kBool:
		return st.with(cond{v.t, text + " is true"}), st.with(cond{"(not " + v.t + ")", text + " is false"})
	case kUnknown:
		return st, st
	}
	return st, nil
}

// eval evaluates n on st.
func (m *machine) eval(n syntax.Node, st *state) []out {
	m.work++
	if m.work > maxWork {
		m.giveUp("too much work")
	}
	if m.stopped() {
		return nil
	}
	switch n := n.(type) {
	case *syntax.Int:
		return []out{{st: st, v: vInt(n.Value)}}
	case *syntax.Keyword:
		return []out{{st: st, v: val{k: kSym, name: ":" + n.Name}}}
	case *syntax.String:
		return []out{{st: st, v: val{k: kObj}}}
	case *syntax.Quote:
		return []out{{st: st, v: quoted(n.X)}}
	case *syntax.Symbol:
		return m.ref(n, st)
	case *syntax.List:
		return m.list(n, st)
	}
	m.un(fmt.Sprintf("%T", n))
	return []out{{st: st, v: vUnknown}}
}

// quoted is the value of quoted data.
func quoted(n syntax.Node) val {
	switch n := n.(type) {
	case *syntax.Int:
		return vInt(n.Value)
	case *syntax.Symbol:
		if n.Pkg != "" && n.Pkg != "cl" && n.Pkg != "common-lisp" && n.Pkg != "cpl" {
			return vUnknown
		}
		return val{k: kSym, name: n.Name}
	case *syntax.Keyword:
		return val{k: kSym, name: ":" + n.Name}
	case *syntax.List:
		if len(n.Elems) == 0 {
			return vNil
		}
		v := val{k: kList}
		for _, e := range n.Elems {
			if syntax.IsSymbol(e, ".") {
				return vUnknown
			}
			v.elems = append(v.elems, quoted(e))
		}
		return v
	case *syntax.String:
		return val{k: kObj}
	}
	return vUnknown
}

func (m *machine) ref(s *syntax.Symbol, st *state) []out {
	switch s.Name {
	case "nil":
		return []out{{st: st, v: vNil}}
	case "t":
		return []out{{st: st, v: vT}}
	}
	if i, ok := st.local(s.Name); ok {
		return []out{{st: st, v: st.loc[i].v}}
	}
	if v, ok := st.global(s.Name); ok {
		return []out{{st: st, v: v}}
	}
	// An unbound variable is an error.
	return []out{{st: st, err: true}}
}

// seq evaluates xs in order; the value is the last one's (nil for none).
func (m *machine) seq(xs []syntax.Node, st *state) []out {
	outs := []out{{st: st, v: vNil}}
	for _, x := range xs {
		var next []out
		for _, o := range outs {
			if o.err {
				next = append(next, o)
				continue
			}
			next = append(next, m.eval(x, o.st)...)
		}
		outs = next
		if len(outs) > maxPaths {
			m.giveUp("too many paths")
		}
		if m.stopped() {
			return nil
		}
	}
	return outs
}

// args evaluates xs left to right: one entry per path with all values.
type argsOut struct {
	st *state
	vs []val
}

func (m *machine) args(xs []syntax.Node, st *state) ([]argsOut, []out) {
	cur := []argsOut{{st: st}}
	var fails []out
	for _, x := range xs {
		var next []argsOut
		for _, a := range cur {
			for _, o := range m.eval(x, a.st) {
				if o.err {
					fails = append(fails, o)
					continue
				}
				next = append(next, argsOut{st: o.st, vs: append(slices.Clip(a.vs), o.v)})
			}
		}
		cur = next
		if len(cur)+len(fails) > maxPaths {
			m.giveUp("too many paths")
		}
		if m.stopped() {
			return nil, nil
		}
	}
	return cur, fails
}

func (m *machine) list(l *syntax.List, st *state) []out {
	if len(l.Elems) == 0 {
		return []out{{st: st, v: vNil}}
	}
	h := forms.Head(l)
	if h == "" {
		m.un("a call of a non-symbol")
		return []out{{st: st, v: vUnknown}}
	}
	switch h {
	case "quote":
		if len(l.Elems) == 2 {
			return []out{{st: st, v: quoted(l.Elems[1])}}
		}
	case "progn":
		return m.seq(l.Elems[1:], st)
	case "if":
		if len(l.Elems) == 3 || len(l.Elems) == 4 {
			var els []syntax.Node
			if len(l.Elems) == 4 {
				els = l.Elems[3:]
			}
			return m.branch(l.Elems[1], l.Elems[2:3], els, st)
		}
	case "when", "unless":
		if len(l.Elems) >= 2 {
			if ids, ok := m.goals[l.Open.Offset]; ok {
				return m.labelPoint(ids, l, st)
			}
			if h == "when" && len(l.Elems) == 2 && forms.Head(l.Elems[1]) == "ignore-errors" && !m.quiet {
				// A probe that is no label (the shared atoms of MCC
				// labels): the compiler makes every such when a probe,
				// whose label points count nothing; its writes stay.
				m.quiet = true
				outs := m.branch(l.Elems[1], nil, nil, st)
				m.quiet = false
				return outs
			}
			if h == "when" {
				return m.branch(l.Elems[1], l.Elems[2:], nil, st)
			}
			return m.branch(l.Elems[1], nil, l.Elems[2:], st)
		}
	case "cond":
		return m.cond(l.Elems[1:], st)
	case "and", "or":
		return m.andOr(h == "and", l.Elems[1:], st)
	case "let", "let*":
		if len(l.Elems) >= 2 {
			return m.let(h == "let*", l.Elems[1], l.Elems[2:], st)
		}
	case "setq", "setf":
		return m.setq(l, st)
	case "ignore-errors":
		var outs []out
		for _, o := range m.seq(l.Elems[1:], st) {
			if o.err {
				o = out{st: o.st, v: vNil}
			}
			outs = append(outs, o)
		}
		return outs
	}
	if f := forms.Lookup(h); f != nil {
		m.un(h)
		return []out{{st: st, v: vUnknown}}
	}
	as, fails := m.args(l.Elems[1:], st)
	outs := fails
	for _, a := range as {
		if fn := m.funcs[h]; fn != nil {
			outs = append(outs, m.inline(h, fn, a)...)
		} else {
			outs = append(outs, m.builtin(h, l, a.st, a.vs)...)
		}
		if m.stopped() {
			return nil
		}
	}
	return outs
}

// labelPoint evaluates the labels at one point: the when's test is
// (ignore-errors P), evaluated on st without changing it.
func (m *machine) labelPoint(ids []int, l *syntax.List, st *state) []out {
	if m.probe || m.quiet {
		return []out{{st: st, v: vNil}}
	}
	test, ok := l.Elems[1].(*syntax.List)
	if !ok || forms.Head(test) != "ignore-errors" || len(l.Elems) != 2 {
		m.giveUp("a label point of an unexpected shape")
		return nil
	}
	m.probe, m.probeUn = true, map[string]bool{}
	outs := m.seq(test.Elems[1:], &state{glob: st.glob, loc: st.loc, base: st.base})
	m.probe = false
	r := reach{pc: st.pc}
	for _, o := range outs {
		if o.err {
			continue
		}
		if t, _ := truth(o.st, o.v, "the predicate"); t != nil {
			r.preds = append(r.preds, t.pc)
		}
	}
	for _, id := range ids {
		g := m.byLabel[id]
		g.reaches = append(g.reaches, r)
		for u := range m.probeUn {
			g.unmodelled[u] = true
		}
	}
	return []out{{st: st, v: vNil}}
}

// show renders a test for a reason: label points and shared-atom probes
// (whens whose test is an ignore-errors) are left out.
func show(n syntax.Node) string { return syntax.NodeStringCut(clean(n), 160) }

func clean(n syntax.Node) syntax.Node {
	l, ok := n.(*syntax.List)
	if !ok {
		return n
	}
	var es []syntax.Node
	for _, e := range l.Elems {
		if el, ok := e.(*syntax.List); ok && forms.Head(el) == "when" && len(el.Elems) == 2 && forms.Head(el.Elems[1]) == "ignore-errors" {
			continue
		}
		es = append(es, clean(e))
	}
	if forms.Head(l) == "progn" && len(es) == 2 {
		return es[1]
	}
	return &syntax.List{Open: l.Open, Close: l.Close, Elems: es}
}

func (m *machine) branch(test syntax.Node, then, els []syntax.Node, st *state) []out {
	var outs []out
	text := show(test)
	for _, o := range m.eval(test, st) {
		if o.err {
			outs = append(outs, o)
			continue
		}
		t, f := truth(o.st, o.v, text)
		if t != nil {
			outs = append(outs, m.seq(then, t)...)
		}
		if f != nil {
			outs = append(outs, m.seq(els, f)...)
		}
	}
	return mergeOuts(outs)
}

func (m *machine) cond(clauses []syntax.Node, st *state) []out {
	if len(clauses) == 0 {
		return []out{{st: st, v: vNil}}
	}
	c, ok := clauses[0].(*syntax.List)
	if !ok || len(c.Elems) == 0 {
		m.un("a malformed cond clause")
		return []out{{st: st, v: vUnknown}}
	}
	var outs []out
	text := show(c.Elems[0])
	for _, o := range m.eval(c.Elems[0], st) {
		if o.err {
			outs = append(outs, o)
			continue
		}
		t, f := truth(o.st, o.v, text)
		if t != nil {
			if len(c.Elems) == 1 {
				outs = append(outs, out{st: t, v: o.v})
			} else {
				outs = append(outs, m.seq(c.Elems[1:], t)...)
			}
		}
		if f != nil {
			outs = append(outs, m.cond(clauses[1:], f)...)
		}
	}
	return mergeOuts(outs)
}

func (m *machine) andOr(and bool, xs []syntax.Node, st *state) []out {
	if len(xs) == 0 {
		return []out{{st: st, v: vBoolOf(and)}}
	}
	if len(xs) == 1 {
		return m.eval(xs[0], st)
	}
	var outs []out
	text := show(xs[0])
	for _, o := range m.eval(xs[0], st) {
		if o.err {
			outs = append(outs, o)
			continue
		}
		t, f := truth(o.st, o.v, text)
		if and {
			if f != nil {
				outs = append(outs, out{st: f, v: vNil})
			}
			if t != nil {
				outs = append(outs, m.andOr(and, xs[1:], t)...)
			}
			continue
		}
		if t != nil {
			v := o.v
			if v.k == kBool {
				v = vT
			}
			outs = append(outs, out{st: t, v: v})
		}
		if f != nil {
			outs = append(outs, m.andOr(and, xs[1:], f)...)
		}
	}
	return mergeOuts(outs)
}

func (m *machine) let(seq bool, bindings syntax.Node, body []syntax.Node, st *state) []out {
	bl, ok := bindings.(*syntax.List)
	if !ok {
		if syntax.IsSymbol(bindings, "nil") {
			return m.seq(body, st)
		}
		m.un("a malformed let")
		return []out{{st: st, v: vUnknown}}
	}
	type pend struct {
		st *state
		vs []bind
	}
	n0 := len(st.loc)
	cur := []pend{{st: st}}
	var fails []out
	for _, b := range bl.Elems {
		var name string
		var init syntax.Node
		switch b := b.(type) {
		case *syntax.Symbol:
			name = b.Name
		case *syntax.List:
			s, ok := b.Elems[0].(*syntax.Symbol)
			if !ok || len(b.Elems) > 2 {
				m.un("a malformed let binding")
				return []out{{st: st, v: vUnknown}}
			}
			name = s.Name
			if len(b.Elems) == 2 {
				init = b.Elems[1]
			}
		default:
			m.un("a malformed let binding")
			return []out{{st: st, v: vUnknown}}
		}
		var next []pend
		for _, p := range cur {
			var os []out
			if init == nil {
				os = []out{{st: p.st, v: vNil}}
			} else {
				os = m.eval(init, p.st)
			}
			for _, o := range os {
				if o.err {
					fails = append(fails, o)
					continue
				}
				s := o.st
				vs := p.vs
				if seq {
					s = s.clone()
					s.loc = append(slices.Clone(s.loc), bind{name, o.v})
				} else {
					vs = append(slices.Clip(vs), bind{name, o.v})
				}
				next = append(next, pend{st: s, vs: vs})
			}
		}
		cur = next
		if m.stopped() {
			return nil
		}
	}
	outs := fails
	for _, p := range cur {
		s := p.st
		if !seq {
			s = s.clone()
			s.loc = append(slices.Clone(s.loc), p.vs...)
		}
		for _, o := range m.seq(body, s) {
			o.st = o.st.clone()
			o.st.loc = o.st.loc[:n0:n0]
			outs = append(outs, o)
		}
	}
	return outs
}

func (m *machine) setq(l *syntax.List, st *state) []out {
	if len(l.Elems)%2 != 1 {
		m.un("a malformed setq")
		return []out{{st: st, v: vUnknown}}
	}
	outs := []out{{st: st, v: vNil}}
	for i := 1; i < len(l.Elems); i += 2 {
		s, ok := l.Elems[i].(*syntax.Symbol)
		if !ok {
			m.un("setf of a place")
			return []out{{st: st, v: vUnknown}}
		}
		var next []out
		for _, o := range outs {
			if o.err {
				next = append(next, o)
				continue
			}
			for _, r := range m.eval(l.Elems[i+1], o.st) {
				if !r.err {
					r.st = m.assign(r.st, s.Name, r.v)
				}
				next = append(next, r)
			}
		}
		outs = next
	}
	return outs
}

func (m *machine) assign(st *state, name string, v val) *state {
	if i, ok := st.local(name); ok {
		n := st.clone()
		n.loc = slices.Clone(n.loc)
		n.loc[i].v = v
		return n
	}
	if !m.probe {
		m.writes++
	}
	return st.setGlobal(name, v)
}

func (m *machine) inline(name string, fn *syntax.List, a argsOut) []out {
	ps := fn.Elems[2].(*syntax.List).Elems
	if len(ps) != len(a.vs) {
		return []out{{st: a.st, err: true}} // wrong number of arguments
	}
	if slices.Contains(m.calls, name) {
		m.un("recursion (" + name + ")")
		return []out{{st: a.st, v: vUnknown}}
	}
	if len(m.calls) >= maxInline {
		m.un("calls nested deeper than the inlining bound")
		return []out{{st: a.st, v: vUnknown}}
	}
	m.calls = append(m.calls, name)
	defer func() { m.calls = m.calls[:len(m.calls)-1] }()
	s := a.st.clone()
	n0, base := len(s.loc), s.base
	s.base = n0
	s.loc = slices.Clone(s.loc)
	for i, p := range ps {
		s.loc = append(s.loc, bind{p.(*syntax.Symbol).Name, a.vs[i]})
	}
	outs := m.seq(fn.Elems[3:], s)
	for i := range outs {
		o := outs[i].st.clone()
		o.loc, o.base = o.loc[:n0:n0], base
		outs[i].st = o
	}
	return outs
}

// intArgs reports whether every value is an integer; nonNum whether one
// is certainly not a number (a type error), unknown whether one is
// unknown.
func intArgs(vs []val) (ok, unknown bool) {
	ok = true
	for _, v := range vs {
		switch v.k {
		case kInt:
		case kUnknown:
			unknown = true
			ok = false
		default:
			ok = false
		}
	}
	return ok, unknown
}

var cmpSMT = map[string]string{"<": "bvslt", "<=": "bvsle", ">": "bvsgt", ">=": "bvsge", "=": "="}

func cmpConst(op string, a, b int64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return a == b
}

func cmpVal(op string, x, y val) val {
	if x.konst && y.konst {
		return vBoolOf(cmpConst(op, x.n, y.n))
	}
	return vFormula(fmt.Sprintf("(%s %s %s)", cmpSMT[op], x.term(), y.term()))
}

func andFormula(vs []val) val {
	var parts []string
	for _, v := range vs {
		switch v.k {
		case kSym:
			if v.name == "nil" {
				return vNil
			}
		default:
			parts = append(parts, v.t)
		}
	}
	switch len(parts) {
	case 0:
		return vT
	case 1:
		return vFormula(parts[0])
	}
	return vFormula("(and " + strings.Join(parts, " ") + ")")
}

// arith2 applies + - * to two integers with int64 wrap-around.
func arith2(op string, x, y val) val {
	if x.konst && y.konst {
		switch op {
		case "+":
			return vInt(x.n + y.n)
		case "-":
			return vInt(x.n - y.n)
		}
		return vInt(x.n * y.n)
	}
	if x.konst && (op == "+" && x.n == 0 || op == "*" && x.n == 1) {
		return y // the fold's unit
	}
	fn := map[string]string{"+": "bvadd", "-": "bvsub", "*": "bvmul"}[op]
	return vTerm(fmt.Sprintf("(%s %s %s)", fn, x.term(), y.term()))
}

// divOp applies an integer division-like operator; y is not zero.
func divOp(op string, x, y val) val {
	if x.konst && y.konst {
		a, b := x.n, y.n
		switch op {
		case "/":
			if b == -1 {
				return vInt(-a)
			}
			return vInt(a / b)
		case "rem", "mod":
			if b == -1 {
				return vInt(0)
			}
			r := a % b
			if op == "mod" && r != 0 && (r < 0) != (b < 0) {
				r += b
			}
			return vInt(r)
		case "floor":
			r := divOp("mod", x, y).n
			return divOp("/", vInt(a-r), y)
		}
	}
	switch op {
	case "/":
		return vTerm(fmt.Sprintf("(bvsdiv %s %s)", x.term(), y.term()))
	case "rem":
		return vTerm(fmt.Sprintf("(bvsrem %s %s)", x.term(), y.term()))
	case "mod":
		return vTerm(fmt.Sprintf("(bvsmod %s %s)", x.term(), y.term()))
	}
	// floor: (x - (mod x y)) / y, exact.
	return vTerm(fmt.Sprintf("(bvsdiv (bvsub %s (bvsmod %s %s)) %s)", x.term(), x.term(), y.term(), y.term()))
}

// nonZero splits st by y = 0 (an error) and y /= 0.
func nonZero(st *state, y val, text string) (ok, zero *state) {
	if y.konst {
		if y.n == 0 {
			return nil, st
		}
		return st, nil
	}
	return st.with(cond{fmt.Sprintf("(not (= %s %s))", y.term(), bvConst(0)), text + " has a non-zero divisor"}),
		st.with(cond{fmt.Sprintf("(= %s %s)", y.term(), bvConst(0)), text + " divides by zero"})
}

func (m *machine) builtin(h string, l *syntax.List, st *state, vs []val) []out {
	one := func(v val) []out { return []out{{st: st, v: v}} }
	fail := []out{{st: st, err: true}}
	text := show(l)
	numeric := func(min int) ([]out, bool) {
		if len(vs) < min {
			return fail, false
		}
		ok, unk := intArgs(vs)
		if unk {
			return one(vUnknown), false
		}
		if !ok {
			for _, v := range vs {
				if v.k != kInt && v.k != kUnknown {
					return fail, false // a type error (t, nil, a symbol, a list are no numbers)
				}
			}
		}
		return nil, true
	}
	switch h {
	case "+", "*", "-", "1+", "1-", "abs", "min", "max", "<", "<=", ">", ">=", "=", "/=", "/", "mod", "rem", "floor", "zerop", "plusp", "minusp", "evenp", "oddp":
		min := 1
		switch h {
		case "+", "*":
			min = 0
		case "mod", "rem":
			min = 2
		}
		if os, ok := numeric(min); !ok {
			return os
		}
	}
	switch h {
	case "+", "*":
		acc := vInt(map[string]int64{"+": 0, "*": 1}[h])
		for _, v := range vs {
			acc = arith2(h, acc, v)
		}
		return one(acc)
	case "-":
		if len(vs) == 1 {
			return one(arith2("-", vInt(0), vs[0]))
		}
		acc := vs[0]
		for _, v := range vs[1:] {
			acc = arith2("-", acc, v)
		}
		return one(acc)
	case "1+":
		return one(arith2("+", vs[0], vInt(1)))
	case "1-":
		return one(arith2("-", vs[0], vInt(1)))
	case "abs":
		x := vs[0]
		if x.konst {
			if x.n < 0 {
				return one(vInt(-x.n))
			}
			return one(x)
		}
		return one(vTerm(fmt.Sprintf("(ite (bvslt %s %s) (bvneg %s) %s)", x.t, bvConst(0), x.t, x.t)))
	case "min", "max":
		best := vs[0]
		op := map[string]string{"min": "<", "max": ">"}[h]
		for _, x := range vs[1:] {
			c := cmpVal(op, x, best)
			switch {
			case c.k == kSym && c.name == "t":
				best = x
			case c.k == kBool:
				best = vTerm(fmt.Sprintf("(ite %s %s %s)", c.t, x.term(), best.term()))
			}
		}
		return one(best)
	case "zerop", "plusp", "minusp":
		if len(vs) != 1 {
			return fail
		}
		op := map[string]string{"zerop": "=", "plusp": ">", "minusp": "<"}[h]
		return one(cmpVal(op, vs[0], vInt(0)))
	case "evenp", "oddp":
		if len(vs) != 1 {
			return fail
		}
		r := divOp("mod", vs[0], vInt(2))
		return one(cmpVal("=", r, vInt(map[string]int64{"evenp": 0, "oddp": 1}[h])))
	case "<", "<=", ">", ">=", "=":
		var parts []val
		for i := 0; i+1 < len(vs); i++ {
			parts = append(parts, cmpVal(h, vs[i], vs[i+1]))
		}
		return one(andFormula(parts))
	case "/=":
		var parts []val
		for i := range vs {
			for j := i + 1; j < len(vs); j++ {
				e := cmpVal("=", vs[i], vs[j])
				switch e.k {
				case kSym:
					parts = append(parts, vBoolOf(isNil(e)))
				default:
					parts = append(parts, vFormula("(not "+e.t+")"))
				}
			}
		}
		return one(andFormula(parts))
	case "/", "mod", "rem", "floor":
		x := vs[0]
		var ys []val
		switch {
		case h == "/" && len(vs) == 1:
			x, ys = vInt(1), vs
		case h == "/":
			ys = vs[1:]
		case h == "floor" && len(vs) == 1:
			return one(x)
		case len(vs) == 2:
			ys = vs[1:]
		default:
			return fail
		}
		cur := []out{{st: st, v: x}}
		for _, y := range ys {
			var next []out
			for _, o := range cur {
				if o.err {
					next = append(next, o)
					continue
				}
				ok, zero := nonZero(o.st, y, text)
				if zero != nil {
					next = append(next, out{st: zero, err: true})
				}
				if ok != nil {
					next = append(next, out{st: ok, v: divOp(h, o.v, y)})
				}
			}
			cur = next
		}
		return cur
	case "not", "null":
		if len(vs) != 1 {
			return fail
		}
		switch x := vs[0]; x.k {
		case kSym:
			return one(vBoolOf(isNil(x)))
		case kBool:
			return one(vFormula("(not " + x.t + ")"))
		case kUnknown:
			return one(vUnknown)
		}
		return one(vNil)
	case "eq", "eql", "equal":
		if len(vs) != 2 {
			return fail
		}
		return one(m.eq(h, vs[0], vs[1]))
	case "numberp", "integerp":
		if len(vs) != 1 {
			return fail
		}
		if vs[0].k == kUnknown {
			return one(vUnknown)
		}
		return one(vBoolOf(vs[0].k == kInt))
	case "list":
		if len(vs) == 0 {
			return one(vNil)
		}
		return one(val{k: kList, elems: vs})
	case "nth", "first", "second", "third", "car":
		idx := map[string]int64{"first": 0, "car": 0, "second": 1, "third": 2}
		var i val
		var lst val
		if h == "nth" {
			if len(vs) != 2 {
				return fail
			}
			i, lst = vs[0], vs[1]
		} else {
			if len(vs) != 1 {
				return fail
			}
			i, lst = vInt(idx[h]), vs[0]
		}
		if isNil(lst) {
			if i.k == kInt {
				return one(vNil)
			}
		}
		if lst.k != kList || i.k != kInt {
			if lst.k == kUnknown || i.k == kUnknown {
				return one(vUnknown)
			}
			return fail
		}
		if i.konst {
			if i.n < 0 {
				return fail
			}
			if i.n >= int64(len(lst.elems)) {
				return one(vNil)
			}
			return one(lst.elems[i.n])
		}
		// A symbolic index: one path per element, one beyond, one
		// negative (an error).
		var outs []out
		for k, e := range lst.elems {
			outs = append(outs, out{st: st.with(cond{fmt.Sprintf("(= %s %s)", i.t, bvConst(int64(k))), fmt.Sprintf("%s: the index is %d", text, k)}), v: e})
		}
		n := int64(len(lst.elems))
		outs = append(outs, out{st: st.with(cond{fmt.Sprintf("(bvsge %s %s)", i.t, bvConst(n)), fmt.Sprintf("%s: the index is >= %d", text, n)}), v: vNil})
		outs = append(outs, out{st: st.with(cond{fmt.Sprintf("(bvslt %s %s)", i.t, bvConst(0)), text + ": the index is negative"}), err: true})
		return outs
	case "member", "assoc":
		if len(vs) != 2 {
			return fail
		}
		x, lst := vs[0], vs[1]
		if isNil(lst) {
			return one(vNil)
		}
		if lst.k != kList || x.k != kSym {
			m.un(h + " of a value it cannot compare")
			return one(vUnknown)
		}
		for k, e := range lst.elems {
			key := e
			if h == "assoc" {
				if isNil(e) {
					continue
				}
				if e.k != kList {
					return fail
				}
				key = e.elems[0]
			}
			if key.k == kUnknown {
				m.un(h + " of a value it cannot compare")
				return one(vUnknown)
			}
			if key.k == kSym && key.name == x.name {
				if h == "assoc" {
					return one(e)
				}
				return one(val{k: kList, elems: lst.elems[k:]})
			}
		}
		return one(vNil)
	}
	m.un(h)
	return one(vUnknown)
}

// eq compares two values with eq/eql/equal: integers by value (the VM's
// immediate integers), symbols by name.
func (m *machine) eq(h string, x, y val) val {
	if x.k == kUnknown || y.k == kUnknown {
		return vUnknown
	}
	switch {
	case x.k == kInt && y.k == kInt:
		return cmpVal("=", x, y)
	case x.k == kSym && y.k == kSym:
		return vBoolOf(x.name == y.name)
	case x.k == kBool && y.k == kBool:
		return vFormula(fmt.Sprintf("(= %s %s)", x.t, y.t))
	case x.k == kBool && y.k == kSym:
		x, y = y, x
		fallthrough
	case x.k == kSym && y.k == kBool:
		switch x.name {
		case "nil":
			return vFormula("(not " + y.t + ")")
		case "t":
			return vFormula(y.t)
		}
		return vNil
	case x.k == kList || y.k == kList || x.k == kObj || y.k == kObj:
		if x.k != y.k && (x.k == kInt || y.k == kInt || x.k == kSym || y.k == kSym || x.k == kBool || y.k == kBool) {
			return vNil
		}
		m.un(h + " of lists or strings")
		return vUnknown
	}
	return vNil // different kinds: an integer is no symbol
}
