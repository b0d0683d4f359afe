package compile

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// Compile translates f into a Program. Errors are *syntax.Error at the
// offending node.
func Compile(f *syntax.File) (*Program, error) { return CompileWith(f, Options{}) }

// Options change how CompileWith treats a file.
type Options struct {
	// PassThrough passes a definition (defun, def-plan, ...) of a file
	// with (in-package ...) that does not compile through like the
	// top-level forms forms.File.Skip leaves alone: it gets a note with
	// the error and is listed in Program.PassedThrough, and the rest of
	// the file compiles. Its function exists but does nothing (returns
	// nil), so such a Program is for reading a plan (labels, annotate),
	// never for running it. A file with a package is part of a larger
	// Lisp system, whose other files may define macros labelcov cannot
	// see; in a plan of labelcov's own (no in-package) an error stays an
	// error.
	PassThrough bool
}

// CompileWith is Compile with options.
func CompileWith(f *syntax.File, opts Options) (*Program, error) {
	c := &compiler{
		opts:       opts,
		file:       f,
		prog:       &Program{File: f.Name, byName: map[string]*Func{}},
		globals:    map[string]int{},
		externals:  map[string]int{},
		consts:     map[string]int{},
		captured:   map[*syntax.Symbol]bool{},
		assigned:   map[*syntax.Symbol]bool{},
		fnVars:     map[*syntax.Symbol]*syntax.Symbol{},
		localLists: map[*syntax.Symbol]*lambdaList{},
	}
	g, err := c.expandConditionals(f) // #+/#- decided here (readermacros.go)
	if err != nil {
		return nil, err
	}
	c.file = g
	if err := c.compileFile(); err != nil {
		return nil, err
	}
	// Notes come from the prescan and from the code, in compilation
	// order; the user reads them in source order.
	sort.SliceStable(c.prog.Notes, func(i, j int) bool { return c.prog.Notes[i].Pos.Offset < c.prog.Notes[j].Pos.Offset })
	return c.prog, nil
}

type compiler struct {
	opts Options
	// tempPrefix is the prefix of normalize's temporaries, as the plan
	// declares it (declaim (labelcov-temporaries "PREFIX")); "" in a plan
	// that declares none, whose variables are all ordinary.
	tempPrefix string
	file       *syntax.File
	prog       *Program
	globals    map[string]int
	externals  map[string]int
	consts     map[string]int // atom constants, deduplicated by kind and text

	// Closure analysis without a separate resolver pass: while compiling a
	// top-level form we learn which bindings are captured by a lambda and
	// which are assigned. A binding that turns out to be both, but was
	// compiled as a plain slot, sets redo and the form is compiled again
	// with the knowledge (bindings are identified by their declaring node).
	captured, assigned map[*syntax.Symbol]bool
	redo               bool
	fnVars             map[*syntax.Symbol]*syntax.Symbol // see fnVar
	// localLists holds the lambda lists of local functions (flet,
	// labels) with &optional, &rest or &key, by their hidden variable.
	localLists map[*syntax.Symbol]*lambdaList
	// copiedFrom maps each list expandConditionals copied (a list on the
	// path to a reader conditional) to the list of f it stands for, so a
	// branch names the caller's node (BranchInfo.Node) even there.
	copiedFrom map[*syntax.List]*syntax.List
}

// topForm is a prescanned top-level definition.
type topForm struct {
	list *syntax.List
	fn   *Func
	body []syntax.Node
}

var defKinds = map[string]FuncKind{
	"defun": KindDefun, "def-cram-function": KindDefun, "def-plan": KindPlan, "def-check": KindCheck,
	"def-policy": KindPolicy,
}

// isTemp reports whether a variable named name is one of normalize's
// temporaries (forms.TempsHead).
func (c *compiler) isTemp(name string) bool {
	return c.tempPrefix != "" && strings.HasPrefix(name, c.tempPrefix)
}

func (c *compiler) errf(n syntax.Node, format string, args ...any) error {
	return c.file.NodeErrorf(n, format, args...)
}

