package compile

import (
	"math"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// The forms of this file come from Common Lisp and CPL (CRAM's plan
// language). Each compiles to the existing opcodes.

// callBuiltin emits a call of core builtin name with n arguments pushed.
func (fs *fstate) callBuiltin(name string, n int, at syntax.Pos) {
	id, _ := CoreBuiltin(name)
	fs.emit(CALLB, int32(id), int32(n), at)
}

// signal emits (fail 'KIND FORMAT ARGS...) with the arguments pushed by
// args; it leaves one (never used) value, like any call.
func (fs *fstate) signal(kind, format string, at syntax.Pos, args ...func()) {
	fs.constant(value.Symbol(kind), at)
	fs.constant(value.String(format), at)
	for _, a := range args {
		a()
	}
	fs.callBuiltin("fail", 2+len(args), at)
}

// (assert TEST ...): nil, or the failure assertion-failed naming TEST.
// Later arguments (places, a message) are not evaluated.
func (fs *fstate) formAssert(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "assert: expected (assert TEST)")
	}
	test := l.Elems[1]
	if err := fs.expr(test); err != nil {
		return err
	}
	ok := fs.branch(JMPIF, "assert", l, test)
	fs.signal("assertion-failed", "~a", l.Open, func() {
		fs.constant(value.String(syntax.NodeString(test)), l.Open)
	})
	fs.emit(POP, 0, 0, l.Open)
	fs.patch(ok)
	fs.emit(NIL, 0, 0, l.Open)
	return nil
}

// (declare ...) is only meaningful at the start of a body, where
// dropDeclares drops it.
func (fs *fstate) formDeclare(l *syntax.List) error {
	return fs.c.errf(l, "declare is only allowed at the start of a body")
}

// (block NAME BODY...)
func (fs *fstate) formBlock(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "block: expected (block NAME BODY...)")
	}
	name, ok := l.Elems[1].(*syntax.Symbol)
	if !ok {
		return fs.c.errf(l.Elems[1], "block: expected a block name, found %s", describe(l.Elems[1]))
	}
	return fs.namedBody(forms.Name(name), l.Elems[2:], l.Open)
}

// (unwind-protect PROTECTED CLEANUP...): CLEANUP runs after PROTECTED
// however it is left — normally, by a failure (which then goes on, with
// its kind and message, from the unwind-protect), or by return,
// return-from or retry.
func (fs *fstate) formUnwindProtect(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "unwind-protect: expected (unwind-protect FORM CLEANUP...)")
	}
	cleanup := l.Elems[2:]
	level := fs.handlers
	if fs.cleanups == nil {
		fs.cleanups = map[int][]syntax.Node{}
	}
	prev, had := fs.cleanups[level]
	fs.cleanups[level] = cleanup
	clause := handlerClause{kinds: []string{"failure"}, at: l.Open, gen: func() error {
		saved := fs.slots
		tmp := fs.allocSlot()
		fs.emit(SET, int32(tmp), 0, l.Open)
		if err := fs.effects(cleanup); err != nil {
			return err
		}
		prop := func(key string) func() {
			return func() {
				fs.emit(LOAD, int32(tmp), 0, l.Open)
				fs.constant(value.Symbol(key), l.Open)
				fs.callBuiltin("desig-prop", 2, l.Open)
			}
		}
		// Re-signal: (fail (desig-prop f 'kind) "~a" (desig-prop f 'message)).
		prop("kind")()
		fs.constant(value.String("~a"), l.Open)
		prop("message")()
		fs.callBuiltin("fail", 3, l.Open)
		fs.slots = saved
		return nil
	}}
	err := fs.handlerSite(l, []handlerClause{clause}, l.Elems[1:2], func() error {
		delete(fs.cleanups, level) // the record is gone: cleanup runs once
		return fs.effects(cleanup)
	})
	if had {
		fs.cleanups[level] = prev
	} else {
		delete(fs.cleanups, level)
	}
	return err
}

