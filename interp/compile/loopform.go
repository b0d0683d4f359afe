package compile

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// The subset of Common Lisp's loop that labelcov compiles:
//
//	with VAR = EXPR
//	for VAR in LIST | for VAR on LIST
//	for VAR being the|each elements of|in LIST
//	for VAR being the hash-keys|hash-values of EXPR [using (hash-value V)]
//	for VAR from A [to|upto|below|downto|above B] [by STEP]
//	for VAR = EXPR [then EXPR]
//	repeat N
//	while TEST | until TEST
//	do FORM...
//	collect|append|nconc|sum|count|maximize|minimize EXPR [into VAR]
//	                                        (also collecting, appending, ...)
//	when|if|unless TEST CLAUSE [else CLAUSE] [end]
//	return EXPR
//	finally FORM...
//
// Keywords may be written as symbols or keywords (:for). The loop is a
// block nil; its value is the accumulation without into (collect, append
// and nconc; sum and count; maximize and minimize may mix) or nil.
// labelcov has no hash tables, so a hash-table iteration signals
// type-error when the loop starts. Anything else is refused with an error
// naming it.

type loopParser struct {
	fs   *fstate
	l    *syntax.List
	toks []syntax.Node
	i    int
}

// kw returns the loop keyword at token i, or "".
func (p *loopParser) kw(i int) string {
	if i >= len(p.toks) {
		return ""
	}
	switch t := p.toks[i].(type) {
	case *syntax.Symbol:
		return forms.Name(t)
	case *syntax.Keyword:
		return t.Name
	}
	return ""
}

func (p *loopParser) errf(format string, args ...any) error {
	var at syntax.Node = p.l
	if p.i < len(p.toks) {
		at = p.toks[p.i]
	}
	return p.fs.c.errf(at, "loop: "+format, args...)
}

func (p *loopParser) next() (syntax.Node, error) {
	if p.i >= len(p.toks) {
		return nil, p.errf("unexpected end of the loop")
	}
	t := p.toks[p.i]
	p.i++
	return t, nil
}

func (p *loopParser) variable() (*syntax.Symbol, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	return p.fs.c.varName(t, "loop")
}

func (p *loopParser) expect(words ...string) (string, error) {
	w := p.kw(p.i)
	for _, x := range words {
		if w == x {
			p.i++
			return w, nil
		}
	}
	return "", p.errf("expected %v", words)
}

// loopState is what the iteration parts of a loop need while compiling.
type loopState struct {
	acc     int               // accumulator slot
	accKind string            // "", "collect" (also append), "sum" (also count), "maximize" (also minimize)
	into    map[string]string // into variables: their kind, as accKind
	exits   []int             // jumps to the normal end of the loop
	steps   []func() error
	finally []syntax.Node
	bound   int // variables bound
}

func (fs *fstate) formLoop(l *syntax.List) error {
	p := &loopParser{fs: fs, l: l, toks: l.Elems[1:]}
	if len(p.toks) > 0 {
		if _, ok := p.toks[0].(*syntax.List); ok {
			// (loop FORM...): the simple loop, forever until return.
			p.toks = append([]syntax.Node{&syntax.Symbol{Start: l.Open, Name: "do"}}, p.toks...)
		}
	}
	saved := fs.slots
	nscope := len(fs.scope)
	lc := fs.pushLoop()
	st := &loopState{acc: fs.allocSlot()}
	// Pass 1 (before the loop's top): with and for initialisations, in
	// order; their tests and bodies are compiled at the top.
	type part func() error
	var top []part
	fs.emit(NIL, 0, 0, l.Open)
	fs.emit(SET, int32(st.acc), 0, l.Open)
	for p.i < len(p.toks) {
		w := p.kw(p.i)
		switch w {
		case "with":
			p.i++
			v, err := p.variable()
			if err != nil {
				return err
			}
			if _, err := p.expect("="); err != nil {
				return err
			}
			e, err := p.next()
			if err != nil {
				return err
			}
			if err := fs.expr(e); err != nil {
				return err
			}
			fs.initBinding(fs.bind(v), v.Start)
		case "for", "as":
			p.i++
			t, err := p.forClause(st)
			if err != nil {
				return err
			}
			top = append(top, t)
		case "repeat":
			p.i++
			e, err := p.next()
			if err != nil {
				return err
			}
			if err := fs.expr(e); err != nil {
				return err
			}
			ctr := fs.allocSlot()
			fs.emit(SET, int32(ctr), 0, startOf(e))
			at := startOf(e)
			top = append(top, func() error {
				fs.emit(LOAD, int32(ctr), 0, at)
				fs.emit(INT, 0, 0, at)
				fs.emit(GT, 0, 0, at)
				st.exits = append(st.exits, fs.emit(JMPNIL, 0, 0, at))
				fs.emit(LOAD, int32(ctr), 0, at)
				fs.emit(SUB1, 0, 0, at)
				fs.emit(SET, int32(ctr), 0, at)
				return nil
			})
		case "finally":
			p.i++
			for p.i < len(p.toks) {
				if _, ok := p.toks[p.i].(*syntax.List); !ok {
					break
				}
				st.finally = append(st.finally, p.toks[p.i])
				p.i++
			}
		default:
			c, err := p.bodyClause(st)
			if err != nil {
				return err
			}
			top = append(top, c)
		}
	}
	loopTop := fs.here()
	for _, t := range top {
		if err := t(); err != nil {
			return err
		}
	}
	for _, s := range st.steps {
		if err := s(); err != nil {
			return err
		}
	}
	fs.emit(JMP, int32(loopTop), 0, l.Open)
	for _, j := range st.exits {
		fs.patch(j)
	}
	if err := fs.effects(st.finally); err != nil {
		return err
	}
	fs.emit(LOAD, int32(st.acc), 0, l.Open)
	if st.accKind == "collect" {
		fs.callBuiltin("reverse", 1, l.Open)
	}
	fs.unbind(len(fs.scope)-nscope, saved)
	fs.popLoop(lc)
	return nil
}

