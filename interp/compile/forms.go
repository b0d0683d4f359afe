package compile

import (
	"math"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// generators attaches a code generator to each special form of the
// shared table (interp/forms); a test checks that they name the same forms.
// Definitions and the top-level forms the compiler skips are errors
// inside a body (formNested).
var generators map[string]func(fs *fstate, l *syntax.List) error

func init() {
	generators = map[string]func(fs *fstate, l *syntax.List) error{
		"quote": (*fstate).formQuote, "if": (*fstate).formIf, "when": (*fstate).formWhen,
		"unless": (*fstate).formWhen, "cond": (*fstate).formCond, "case": (*fstate).formCase,
		"and": (*fstate).formAndOr, "or": (*fstate).formAndOr, "progn": (*fstate).formProgn,
		"let": (*fstate).formLet, "let*": (*fstate).formLet, "setq": (*fstate).formSetq,
		"setf": (*fstate).formSetq, "incf": (*fstate).formIncf, "decf": (*fstate).formIncf,
		"push": (*fstate).formPush, "pop": (*fstate).formPop, "dolist": (*fstate).formDolist,
		"dotimes": (*fstate).formDotimes, "while": (*fstate).formWhile, "return": (*fstate).formReturn,
		"lambda": (*fstate).formLambda, "funcall": (*fstate).formFuncall, "function": (*fstate).formFunction,
		"a": (*fstate).formDesig, "an": (*fstate).formDesig,
		"with-failure-handling": (*fstate).formWFH, "retry": (*fstate).formRetry,
		"ignore-errors": (*fstate).formIgnoreErrors, "handler-case": (*fstate).formHandlerCase,
		"assert": (*fstate).formAssert, "declare": (*fstate).formDeclare,
		"ecase": (*fstate).formCase, "typecase": (*fstate).formCase, "etypecase": (*fstate).formCase,
		"block": (*fstate).formBlock, "return-from": (*fstate).formReturnFrom,
		"unwind-protect": (*fstate).formUnwindProtect, "values": (*fstate).formValues,
		"multiple-value-bind": (*fstate).formMVB, "destructuring-bind": (*fstate).formDestructuringBind,
		"flet": (*fstate).formFlet, "labels": (*fstate).formFlet,
		"with-retry-counters": (*fstate).formLet, "do-retry": (*fstate).formDoRetry,
		"ros-info": (*fstate).formLog, "ros-warn": (*fstate).formLog, "ros-error": (*fstate).formLog,
		"ros-debug": (*fstate).formLog,
		"par":       (*fstate).formProgn, "seq": (*fstate).formProgn, "top-level": (*fstate).formProgn,
		"with-simulated-robot": (*fstate).formProgn, "with-real-robot": (*fstate).formProgn,
		"pursue": (*fstate).formPursue, "try-in-order": (*fstate).formTryInOrder,
		"loop": (*fstate).formLoop,
	}
	for _, f := range forms.All() {
		if f.Level == forms.TopLevel {
			generators[f.Name] = (*fstate).formNested
		}
	}
}

// expr compiles n so that it leaves exactly one value on the stack.
func (fs *fstate) expr(n syntax.Node) error {
	switch n := n.(type) {
	case *syntax.Int:
		if n.Value >= math.MinInt32 && n.Value <= math.MaxInt32 {
			fs.emit(INT, int32(n.Value), 0, n.Start)
		} else {
			fs.emit(CONST, fs.c.constIndex(value.Int(n.Value)), 0, n.Start)
		}
	case *syntax.Float:
		fs.emit(CONST, fs.c.constIndex(value.Float(n.Value)), 0, n.Start)
	case *syntax.String:
		fs.emit(CONST, fs.c.constIndex(value.String(n.Value)), 0, n.Start)
	case *syntax.Keyword:
		fs.emit(CONST, fs.c.constIndex(value.Keyword(n.Name)), 0, n.Start)
	case *syntax.Quote:
		fs.constant(Literal(n.X), n.Start)
	case *syntax.Symbol:
		switch n.Name {
		case "t":
			fs.emit(T, 0, 0, n.Start)
		case "nil":
			fs.emit(NIL, 0, 0, n.Start)
		default:
			return fs.load(n)
		}
	case *syntax.List:
		if len(n.Elems) == 0 {
			fs.emit(NIL, 0, 0, n.Open)
			return nil
		}
		head, ok := n.Elems[0].(*syntax.Symbol)
		if !ok {
			return fs.c.errf(n.Elems[0], "a form must start with a function name or special form, found %s", describe(n.Elems[0]))
		}
		name := forms.Name(head)
		if forms.Lookup(name) != nil {
			gen := generators[name]
			if gen == nil {
				return fs.c.errf(n, "%s is not supported", name)
			}
			return gen(fs, n)
		}
		return fs.call(name, n)
	default:
		return fs.readerMacro(n) // readermacros.go
	}
	return nil
}

func (fs *fstate) constant(v value.Value, pos syntax.Pos) {
	switch {
	case v.IsNil():
		fs.emit(NIL, 0, 0, pos)
	case v.Kind() == value.KT:
		fs.emit(T, 0, 0, pos)
	default:
		fs.emit(CONST, fs.c.constIndex(v), 0, pos)
	}
}

// progn compiles forms for their last value (nil when there are none).
func (fs *fstate) progn(forms []syntax.Node, at syntax.Pos) error {
	forms = dropDeclares(forms)
	if len(forms) == 0 {
		fs.emit(NIL, 0, 0, at)
		return nil
	}
	for i, f := range forms {
		if i < len(forms)-1 {
			if err := fs.effect(f); err != nil {
				return err
			}
			continue
		}
		if err := fs.expr(f); err != nil {
			return err
		}
	}
	return nil
}

// effects compiles forms for their side effects only.
func (fs *fstate) effects(forms []syntax.Node) error {
	for _, f := range dropDeclares(forms) {
		if err := fs.effect(f); err != nil {
			return err
		}
	}
	return nil
}

// effect compiles f for its side effects only: a label probe, or the
// value popped.
func (fs *fstate) effect(f syntax.Node) error {
	if w, test, p := probeForm(f); w != nil {
		return fs.probe(w, test, p)
	}
	if err := fs.expr(f); err != nil {
		return err
	}
	fs.emit(POP, 0, 0, startOf(f))
	return nil
}

// probeForm recognises a label probe: (when (ignore-errors P)) with an
// empty body, where P contains no return or retry (which would leave the
// probe other than through its end or its trap). It returns the when form,
// its test and P, or nils.
func probeForm(f syntax.Node) (w, test *syntax.List, p syntax.Node) {
	l, ok := f.(*syntax.List)
	if !ok || len(l.Elems) != 2 || forms.Head(l) != "when" {
		return nil, nil, nil
	}
	t, ok := l.Elems[1].(*syntax.List)
	if !ok || len(t.Elems) != 2 || forms.Head(t) != "ignore-errors" {
		return nil, nil, nil
	}
	if probeEscapes(t.Elems[1]) {
		return nil, nil, nil
	}
	return l, t, t.Elems[1]
}

// probeEscapes reports whether n has a return, return-from, retry,
// do-retry or loop form anywhere (what syntax.Walk visits). It recurses
// itself rather than through Walk's callback: every probe of a plan,
// each of dist's rungs, is read once or more, and the callback per node
// was most of compiling a probe.
func probeEscapes(n syntax.Node) bool {
	switch x := n.(type) {
	case *syntax.List:
		switch forms.Head(x) {
		case "return", "return-from", "retry", "do-retry", "loop":
			return true
		}
		for _, e := range x.Elems {
			if probeEscapes(e) {
				return true
			}
		}
	case *syntax.Quote:
		return probeEscapes(x.X)
	case *syntax.Prefixed:
		return probeEscapes(x.X)
	case *syntax.Conditional:
		return probeEscapes(x.Feature) || probeEscapes(x.X)
	}
	return false
}

var probeCmps = map[string]byte{"<": '<', "<=": 'l', ">": '>', ">=": 'g', "=": '=', "/=": '!', "eq": 'e'}

// cmpProbe recognises the predicate of a compare probe: one of
// simpleProbe's, or else an expression probe (Cmp 'x', probeOps).
func (fs *fstate) cmpProbe(pred syntax.Node) (ProbeCmp, bool) {
	if pc, ok := fs.simpleProbe(pred); ok {
		return pc, true
	}
	var pc ProbeCmp
	ops, ok := fs.probeOps(nil, pred, 1)
	if !ok {
		return pc, false
	}
	pc.Cmp, pc.Ops = 'x', ops
	return pc, true
}

// probeBuiltin tells that name is the core builtin (no defun of the
// file's shadows it).
func (fs *fstate) probeBuiltin(name string) bool { return fs.c.prog.byName[name] == nil }

// probeOperand resolves a symbol to a local that is not a cell, or a
// global (global true).
func (fs *fstate) probeOperand(n syntax.Node) (idx int32, global, ok bool) {
	x, isSym := n.(*syntax.Symbol)
	if !isSym || x.Name == "t" || x.Name == "nil" {
		return 0, false, false
	}
	ref, i, b, found := fs.lookup(x.Name)
	switch {
	case found && ref == refLocal && !b.cell:
		return int32(i), false, true
	case found && ref == refGlobal:
		return int32(i), true, true
	}
	return 0, false, false
}

// probeArith and probeCmpOps are the operators of an expression probe
// and their ProbeOp codes.
var (
	probeArith  = map[string]byte{"+": '+', "-": '-', "*": '*', "/": '/', "mod": '%'}
	probeCmpOps = map[string]byte{"<": '<', "<=": '(', ">": '>', ">=": ')', "=": '=', "/=": '!', "eq": 'e'}
)

// probeOps appends to ops the postfix code (ProbeOp) of e, with depth
// values on the stack once e's is pushed: integer literals, t, nil,
// keywords and quoted symbols, locals that are not cells and globals,
// and the builtins +, -, *, /, mod, <, <=, >, >=, =, /= and eq of two
// arguments, abs, not and null of one, member of a quoted list of
// symbols, keywords and integers, and and or of one or more; false for
// anything else (a call, a float literal, a quoted list elsewhere, a
// deeper or longer expression than a probe takes).
func (fs *fstate) probeOps(ops []ProbeOp, e syntax.Node, depth int) ([]ProbeOp, bool) {
	if depth > MaxProbeStack || len(ops) >= MaxProbeOps {
		return ops, false
	}
	switch n := e.(type) {
	case *syntax.Int:
		return append(ops, ProbeOp{Op: 'K', K: n.Value}), true
	case *syntax.Keyword:
		return append(ops, ProbeOp{Op: 'C', V: value.Keyword(n.Name)}), true
	case *syntax.Quote:
		if q, ok := n.X.(*syntax.Symbol); ok {
			return append(ops, ProbeOp{Op: 'C', V: value.Symbol(q.Name)}), true
		}
		return ops, false
	case *syntax.Symbol:
		switch n.Name {
		case "t":
			return append(ops, ProbeOp{Op: 'T'}), true
		case "nil":
			return append(ops, ProbeOp{Op: 'N'}), true
		}
		slot, global, ok := fs.probeOperand(n)
		if !ok {
			return ops, false
		}
		op := byte('L')
		if global {
			op = 'G'
		}
		return append(ops, ProbeOp{Op: op, Slot: slot}), true
	case *syntax.List:
		h := forms.Head(n)
		args := n.Elems[min(1, len(n.Elems)):]
		if h == "" || forms.Lookup(h) != nil && h != "and" && h != "or" {
			return ops, false
		}
		if h == "and" || h == "or" {
			if len(args) == 0 {
				return ops, false
			}
			jump := byte('&')
			if h == "or" {
				jump = '|'
			}
			var at []int
			for i, a := range args {
				var ok bool
				if ops, ok = fs.probeOps(ops, a, depth); !ok {
					return ops, false
				}
				if i < len(args)-1 {
					at = append(at, len(ops))
					ops = append(ops, ProbeOp{Op: jump})
				}
			}
			for _, i := range at {
				ops[i].Slot = int32(len(ops))
			}
			return ops, true
		}
		if !fs.probeBuiltin(h) {
			return ops, false
		}
		if h == "member" && len(args) == 2 {
			// (member x '(K1 ... Kn)), the Ki symbols, keywords or
			// integers.
			l, ok := quotedNames(args[1])
			if !ok {
				return ops, false
			}
			if ops, ok = fs.probeOps(ops, args[0], depth); !ok {
				return ops, false
			}
			return append(ops, ProbeOp{Op: 'M', V: l}), true
		}
		var op byte
		switch {
		case len(args) == 1 && h == "abs":
			op = 'a'
		case len(args) == 1 && (h == "not" || h == "null"):
			op = 'n'
		case len(args) == 2 && probeArith[h] != 0:
			op = probeArith[h]
		case len(args) == 2 && probeCmpOps[h] != 0:
			op = probeCmpOps[h]
		default:
			return ops, false
		}
		for i, a := range args {
			var ok bool
			if ops, ok = fs.probeOps(ops, a, depth+i); !ok {
				return ops, false
			}
		}
		return append(ops, ProbeOp{Op: op}), true
	}
	return ops, false
}

// simpleProbe recognises the predicate of a compare probe: (OP x K),
// (not (OP x K)), x or (not x) (also null for not), with OP a comparison
// builtin or eq, x a local that is not a cell or a global (defparameter),
// and K an integer literal (for eq also a quoted symbol, a keyword, t or
// nil) or another such local or global; (member x '(K1 ... Kn)) with
// the Ki symbols, keywords or integers; (and T1 ... Tn) (also under
// not), each Ti such an x or (not x); or a dist rung (distRung).
func (fs *fstate) simpleProbe(pred syntax.Node) (ProbeCmp, bool) {
	var pc ProbeCmp
	builtin := fs.probeBuiltin
	local := func(n syntax.Node) (int32, bool) {
		x, ok := n.(*syntax.Symbol)
		if !ok || x.Name == "t" || x.Name == "nil" {
			return 0, false
		}
		ref, idx, b, found := fs.lookup(x.Name)
		if !found || ref != refLocal || b.cell {
			return 0, false
		}
		return int32(idx), true
	}
	// operand is a local, or a global (global true).
	operand := func(n syntax.Node) (idx int32, global, ok bool) {
		if i, ok := local(n); ok {
			return i, false, true
		}
		if x, ok := n.(*syntax.Symbol); ok && x.Name != "t" && x.Name != "nil" {
			if ref, g, _, found := fs.lookup(x.Name); found && ref == refGlobal {
				return int32(g), true, true
			}
		}
		return 0, false, false
	}
	if l, ok := pred.(*syntax.List); ok && len(l.Elems) == 2 {
		if h := forms.Head(l); (h == "not" || h == "null") && builtin(h) {
			pred = l.Elems[1]
			pc.Not = true
		}
	}
	if slot, global, ok := operand(pred); ok {
		pc.Slot, pc.XGlobal, pc.Cmp = slot, global, 't'
		return pc, true
	}
	l, ok := pred.(*syntax.List)
	if !ok {
		return pc, false
	}
	h := forms.Head(l)
	if d, ok := fs.distRung(l); ok && !pc.Not {
		return d, true
	}
	if h == "and" && len(l.Elems) >= 2 {
		for _, e := range l.Elems[1:] {
			var t ProbeTerm
			if el, ok := e.(*syntax.List); ok && len(el.Elems) == 2 {
				if hh := forms.Head(el); (hh == "not" || hh == "null") && builtin(hh) {
					e, t.Not = el.Elems[1], true
				}
			}
			slot, global, ok := operand(e)
			if !ok {
				return pc, false
			}
			t.Slot, t.Global = slot, global
			pc.Terms = append(pc.Terms, t)
		}
		pc.Cmp = '&'
		return pc, true
	}
	if h == "member" && len(l.Elems) == 3 && builtin(h) {
		// (member x '(K1 ... Kn)), the Ki symbols, keywords or
		// integers: true when x is eql to one of them (the list is
		// proper, so member cannot fail).
		slot, global, ok := operand(l.Elems[1])
		if !ok {
			return pc, false
		}
		ks, ok := quotedNames(l.Elems[2])
		if !ok {
			return pc, false
		}
		pc.Slot, pc.XGlobal, pc.Cmp, pc.K = slot, global, 'm', ks
		return pc, true
	}
	cmp, ok := probeCmps[h]
	if !ok || len(l.Elems) != 3 || !builtin(h) {
		return pc, false
	}
	slot, global, ok := operand(l.Elems[1])
	if !ok {
		return pc, false
	}
	pc.Slot, pc.XGlobal, pc.Cmp = slot, global, cmp
	if y, global, ok := operand(l.Elems[2]); ok {
		pc.Y, pc.YLocal, pc.YGlobal = y, !global, global
		return pc, true
	}
	switch k := l.Elems[2].(type) {
	case *syntax.Int:
		pc.K = value.Int(k.Value)
	case *syntax.Keyword:
		pc.K = value.Keyword(k.Name)
	case *syntax.Symbol:
		if k.Name != "t" && k.Name != "nil" {
			return pc, false
		}
		pc.K = value.Symbol(k.Name)
	case *syntax.Quote:
		s, ok := k.X.(*syntax.Symbol)
		if !ok {
			return pc, false
		}
		pc.K = value.Symbol(s.Name)
	default:
		return pc, false
	}
	if cmp != 'e' && pc.K.Kind() != value.KInt {
		return pc, false
	}
	return pc, true
}

// quotedNames is the value of n, a quoted list of symbols, keywords and
// integers.
func quotedNames(n syntax.Node) (value.Value, bool) {
	q, ok := n.(*syntax.Quote)
	if !ok {
		return value.Nil, false
	}
	ql, ok := q.X.(*syntax.List)
	if !ok {
		return value.Nil, false
	}
	ks := make([]value.Value, 0, len(ql.Elems))
	for _, e := range ql.Elems {
		switch k := e.(type) {
		case *syntax.Int:
			ks = append(ks, value.Int(k.Value))
		case *syntax.Keyword:
			ks = append(ks, value.Keyword(k.Name))
		case *syntax.Symbol:
			ks = append(ks, value.Symbol(k.Name))
		default:
			return value.Nil, false
		}
	}
	return value.List(ks...), true
}

// distRung recognises a rung of a dist ladder, as the label pipeline
// writes it (labels.distLadder): (and (< (abs (- x y)) K) (<= 0 (abs (-
// x y))) (eq (< x y) (< (- x y) 0))), K a positive integer literal, x and
// y (not both literals) expressions as probeOps takes them; see
// ProbeCmp.
func (fs *fstate) distRung(l *syntax.List) (ProbeCmp, bool) {
	var pc ProbeCmp
	builtin := fs.probeBuiltin
	if forms.Head(l) != "and" || len(l.Elems) != 4 {
		return pc, false
	}
	for _, name := range []string{"<", "<=", "abs", "-", "eq"} {
		if !builtin(name) {
			return pc, false
		}
	}
	lt, ok := l.Elems[1].(*syntax.List)
	if !ok || forms.Head(lt) != "<" || len(lt.Elems) != 3 {
		return pc, false
	}
	k, ok := lt.Elems[2].(*syntax.Int)
	if !ok || k.Value <= 0 {
		return pc, false
	}
	abs, ok := lt.Elems[1].(*syntax.List)
	if !ok || forms.Head(abs) != "abs" || len(abs.Elems) != 2 {
		return pc, false
	}
	sub, ok := abs.Elems[1].(*syntax.List)
	if !ok || forms.Head(sub) != "-" || len(sub.Elems) != 3 {
		return pc, false
	}
	x, y := sub.Elems[1], sub.Elems[2]
	// l must render as the ladder writes it; compared piece by piece
	// rather than against the text built whole (an Int renders as its
	// Raw text).
	sx, sy := syntax.NodeString(x), syntax.NodeString(y)
	if !isConcat(syntax.NodeString(l), "(and (< (abs (- ", sx, " ", sy, ")) ", k.Raw, ") (<= 0 (abs (- ", sx, " ", sy,
		"))) (eq (< ", sx, " ", sy, ") (< (- ", sx, " ", sy, ") 0)))") {
		return pc, false
	}
	_, xk := x.(*syntax.Int)
	_, yk := y.(*syntax.Int)
	if xk && yk {
		return pc, false
	}
	if pc.Ops, ok = fs.probeOps(nil, x, 1); !ok {
		return pc, false
	}
	if pc.Ops, ok = fs.probeOps(pc.Ops, y, 2); !ok {
		return pc, false
	}
	pc.Cmp, pc.Bound = 'd', k.Value
	return pc, true
}

// isConcat reports whether s is the concatenation of pieces.
func isConcat(s string, pieces ...string) bool {
	for _, p := range pieces {
		var ok bool
		if s, ok = strings.CutPrefix(s, p); !ok {
			return false
		}
	}
	return s == ""
}

// probe compiles the label probe (when (ignore-errors P)) for effect:
//
//	[PROBEGUARD guard branch]   (P is (and C P2 ...), C a compare probe's)
//	PROBE site; P; PROBEOK end branch
//	fail: PROBEFAIL branch      (the site's failure clause)
//	end:
//
// The when stays a counted conditional (branch Form is the when, Test the
// ignore-errors form), counted exactly as the general compilation
// (HANDLER, P, UNHANDLE, JMP, POP, JMPIFNOT, NIL, POP) would count it.
func (fs *fstate) probe(w, test *syntax.List, pred syntax.Node) error {
	p := fs.c.prog
	if pc, ok := fs.cmpProbe(pred); ok {
		j := fs.branch(PROBECMP, "when", w, test)
		fs.a[j] = int32(len(p.Probes))
		p.Probes = append(p.Probes, pc)
		return nil
	}
	// (and C P2 ...) with C a compare probe's predicate: PROBEGUARD C,
	// then the block of (and P2 ...), which runs only when C holds (MCC
	// conjunctions are false at their first atom on most runs).
	guard, gpc := -1, 0
	if l, ok := pred.(*syntax.List); ok && forms.Head(l) == "and" && len(l.Elems) >= 3 {
		if c, ok := fs.cmpProbe(l.Elems[1]); ok {
			guard = len(p.Probes)
			p.Probes = append(p.Probes, c)
			gpc = fs.emit(PROBEGUARD, int32(guard), 0, w.Open)
			rest := *l
			rest.Elems = append([]syntax.Node{l.Elems[0]}, l.Elems[2:]...)
			pred = &rest
		}
	}
	si := len(p.Handlers)
	p.Handlers = append(p.Handlers, HandlerSite{Pos: test.Open, Probe: true})
	fs.siteIdx = append(fs.siteIdx, si)
	fs.emit(PROBE, int32(si), 0, w.Open)
	if err := fs.expr(pred); err != nil {
		return err
	}
	ok := fs.branch(PROBEOK, "when", w, test)
	bi := fs.b[ok]
	pc := fs.here()
	p.Handlers[si].Clauses = []HandlerClause{{Kind: "failure", PC: pc}}
	fs.emit(PROBEFAIL, 0, bi, w.Open)
	fs.patch(ok)
	if guard >= 0 {
		fs.b[gpc] = bi
		p.Probes[guard].Skip = int32(fs.here()) // relocated by link
	}
	return nil
}

// call compiles a call (Lisp-2 resolution: user function, core builtin,
// external).
func (fs *fstate) call(name string, l *syntax.List) error {
	c := fs.c
	if ok, err := fs.localCall(name, l); ok {
		return err
	}
	args := l.Elems[1:]
	n := len(args)
	if fn := c.prog.byName[name]; fn != nil {
		if fn.ll != nil && !fn.ll.simple {
			return fs.callLambdaList(fn, l)
		}
		if n != len(fn.Params) {
			return c.errf(l, "%s takes %d argument%s, called with %d", name, len(fn.Params), plural(len(fn.Params)), n)
		}
		if err := fs.exprs(args); err != nil {
			return err
		}
		fs.emit(CALL, int32(fn.Index), int32(n), l.Open)
		return nil
	}
	if _, builtin := CoreBuiltin(name); seqSearches[name] && (n != 2 || !builtin) {
		return fs.seqSearch(name, l)
	}
	if name == "mapcar" || name == "mapc" || name == "some" || name == "every" {
		return fs.mapcar(name, l)
	}
	if id, ok := CoreBuiltin(name); ok {
		sig := coreBuiltins[id]
		if n < sig.Min || (sig.Max >= 0 && n > sig.Max) {
			return c.errf(l, "%s takes %s, called with %d", name, arityText(sig.Min, sig.Max), n)
		}
		if err := fs.exprs(args); err != nil {
			return err
		}
		if op, ok := inlineOp(name, n); ok {
			fs.emit(op, 0, 0, l.Open)
		} else {
			fs.emit(CALLB, int32(id), int32(n), l.Open)
		}
		return nil
	}
	if err := fs.exprs(args); err != nil {
		return err
	}
	fs.emit(CALLX, c.external(name), int32(n), l.Open)
	return nil
}

func (fs *fstate) exprs(ns []syntax.Node) error {
	for _, a := range ns {
		if err := fs.expr(a); err != nil {
			return err
		}
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func arityText(min, max int) string {
	switch {
	case max < 0:
		return itoa(min) + " or more arguments"
	case min == max:
		return itoa(min) + " argument" + plural(min)
	default:
		return itoa(min) + " to " + itoa(max) + " arguments"
	}
}

func itoa(i int) string { return value.Int(int64(i)).String() }

func (fs *fstate) formNested(l *syntax.List) error {
	return fs.c.errf(l, "%s is only allowed at top level", forms.Head(l))
}

func (fs *fstate) formQuote(l *syntax.List) error {
	if len(l.Elems) != 2 {
		return fs.c.errf(l, "quote: expected (quote X)")
	}
	fs.constant(Literal(l.Elems[1]), l.Open)
	return nil
}

// (if TEST THEN [ELSE])
func (fs *fstate) formIf(l *syntax.List) error {
	if len(l.Elems) < 3 || len(l.Elems) > 4 {
		return fs.c.errf(l, "if: expected (if TEST THEN [ELSE])")
	}
	test := l.Elems[1]
	if err := fs.expr(test); err != nil {
		return err
	}
	jElse := fs.branch(JMPIFNOT, "if", l, test)
	if err := fs.expr(l.Elems[2]); err != nil {
		return err
	}
	jEnd := fs.emit(JMP, 0, 0, l.Open)
	fs.depth--
	fs.patch(jElse)
	if len(l.Elems) == 4 {
		if err := fs.expr(l.Elems[3]); err != nil {
			return err
		}
	} else {
		fs.emit(NIL, 0, 0, l.Open)
	}
	fs.patch(jEnd)
	return nil
}

// (when TEST BODY...) and (unless TEST BODY...). An empty body still
// evaluates TEST and counts its branch: the label engine relies on it.
func (fs *fstate) formWhen(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "%s: expected (%s TEST BODY...)", head, head)
	}
	test := l.Elems[1]
	if err := fs.expr(test); err != nil {
		return err
	}
	op := JMPIFNOT
	if head == "unless" {
		op = JMPIF
	}
	body := l.Elems[2:]
	if len(body) == 0 {
		j := fs.branch(op, head, l, test)
		fs.patch(j)
		fs.emit(NIL, 0, 0, l.Open)
		return nil
	}
	return fs.bodyOrNil(fs.branch(op, head, l, test), body, l.Open)
}

// bodyOrNil compiles the body of a one-armed conditional whose test jumps
// to skip when the body must not run: the body's value, or nil.
func (fs *fstate) bodyOrNil(skip int, body []syntax.Node, at syntax.Pos) error {
	if err := fs.progn(body, at); err != nil {
		return err
	}
	end := fs.emit(JMP, 0, 0, at)
	fs.depth--
	fs.patch(skip)
	fs.emit(NIL, 0, 0, at)
	fs.patch(end)
	return nil
}

// (cond (TEST BODY...)...)
func (fs *fstate) formCond(l *syntax.List) error {
	var ends []int
	d := fs.depth
	folded := false
	for _, cl := range l.Elems[1:] {
		clause, ok := cl.(*syntax.List)
		if !ok || len(clause.Elems) == 0 {
			return fs.c.errf(cl, "cond: expected a clause (TEST BODY...), found %s", describe(cl))
		}
		test, body := clause.Elems[0], clause.Elems[1:]
		fs.depth = d
		if syntax.IsSymbol(test, "t") {
			// The constant clause is the only test that is folded.
			if len(body) == 0 {
				fs.emit(T, 0, 0, clause.Open)
			} else if err := fs.progn(body, clause.Open); err != nil {
				return err
			}
			folded = true
			break
		}
		if err := fs.expr(test); err != nil {
			return err
		}
		if len(body) == 0 {
			ends = append(ends, fs.branch(JMPIFK, "cond", clause, test))
			continue
		}
		jNext := fs.branch(JMPIFNOT, "cond", clause, test)
		end, err := fs.clauseBody(body, clause.Open, jNext)
		if err != nil {
			return err
		}
		ends = append(ends, end)
	}
	fs.endClauses(d, folded, ends, l.Open)
	return nil
}

// clauseBody compiles the body of a cond or case clause whose test jumps
// to jNext when false; it returns the jump to the end of the whole form.
func (fs *fstate) clauseBody(body []syntax.Node, at syntax.Pos, jNext int) (int, error) {
	if err := fs.progn(body, at); err != nil {
		return 0, err
	}
	end := fs.emit(JMP, 0, 0, at)
	fs.patch(jNext)
	return end, nil
}

// endClauses finishes a cond or case at stack depth d: nil when no clause
// was taken (unless a constant clause folded the default), then the jumps
// of the taken clauses land here.
func (fs *fstate) endClauses(d int, folded bool, ends []int, at syntax.Pos) {
	fs.depth = d
	if !folded {
		fs.emit(NIL, 0, 0, at)
	} else {
		fs.depth = d + 1
	}
	for _, j := range ends {
		fs.patch(j)
	}
}

// (case KEY (KEYS BODY...)... [(otherwise BODY...)]), ecase (no
// otherwise; a key no clause matches is a type-error), typecase and
// etypecase (clauses name types, see typePredicates).
func (fs *fstate) formCase(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "%s: expected (%s KEY (KEYS BODY...)...)", head, head)
	}
	typed := head == "typecase" || head == "etypecase"
	exhaustive := head == "ecase" || head == "etypecase"
	if err := fs.expr(l.Elems[1]); err != nil {
		return err
	}
	saved := fs.slots
	tmp := fs.allocSlot()
	fs.emit(SET, int32(tmp), 0, l.Open)
	d := fs.depth
	var ends []int
	folded := false
	for _, cl := range l.Elems[2:] {
		clause, ok := cl.(*syntax.List)
		if !ok || len(clause.Elems) == 0 {
			return fs.c.errf(cl, "%s: expected a clause (KEYS BODY...), found %s", head, describe(cl))
		}
		keys, body := clause.Elems[0], clause.Elems[1:]
		fs.depth = d
		if !exhaustive && (syntax.IsSymbol(keys, "otherwise") || syntax.IsSymbol(keys, "t")) {
			if err := fs.progn(body, clause.Open); err != nil {
				return err
			}
			folded = true
			break
		}
		if typed {
			ty, ok := keys.(*syntax.Symbol)
			pred := ""
			if ok {
				pred = typePredicates[forms.Name(ty)]
			}
			fs.emit(LOAD, int32(tmp), 0, clause.Open)
			if pred != "" {
				fs.callBuiltin(pred, 1, clause.Open)
			} else {
				// Another type (a class of the system): the external
				// typep decides, undefined unless a host links it.
				fs.constant(Literal(keys), clause.Open)
				fs.emit(CALLX, fs.c.external("typep"), 2, clause.Open)
			}
		} else {
			var kv []value.Value
			var keyNodes []syntax.Node
			if kl, ok := keys.(*syntax.List); ok {
				keyNodes = kl.Elems
			} else if !syntax.IsSymbol(keys, "nil") {
				keyNodes = []syntax.Node{keys}
			}
			if q, ok := keys.(*syntax.Quote); ok {
				// 'x reads as (quote x): the keys quote and x.
				keyNodes = []syntax.Node{&syntax.Symbol{Start: q.Start, Name: "quote"}, q.X}
			}
			for _, k := range keyNodes {
				switch k.(type) {
				case *syntax.Symbol, *syntax.Keyword, *syntax.Int:
					kv = append(kv, Literal(k))
				default:
					return fs.c.errf(k, "%s: keys must be literal symbols, keywords or integers, found %s", head, describe(k))
				}
			}
			fs.emit(LOAD, int32(tmp), 0, clause.Open)
			fs.emit(MEMBEQ, fs.c.constIndex(value.List(kv...)), 0, clause.Open)
		}
		jNext := fs.branch(JMPIFNOT, "case", clause, keys)
		end, err := fs.clauseBody(body, clause.Open, jNext)
		if err != nil {
			return err
		}
		ends = append(ends, end)
	}
	if exhaustive {
		fs.depth = d
		fs.signal("type-error", "~a: no clause matches ~s", l.Open, func() {
			fs.constant(value.String(head), l.Open)
		}, func() {
			fs.emit(LOAD, int32(tmp), 0, l.Open)
		})
		folded = true
	}
	fs.endClauses(d, folded, ends, l.Open)
	fs.slots = saved
	return nil
}

