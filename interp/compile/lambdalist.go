package compile

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// A lambda list with &optional, &key or &rest is compiled without new
// opcodes. Every parameter gets a frame slot (required, optional, rest,
// then key parameters: Func.Params in that order) and a call by name
// resolves the arguments statically: the caller passes each slot's value,
// the list of the rest arguments, and for an optional or key parameter
// it did not supply the unsupplied marker; the callee's prologue replaces
// the marker by the parameter's default, evaluated in the callee. Calls
// through funcall pass one argument per slot.

// unsupplied marks an optional or key argument the caller did not pass.
// Its name cannot be read, so no plan can produce or compare with it.
var unsupplied = value.Symbol("unsupplied argument")

type paramKind uint8

const (
	paramRequired paramKind = iota
	paramOptional
	paramRest
	paramKey
)

type param struct {
	sym      *syntax.Symbol
	kind     paramKind
	def      syntax.Node    // default form (nil: nil)
	supplied *syntax.Symbol // supplied-p variable, or nil
	key      string         // keyword of a key parameter
}

// lambdaList is a parsed lambda list; simple is true when every parameter
// is required (the caller then pushes the arguments as written).
type lambdaList struct {
	params []param // in slot order
	simple bool
	nreq   int
	nopt   int
	rest   int // slot of the &rest parameter, or -1
}

func (ll *lambdaList) syms() []*syntax.Symbol {
	out := make([]*syntax.Symbol, len(ll.params))
	for i, p := range ll.params {
		out[i] = p.sym
	}
	return out
}

// parseLambdaList reads (REQ... [&optional OPT...] [&rest|&body R] [&key
// KEY...] [&allow-other-keys] [&aux AUX...]). An OPT or KEY is NAME or
// (NAME [DEFAULT [SUPPLIED-P]]); a KEY's NAME may be ((:KEYWORD NAME)).
// &aux variables are refused: they are let* in disguise.
func (c *compiler) parseLambdaList(n syntax.Node, what string) (*lambdaList, error) {
	ll := &lambdaList{simple: true, rest: -1}
	l, ok := n.(*syntax.List)
	if !ok {
		if syntax.IsSymbol(n, "nil") {
			return ll, nil
		}
		return nil, c.errf(n, "%s: expected a parameter list (PARAMS...), found %s", what, describe(n))
	}
	seen := map[string]bool{}
	declare := func(s *syntax.Symbol) error {
		if seen[s.Name] {
			return c.errf(s, "%s: duplicate parameter %s", what, s.Name)
		}
		seen[s.Name] = true
		return nil
	}
	var rest []param
	var keys []param
	state := paramRequired
	for _, e := range l.Elems {
		if s, ok := e.(*syntax.Symbol); ok && len(s.Name) > 1 && s.Name[0] == '&' {
			ll.simple = false
			switch s.Name {
			case "&optional":
				if state != paramRequired {
					return nil, c.errf(s, "%s: &optional must come before &rest and &key", what)
				}
				state = paramOptional
			case "&rest", "&body":
				if state == paramRest || state == paramKey {
					return nil, c.errf(s, "%s: %s must come before &key, once", what, s.Name)
				}
				state = paramRest
			case "&key":
				if state == paramKey {
					return nil, c.errf(s, "%s: &key given twice", what)
				}
				state = paramKey
			case "&allow-other-keys":
				// Unknown keys are refused at the call anyway.
			default:
				return nil, c.errf(s, "%s: lambda-list keyword %s is not supported (supported: &optional, &rest, &body, &key)", what, s.Name)
			}
			continue
		}
		p := param{kind: state}
		switch state {
		case paramRequired, paramRest:
			s, err := c.varName(e, what)
			if err != nil {
				return nil, err
			}
			p.sym = s
			if state == paramRest {
				if len(rest) > 0 {
					return nil, c.errf(s, "%s: only one &rest parameter", what)
				}
			}
		default:
			var name syntax.Node = e
			if pl, ok := e.(*syntax.List); ok {
				if len(pl.Elems) == 0 || len(pl.Elems) > 3 {
					return nil, c.errf(pl, "%s: expected NAME or (NAME [DEFAULT [SUPPLIED-P]]), found %s", what, describe(pl))
				}
				name = pl.Elems[0]
				if len(pl.Elems) > 1 {
					p.def = pl.Elems[1]
				}
				if len(pl.Elems) == 3 {
					sp, err := c.varName(pl.Elems[2], what)
					if err != nil {
						return nil, err
					}
					p.supplied = sp
				}
			}
			if kn, ok := name.(*syntax.List); ok && state == paramKey {
				// ((:keyword name) default)
				if len(kn.Elems) != 2 {
					return nil, c.errf(kn, "%s: expected (:KEYWORD NAME), found %s", what, describe(kn))
				}
				kw, ok := kn.Elems[0].(*syntax.Keyword)
				if !ok {
					return nil, c.errf(kn.Elems[0], "%s: expected a keyword, found %s", what, describe(kn.Elems[0]))
				}
				p.key = kw.Name
				name = kn.Elems[1]
			}
			s, err := c.varName(name, what)
			if err != nil {
				return nil, err
			}
			p.sym = s
			if state == paramKey && p.key == "" {
				p.key = s.Name
			}
		}
		if err := declare(p.sym); err != nil {
			return nil, err
		}
		if p.supplied != nil {
			if err := declare(p.supplied); err != nil {
				return nil, err
			}
		}
		switch state {
		case paramRest:
			rest = append(rest, p)
		case paramKey:
			keys = append(keys, p)
		default:
			ll.params = append(ll.params, p)
			if state == paramOptional {
				ll.nopt++
			} else {
				ll.nreq++
			}
		}
	}
	if len(rest) == 1 {
		ll.rest = len(ll.params)
		ll.params = append(ll.params, rest[0])
	} else if state == paramRest {
		return nil, c.errf(l, "%s: &rest needs a parameter name", what)
	}
	ll.params = append(ll.params, keys...)
	return ll, nil
}