// forClause parses one for clause (after "for"): it compiles the
// initialisation now and returns the test run at the top of each
// iteration; the stepping goes to st.steps.
func (p *loopParser) forClause(st *loopState) (func() error, error) {
	fs := p.fs
	v, err := p.variable()
	if err != nil {
		return nil, err
	}
	at := v.Start
	switch w := p.kw(p.i); w {
	case "in", "on":
		p.i++
		e, err := p.next()
		if err != nil {
			return nil, err
		}
		return p.listIteration(st, v, e, w == "on")
	case "being":
		return p.beingClause(st, v)
	case "from", "upfrom":
		p.i++
		start, err := p.next()
		if err != nil {
			return nil, err
		}
		if err := fs.expr(start); err != nil {
			return nil, err
		}
		fs.initBinding(fs.bind(v), at)
		var limit syntax.Node
		cmp := Op(0)
		down := false
		var step syntax.Node
		for {
			switch p.kw(p.i) {
			case "to", "upto", "below", "downto", "above":
				word := p.kw(p.i)
				p.i++
				if limit, err = p.next(); err != nil {
					return nil, err
				}
				switch word {
				case "to", "upto":
					cmp = LE
				case "below":
					cmp = LT
				case "downto":
					cmp, down = GE, true
				case "above":
					cmp, down = GT, true
				}
				continue
			case "by":
				p.i++
				if step, err = p.next(); err != nil {
					return nil, err
				}
				continue
			}
			break
		}
		lim, stp := -1, -1
		if limit != nil {
			if err := fs.expr(limit); err != nil {
				return nil, err
			}
			lim = fs.allocSlot()
			fs.emit(SET, int32(lim), 0, at)
		}
		if step != nil {
			if err := fs.expr(step); err != nil {
				return nil, err
			}
			stp = fs.allocSlot()
			fs.emit(SET, int32(stp), 0, at)
		}
		st.steps = append(st.steps, func() error {
			if err := fs.load(v); err != nil {
				return err
			}
			if stp >= 0 {
				fs.emit(LOAD, int32(stp), 0, at)
			} else {
				fs.emit(INT, 1, 0, at)
			}
			if down {
				fs.emit(SUB, 0, 0, at)
			} else {
				fs.emit(ADD, 0, 0, at)
			}
			if err := fs.store(v, "loop"); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, at)
			return nil
		})
		return func() error {
			if lim < 0 {
				return nil
			}
			if err := fs.load(v); err != nil {
				return err
			}
			fs.emit(LOAD, int32(lim), 0, at)
			fs.emit(cmp, 0, 0, at)
			st.exits = append(st.exits, fs.emit(JMPNIL, 0, 0, at))
			return nil
		}, nil
	case "=":
		// As in Common Lisp, the clause is evaluated at the top of each
		// iteration, after the for clauses before it stepped: INIT the
		// first time and THEN afterwards (INIT each time without THEN).
		p.i++
		init, err := p.next()
		if err != nil {
			return nil, err
		}
		var then syntax.Node
		if p.kw(p.i) == "then" {
			p.i++
			if then, err = p.next(); err != nil {
				return nil, err
			}
		}
		fs.emit(NIL, 0, 0, at)
		fs.initBinding(fs.bind(v), at)
		first := -1
		if then != nil {
			first = fs.allocSlot()
			fs.emit(T, 0, 0, at)
			fs.emit(SET, int32(first), 0, at)
		}
		return func() error {
			if then == nil {
				if err := fs.expr(init); err != nil {
					return err
				}
			} else {
				fs.emit(LOAD, int32(first), 0, at)
				later := fs.emit(JMPNIL, 0, 0, at)
				d := fs.depth
				if err := fs.expr(init); err != nil {
					return err
				}
				fs.emit(NIL, 0, 0, at)
				fs.emit(SET, int32(first), 0, at)
				done := fs.emit(JMP, 0, 0, at)
				fs.depth = d
				fs.patch(later)
				if err := fs.expr(then); err != nil {
					return err
				}
				fs.patch(done)
			}
			if err := fs.store(v, "loop"); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, at)
			return nil
		}, nil
	default:
		return nil, p.errf("unsupported for clause %q (supported: in, on, being the elements of, from ... to/below/downto/above ... by, =)", w)
	}
}