// (and X...) / (or X...): every operand is a counted test. The deciding
// operand's value is the form's value.
func (fs *fstate) formAndOr(l *syntax.List) error {
	head := forms.Head(l)
	ops := l.Elems[1:]
	if len(ops) == 0 {
		if head == "and" {
			fs.emit(T, 0, 0, l.Open)
		} else {
			fs.emit(NIL, 0, 0, l.Open)
		}
		return nil
	}
	keep, last := JMPIFNOTK, JMPIFNOT
	if head == "or" {
		keep, last = JMPIFK, JMPIF
	}
	var ends []int
	for i, x := range ops {
		if err := fs.expr(x); err != nil {
			return err
		}
		if i < len(ops)-1 {
			op := keep
			if b, next := fs.tempVar(x), fs.tempVar(ops[i+1]); b != nil && next != nil && next.guard == b.slot {
				// The guard of the next operand's temporary charged
				// this jump's step already (tempGuard).
				op = JMPIFKF
				if keep == JMPIFNOTK {
					op = JMPIFNOTKF
				}
			}
			ends = append(ends, fs.branch(op, head, l, x))
			continue
		}
		// The last operand decides the value either way; it is still a
		// test the label engine counts, so it gets its own jump (to the
		// next instruction) on a copy.
		fs.emit(DUP, 0, 0, startOf(x))
		ends = append(ends, fs.branch(last, head, l, x))
	}
	for _, j := range ends {
		fs.patch(j)
	}
	return nil
}