// (values X...) in a single-value context is X's value (nil for
// (values)); every argument is evaluated. multiple-value-bind reads the
// arguments of a values form it binds directly.
func (fs *fstate) formValues(l *syntax.List) error {
	if len(l.Elems) == 1 {
		fs.emit(NIL, 0, 0, l.Open)
		return nil
	}
	if err := fs.expr(l.Elems[1]); err != nil {
		return err
	}
	return fs.effects(l.Elems[2:])
}

// (multiple-value-bind (VAR...) FORM BODY...). When FORM is a values form
// its arguments are bound in order (nil for missing ones); otherwise the
// first VAR gets FORM's value and the others nil: labelcov's functions
// return one value.
func (fs *fstate) formMVB(l *syntax.List) error {
	if len(l.Elems) < 3 {
		return fs.c.errf(l, "multiple-value-bind: expected (multiple-value-bind (VAR...) FORM BODY...)")
	}
	names, err := fs.c.varList(l.Elems[1], "multiple-value-bind")
	if err != nil {
		return err
	}
	form := l.Elems[2]
	vals := []syntax.Node{form}
	if vl, ok := form.(*syntax.List); ok && forms.Head(vl) == "values" {
		vals = vl.Elems[1:]
	}
	for i, v := range vals {
		if err := fs.expr(v); err != nil {
			return err
		}
		if i >= len(names) {
			fs.emit(POP, 0, 0, startOf(v))
		}
	}
	for i := len(vals); i < len(names); i++ {
		fs.emit(NIL, 0, 0, names[i].Start)
	}
	saved := fs.slots
	fs.bindPushed(names)
	err = fs.progn(bodyForms(l.Elems[3:]), l.Open)
	fs.unbind(len(names), saved)
	return err
}