// listIteration compiles the initialisation of for VAR in|on LIST (VAR
// the element or, with tails, the tail) and returns the test run at the
// top of each iteration; the stepping goes to st.steps.
func (p *loopParser) listIteration(st *loopState, v *syntax.Symbol, e syntax.Node, tails bool) (func() error, error) {
	fs := p.fs
	at := v.Start
	if err := fs.expr(e); err != nil {
		return nil, err
	}
	cur := fs.allocSlot()
	fs.emit(SET, int32(cur), 0, at)
	fs.emit(NIL, 0, 0, at)
	fs.initBinding(fs.bind(v), at)
	st.steps = append(st.steps, func() error {
		fs.emit(LOAD, int32(cur), 0, at)
		fs.emit(CDR, 0, 0, at)
		fs.emit(SET, int32(cur), 0, at)
		return nil
	})
	return func() error {
		fs.emit(LOAD, int32(cur), 0, at)
		st.exits = append(st.exits, fs.emit(JMPNIL, 0, 0, at))
		fs.emit(LOAD, int32(cur), 0, at)
		if !tails {
			fs.emit(CAR, 0, 0, at)
		}
		if err := fs.store(v, "loop"); err != nil {
			return err
		}
		fs.emit(POP, 0, 0, at)
		return nil
	}, nil
}

// beingClause compiles for VAR being {the|each} {elements|hash-keys|
// hash-values} {of|in} EXPR [using (hash-value|hash-key VAR2)]. Elements
// of a list are for VAR in. labelcov has no hash tables (nothing makes
// one), so iterating one signals type-error naming the value when the
// loop starts; the variables are bound, to nil.
func (p *loopParser) beingClause(st *loopState, v *syntax.Symbol) (func() error, error) {
	fs := p.fs
	p.i++ // being
	if _, err := p.expect("the", "each"); err != nil {
		return nil, err
	}
	what, err := p.expect("element", "elements", "hash-key", "hash-keys", "hash-value", "hash-values")
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("of", "in"); err != nil {
		return nil, err
	}
	e, err := p.next()
	if err != nil {
		return nil, err
	}
	if what == "element" || what == "elements" {
		return p.listIteration(st, v, e, false)
	}
	var other *syntax.Symbol
	if p.kw(p.i) == "using" {
		p.i++
		u, err := p.next()
		ul, ok := u.(*syntax.List)
		if err != nil || !ok || len(ul.Elems) != 2 {
			p.i--
			return nil, p.errf("expected using (hash-value VAR) or using (hash-key VAR)")
		}
		if other, err = fs.c.varName(ul.Elems[1], "loop"); err != nil {
			return nil, err
		}
	}
	at := v.Start
	if err := fs.expr(e); err != nil {
		return nil, err
	}
	tmp := fs.allocSlot()
	fs.emit(SET, int32(tmp), 0, at)
	fs.signal("type-error", "loop: ~a is not a hash table (labelcov has none)", at, func() { fs.emit(LOAD, int32(tmp), 0, at) })
	fs.emit(POP, 0, 0, at)
	for _, x := range []*syntax.Symbol{v, other} {
		if x != nil {
			fs.emit(NIL, 0, 0, at)
			fs.initBinding(fs.bind(x), at)
		}
	}
	return func() error { return nil }, nil
}