func (fs *fstate) formProgn(l *syntax.List) error {
	return fs.progn(l.Elems[1:], l.Open)
}

// (let ((VAR INIT)...) BODY...) binds in parallel; let* in sequence.
func (fs *fstate) formLet(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "%s: expected (%s ((VAR VALUE)...) BODY...)", head, head)
	}
	var specs []*syntax.List
	var names []*syntax.Symbol
	var inits []syntax.Node
	switch bl := l.Elems[1].(type) {
	case *syntax.List:
		specs = append(specs, bl)
	case *syntax.Symbol:
		if bl.Name != "nil" {
			return fs.c.errf(bl, "%s: expected a binding list ((VAR VALUE)...), found %s", head, describe(bl))
		}
	default:
		return fs.c.errf(bl, "%s: expected a binding list ((VAR VALUE)...), found %s", head, describe(bl))
	}
	if len(specs) == 1 {
		seen := map[string]bool{}
		for _, e := range specs[0].Elems {
			var name syntax.Node = e
			var init syntax.Node
			if el, ok := e.(*syntax.List); ok {
				if len(el.Elems) < 1 || len(el.Elems) > 2 {
					return fs.c.errf(el, "%s: expected a binding (VAR VALUE), found %s", head, describe(el))
				}
				name = el.Elems[0]
				if len(el.Elems) == 2 {
					init = el.Elems[1]
				}
			}
			s, err := fs.c.varName(name, head)
			if err != nil {
				return err
			}
			if head == "let" && seen[s.Name] {
				return fs.c.errf(s, "let: %s is bound twice", s.Name)
			}
			seen[s.Name] = true
			names = append(names, s)
			inits = append(inits, init)
		}
	}
	saved := fs.slots
	initExpr := func(n syntax.Node, at syntax.Pos) error {
		if n == nil {
			fs.emit(NIL, 0, 0, at)
			return nil
		}
		return fs.expr(n)
	}
	if head == "let" {
		for i, init := range inits {
			if err := initExpr(init, names[i].Start); err != nil {
				return err
			}
		}
		fs.bindPushed(names)
	} else {
		for i, init := range inits {
			guard, err := fs.tempGuard(names[i], init)
			if err != nil {
				return err
			}
			if guard < 0 {
				if err := initExpr(init, names[i].Start); err != nil {
					return err
				}
			}
			b := fs.bindTemp(names[i])
			b.guard = guard
			fs.initBinding(b, names[i].Start)
		}
	}
	err := fs.progn(l.Elems[2:], l.Open)
	fs.unbind(len(names), saved)
	return err
}