// varList reads (VAR...).
func (c *compiler) varList(n syntax.Node, what string) ([]*syntax.Symbol, error) {
	if syntax.IsSymbol(n, "nil") {
		return nil, nil
	}
	vl, ok := n.(*syntax.List)
	if !ok {
		return nil, c.errf(n, "%s: expected a list of variables, found %s", what, describe(n))
	}
	var out []*syntax.Symbol
	for _, e := range vl.Elems {
		s, err := c.varName(e, what)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// bindPushed binds names, in order, to the len(names) values on top of
// the stack (the last name to the top value).
func (fs *fstate) bindPushed(names []*syntax.Symbol) {
	bs := make([]*binding, len(names))
	for i, s := range names {
		bs[i] = &binding{name: s.Name, node: s, slot: fs.allocSlot(), cell: fs.c.captured[s] && fs.c.assigned[s]}
	}
	for i := len(bs) - 1; i >= 0; i-- {
		fs.emit(SET, int32(bs[i].slot), 0, names[i].Start)
	}
	for i, b := range bs {
		if b.cell {
			fs.emit(MAKECELL, int32(b.slot), 0, names[i].Start)
		}
	}
	fs.scope = append(fs.scope, bs...)
}

// (destructuring-bind PATTERN EXPR BODY...): PATTERN is a tree of
// variables with &optional (defaults allowed) and &rest/&body. A missing
// element binds nil (or the default), extra elements are ignored.
func (fs *fstate) formDestructuringBind(l *syntax.List) error {
	if len(l.Elems) < 3 {
		return fs.c.errf(l, "destructuring-bind: expected (destructuring-bind PATTERN EXPR BODY...)")
	}
	if err := fs.expr(l.Elems[2]); err != nil {
		return err
	}
	saved := fs.slots
	nb := len(fs.scope)
	if err := fs.destructure(l.Elems[1]); err != nil {
		return err
	}
	err := fs.progn(bodyForms(l.Elems[3:]), l.Open)
	fs.unbind(len(fs.scope)-nb, saved)
	return err
}

// destructure binds pattern to the value on top of the stack (popped).
func (fs *fstate) destructure(pattern syntax.Node) error {
	const what = "destructuring-bind"
	if s, ok := pattern.(*syntax.Symbol); ok && s.Name != "nil" {
		v, err := fs.c.varName(s, what)
		if err != nil {
			return err
		}
		fs.initBinding(fs.bind(v), v.Start)
		return nil
	}
	pl, ok := pattern.(*syntax.List)
	if !ok {
		if syntax.IsSymbol(pattern, "nil") {
			fs.emit(POP, 0, 0, startOf(pattern))
			return nil
		}
		return fs.c.errf(pattern, "%s: expected a pattern, found %s", what, describe(pattern))
	}
	cur := fs.allocSlot()
	fs.emit(SET, int32(cur), 0, pl.Open)
	next := func(at syntax.Pos) {
		fs.emit(LOAD, int32(cur), 0, at)
		fs.emit(CDR, 0, 0, at)
		fs.emit(SET, int32(cur), 0, at)
	}
	mode := "required"
	for _, e := range pl.Elems {
		if s, ok := e.(*syntax.Symbol); ok && len(s.Name) > 1 && s.Name[0] == '&' {
			switch s.Name {
			case "&optional":
				mode = "optional"
			case "&rest", "&body":
				mode = "rest"
			default:
				return fs.c.errf(s, "%s: %s is not supported (supported: &optional, &rest, &body)", what, s.Name)
			}
			continue
		}
		at := startOf(e)
		switch mode {
		case "required":
			fs.emit(LOAD, int32(cur), 0, at)
			fs.emit(CAR, 0, 0, at)
			if err := fs.destructure(e); err != nil {
				return err
			}
		case "optional":
			var name syntax.Node = e
			var def syntax.Node
			if el, ok := e.(*syntax.List); ok && len(el.Elems) >= 1 && len(el.Elems) <= 2 {
				name = el.Elems[0]
				if len(el.Elems) == 2 {
					def = el.Elems[1]
				}
			}
			v, err := fs.c.varName(name, what)
			if err != nil {
				return err
			}
			d := fs.depth
			fs.emit(LOAD, int32(cur), 0, at)
			useDef := fs.emit(JMPNIL, 0, 0, at)
			fs.emit(LOAD, int32(cur), 0, at)
			fs.emit(CAR, 0, 0, at)
			done := fs.emit(JMP, 0, 0, at)
			fs.depth = d
			fs.patch(useDef)
			if def != nil {
				if err := fs.expr(def); err != nil {
					return err
				}
			} else {
				fs.emit(NIL, 0, 0, at)
			}
			fs.patch(done)
			fs.initBinding(fs.bind(v), v.Start)
		case "rest":
			v, err := fs.c.varName(e, what)
			if err != nil {
				return err
			}
			fs.emit(LOAD, int32(cur), 0, at)
			fs.initBinding(fs.bind(v), v.Start)
			mode = "done"
			continue
		default:
			return fs.c.errf(e, "%s: nothing may follow the &rest variable", what)
		}
		next(at)
	}
	return nil
}

// fnVar is the hidden variable that holds the closure of a local function
// (flet, labels). Its name cannot be read, so it never clashes with a
// variable; it is made once per defining symbol so that closure analysis
// (keyed by declaring node) sees the same binding when a form is
// compiled again.
func (c *compiler) fnVar(name *syntax.Symbol) *syntax.Symbol {
	if v, ok := c.fnVars[name]; ok {
		return v
	}
	v := &syntax.Symbol{Start: name.Start, End: name.End, Name: localFnName(forms.Name(name))}
	c.fnVars[name] = v
	return v
}

func localFnName(name string) string { return "#'" + name }

// (flet ((NAME (PARAMS...) BODY...)...) BODY...) and labels: local
// functions are closures in hidden variables; a call of NAME in their
// scope is a funcall of the closure. labels' functions see each other
// (and themselves), flet's do not.
func (fs *fstate) formFlet(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "%s: expected (%s ((NAME (PARAMS...) BODY...)...) BODY...)", head, head)
	}
	var defs []*syntax.List
	if dl, ok := l.Elems[1].(*syntax.List); ok {
		for _, d := range dl.Elems {
			dd, ok := d.(*syntax.List)
			if !ok || len(dd.Elems) < 2 {
				return fs.c.errf(d, "%s: expected a definition (NAME (PARAMS...) BODY...), found %s", head, describe(d))
			}
			if s, ok := dd.Elems[0].(*syntax.Symbol); !ok || s.Name == "nil" || s.Name == "t" {
				return fs.c.errf(dd.Elems[0], "%s: a function name must be a symbol, found %s", head, describe(dd.Elems[0]))
			}
			defs = append(defs, dd)
		}
	} else if !syntax.IsSymbol(l.Elems[1], "nil") {
		return fs.c.errf(l.Elems[1], "%s: expected a list of definitions, found %s", head, describe(l.Elems[1]))
	}
	saved := fs.slots
	vars := make([]*syntax.Symbol, len(defs))
	for i, d := range defs {
		vars[i] = fs.c.fnVar(d.Elems[0].(*syntax.Symbol))
	}
	// The lambda lists first: labels' functions call each other (and
	// themselves) by name before their closures exist.
	for i, d := range defs {
		ll, err := fs.c.parseLambdaList(d.Elems[1], forms.Name(d.Elems[0].(*syntax.Symbol)))
		if err != nil {
			return err
		}
		if !ll.simple {
			fs.c.localLists[vars[i]] = ll
		}
	}
	closure := func(d *syntax.List) error {
		name := forms.Name(d.Elems[0].(*syntax.Symbol))
		var ll *lambdaList
		return fs.closure(name, d.Elems[1], d.Elems[2:], d.Open, &ll)
	}
	if head == "labels" {
		for _, v := range vars {
			fs.emit(NIL, 0, 0, v.Start)
			fs.initBinding(fs.bind(v), v.Start)
		}
		for i, d := range defs {
			if err := closure(d); err != nil {
				return err
			}
			if err := fs.store(vars[i], head); err != nil {
				return err
			}
			fs.emit(POP, 0, 0, d.Open)
		}
	} else {
		for _, d := range defs {
			if err := closure(d); err != nil {
				return err
			}
		}
		fs.bindPushed(vars)
	}
	err := fs.progn(bodyForms(l.Elems[2:]), l.Open)
	fs.unbind(len(vars), saved)
	return err
}

