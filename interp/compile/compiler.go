package compile

import (
	"fmt"
	"math"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// Compile translates f into a Program. Errors are *syntax.Error at the
// offending node.
func Compile(f *syntax.File) (*Program, error) {
	c := &compiler{
		file:      f,
		prog:      &Program{File: f.Name, byName: map[string]*Func{}},
		globals:   map[string]int{},
		externals: map[string]int{},
		consts:    map[string]int{},
		captured:  map[*syntax.Symbol]bool{},
		assigned:  map[*syntax.Symbol]bool{},
	}
	g, err := c.expandConditionals(f) // #+/#- decided here (readermacros.go)
	if err != nil {
		return nil, err
	}
	c.file = g
	if err := c.compileFile(); err != nil {
		return nil, err
	}
	return c.prog, nil
}

type compiler struct {
	file      *syntax.File
	prog      *Program
	globals   map[string]int
	externals map[string]int
	consts    map[string]int // atom constants, deduplicated by kind and text

	// Closure analysis without a separate resolver pass: while compiling a
	// top-level form we learn which bindings are captured by a lambda and
	// which are assigned. A binding that turns out to be both, but was
	// compiled as a plain slot, sets redo and the form is compiled again
	// with the knowledge (bindings are identified by their declaring node).
	captured, assigned map[*syntax.Symbol]bool
	redo               bool
}

// topForm is a prescanned top-level definition.
type topForm struct {
	list   *syntax.List
	fn     *Func
	params []*syntax.Symbol
	body   []syntax.Node
}

var defKinds = map[string]FuncKind{
	"defun": KindDefun, "def-plan": KindPlan, "def-check": KindCheck, "def-policy": KindPolicy,
}

func (c *compiler) errf(n syntax.Node, format string, args ...any) error {
	return c.file.NodeErrorf(n, format, args...)
}

func (c *compiler) compileFile() error {
	var tops []topForm
	var params []*syntax.List // defparameter forms, in source order
	for _, form := range c.file.Forms {
		l, ok := form.(*syntax.List)
		head := syntax.Head(form)
		if !ok || head == "" {
			return c.errf(form, "expected a top-level definition (defun, def-plan, def-check, def-policy or defparameter), found %s", describe(form))
		}
		if head == "defparameter" {
			if len(l.Elems) != 3 {
				return c.errf(l, "defparameter: expected (defparameter *NAME* VALUE)")
			}
			name, err := c.varName(l.Elems[1], "defparameter")
			if err != nil {
				return err
			}
			if _, dup := c.globals[name.Name]; dup {
				return c.errf(name, "defparameter: %s is already defined", name.Name)
			}
			c.globals[name.Name] = len(c.prog.Globals)
			c.prog.Globals = append(c.prog.Globals, name.Name)
			params = append(params, l)
			continue
		}
		kind, ok := defKinds[head]
		if !ok {
			return c.errf(form, "expected a top-level definition (defun, def-plan, def-check, def-policy or defparameter), found (%s ...)", head)
		}
		if len(l.Elems) < 3 {
			return c.errf(l, "%s: expected (%s NAME (PARAMS...) BODY...)", head, head)
		}
		nameSym, ok := l.Elems[1].(*syntax.Symbol)
		if !ok || nameSym.Name == "t" || nameSym.Name == "nil" {
			return c.errf(l.Elems[1], "%s: the name must be a symbol, found %s", head, describe(l.Elems[1]))
		}
		if isSpecialForm(nameSym.Name) {
			return c.errf(nameSym, "%s: %s is a special form and cannot be redefined", head, nameSym.Name)
		}
		if _, dup := c.prog.byName[nameSym.Name]; dup {
			return c.errf(nameSym, "%s: %s is already defined", head, nameSym.Name)
		}
		ps, err := c.paramList(l.Elems[2], head)
		if err != nil {
			return err
		}
		fn := &Func{Name: nameSym.Name, Kind: kind, Index: len(c.prog.Funcs), Pos: l.Open}
		for _, p := range ps {
			fn.Params = append(fn.Params, p.Name)
		}
		c.prog.Funcs = append(c.prog.Funcs, fn)
		c.prog.byName[fn.Name] = fn
		body := l.Elems[3:]
		if len(body) > 1 {
			if _, doc := body[0].(*syntax.String); doc {
				body = body[1:] // a leading docstring documents, it does not run
			}
		}
		tops = append(tops, topForm{list: l, fn: fn, params: ps, body: body})
	}

	// The initialiser: each defparameter in source order.
	init := &Func{Name: "<init>", Kind: KindInit, Index: len(c.prog.Funcs), Pos: syntax.Pos{Line: 1, Col: 1}}
	c.prog.Funcs = append(c.prog.Funcs, init)
	c.prog.Init = init
	err := c.compileTop(init, func(fs *fstate) error {
		for _, l := range params {
			if err := fs.expr(l.Elems[2]); err != nil {
				return err
			}
			fs.emit(SETVALUE, int32(c.globals[l.Elems[1].(*syntax.Symbol).Name]), 0, l.Open)
			fs.emit(POP, 0, 0, l.Open)
		}
		fs.emit(NIL, 0, 0, init.Pos)
		return nil
	})
	if err != nil {
		return err
	}
	for _, t := range tops {
		t := t
		err := c.compileTop(t.fn, func(fs *fstate) error {
			// Parameters take slots 0..n-1, where the caller put them.
			for _, p := range t.params {
				if b := fs.bind(p); b.cell {
					fs.emit(MAKECELL, int32(b.slot), 0, p.Start)
				}
			}
			return fs.body(t.body, t.list)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// compileTop compiles one top-level function, recompiling it once more if
// closure analysis found a captured-and-assigned binding too late.
func (c *compiler) compileTop(fn *Func, gen func(*fstate) error) error {
	for attempt := 0; ; attempt++ {
		snap := c.snapshot()
		c.redo = false
		fs := &fstate{c: c, fn: fn, labelAt: -1}
		if err := gen(fs); err != nil {
			return err
		}
		fs.emit(RET, 0, 0, fn.Pos)
		if c.redo && attempt < 4 {
			c.restore(snap)
			continue
		}
		c.link(fs)
		return nil
	}
}

type snapshot struct{ funcs, branches, handlers, desigs, probes int }

func (c *compiler) snapshot() snapshot {
	p := c.prog
	return snapshot{len(p.Funcs), len(p.branches), len(p.Handlers), len(p.Desigs), len(p.Probes)}
}

func (c *compiler) restore(s snapshot) {
	p := c.prog
	p.Funcs = p.Funcs[:s.funcs]
	p.branches = p.branches[:s.branches]
	p.Handlers = p.Handlers[:s.handlers]
	p.Desigs = p.Desigs[:s.desigs]
	p.Probes = p.Probes[:s.probes]
}

// link appends the code of fs and then of the lambdas it contains to the
// flat instruction array, relocating jump targets and table entries.
func (c *compiler) link(fs *fstate) {
	p := c.prog
	base := int32(len(p.Code))
	for i, op := range fs.code {
		a := fs.a[i]
		if op.IsJump() {
			a += base
		}
		p.Code = append(p.Code, op)
		p.A = append(p.A, a)
		p.B = append(p.B, fs.b[i])
		p.Pos = append(p.Pos, fs.pos[i])
	}
	for _, bi := range fs.branchIdx {
		p.branches[bi].PC += int(base)
	}
	for _, hi := range fs.siteIdx {
		for j := range p.Handlers[hi].Clauses {
			p.Handlers[hi].Clauses[j].PC += int(base)
		}
	}
	fs.fn.Entry = int(base)
	fs.fn.End = len(p.Code)
	fs.fn.NumLocals = fs.maxSlots
	fs.fn.MaxStack = fs.maxDepth
	for _, ch := range fs.children {
		c.link(ch)
	}
}

// paramList checks a parameter list: distinct plain symbols.
func (c *compiler) paramList(n syntax.Node, what string) ([]*syntax.Symbol, error) {
	l, ok := n.(*syntax.List)
	if !ok {
		if syntax.IsSymbol(n, "nil") {
			return nil, nil
		}
		return nil, c.errf(n, "%s: expected a parameter list (PARAMS...), found %s", what, describe(n))
	}
	var out []*syntax.Symbol
	seen := map[string]bool{}
	for _, e := range l.Elems {
		s, err := c.varName(e, what)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(s.Name, "&") {
			return nil, c.errf(s, "%s: lambda-list keyword %s is not supported (parameters are required and positional)", what, s.Name)
		}
		if seen[s.Name] {
			return nil, c.errf(s, "%s: duplicate parameter %s", what, s.Name)
		}
		seen[s.Name] = true
		out = append(out, s)
	}
	return out, nil
}

// varName checks that n can name a variable.
func (c *compiler) varName(n syntax.Node, what string) (*syntax.Symbol, error) {
	s, ok := n.(*syntax.Symbol)
	if !ok {
		return nil, c.errf(n, "%s: expected a variable name, found %s", what, describe(n))
	}
	if s.Name == "t" || s.Name == "nil" {
		return nil, c.errf(n, "%s: %s is a constant and cannot be a variable", what, s.Name)
	}
	return s, nil
}

// constIndex interns an atom constant (lists are never shared).
func (c *compiler) constIndex(v value.Value) int32 {
	key := ""
	switch v.Kind() {
	case value.KCons, value.KDesignator, value.KFunc:
	default:
		key = v.Kind().String() + ":" + v.String()
		if v.Kind() == value.KFloat {
			key = fmt.Sprintf("float:%x", math.Float64bits(v.Float()))
		}
		if i, ok := c.consts[key]; ok {
			return int32(i)
		}
	}
	i := len(c.prog.Consts)
	c.prog.Consts = append(c.prog.Consts, v)
	if key != "" {
		c.consts[key] = i
	}
	return int32(i)
}

func (c *compiler) external(name string) int32 {
	if i, ok := c.externals[name]; ok {
		return int32(i)
	}
	i := len(c.prog.Externals)
	c.prog.Externals = append(c.prog.Externals, name)
	c.externals[name] = i
	return int32(i)
}

// Literal converts a quoted datum to a value: atoms to themselves, lists to
// lists, 'x to (quote x). It is also how `labelcov run --arg` reads values.
func Literal(n syntax.Node) value.Value {
	switch n := n.(type) {
	case *syntax.Int:
		return value.Int(n.Value)
	case *syntax.Float:
		return value.Float(n.Value)
	case *syntax.String:
		return value.String(n.Value)
	case *syntax.Keyword:
		return value.Keyword(n.Name)
	case *syntax.Symbol:
		return value.Symbol(n.Name)
	case *syntax.Quote:
		return value.List(value.Symbol("quote"), Literal(n.X))
	case *syntax.List:
		vs := make([]value.Value, len(n.Elems))
		for i, e := range n.Elems {
			vs[i] = Literal(e)
		}
		return value.List(vs...)
	}
	return literalOther(n) // readermacros.go
}

// describe names a node for error messages.
func describe(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.List:
		if h := syntax.Head(n); h != "" {
			return "(" + h + " ...)"
		}
		if len(n.Elems) == 0 {
			return "()"
		}
		return "a list"
	case *syntax.Symbol:
		return "symbol " + n.Name
	case *syntax.Keyword:
		return "keyword :" + n.Name
	case *syntax.Int, *syntax.Float:
		return "number " + syntax.NodeString(n)
	case *syntax.String:
		return "string " + syntax.NodeString(n)
	case *syntax.Quote:
		return "quoted " + syntax.NodeString(n.X)
	}
	return "an expression"
}

func startOf(n syntax.Node) syntax.Pos {
	s, _ := n.Span()
	return s
}