// tempGuard compiles init, the value of temporary name, when it is
// normalize's short-circuit of an and/or operand, (if G X nil) or
// (if G nil X) with G a temporary or (or G1 ... Gn) of temporaries: the
// guards are SKIPT, SKIPNILT and SKIPTF (see their doc) and X is the
// plan's own work. It returns the slot of the temporary whose guard is
// charged (G, Gn), or -1, emitting nothing, for any other init.
func (fs *fstate) tempGuard(name *syntax.Symbol, init syntax.Node) (int, error) {
	l, ok := init.(*syntax.List)
	if !fs.c.isTemp(name.Name) || fs.c.captured[name] || !ok || len(l.Elems) != 4 || forms.Head(l) != "if" {
		return -1, nil
	}
	isNil := func(n syntax.Node) bool { s, ok := n.(*syntax.Symbol); return ok && s.Name == "nil" }
	op, x := SKIPNILT, l.Elems[2] // (if G X nil): X when G is true
	if isNil(l.Elems[2]) {
		op, x = SKIPT, l.Elems[3] // (if G nil X): X when G is nil
	} else if !isNil(l.Elems[3]) {
		return -1, nil
	}
	guards := []syntax.Node{l.Elems[1]}
	if g, ok := l.Elems[1].(*syntax.List); ok && forms.Head(g) == "or" && op == SKIPT && len(g.Elems) > 1 {
		guards = g.Elems[1:]
	}
	var slots []int32
	for _, g := range guards {
		s, ok := g.(*syntax.Symbol)
		if !ok {
			return -1, nil
		}
		b := fs.tempVar(s)
		if b == nil {
			return -1, nil
		}
		slots = append(slots, int32(b.slot))
	}
	var jumps []int
	for i, s := range slots {
		o := op
		if i < len(slots)-1 {
			o = SKIPTF
		}
		jumps = append(jumps, fs.emit(o, 0, s, l.Open))
	}
	if err := fs.expr(x); err != nil {
		return -1, err
	}
	fs.here()
	for _, j := range jumps {
		fs.patch(j)
	}
	return int(slots[len(slots)-1]), nil
}

