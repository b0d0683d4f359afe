package compile

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// The subset of Common Lisp's loop that labelcov compiles:
//
//	with VAR = EXPR
//	for VAR in LIST
//	for VAR from A [to|upto|below|downto|above B] [by STEP]
//	for VAR = EXPR [then EXPR]
//	repeat N
//	while TEST | until TEST
//	do FORM...
//	collect EXPR | sum EXPR | count EXPR    (also collecting, summing, counting)
//	when|if|unless TEST CLAUSE [else CLAUSE] [end]
//	return EXPR
//	finally FORM...
//
// Keywords may be written as symbols or keywords (:for). The loop is a
// block nil; its value is the accumulation (collect, sum or count: one
// kind per loop) or nil. Anything else is refused with an error naming it.

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
	acc     int    // accumulator slot
	accKind string // "", "collect", "sum", "count"
	exits   []int  // jumps to the normal end of the loop
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
	case "in":
		p.i++
		e, err := p.next()
		if err != nil {
			return nil, err
		}
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
			fs.emit(CAR, 0, 0, at)
			if err := fs.store(v, "loop"); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, at)
			return nil
		}, nil
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
		p.i++
		init, err := p.next()
		if err != nil {
			return nil, err
		}
		if err := fs.expr(init); err != nil {
			return nil, err
		}
		fs.initBinding(fs.bind(v), at)
		if p.kw(p.i) == "then" {
			p.i++
			then, err := p.next()
			if err != nil {
				return nil, err
			}
			st.steps = append(st.steps, func() error {
				if err := fs.expr(then); err != nil {
					return err
				}
				if err := fs.store(v, "loop"); err != nil {
					return err
				}
				fs.emit(POP, 0, 0, at)
				return nil
			})
		}
		return func() error { return nil }, nil
	default:
		return nil, p.errf("unsupported for clause %q (supported: in, from ... to/below/downto/above ... by, =)", w)
	}
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
	case "collect", "collecting", "sum", "summing", "count", "counting":
		kind := map[string]string{"collect": "collect", "collecting": "collect", "sum": "sum",
			"summing": "sum", "count": "count", "counting": "count"}[w]
		if p.kw(p.i+1) == "into" {
			return nil, p.errf("%s ... into is not supported", w)
		}
		if st.accKind != "" && st.accKind != kind {
			return nil, p.errf("one kind of accumulation per loop (%s and %s)", st.accKind, kind)
		}
		if st.accKind == "" && kind != "collect" {
			// sum and count start from 0: reset the accumulator now,
			// before the loop's top.
			fs.emit(INT, 0, 0, startOf(tok))
			fs.emit(SET, int32(st.acc), 0, startOf(tok))
		}
		st.accKind = kind
		e, err := p.next()
		if err != nil {
			return nil, err
		}
		at := startOf(tok)
		return func() error {
			switch kind {
			case "collect":
				if err := fs.expr(e); err != nil {
					return err
				}
				fs.emit(LOAD, int32(st.acc), 0, at)
				fs.emit(CONS, 0, 0, at)
			case "sum":
				fs.emit(LOAD, int32(st.acc), 0, at)
				if err := fs.expr(e); err != nil {
					return err
				}
				fs.emit(ADD, 0, 0, at)
			case "count":
				if err := fs.expr(e); err != nil {
					return err
				}
				skip := fs.emit(JMPNIL, 0, 0, at)
				fs.emit(LOAD, int32(st.acc), 0, at)
				fs.emit(ADD1, 0, 0, at)
				fs.emit(SET, int32(st.acc), 0, at)
				fs.patch(skip)
				return nil
			}
			fs.emit(SET, int32(st.acc), 0, at)
			return nil
		}, nil
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