// prologue binds the parameters (slots 0..n-1, where the caller put them)
// and gives each unsupplied optional or key parameter its default.
func (fs *fstate) prologue(ll *lambdaList) error {
	for _, p := range ll.params {
		if b := fs.bind(p.sym); b.cell {
			fs.emit(MAKECELL, int32(b.slot), 0, p.sym.Start)
		}
	}
	for _, p := range ll.params {
		if p.kind != paramOptional && p.kind != paramKey {
			continue
		}
		at := p.sym.Start
		if p.supplied != nil {
			if err := fs.load(p.sym); err != nil {
				return err
			}
			fs.constant(unsupplied, at)
			fs.emit(EQ, 0, 0, at)
			fs.emit(NOT, 0, 0, at)
			fs.initBinding(fs.bind(p.supplied), p.supplied.Start)
		}
		if err := fs.load(p.sym); err != nil {
			return err
		}
		fs.constant(unsupplied, at)
		fs.emit(EQ, 0, 0, at)
		skip := fs.emit(JMPNIL, 0, 0, at)
		if p.def != nil {
			if err := fs.expr(p.def); err != nil {
				return err
			}
		} else {
			fs.emit(NIL, 0, 0, at)
		}
		if err := fs.store(p.sym, "default"); err != nil {
			return err
		}
		fs.emit(POP, 0, 0, at)
		fs.patch(skip)
	}
	return nil
}

// callLambdaList compiles a call by name of fn, whose lambda list is not
// simple: arguments are evaluated in source order, then the slots are
// pushed in fn's parameter order.
func (fs *fstate) callLambdaList(fn *Func, l *syntax.List) error {
	if err := fs.pushSlotArgs(fn.Name, fn.ll, l); err != nil {
		return err
	}
	fs.emit(CALL, int32(fn.Index), int32(len(fn.ll.params)), l.Open)
	return nil
}