// tempVar is the binding of n when n is one of normalize's temporaries,
// a local not in a cell, after any label probes (progn PROBE... n); nil
// otherwise.
func (fs *fstate) tempVar(n syntax.Node) *binding {
	for {
		l, ok := n.(*syntax.List)
		if !ok || forms.Head(l) != "progn" || len(l.Elems) < 2 {
			break
		}
		for _, p := range l.Elems[1 : len(l.Elems)-1] {
			if w, _, _ := probeForm(p); w == nil {
				return nil
			}
		}
		n = l.Elems[len(l.Elems)-1]
	}
	s, ok := n.(*syntax.Symbol)
	if !ok {
		return nil
	}
	ref, _, b, found := fs.lookup(s.Name)
	if !found || ref != refLocal || !b.temp || b.cell {
		return nil
	}
	return b
}

// (setq VAR VALUE...) and (setf VAR VALUE...), pairwise; the last value.
func (fs *fstate) formSetq(l *syntax.List) error {
	head := forms.Head(l)
	args := l.Elems[1:]
	if len(args) == 0 || len(args)%2 != 0 {
		return fs.c.errf(l, "%s: expected (%s VAR VALUE...) with pairs of variables and values", head, head)
	}
	for i := 0; i < len(args); i += 2 {
		sym, ok := args[i].(*syntax.Symbol)
		if !ok {
			if err := fs.setfPlace(head, args[i], args[i+1]); err != nil {
				return err
			}
		} else {
			if err := fs.expr(args[i+1]); err != nil {
				return err
			}
			if err := fs.store(sym, head); err != nil {
				return err
			}
		}
		if i+2 < len(args) {
			fs.emit(POP, 0, 0, startOf(args[i]))
		}
	}
	return nil
}

// setfPlace compiles (setf (ACCESSOR ARGS...) VALUE) as a call of the
// external function "(setf ACCESSOR)" with ARGS and then VALUE, evaluated
// in that order. labelcov's values are immutable (quoted data is shared
// between runs), so no builtin place is writable: unless a host links
// such a function, the call signals undefined-function when it runs.
func (fs *fstate) setfPlace(head string, place, val syntax.Node) error {
	pl, ok := place.(*syntax.List)
	acc := forms.Head(place)
	if head != "setf" || !ok || acc == "" {
		return fs.c.errf(place, "%s: only variables can be assigned, found %s", head, describe(place))
	}
	if err := fs.exprs(pl.Elems[1:]); err != nil {
		return err
	}
	if err := fs.expr(val); err != nil {
		return err
	}
	fs.emit(CALLX, fs.c.external("(setf "+acc+")"), int32(len(pl.Elems)), pl.Open)
	return nil
}

// (incf VAR [DELTA]) and (decf VAR [DELTA]).
func (fs *fstate) formIncf(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 || len(l.Elems) > 3 {
		return fs.c.errf(l, "%s: expected (%s VAR [DELTA])", head, head)
	}
	sym, ok := l.Elems[1].(*syntax.Symbol)
	if !ok {
		return fs.c.errf(l.Elems[1], "%s: only variables can be updated, found %s", head, describe(l.Elems[1]))
	}
	if err := fs.load(sym); err != nil {
		return err
	}
	if len(l.Elems) == 3 {
		if err := fs.expr(l.Elems[2]); err != nil {
			return err
		}
		op := ADD
		if head == "decf" {
			op = SUB
		}
		fs.emit(op, 0, 0, l.Open)
	} else if head == "incf" {
		fs.emit(ADD1, 0, 0, l.Open)
	} else {
		fs.emit(SUB1, 0, 0, l.Open)
	}
	return fs.store(sym, head)
}

// (push ITEM PLACE): PLACE is a variable, or a place setf writes through
// its external (setf ACCESSOR) (see setfPlace; the place's arguments are
// then evaluated twice).
func (fs *fstate) formPush(l *syntax.List) error {
	if len(l.Elems) != 3 {
		return fs.c.errf(l, "push: expected (push ITEM PLACE)")
	}
	sym, ok := l.Elems[2].(*syntax.Symbol)
	if !ok {
		if forms.Head(l.Elems[2]) == "" {
			return fs.c.errf(l.Elems[2], "push: the place must be a variable or a form, found %s", describe(l.Elems[2]))
		}
		cons := &syntax.List{Open: l.Open, Close: l.Close, Elems: []syntax.Node{&syntax.Symbol{Start: l.Open, Name: "cons"}, l.Elems[1], l.Elems[2]}}
		return fs.setfPlace("setf", l.Elems[2], cons)
	}
	if err := fs.expr(l.Elems[1]); err != nil {
		return err
	}
	if err := fs.load(sym); err != nil {
		return err
	}
	fs.emit(CONS, 0, 0, l.Open)
	return fs.store(sym, "push")
}

// (pop VAR)
func (fs *fstate) formPop(l *syntax.List) error {
	if len(l.Elems) != 2 {
		return fs.c.errf(l, "pop: expected (pop VAR)")
	}
	sym, ok := l.Elems[1].(*syntax.Symbol)
	if !ok {
		return fs.c.errf(l.Elems[1], "pop: the place must be a variable, found %s", describe(l.Elems[1]))
	}
	if err := fs.load(sym); err != nil {
		return err
	}
	fs.emit(CAR, 0, 0, l.Open)
	if err := fs.load(sym); err != nil {
		return err
	}
	fs.emit(CDR, 0, 0, l.Open)
	if err := fs.store(sym, "pop"); err != nil {
		return err
	}
	fs.emit(POP, 0, 0, l.Open)
	return nil
}

// loopSpec parses (VAR EXPR [RESULT]).
func (fs *fstate) loopSpec(l *syntax.List) (*syntax.Symbol, syntax.Node, syntax.Node, error) {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return nil, nil, nil, fs.c.errf(l, "%s: expected (%s (VAR EXPR [RESULT]) BODY...)", head, head)
	}
	spec, ok := l.Elems[1].(*syntax.List)
	if !ok || len(spec.Elems) < 2 || len(spec.Elems) > 3 {
		return nil, nil, nil, fs.c.errf(l.Elems[1], "%s: expected (VAR EXPR [RESULT]), found %s", head, describe(l.Elems[1]))
	}
	v, err := fs.c.varName(spec.Elems[0], head)
	if err != nil {
		return nil, nil, nil, err
	}
	var result syntax.Node
	if len(spec.Elems) == 3 {
		result = spec.Elems[2]
	}
	return v, spec.Elems[1], result, nil
}

func (fs *fstate) pushLoop() *loopCtx { return fs.pushBlock("nil") }

// pushBlock opens a block that (return-from NAME) leaves.
func (fs *fstate) pushBlock(name string) *loopCtx {
	lc := &loopCtx{name: name, depth: fs.depth, handlers: fs.handlers}
	fs.loops = append(fs.loops, lc)
	return lc
}

func (fs *fstate) popLoop(lc *loopCtx) {
	fs.loops = fs.loops[:len(fs.loops)-1]
	for _, j := range lc.exits {
		fs.patch(j)
	}
	fs.depth = lc.depth + 1
}