// localCall compiles a call of a local function (flet, labels) if name
// is one in scope.
func (fs *fstate) localCall(name string, l *syntax.List) (bool, error) {
	_, _, b, ok := fs.lookup(localFnName(name))
	if !ok {
		return false, nil
	}
	if err := fs.load(&syntax.Symbol{Start: l.Open, Name: localFnName(name)}); err != nil {
		return true, err
	}
	if b != nil {
		if ll := fs.c.localLists[b.node]; ll != nil {
			// &optional, &rest or &key: resolved here, as for a defun.
			if err := fs.pushSlotArgs(name, ll, l); err != nil {
				return true, err
			}
			fs.emit(FUNCALL, int32(len(ll.params)), 0, l.Open)
			return true, nil
		}
	}
	if err := fs.exprs(l.Elems[1:]); err != nil {
		return true, err
	}
	fs.emit(FUNCALL, int32(len(l.Elems)-1), 0, l.Open)
	return true, nil
}

// typePredicates maps the type names typecase understands to a builtin
// that tests them.
var typePredicates = map[string]string{
	"integer": "integerp", "fixnum": "integerp", "float": "floatp", "double-float": "floatp",
	"single-float": "floatp", "number": "numberp", "real": "numberp", "string": "stringp",
	"symbol": "symbolp", "keyword": "keywordp", "list": "listp", "cons": "consp", "null": "null",
	"function": "functionp", "designator": "designatorp",
}