// pushSlotArgs evaluates the arguments of call l, in source order, of a
// function called name with lambda list ll, and pushes one value per
// parameter slot (see the comment at the top of this file).
func (fs *fstate) pushSlotArgs(name string, ll *lambdaList, l *syntax.List) error {
	c := fs.c
	fn := struct{ Name string }{name}
	args := l.Elems[1:]
	npos := ll.nreq + ll.nopt
	if len(args) < ll.nreq {
		return c.errf(l, "%s takes at least %d argument%s, called with %d", fn.Name, ll.nreq, plural(ll.nreq), len(args))
	}
	nkeys := len(ll.params) - npos
	if ll.rest >= 0 {
		nkeys--
	}
	if len(args) > npos && ll.rest < 0 && nkeys == 0 {
		return c.errf(l, "%s takes at most %d argument%s, called with %d", fn.Name, npos, plural(npos), len(args))
	}
	positional := args[:min(len(args), npos)]
	more := args[len(positional):]
	if nkeys == 0 {
		if err := fs.exprs(positional); err != nil {
			return err
		}
		for i := len(positional); i < npos; i++ {
			fs.constant(unsupplied, l.Open)
		}
		if ll.rest >= 0 {
			items := make([]func() error, len(more))
			for i, a := range more {
				items[i] = func() error { return fs.expr(a) }
			}
			if err := fs.pushList(len(more), items, l.Open); err != nil {
				return err
			}
		}
		return nil
	}
	// Keyword arguments: KEY VALUE pairs with literal keywords, evaluated
	// in source order into temporaries.
	if len(more)%2 != 0 {
		return c.errf(l, "%s: keyword arguments must come in pairs :KEY VALUE", fn.Name)
	}
	saved := fs.slots
	if err := fs.exprs(positional); err != nil {
		return err
	}
	tmps := map[string]int{}
	var order []func() error // pushes the rest list's elements
	for i := 0; i < len(more); i += 2 {
		kw, ok := more[i].(*syntax.Keyword)
		if !ok {
			return c.errf(more[i], "%s: expected a keyword argument :KEY, found %s", fn.Name, describe(more[i]))
		}
		known := false
		for _, p := range ll.params[npos:] {
			known = known || (p.kind == paramKey && p.key == kw.Name)
		}
		if !known {
			return c.errf(kw, "%s has no keyword parameter :%s", fn.Name, kw.Name)
		}
		if err := fs.expr(more[i+1]); err != nil {
			return err
		}
		t := fs.allocSlot()
		fs.emit(SET, int32(t), 0, kw.Start)
		if _, dup := tmps[kw.Name]; !dup {
			tmps[kw.Name] = t // the leftmost occurrence wins, as in Lisp
		}
		kwName, at := kw.Name, kw.Start
		order = append(order, func() error {
			fs.constant(value.Keyword(kwName), at)
			fs.emit(LOAD, int32(t), 0, at)
			return nil
		})
	}
	for i := len(positional); i < npos; i++ {
		fs.constant(unsupplied, l.Open)
	}
	for _, p := range ll.params[npos:] {
		if p.kind == paramRest {
			if err := fs.pushList(2*len(order), order, l.Open); err != nil {
				return err
			}
			continue
		}
		if t, ok := tmps[p.key]; ok {
			fs.emit(LOAD, int32(t), 0, l.Open)
		} else {
			fs.constant(unsupplied, l.Open)
		}
	}
	fs.slots = saved
	return nil
}

// pushList pushes a list of n values, pushed by items in order.
func (fs *fstate) pushList(n int, items []func() error, at syntax.Pos) error {
	if n == 0 {
		fs.emit(NIL, 0, 0, at)
		return nil
	}
	for _, push := range items {
		if err := push(); err != nil {
			return err
		}
	}
	id, _ := CoreBuiltin("list")
	fs.emit(CALLB, int32(id), int32(n), at)
	return nil
}

// bodyForms drops a leading docstring (when more forms follow) and the
// declarations at the start of a body: they document, they do not run.
func bodyForms(body []syntax.Node) []syntax.Node {
	for len(body) > 0 {
		if _, doc := body[0].(*syntax.String); doc && len(body) > 1 {
			body = body[1:]
		} else if forms.Head(body[0]) == "declare" {
			body = body[1:]
		} else {
			break
		}
	}
	return body
}

// dropDeclares drops the declarations at the start of a body (of let,
// flet, a handler clause, ...): they do not run.
func dropDeclares(body []syntax.Node) []syntax.Node {
	for len(body) > 0 && forms.Head(body[0]) == "declare" {
		body = body[1:]
	}
	return body
}