// (dolist (VAR LIST [RESULT]) BODY...)
func (fs *fstate) formDolist(l *syntax.List) error {
	v, listExpr, result, err := fs.loopSpec(l)
	if err != nil {
		return err
	}
	if err := fs.expr(listExpr); err != nil {
		return err
	}
	saved := fs.slots
	rest := fs.allocSlot()
	fs.emit(SET, int32(rest), 0, l.Open)
	lc := fs.pushLoop()
	top := fs.here()
	fs.emit(LOAD, int32(rest), 0, l.Open)
	jEnd := fs.emit(JMPNIL, 0, 0, l.Open)
	fs.emit(LOAD, int32(rest), 0, l.Open)
	fs.emit(CAR, 0, 0, l.Open)
	b := fs.bind(v)
	fs.initBinding(b, v.Start)
	if err := fs.effects(l.Elems[2:]); err != nil {
		return err
	}
	fs.emit(LOAD, int32(rest), 0, l.Open)
	fs.emit(CDR, 0, 0, l.Open)
	fs.emit(SET, int32(rest), 0, l.Open)
	fs.emit(JMP, int32(top), 0, l.Open)
	fs.patch(jEnd)
	// RESULT sees VAR bound to nil, as in Common Lisp.
	fs.emit(NIL, 0, 0, l.Open)
	fs.initBinding(b, v.Start)
	if result != nil {
		err = fs.expr(result)
	} else {
		fs.emit(NIL, 0, 0, l.Open)
	}
	fs.unbind(1, saved)
	fs.popLoop(lc)
	return err
}

// (dotimes (VAR N [RESULT]) BODY...). VAR is the counter itself unless it
// must live in a cell; then a hidden counter feeds a fresh cell each
// iteration, so closures made in different iterations see different values.
func (fs *fstate) formDotimes(l *syntax.List) error {
	v, nExpr, result, err := fs.loopSpec(l)
	if err != nil {
		return err
	}
	if err := fs.expr(nExpr); err != nil {
		return err
	}
	saved := fs.slots
	ctr := fs.allocSlot()
	lim := fs.allocSlot() // DOLOOP reads ctr and ctr+1
	fs.emit(CHECKINT, 0, 0, startOf(nExpr))
	fs.emit(SET, int32(lim), 0, l.Open)
	fs.emit(INT, 0, 0, l.Open)
	fs.emit(SET, int32(ctr), 0, l.Open)
	lc := fs.pushLoop()
	jTest := fs.emit(JMP, 0, 0, l.Open)
	top := fs.here()
	var b *binding
	if fs.c.captured[v] && fs.c.assigned[v] {
		b = fs.bind(v)
		fs.emit(LOAD, int32(ctr), 0, v.Start)
		fs.initBinding(b, v.Start)
	} else {
		b = fs.bindAt(v, ctr)
	}
	if err := fs.effects(l.Elems[2:]); err != nil {
		return err
	}
	fs.emit(INCLOCAL, int32(ctr), 0, l.Open)
	fs.patch(jTest)
	fs.emit(DOLOOP, int32(top), int32(ctr), l.Open)
	if b.slot != ctr {
		fs.emit(LOAD, int32(ctr), 0, v.Start)
		fs.initBinding(b, v.Start)
	}
	if result != nil {
		err = fs.expr(result)
	} else {
		fs.emit(NIL, 0, 0, l.Open)
	}
	fs.unbind(1, saved)
	fs.popLoop(lc)
	return err
}

// (while TEST BODY...) returns nil (or the value of a return).
func (fs *fstate) formWhile(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "while: expected (while TEST BODY...)")
	}
	lc := fs.pushLoop()
	top := fs.here()
	test := l.Elems[1]
	if err := fs.expr(test); err != nil {
		return err
	}
	jEnd := fs.branch(JMPIFNOT, "while", l, test)
	if err := fs.effects(l.Elems[2:]); err != nil {
		return err
	}
	fs.emit(JMP, int32(top), 0, l.Open)
	fs.patch(jEnd)
	fs.emit(NIL, 0, 0, l.Open)
	fs.popLoop(lc)
	return nil
}

// (return [VALUE]) leaves the innermost block named nil: dolist, dotimes,
// while, loop, (block nil ...) or a with-failure-handling handler.
func (fs *fstate) formReturn(l *syntax.List) error {
	if len(l.Elems) > 2 {
		return fs.c.errf(l, "return: expected (return [VALUE])")
	}
	return fs.exitBlock(l, "nil", l.Elems[1:])
}

// (return-from NAME [VALUE])
func (fs *fstate) formReturnFrom(l *syntax.List) error {
	if len(l.Elems) < 2 || len(l.Elems) > 3 {
		return fs.c.errf(l, "return-from: expected (return-from NAME [VALUE])")
	}
	name, ok := l.Elems[1].(*syntax.Symbol)
	if !ok {
		return fs.c.errf(l.Elems[1], "return-from: expected a block name, found %s", describe(l.Elems[1]))
	}
	return fs.exitBlock(l, forms.Name(name), l.Elems[2:])
}

// exitBlock leaves the innermost block called name with the value of
// val (nil when empty), running the cleanups of the unwind-protects it
// crosses.
func (fs *fstate) exitBlock(l *syntax.List, name string, val []syntax.Node) error {
	var lc *loopCtx
	for i := len(fs.loops) - 1; i >= 0 && lc == nil; i-- {
		if fs.loops[i].name == name {
			lc = fs.loops[i]
		}
	}
	if lc == nil {
		if name == "nil" {
			return fs.c.errf(l, "return outside of dolist, dotimes, while, loop or a block nil")
		}
		return fs.c.errf(l, "return-from %s outside of a block %s", name, name)
	}
	d := fs.depth
	if len(val) == 1 {
		if err := fs.expr(val[0]); err != nil {
			return err
		}
	} else {
		fs.emit(NIL, 0, 0, l.Open)
	}
	if err := fs.unwindTo(lc.handlers, l.Open); err != nil {
		return err
	}
	lc.exits = append(lc.exits, fs.emit(SKIPJMP, 0, int32(fs.depth-1-lc.depth), l.Open))
	fs.depth = d + 1 // what follows is unreachable; keep the books balanced
	return nil
}

// unwindTo removes the handler records above level before a jump out of
// them, running the cleanup forms of the unwind-protects among them.
func (fs *fstate) unwindTo(level int, at syntax.Pos) error {
	saved := fs.handlers
	defer func() { fs.handlers = saved }()
	for i := fs.handlers - 1; i >= level; i-- {
		fs.emit(UNHANDLE, 0, 0, at)
		fs.handlers = i
		if cl, ok := fs.cleanups[i]; ok {
			if err := fs.effects(cl); err != nil {
				return err
			}
		}
	}
	return nil
}

// (lambda (PARAMS...) BODY...)
func (fs *fstate) formLambda(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "lambda: expected (lambda (PARAMS...) BODY...)")
	}
	return fs.closure("", l.Elems[1], l.Elems[2:], l.Open, nil)
}

// closure compiles a function with required parameters and pushes its
// closure. A named one (flet, labels) has its body in a block of its
// name, as in Common Lisp.
//
// A local function (lists not nil) may have &optional, &rest and &key
// parameters: its calls by name resolve them statically as calls of a
// defun do (localCall), and *lists receives its lambda list.
func (fs *fstate) closure(name string, params syntax.Node, body []syntax.Node, at syntax.Pos, lists **lambdaList) error {
	what := name
	if what == "" {
		what = "lambda"
	}
	ll, err := fs.c.parseLambdaList(params, what)
	if err != nil {
		return err
	}
	if !ll.simple && lists == nil {
		return fs.c.errf(params, "%s: only required parameters are supported (a lambda is called through funcall, which passes arguments positionally)", what)
	}
	if lists != nil {
		*lists = ll
	}
	ps := ll.syms()
	p := fs.c.prog
	fn := &Func{Name: what, Kind: KindLambda, Index: len(p.Funcs), Pos: at}
	for _, s := range ps {
		fn.Params = append(fn.Params, s.Name)
	}
	p.Funcs = append(p.Funcs, fn)
	ch := &fstate{c: fs.c, parent: fs, fn: fn, labelAt: -1}
	if err := ch.prologue(ll); err != nil {
		return err
	}
	if name != "" {
		err = ch.namedBody(name, bodyForms(body), at)
	} else {
		err = ch.progn(bodyForms(body), at)
	}
	if err != nil {
		return err
	}
	ch.emit(RET, 0, 0, at)
	fs.children = append(fs.children, ch)
	fs.emit(CLOSURE, int32(fn.Index), 0, at)
	return nil
}

// namedBody compiles a function body inside a block of the function's
// name, so that (return-from NAME VALUE) returns from it.
func (fs *fstate) namedBody(name string, body []syntax.Node, at syntax.Pos) error {
	lc := fs.pushBlock(name)
	err := fs.progn(body, at)
	fs.popLoop(lc)
	return err
}

// (funcall F ARGS...)
func (fs *fstate) formFuncall(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "funcall: expected (funcall FUNCTION ARGS...)")
	}
	if name, local, ok := fs.staticCallee(l.Elems[1]); ok {
		// A function with &optional, &rest or &key named literally:
		// call it by name, which parses its arguments as a call of it
		// would (through FUNCALL they would land in its slots by
		// position).
		call := &syntax.List{Open: l.Open, Close: l.Close, Elems: append([]syntax.Node{name}, l.Elems[2:]...)}
		if local {
			_, err := fs.localCall(forms.Name(name), call)
			return err
		}
		return fs.callLambdaList(fs.c.prog.byName[forms.Name(name)], call)
	}
	if err := fs.exprs(l.Elems[1:]); err != nil {
		return err
	}
	fs.emit(FUNCALL, int32(len(l.Elems)-2), 0, l.Open)
	return nil
}