// bodyClause parses one clause run in each iteration.
func (p *loopParser) bodyClause(st *loopState) (func() error, error) {
	fs := p.fs
	tok := p.toks[min(p.i, len(p.toks)-1)]
	w := p.kw(p.i)
	p.i++
	switch w {
	case "while", "until":
		test, err := p.next()
		if err != nil {
			return nil, err
		}
		return func() error {
			if err := fs.expr(test); err != nil {
				return err
			}
			op := JMPIFNOT
			if w == "until" {
				op = JMPIF
			}
			st.exits = append(st.exits, fs.branch(op, w, tok, test))
			return nil
		}, nil
	case "do", "doing":
		var body []syntax.Node
		for p.i < len(p.toks) {
			if _, ok := p.toks[p.i].(*syntax.List); !ok {
				break
			}
			body = append(body, p.toks[p.i])
			p.i++
		}
		if len(body) == 0 {
			return nil, p.errf("do needs at least one form")
		}
		return func() error { return fs.effects(body) }, nil
	case "collect", "collecting", "append", "appending", "nconc", "nconcing", "sum", "summing",
		"count", "counting", "maximize", "maximizing", "minimize", "minimizing":
		return p.accumulation(st, tok, w)
	case "return":
		e, err := p.next()
		if err != nil {
			return nil, err
		}
		return func() error {
			r := &syntax.List{Open: startOf(tok), Close: startOf(tok), Elems: []syntax.Node{&syntax.Symbol{Start: startOf(tok), Name: "return"}, e}}
			if err := fs.formReturn(r); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, startOf(tok))
			return nil
		}, nil
	case "when", "if", "unless":
		test, err := p.next()
		if err != nil {
			return nil, err
		}
		then, err := p.bodyClause(st)
		if err != nil {
			return nil, err
		}
		var els func() error
		if p.kw(p.i) == "else" {
			p.i++
			if els, err = p.bodyClause(st); err != nil {
				return nil, err
			}
		}
		if p.kw(p.i) == "end" {
			p.i++
		}
		return func() error {
			if err := fs.expr(test); err != nil {
				return err
			}
			op := JMPIFNOT
			if w == "unless" {
				op = JMPIF
			}
			skip := fs.branch(op, w, tok, test)
			if err := then(); err != nil {
				return err
			}
			if els == nil {
				fs.patch(skip)
				return nil
			}
			end := fs.emit(JMP, 0, 0, startOf(tok))
			fs.patch(skip)
			if err := els(); err != nil {
				return err
			}
			fs.patch(end)
			return nil
		}, nil
	}
	p.i--
	return nil, p.errf("unsupported clause %s (see the loop subset in docs/language.md)", syntax.NodeString(tok))
}

// accKinds maps each accumulation word to its kind (what the
// accumulator holds) and operation.
var accKinds = map[string][2]string{
	"collect": {"collect", "collect"}, "collecting": {"collect", "collect"},
	"append": {"collect", "append"}, "appending": {"collect", "append"},
	"nconc": {"collect", "append"}, "nconcing": {"collect", "append"},
	"sum": {"sum", "sum"}, "summing": {"sum", "sum"}, "count": {"sum", "count"}, "counting": {"sum", "count"},
	"maximize": {"maximize", "max"}, "maximizing": {"maximize", "max"},
	"minimize": {"maximize", "min"}, "minimizing": {"maximize", "min"},
}