func (c *compiler) compileFile() error {
	var tops []topForm
	var params []*syntax.List // defparameter forms, in source order
	fi := forms.ScanFile(c.file)
	for _, form := range c.file.Forms {
		if p, ok := forms.TempsDeclared(form); ok {
			c.tempPrefix = p
			continue
		}
		if note, skip := fi.Skip(form); skip {
			if forms.Head(form) == "in-package" {
				if l := form.(*syntax.List); len(l.Elems) == 2 {
					c.prog.Package = packageName(l.Elems[1])
				}
			}
			if note != "" {
				c.prog.Notes = append(c.prog.Notes, c.file.NodeErrorf(form, "%s", note))
			}
			continue
		}
		l, ok := form.(*syntax.List)
		head := forms.Head(form)
		if !ok || head == "" {
			err := c.errf(form, "expected a top-level definition (defun, def-plan, def-check, def-policy or defparameter), found %s", describe(form))
			if c.passThrough(form, err) {
				continue
			}
			return err
		}
		switch head {
		case "defparameter", "defvar", "defconstant":
			name, err := c.prescanParam(l, head)
			if err != nil {
				if c.passThrough(l, err) {
					continue
				}
				return err
			}
			c.globals[name.Name] = len(c.prog.Globals)
			c.prog.Globals = append(c.prog.Globals, name.Name)
			if len(l.Elems) >= 3 {
				params = append(params, l)
			}
			continue
		}
		kind, ok := defKinds[head]
		if !ok {
			return c.errf(form, "expected a top-level definition (defun, def-plan, def-check, def-policy or defparameter), found (%s ...)", head)
		}
		t, err := c.prescanDef(l, head, kind)
		if err != nil {
			if c.passThrough(l, err) {
				continue
			}
			return err
		}
		tops = append(tops, t)
	}

	// The initialiser: each defparameter in source order.
	init := &Func{Name: "<init>", Kind: KindInit, Index: len(c.prog.Funcs), Pos: syntax.Pos{Line: 1, Col: 1}}
	c.prog.Funcs = append(c.prog.Funcs, init)
	c.prog.Init = init
	for {
		snap := c.snapshot()
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
		if err == nil {
			break
		}
		// Under PassThrough, the defparameter whose value does not
		// compile is passed through (its global stays unbound) and the
		// initialiser is compiled again without it.
		i := containing(params, err)
		if i < 0 || !c.passThrough(params[i], err) {
			return err
		}
		c.restore(snap)
		params = append(params[:i:i], params[i+1:]...)
	}
	for _, t := range tops {
		t := t
		snap := c.snapshot()
		err := c.compileTop(t.fn, func(fs *fstate) error {
			if err := fs.prologue(t.fn.ll); err != nil {
				return err
			}
			return fs.namedBody(t.fn.Name, t.body, t.list.Open)
		})
		if err != nil {
			if !c.passThrough(t.list, err) {
				return err
			}
			// The function stays (other code calls it by index) with
			// a body that returns nil.
			c.restore(snap)
			if err := c.compileTop(t.fn, func(fs *fstate) error {
				fs.emit(NIL, 0, 0, t.list.Open)
				return nil
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// prescanParam checks (defparameter *NAME* VALUE [DOC]) l (head is
// defparameter, defvar or defconstant) and returns its name.
func (c *compiler) prescanParam(l *syntax.List, head string) (*syntax.Symbol, error) {
	// (defparameter *NAME* VALUE [DOC]); defvar's VALUE is optional.
	if len(l.Elems) < 2 || len(l.Elems) > 4 || (head != "defvar" && len(l.Elems) < 3) {
		return nil, c.errf(l, "%s: expected (%s *NAME* VALUE [DOCSTRING])", head, head)
	}
	if len(l.Elems) == 4 {
		if _, ok := l.Elems[3].(*syntax.String); !ok {
			return nil, c.errf(l.Elems[3], "%s: expected a docstring after the value, found %s", head, describe(l.Elems[3]))
		}
	}
	name, err := c.varName(l.Elems[1], head)
	if err != nil {
		return nil, err
	}
	if _, dup := c.globals[name.Name]; dup {
		return nil, c.errf(name, "%s: %s is already defined", head, name.Name)
	}
	return name, nil
}

// prescanDef checks definition l (head, kind) and registers its function.
func (c *compiler) prescanDef(l *syntax.List, head string, kind FuncKind) (topForm, error) {
	if len(l.Elems) < 3 {
		return topForm{}, c.errf(l, "%s: expected (%s NAME (PARAMS...) BODY...)", head, head)
	}
	nameSym, ok := l.Elems[1].(*syntax.Symbol)
	if !ok || nameSym.Name == "t" || nameSym.Name == "nil" {
		return topForm{}, c.errf(l.Elems[1], "%s: the name must be a symbol, found %s", head, describe(l.Elems[1]))
	}
	if forms.Lookup(nameSym.Name) != nil {
		return topForm{}, c.errf(nameSym, "%s: %s is a special form and cannot be redefined", head, nameSym.Name)
	}
	name := forms.Name(nameSym)
	if _, dup := c.prog.byName[name]; dup {
		return topForm{}, c.errf(nameSym, "%s: %s is already defined", head, name)
	}
	ll, err := c.parseLambdaList(l.Elems[2], head)
	if err != nil {
		return topForm{}, err
	}
	fn := &Func{Name: name, Kind: kind, Index: len(c.prog.Funcs), Pos: l.Open, ll: ll}
	for _, p := range ll.params {
		fn.Params = append(fn.Params, p.sym.Name)
	}
	c.prog.Funcs = append(c.prog.Funcs, fn)
	c.prog.byName[fn.Name] = fn
	return topForm{list: l, fn: fn, body: bodyForms(l.Elems[3:])}, nil
}

// passThrough, with Options.PassThrough, records that top-level form l
// does not compile (err) and is passed through, and reports true; without
// it, false (the error fails the file).
func (c *compiler) passThrough(n syntax.Node, err error) bool {
	var serr *syntax.Error
	if !c.opts.PassThrough || c.prog.Package == "" || !errors.As(err, &serr) {
		return false
	}
	what := describe(n)
	if l, ok := n.(*syntax.List); ok && forms.Head(l) != "" {
		what = "(" + forms.DescribeDef(l) + " ...)"
	}
	c.prog.PassedThrough = append(c.prog.PassedThrough, n)
	c.prog.Notes = append(c.prog.Notes, c.file.NodeErrorf(n, "note: %s is not compiled, labelled or annotated (%s at %s); it is passed through", what, serr.Msg, serr.Pos))
	return true
}

// containing returns the index of the form of forms whose text holds the
// position of err (a *syntax.Error), or -1.
func containing(forms []*syntax.List, err error) int {
	var serr *syntax.Error
	if !errors.As(err, &serr) {
		return -1
	}
	for i, l := range forms {
		if l.Open.Offset <= serr.Pos.Offset && serr.Pos.Offset <= l.Close.Offset {
			return i
		}
	}
	return -1
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
		if op == PROBEGUARD {
			p.Probes[a].Skip += base
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

// externalGlobal declares a global variable that the file uses but does
// not define: by Lisp convention a *special* variable or +constant+
// defined in another file of the system. It has no initialiser, so
// reading it before the plan assigns it signals unbound-variable.
func (c *compiler) externalGlobal(name string) (int, bool) {
	if len(name) < 3 || !(name[0] == '*' && name[len(name)-1] == '*' || name[0] == '+' && name[len(name)-1] == '+') {
		return 0, false
	}
	if g, ok := c.globals[name]; ok {
		return g, true
	}
	g := len(c.prog.Globals)
	c.globals[name] = g
	c.prog.Globals = append(c.prog.Globals, name)
	return g, true
}

// freeGlobal returns the global that free variable sym names: a variable
// neither bound around it nor defined in the file. Common Lisp compiles
// such a reference as one to a special variable defined elsewhere (SBCL
// warns "undefined variable"), and CRAM's files use variables of other
// files of their system freely, so it becomes a global without an
// initialiser: reading it before the plan assigns it signals
// unbound-variable. A name without the *earmuffs* of the convention gets
// a note (once), since it may as well be a typo.
func (c *compiler) freeGlobal(sym *syntax.Symbol) int {
	if g, ok := c.externalGlobal(sym.Name); ok {
		return g
	}
	g := len(c.prog.Globals)
	c.globals[sym.Name] = g
	c.prog.Globals = append(c.prog.Globals, sym.Name)
	c.prog.Notes = append(c.prog.Notes, c.file.NodeErrorf(sym, "note: %s is not defined in this file: taken as a global variable of another file (unbound until set)", sym.Name))
	return g
}

// packageName is the name of (in-package NAME): a symbol, keyword or
// string, as written without its colon.
func packageName(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Symbol:
		return n.Name
	case *syntax.Keyword:
		return n.Name
	case *syntax.String:
		return n.Value
	}
	return syntax.NodeString(n)
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
		elems, tail := n.Elems, value.Nil
		if k := len(elems); k >= 3 && syntax.IsSymbol(elems[k-2], ".") {
			// A dotted list (a b . c), as the backquote reads it.
			elems, tail = elems[:k-2], Literal(elems[k-1])
		}
		vs := make([]value.Value, len(elems))
		for i, e := range elems {
			vs[i] = Literal(e)
		}
		return value.ListTail(vs, tail)
	}
	return literalOther(n) // readermacros.go
}

// describe names a node for error messages.
func describe(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.List:
		if h := forms.Head(n); h != "" {
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
	case *syntax.Char:
		return "character " + syntax.NodeString(n)
	case *syntax.Prefixed:
		return syntax.NodeString(n)
	}
	return "an expression"
}

func startOf(n syntax.Node) syntax.Pos {
	s, _ := n.Span()
	return s
}