// staticCallee recognises a funcall's function form that names, as
// #'NAME, (function NAME) or 'NAME, a function with a lambda list that
// is not simple: a local one (local; not for 'NAME, which names the
// global function) or a defun.
func (fs *fstate) staticCallee(f syntax.Node) (name *syntax.Symbol, local, ok bool) {
	var quoted bool
	switch x := f.(type) {
	case *syntax.Prefixed:
		if x.Mark == syntax.MarkFunction {
			name, _ = x.X.(*syntax.Symbol)
		}
	case *syntax.Quote:
		name, _ = x.X.(*syntax.Symbol)
		quoted = true
	case *syntax.List:
		if forms.Head(x) == "function" && len(x.Elems) == 2 {
			name, _ = x.Elems[1].(*syntax.Symbol)
		} else if forms.Head(x) == "quote" && len(x.Elems) == 2 {
			name, _ = x.Elems[1].(*syntax.Symbol)
			quoted = true
		}
	}
	if name == nil {
		return nil, false, false
	}
	n := forms.Name(name)
	if _, _, b, found := fs.lookup(localFnName(n)); found && !quoted {
		return name, true, b != nil && fs.c.localLists[b.node] != nil
	}
	fn := fs.c.prog.byName[n]
	return name, false, fn != nil && fn.ll != nil && !fn.ll.simple
}

// (function NAME) or (function (lambda ...)); #'X is the same.
func (fs *fstate) formFunction(l *syntax.List) error {
	if len(l.Elems) != 2 {
		return fs.c.errf(l, "function: expected (function NAME)")
	}
	return fs.function(l.Elems[1], l.Open)
}

func (fs *fstate) function(x syntax.Node, at syntax.Pos) error {
	switch x := x.(type) {
	case *syntax.Symbol:
		name := forms.Name(x)
		if _, _, b, ok := fs.lookup(localFnName(name)); ok {
			if b != nil && fs.c.localLists[b.node] != nil {
				return fs.c.errf(x, "function: #'%s has &optional, &rest or &key parameters and can only be called by name (funcall passes arguments positionally)", name)
			}
			return fs.load(&syntax.Symbol{Start: x.Start, Name: localFnName(name)})
		}
		if fn := fs.c.prog.byName[name]; fn != nil {
			fs.emit(FUNCTION, int32(fn.Index), 0, at)
			return nil
		}
		// Builtins and externals are called through their name.
		fs.constant(value.Symbol(name), at)
		return nil
	case *syntax.List:
		if forms.Head(x) == "lambda" {
			return fs.formLambda(x)
		}
	}
	return fs.c.errf(x, "function: expected a function name or lambda, found %s", describe(x))
}

// designatorClasses are the classes a designator form may name.
var designatorClasses = map[string]bool{"action": true, "location": true, "object": true, "motion": true}

// IsDesignatorClass reports whether class names a designator class.
func IsDesignatorClass(class string) bool { return designatorClasses[class] }

// (a CLASS (KEY VALUE)...) / (an CLASS ...): a designator. A property
// (desig:when TEST (KEY VALUE)...) is present only when TEST is true; a
// bare ?variable is a property computed at run time, as CPL's macro
// evaluates it: its value is one property (KEY VALUE), or nil for none.
// A designator whose properties are all fixed is one MAKEDESIG with its
// keys in the shape; any other builds its property list and calls
// make-designator (desigDynamic), so that n desig:when properties cost
// code linear in n.
func (fs *fstate) formDesig(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "%s: expected (%s CLASS (KEY VALUE)...)", head, head)
	}
	cls, ok := l.Elems[1].(*syntax.Symbol)
	if !ok || !designatorClasses[forms.Name(cls)] {
		return fs.c.errf(l.Elems[1], "%s: the designator class must be action, location, object or motion, found %s", head, describe(l.Elems[1]))
	}
	class := forms.Name(cls)
	for _, e := range l.Elems[2:] {
		if isDynamicProp(e) {
			return fs.desigDynamic(l, class)
		}
	}
	var keys []string
	for _, e := range l.Elems[2:] {
		k, err := fs.desigProp(head, class, e)
		if err != nil {
			return err
		}
		keys = append(keys, k)
	}
	p := fs.c.prog
	p.Desigs = append(p.Desigs, DesigShape{Class: class, Keys: keys})
	fs.emit(MAKEDESIG, int32(len(p.Desigs)-1), int32(len(keys)), l.Open)
	return nil
}

// isDynamicProp reports whether designator property e is decided at run
// time: a (desig:when ...) or a bare ?variable.
func isDynamicProp(e syntax.Node) bool {
	if s, ok := e.(*syntax.Symbol); ok {
		return forms.IsDesignatorVar(s.Name)
	}
	return forms.Head(e) == "when"
}

// desigDynamic compiles designator l as (make-designator 'CLASS (list
// P...)) where each P is a property (list 'KEY VALUE), the value of a
// ?variable, or, for each property of a desig:when whose test is false,
// nil; make-designator skips the nils. Both ways of a desig:when push
// as many values, so the code is linear in the number of properties.
func (fs *fstate) desigDynamic(l *syntax.List, class string) error {
	head := forms.Head(l)
	fs.constant(value.Symbol(class), l.Open)
	n := 0
	for _, e := range l.Elems[2:] {
		if s, ok := e.(*syntax.Symbol); ok && forms.IsDesignatorVar(s.Name) {
			if err := fs.load(s); err != nil {
				return err
			}
			n++
			continue
		}
		w, ok := e.(*syntax.List)
		if !ok || forms.Head(w) != "when" {
			if err := fs.desigPropList(head, class, e); err != nil {
				return err
			}
			n++
			continue
		}
		if len(w.Elems) < 2 {
			return fs.c.errf(w, "%s %s: expected (desig:when TEST (KEY VALUE)...)", head, class)
		}
		d := fs.depth
		test := w.Elems[1]
		if err := fs.expr(test); err != nil {
			return err
		}
		skip := fs.branch(JMPIFNOT, "when", w, test)
		for _, pe := range w.Elems[2:] {
			if err := fs.desigPropList(head, class, pe); err != nil {
				return err
			}
		}
		end := fs.emit(JMP, 0, 0, w.Open)
		fs.depth = d
		fs.patch(skip)
		for range w.Elems[2:] {
			fs.emit(NIL, 0, 0, w.Open)
		}
		fs.patch(end)
		n += len(w.Elems) - 2
	}
	fs.callBuiltin("list", n, l.Open)
	fs.callBuiltin("make-designator", 2, l.Open)
	return nil
}

// desigPropList pushes the property (KEY VALUE) e as the list (KEY VALUE).
func (fs *fstate) desigPropList(head, class string, e syntax.Node) error {
	key, val, err := fs.propParts(head, class, e)
	if err != nil {
		return err
	}
	fs.constant(value.Symbol(key.Name), key.Start)
	if err := fs.desigValue(val); err != nil {
		return err
	}
	fs.callBuiltin("list", 2, startOf(e))
	return nil
}

// desigProp pushes the value of the property (KEY VALUE) and returns KEY.
func (fs *fstate) desigProp(head, class string, e syntax.Node) (string, error) {
	key, val, err := fs.propParts(head, class, e)
	if err != nil {
		return "", err
	}
	return key.Name, fs.desigValue(val)
}

// propParts checks that e is a property (KEY VALUE) and returns its parts.
func (fs *fstate) propParts(head, class string, e syntax.Node) (*syntax.Symbol, syntax.Node, error) {
	pl, ok := e.(*syntax.List)
	if !ok || len(pl.Elems) != 2 {
		return nil, nil, fs.c.errf(e, "%s %s: expected a property (KEY VALUE), found %s", head, class, describe(e))
	}
	key, ok := pl.Elems[0].(*syntax.Symbol)
	if !ok || key.Name == "t" || key.Name == "nil" {
		return nil, nil, fs.c.errf(pl.Elems[0], "%s %s: a property key must be a symbol, found %s", head, class, describe(pl.Elems[0]))
	}
	return key, pl.Elems[1], nil
}

// desigValue pushes a designator property value: a bare symbol is a
// literal, (arm left) holds the symbol left; a ?variable is evaluated; a
// literal list (see dataList) is a list, its ?variables evaluated;
// anything else is an expression.
func (fs *fstate) desigValue(val syntax.Node) error {
	if s, ok := val.(*syntax.Symbol); ok && !forms.IsDesignatorVar(s.Name) {
		fs.constant(value.Symbol(s.Name), s.Start)
		return nil
	}
	l, ok := val.(*syntax.List)
	if !ok || !fs.dataList(l) {
		return fs.expr(val)
	}
	if _, props := l.Elems[0].(*syntax.List); props {
		// A list of properties (KEY VALUE...): each a list of its key
		// and its values.
		items := make([]func() error, len(l.Elems))
		for i, e := range l.Elems {
			p := e.(*syntax.List)
			items[i] = func() error {
				sub := make([]func() error, len(p.Elems))
				for j, x := range p.Elems {
					sub[j] = func() error { return fs.desigValue(x) }
				}
				return fs.pushList(len(p.Elems), sub, p.Open)
			}
		}
		return fs.pushList(len(l.Elems), items, l.Open)
	}
	items := make([]func() error, len(l.Elems))
	for i, e := range l.Elems {
		items[i] = func() error { return fs.desigValue(e) }
	}
	return fs.pushList(len(l.Elems), items, l.Open)
}