// ros-info and friends: (ros-info NAME FORMAT ARGS...) prints
// "[LEVEL] NAME: message" and a newline; NAME (a symbol or a list of
// symbols naming the logger) is not evaluated.
var logLevels = map[string]string{"ros-info": "INFO", "ros-warn": "WARN", "ros-error": "ERROR", "ros-debug": "DEBUG"}

func (fs *fstate) formLog(l *syntax.List) error {
	head := forms.Head(l)
	if len(l.Elems) < 3 {
		return fs.c.errf(l, "%s: expected (%s NAME FORMAT ARGS...)", head, head)
	}
	at := l.Open
	prefix := "[" + logLevels[head] + "] " + syntax.NodeString(l.Elems[1]) + ": "
	fs.emit(T, 0, 0, at)
	fs.constant(value.String(prefix), at)
	fs.callBuiltin("format", 2, at)
	fs.emit(POP, 0, 0, at)
	fs.emit(T, 0, 0, at)
	if err := fs.exprs(l.Elems[2:]); err != nil {
		return err
	}
	fs.callBuiltin("format", len(l.Elems)-1, at)
	fs.emit(POP, 0, 0, at)
	fs.emit(T, 0, 0, at)
	fs.constant(value.String("~%"), at)
	fs.callBuiltin("format", 2, at)
	return nil
}

// (do-retry COUNTER BODY...): when COUNTER (a variable of
// with-retry-counters) is above zero, decrement it and run BODY;
// otherwise nil.
func (fs *fstate) formDoRetry(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return fs.c.errf(l, "do-retry: expected (do-retry COUNTER BODY...)")
	}
	ctr, ok := l.Elems[1].(*syntax.Symbol)
	if !ok {
		return fs.c.errf(l.Elems[1], "do-retry: expected a retry counter, found %s", describe(l.Elems[1]))
	}
	if err := fs.load(ctr); err != nil {
		return err
	}
	fs.emit(INT, 0, 0, l.Open)
	fs.emit(GT, 0, 0, l.Open)
	skip := fs.emit(JMPNIL, 0, 0, l.Open)
	if err := fs.load(ctr); err != nil {
		return err
	}
	fs.emit(SUB1, 0, 0, l.Open)
	if err := fs.store(ctr, "do-retry"); err != nil {
		return err
	}
	fs.emit(POP, 0, 0, l.Open)
	return fs.bodyOrNil(skip, l.Elems[2:], l.Open)
}

// (pursue FORM...) under labelcov's sequential schedule: the first form
// finishes first, so it alone runs and gives the value; the others are
// compiled (their labels stay uncovered) but never run.
func (fs *fstate) formPursue(l *syntax.List) error {
	if len(l.Elems) == 1 {
		fs.emit(NIL, 0, 0, l.Open)
		return nil
	}
	if err := fs.expr(l.Elems[1]); err != nil {
		return err
	}
	if len(l.Elems) == 2 {
		return nil
	}
	end := fs.emit(JMP, 0, 0, l.Open)
	if err := fs.effects(l.Elems[2:]); err != nil {
		return err
	}
	fs.patch(end)
	return nil
}

// (try-in-order FORM...): the value of the first form that does not fail;
// when all fail, the last one's failure.
func (fs *fstate) formTryInOrder(l *syntax.List) error {
	return fs.tryInOrder(l, l.Elems[1:])
}

func (fs *fstate) tryInOrder(l *syntax.List, alts []syntax.Node) error {
	switch len(alts) {
	case 0:
		fs.emit(NIL, 0, 0, l.Open)
		return nil
	case 1:
		return fs.expr(alts[0])
	}
	next := handlerClause{kinds: []string{"failure"}, at: startOf(alts[1]), gen: func() error {
		fs.emit(POP, 0, 0, startOf(alts[1]))
		return fs.tryInOrder(l, alts[1:])
	}}
	return fs.handlerSite(l, []handlerClause{next}, alts[:1], nil)
}

// piValue is Common Lisp's pi, as a float.
var piValue = value.Float(math.Pi)