// accumulation parses WORD EXPR [into VAR]. Without into, the loop's
// value accumulates in st.acc (a list is kept reversed and reversed at
// the end); with into, VAR is a variable of the loop that holds the
// accumulation so far, in order, and the loop's value is not affected.
// Kinds may mix as in Common Lisp: collect, append and nconc; sum and
// count; maximize and minimize. nconc is append (values are immutable).
func (p *loopParser) accumulation(st *loopState, tok syntax.Node, w string) (func() error, error) {
	fs := p.fs
	kind, op := accKinds[w][0], accKinds[w][1]
	at := startOf(tok)
	e, err := p.next()
	if err != nil {
		return nil, err
	}
	var into *syntax.Symbol
	if p.kw(p.i) == "into" {
		p.i++
		if into, err = p.variable(); err != nil {
			return nil, err
		}
	}
	// Initialise the accumulator before the loop's top: 0 for sums,
	// nil otherwise.
	initAcc := func() {
		if kind == "sum" {
			fs.emit(INT, 0, 0, at)
		} else {
			fs.emit(NIL, 0, 0, at)
		}
	}
	var load func() error
	var store func() error
	if into == nil {
		if st.accKind != "" && st.accKind != kind {
			return nil, fs.c.errf(tok, "loop: one kind of accumulation per loop (%s and %s)", st.accKind, w)
		}
		if st.accKind == "" && kind == "sum" {
			initAcc()
			fs.emit(SET, int32(st.acc), 0, at)
		}
		st.accKind = kind
		load = func() error { fs.emit(LOAD, int32(st.acc), 0, at); return nil }
		store = func() error { fs.emit(SET, int32(st.acc), 0, at); return nil }
	} else {
		if st.into == nil {
			st.into = map[string]string{}
		}
		switch k, ok := st.into[into.Name]; {
		case !ok:
			initAcc()
			fs.initBinding(fs.bind(into), into.Start)
			st.into[into.Name] = kind
		case k != kind:
			return nil, fs.c.errf(tok, "loop: %s into %s: it already accumulates with another kind", w, into.Name)
		}
		load = func() error { return fs.load(into) }
		store = func() error {
			if err := fs.store(into, "loop"); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, at)
			return nil
		}
	}
	tmp := -1
	if op == "max" || op == "min" || (op == "append" && into == nil) {
		tmp = fs.allocSlot()
	}
	return func() error {
		switch {
		case op == "collect" && into == nil:
			if err := fs.expr(e); err != nil {
				return err
			}
			fs.emit(LOAD, int32(st.acc), 0, at)
			fs.emit(CONS, 0, 0, at)
			return store()
		case op == "append" && into == nil:
			// Push each element of the value onto the reversed list.
			if err := fs.expr(e); err != nil {
				return err
			}
			fs.emit(SET, int32(tmp), 0, at)
			top := fs.here()
			fs.emit(LOAD, int32(tmp), 0, at)
			end := fs.emit(JMPNIL, 0, 0, at)
			fs.emit(LOAD, int32(tmp), 0, at)
			fs.emit(CAR, 0, 0, at)
			fs.emit(LOAD, int32(st.acc), 0, at)
			fs.emit(CONS, 0, 0, at)
			fs.emit(SET, int32(st.acc), 0, at)
			fs.emit(LOAD, int32(tmp), 0, at)
			fs.emit(CDR, 0, 0, at)
			fs.emit(SET, int32(tmp), 0, at)
			fs.emit(JMP, int32(top), 0, at)
			fs.patch(end)
			return nil
		case op == "collect" || op == "append":
			if err := load(); err != nil {
				return err
			}
			if err := fs.expr(e); err != nil {
				return err
			}
			if op == "collect" {
				fs.callBuiltin("list", 1, at)
			}
			fs.callBuiltin("append", 2, at)
			return store()
		case op == "sum":
			if err := load(); err != nil {
				return err
			}
			if err := fs.expr(e); err != nil {
				return err
			}
			fs.emit(ADD, 0, 0, at)
			return store()
		case op == "count":
			if err := fs.expr(e); err != nil {
				return err
			}
			skip := fs.emit(JMPNIL, 0, 0, at)
			if err := load(); err != nil {
				return err
			}
			fs.emit(ADD1, 0, 0, at)
			if err := store(); err != nil {
				return err
			}
			fs.patch(skip)
			return nil
		}
		// maximize, minimize: the first value (checked to be a number
		// by (max x)) or the extremum so far.
		if err := fs.expr(e); err != nil {
			return err
		}
		fs.emit(SET, int32(tmp), 0, at)
		if err := load(); err != nil {
			return err
		}
		first := fs.emit(JMPNIL, 0, 0, at)
		if err := load(); err != nil {
			return err
		}
		fs.emit(LOAD, int32(tmp), 0, at)
		fs.callBuiltin(op, 2, at)
		if err := store(); err != nil {
			return err
		}
		done := fs.emit(JMP, 0, 0, at)
		fs.patch(first)
		fs.emit(LOAD, int32(tmp), 0, at)
		fs.callBuiltin(op, 1, at)
		if err := store(); err != nil {
			return err
		}
		fs.patch(done)
		return nil
	}, nil
}