// dataList reports whether a designator property value is literal data
// rather than a call: a list of property lists, as in (pose ((pose ?p)
// (frame map))); a list headed by a ?variable, as in (?side right); or a
// list of symbols, keywords and numbers that are neither ?variables nor
// variables in scope, headed by no operator of the plan, as in (gripper
// (left right)). (object-name ?obj) and (pose-of obj) stay calls.
func (fs *fstate) dataList(l *syntax.List) bool {
	if !forms.IsDataList(l) {
		return false
	}
	switch h := l.Elems[0].(type) {
	case *syntax.List:
		for _, e := range l.Elems {
			el, ok := e.(*syntax.List)
			if !ok || len(el.Elems) == 0 {
				return false
			}
			if k, ok := el.Elems[0].(*syntax.Symbol); !ok || forms.IsDesignatorVar(k.Name) {
				return false // not a property (KEY VALUE...)
			}
		}
		return true
	case *syntax.Symbol:
		if forms.IsDesignatorVar(h.Name) {
			return true
		}
		if fs.isOperator(forms.Name(h)) {
			return false
		}
	}
	for _, e := range l.Elems[1:] {
		switch e := e.(type) {
		case *syntax.List:
			return false
		case *syntax.Symbol:
			if forms.IsDesignatorVar(e.Name) {
				return false
			}
			if _, _, _, bound := fs.lookup(e.Name); bound {
				return false
			}
		}
	}
	return true
}

// isOperator reports whether name is a special form, a function of the
// plan (global or local) or a core builtin.
func (fs *fstate) isOperator(name string) bool {
	if forms.Lookup(name) != nil || fs.c.prog.byName[name] != nil {
		return true
	}
	if _, ok := CoreBuiltin(name); ok {
		return true
	}
	_, _, _, ok := fs.lookup(localFnName(name))
	return ok
}

// (with-failure-handling ((KIND (VAR) HANDLER...)...) BODY...)
func (fs *fstate) formWFH(l *syntax.List) error {
	const what = "with-failure-handling"
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "with-failure-handling: expected (with-failure-handling ((KIND (VAR) HANDLER...)...) BODY...)")
	}
	var clauses []syntax.Node
	switch cl := l.Elems[1].(type) {
	case *syntax.List:
		clauses = cl.Elems
	case *syntax.Symbol:
		if cl.Name != "nil" {
			return fs.c.errf(cl, "%s: expected a clause list, found %s", what, describe(cl))
		}
	default:
		return fs.c.errf(cl, "%s: expected a clause list, found %s", what, describe(cl))
	}
	specs, err := fs.handlerClauses(what, clauses)
	if err != nil {
		return err
	}
	return fs.handlerSite(l, specs, l.Elems[2:], nil)
}

// (handler-case FORM (TYPE (VAR) BODY...)...): Common Lisp's handler-case
// on labelcov's failures. The types error, condition, serious-condition
// and simple-error catch every failure.
func (fs *fstate) formHandlerCase(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "handler-case: expected (handler-case FORM (TYPE (VAR) BODY...)...)")
	}
	specs, err := fs.handlerClauses("handler-case", l.Elems[2:])
	if err != nil {
		return err
	}
	return fs.handlerSite(l, specs, l.Elems[1:2], nil)
}

// clTypeKinds maps Common Lisp condition types to labelcov's failure kinds.
var clTypeKinds = map[string]string{"error": "failure", "condition": "failure", "serious-condition": "failure", "simple-error": "failure"}

// handlerClauses parses clauses (KIND (VAR) BODY...); KIND may be
// (or KIND...).
func (fs *fstate) handlerClauses(what string, clauses []syntax.Node) ([]handlerClause, error) {
	var specs []handlerClause
	for _, e := range clauses {
		c, ok := e.(*syntax.List)
		if !ok || len(c.Elems) < 2 {
			return nil, fs.c.errf(e, "%s: expected a clause (KIND (VAR) HANDLER...), found %s", what, describe(e))
		}
		kinds := []syntax.Node{c.Elems[0]}
		if forms.Head(c.Elems[0]) == "or" {
			kinds = c.Elems[0].(*syntax.List).Elems[1:]
		}
		spec := handlerClause{body: c.Elems[2:], at: c.Open}
		for _, k := range kinds {
			kind, ok := k.(*syntax.Symbol)
			if !ok || kind.Name == "nil" || kind.Name == "t" {
				return nil, fs.c.errf(k, "%s: a failure kind must be a symbol, found %s", what, describe(k))
			}
			name := kind.Name
			if what == "handler-case" && clTypeKinds[name] != "" {
				name = clTypeKinds[name]
			}
			spec.kinds = append(spec.kinds, name)
		}
		switch vl := c.Elems[1].(type) {
		case *syntax.List:
			if len(vl.Elems) > 1 {
				return nil, fs.c.errf(vl, "%s: expected (VAR) or (), found %s", what, describe(vl))
			}
			if len(vl.Elems) == 1 {
				s, err := fs.c.varName(vl.Elems[0], what)
				if err != nil {
					return nil, err
				}
				spec.v = s
			}
		case *syntax.Symbol:
			if vl.Name != "nil" {
				return nil, fs.c.errf(vl, "%s: expected (VAR) or (), found %s", what, describe(vl))
			}
		default:
			return nil, fs.c.errf(vl, "%s: expected (VAR) or (), found %s", what, describe(vl))
		}
		specs = append(specs, spec)
	}
	return specs, nil
}

type handlerClause struct {
	kinds []string
	v     *syntax.Symbol
	body  []syntax.Node
	gen   func() error // instead of body: code run with the failure value pushed
	at    syntax.Pos
}

// handlerSite compiles a handler-protected body:
//
//	HANDLER site; BODY; UNHANDLE; [AFTER]; JMP end
//	clause i: (failure value pushed) SET var | POP; HANDLER-BODY; JMP end
//	end:
//
// A (return) in a handler body leaves the whole form, as in CPL, whose
// with-failure-handling is a block nil around its handlers.
func (fs *fstate) handlerSite(l *syntax.List, clauses []handlerClause, body []syntax.Node, after func() error) error {
	p := fs.c.prog
	si := len(p.Handlers)
	p.Handlers = append(p.Handlers, HandlerSite{Pos: l.Open})
	fs.siteIdx = append(fs.siteIdx, si)
	d := fs.depth
	sitePC := fs.here()
	fs.emit(HANDLER, int32(si), 0, l.Open)
	fs.handlers++
	err := fs.progn(body, l.Open)
	fs.handlers--
	if err != nil {
		return err
	}
	fs.emit(UNHANDLE, 0, 0, l.Open)
	if after != nil {
		if err := after(); err != nil {
			return err
		}
	}
	ends := []int{fs.emit(JMP, 0, 0, l.Open)}
	for _, cl := range clauses {
		fs.depth = d + 1
		pc := fs.here()
		for _, k := range cl.kinds {
			p.Handlers[si].Clauses = append(p.Handlers[si].Clauses, HandlerClause{Kind: k, PC: pc})
		}
		if cl.gen != nil {
			if err := cl.gen(); err != nil {
				return err
			}
			ends = append(ends, fs.emit(JMP, 0, 0, cl.at))
			continue
		}
		saved := fs.slots
		nb := 0
		if cl.v != nil {
			fs.initBinding(fs.bind(cl.v), cl.v.Start)
			nb = 1
		} else {
			fs.emit(POP, 0, 0, cl.at)
		}
		fs.retries = append(fs.retries, &retryCtx{sitePC: sitePC, depth: d, handlers: fs.handlers})
		blk := &loopCtx{name: "nil", depth: d, handlers: fs.handlers}
		fs.loops = append(fs.loops, blk)
		err := fs.progn(cl.body, cl.at)
		fs.loops = fs.loops[:len(fs.loops)-1]
		fs.retries = fs.retries[:len(fs.retries)-1]
		fs.unbind(nb, saved)
		if err != nil {
			return err
		}
		ends = append(ends, fs.emit(JMP, 0, 0, cl.at))
		ends = append(ends, blk.exits...)
	}
	fs.depth = d + 1
	for _, j := range ends {
		fs.patch(j)
	}
	return nil
}

// (retry) restarts the body of the with-failure-handling whose handler is
// running.
func (fs *fstate) formRetry(l *syntax.List) error {
	if len(l.Elems) != 1 {
		return fs.c.errf(l, "retry: expected (retry)")
	}
	if len(fs.retries) == 0 {
		return fs.c.errf(l, "retry outside of a with-failure-handling handler")
	}
	rc := fs.retries[len(fs.retries)-1]
	d := fs.depth
	if err := fs.unwindTo(rc.handlers, l.Open); err != nil {
		return err
	}
	if n := fs.depth - rc.depth; n > 0 {
		fs.emit(DROP, int32(n), 0, l.Open)
	}
	fs.emit(JMP, int32(rc.sitePC), 0, l.Open)
	fs.depth = d + 1 // unreachable continuation
	if fs.depth > fs.maxDepth {
		fs.maxDepth = fs.depth
	}
	return nil
}

// (ignore-errors FORM): FORM's value, or nil if it signals any failure.
func (fs *fstate) formIgnoreErrors(l *syntax.List) error {
	if len(l.Elems) != 2 {
		return fs.c.errf(l, "ignore-errors: expected (ignore-errors FORM)")
	}
	if err := fs.handlerSite(l, []handlerClause{{kinds: []string{"failure"}, at: l.Open}}, l.Elems[1:], nil); err != nil {
		return err
	}
	return nil
}
