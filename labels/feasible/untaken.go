package feasible

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Objects the plan never picks up. The simulator declares
// (domain.Signals.PickKey and the fields after it) that an object stays
// where it started — its current region is its initial one — until a
// picking-up (Grips) names it, and that a detection returns designators
// carrying the object's name, type and region of the moment. So the
// first picking-up of an object uses a designator detected while the
// object still stood where it started.
//
// The rule traces, backwards through the plan, every value that may
// reach the object property of a picking-up: through variables (their
// bindings and every assignment), parameters (every call's argument),
// the results of plan functions (their last forms, returns), list
// operations (list, cons, first, rest, pop, push, reverse, remove, nth,
// ...), conditionals and desig-prop. What is traced must end in reads of
// the variable of a (dolist (d (perform (an action (type detecting))))
// ...) loop, nothing the variable is assigned; numbers, truth values and
// quoted data that cannot name an object (MayName) end nowhere; anything
// else (a query, a computed name, a call through a value, a perform of a
// designator the text does not spell) keeps every label. Each read of a
// detected d comes with the conditions it sits under within the loop
// (when, unless, if, cond, case, and, or). A condition that, evaluated
// over the designator's properties (region and type, through the plan's
// functions as detectvals.go evaluates them), cannot hold for an object
// that starts in region R with type T rules the read out for it; when
// every read is ruled out, no such object is ever picked up and it stays
// in R to the end.
//
// A label's conjuncts that read one object X (object-region,
// initial-region and object-type of X, through let bindings and plan
// functions) are then evaluated for every start region R and type T of
// the world: with the region X is in now being R when no read takes
// such an object. When no (R, T) satisfies every conjunct, the label is
// infeasible.

// untakenMaxTrace bounds the nodes one trace visits.
const untakenMaxTrace = 4000

// detRead is a read of a detecting loop's variable whose value may reach
// a picking-up, with the conditions it sits under.
type detRead struct {
	sym    *syntax.Symbol
	key    string
	guards []guardAtom
}

// guardAtom is a condition that holds (want) where a read sits, or for a
// case, that key is one of a clause's keys.
type guardAtom struct {
	test syntax.Node
	want bool
	keys syntax.Node // a case clause's keys (test is the case's key form)
}

// pickTrace collects what may reach the picking-ups.
type pickTrace struct {
	h        *handlerAnalysis
	parent   map[syntax.Node]*syntax.List
	loops    map[string]*syntax.List // detecting loop key -> its dolist
	binders  map[string]syntax.Node  // let or dolist binding key -> the form its values come from
	elems    map[string]bool         // binders whose values are elements of the form's value
	visited  map[syntax.Node]bool
	keysDone map[string]bool
	reads    []detRead
	readSeen map[*syntax.Symbol]bool
	steps    int
	fail     string
}

// untakenVerdicts marks infeasible the active labels whose conjuncts
// need an object the plan never picks up to have left its start region.
func (h *handlerAnalysis) untakenVerdicts(ls []*pathLabel) {
	sig := h.sig
	if !h.untakenReady() {
		return
	}
	var todo []*pathLabel
	for _, pl := range ls {
		if pl.l.Status == labels.Active && (callsQuery(pl.pred, sig.InitialRegionQuery, h) || callsQuery(pl.pred, sig.RegionQuery, h)) {
			todo = append(todo, pl)
		}
	}
	if len(todo) == 0 {
		return
	}
	t := newPickTrace(h, parentMap(h))
	picks, ok := t.run()
	if !ok {
		return
	}
	inits := letInits(h.res, h.a)
	memo := map[[2]string][][]int{}
	// mayPick says whether an object starting in r with type ty may be
	// picked up, else, for each read, the conditions that rule it out.
	mayPick := func(r, ty string) ([][]int, bool) {
		k := [2]string{r, ty}
		if outs, ok := memo[k]; ok {
			return outs, outs == nil
		}
		outs := make([][]int, len(t.reads))
		for i, rd := range t.reads {
			if outs[i] = t.rulesOut(rd, r, ty, inits); len(outs[i]) == 0 {
				outs = nil
				break
			}
		}
		memo[k] = outs
		return outs, outs == nil
	}
	for _, pl := range todo {
		conj := conjuncts(pl.pred)
		for _, key := range t.objectKeys(conj, inits) {
			why, stays, ok := t.decide(conj, key, inits, mayPick)
			if ok {
				pl.l.Status = labels.Infeasible
				if stays {
					why = fmt.Sprintf("by %s an object stays where it started until a picking-up names it, and %s; %s", sig.Why, picks, why)
				}
				pl.l.Reason = fmt.Sprintf("no object satisfies %s: %s", strings.Join(t.shows(conj), " and "), why)
				break
			}
		}
	}
}

// untakenReady reports whether the simulator declares what the rule
// needs and the plan redefines none of the queries it reads.
func (h *handlerAnalysis) untakenReady() bool {
	sig := h.sig
	if sig.Grips == "" || sig.PickKey == "" || sig.Detects == "" || sig.RegionQuery == "" || sig.InitialRegionQuery == "" ||
		len(sig.Regions) == 0 || len(sig.Types) == 0 || h.a == nil {
		return false
	}
	for _, q := range []string{sig.RegionQuery, sig.InitialRegionQuery, sig.TypeQuery, "perform", "desig-prop"} {
		if h.defs[q] != nil || h.local[q] || h.res.IsUserFunc(q) {
			return false
		}
	}
	return true
}

// newPickTrace is an empty trace.
func newPickTrace(h *handlerAnalysis, parent map[syntax.Node]*syntax.List) *pickTrace {
	return &pickTrace{h: h, parent: parent, loops: map[string]*syntax.List{}, binders: map[string]syntax.Node{}, elems: map[string]bool{},
		visited: map[syntax.Node]bool{}, keysDone: map[string]bool{}, readSeen: map[*syntax.Symbol]bool{}}
}

// callsQuery reports whether n calls query q (through temporaries too).
func callsQuery(n syntax.Node, q string, h *handlerAnalysis) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if found {
			return false
		}
		if s, ok := x.(*syntax.Symbol); ok && h.res.IsTemp(s.Name) {
			if o := h.res.Origin(s); o != nil && o != syntax.Node(s) && callsQuery(o, q, h) {
				found = true
			}
		}
		if l, ok := x.(*syntax.List); ok && forms.Head(l) == q {
			found = true
		}
		return !found
	})
	return found
}

func (t *pickTrace) shows(conj []syntax.Node) []string {
	out := make([]string, len(conj))
	for i, c := range conj {
		out[i] = t.h.show(c)
	}
	return out
}

// run traces the object of every picking-up; it says which they are.
func (t *pickTrace) run() (string, bool) {
	h := t.h
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic {
		return "", false
	}
	t.collectBinders()
	var picks []string
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		heads := map[*syntax.Symbol]bool{}
		syntax.Walk(f, func(n syntax.Node) bool {
			if t.fail != "" {
				return false
			}
			switch x := n.(type) {
			case *syntax.List:
				if s, ok := argAt(x, 0).(*syntax.Symbol); ok {
					heads[s] = true
				}
				if forms.Head(x) != "perform" {
					return true
				}
				typ, props, known := actionDesig(x)
				if !known {
					t.fail = "a perform of a designator the text does not spell"
					return false
				}
				if typ != h.sig.Grips {
					return true
				}
				picks = append(picks, h.where(x))
				if obj, ok := props[h.sig.PickKey]; ok {
					t.trace(obj)
				}
			case *syntax.Symbol:
				if x.Name == "perform" && !heads[x] {
					t.fail = "perform called through a value"
				}
			}
			return t.fail == ""
		})
	}
	if t.fail != "" {
		return "", false
	}
	if len(picks) == 0 {
		return "the plan performs no picking-up", true
	}
	var at []string
	for _, rd := range t.reads {
		at = append(at, h.where(rd.sym))
	}
	sort.Strings(at)
	return fmt.Sprintf("the plan's picking-ups (%s) take only objects detected by its detecting loops, read at %s", strings.Join(picks, ", "), strings.Join(slices.Compact(at), ", ")), true
}

// collectBinders records the detecting loops and the let and dolist
// bindings.
func (t *pickTrace) collectBinders() {
	h := t.h
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || len(l.Elems) < 2 {
				return true
			}
			switch forms.Head(l) {
			case "let", "let*":
				bl, ok := l.Elems[1].(*syntax.List)
				if !ok {
					return true
				}
				for _, b := range bl.Elems {
					switch b := b.(type) {
					case *syntax.List:
						if s, ok := argAt(b, 0).(*syntax.Symbol); ok {
							if k := h.a.lexKey(s.Name, b); k != "" {
								t.binders[k] = argAt(b, 1) // nil: no init
							}
						}
					case *syntax.Symbol:
						if k := h.a.lexKey(b.Name, b); k != "" {
							t.binders[k] = nil
						}
					}
				}
			case "dolist":
				spec, ok := l.Elems[1].(*syntax.List)
				if !ok || len(spec.Elems) < 2 {
					return true
				}
				v, ok := spec.Elems[0].(*syntax.Symbol)
				if !ok {
					return true
				}
				k := h.a.lexKey(v.Name, v)
				if k == "" {
					return true
				}
				if p, ok := h.detection(spec.Elems[1]); ok && p == spec.Elems[1] {
					t.loops[k] = l
					return true
				}
				t.binders[k], t.elems[k] = spec.Elems[1], true
			}
			return true
		})
	}
}

// nameless are builtins whose values name no object: numbers, truth
// values, or what their arguments are not.
var nameless = map[string]bool{"eq": true, "eql": true, "equal": true, "=": true, "/=": true, "<": true, ">": true, "<=": true, ">=": true,
	"not": true, "null": true, "+": true, "-": true, "*": true, "/": true, "1+": true, "1-": true, "length": true, "mod": true, "rem": true,
	"abs": true, "min": true, "max": true, "zerop": true, "plusp": true, "minusp": true, "evenp": true, "oddp": true, "numberp": true,
	"symbolp": true, "listp": true, "consp": true, "atom": true, "endp": true, "incf": true, "decf": true, "floor": true, "round": true,
	"truncate": true, "ceiling": true, "sqrt": true, "expt": true, "print": true, "retry": true, "fail": true, "string=": true}

// partsOf are builtins whose value is made of (parts of) the values of
// the arguments at the listed indices (-1: every argument).
var partsOf = map[string]int{"list": -1, "cons": -1, "append": -1, "values": -1, "car": 1, "cdr": 1, "first": 1, "second": 1, "third": 1,
	"fourth": 1, "fifth": 1, "rest": 1, "last": 1, "cadr": 1, "cddr": 1, "caar": 1, "cdar": 1, "reverse": 1, "copy-list": 1, "butlast": 1,
	"nth": 2, "nthcdr": 2, "remove": 2, "delete": 2, "member": 2, "assoc": 2, "find": 2, "subseq": 1, "desig-prop": 1, "pop": 1,
	"push": -1, "the": 2, "identity": 1, "sort": 1}

// trace follows everything whose value n's may contain.
func (t *pickTrace) trace(n syntax.Node) {
	if t.fail != "" || n == nil || t.visited[n] {
		return
	}
	t.visited[n] = true
	if t.steps++; t.steps > untakenMaxTrace {
		t.fail = "the trace grew too long"
		return
	}
	h := t.h
	switch x := n.(type) {
	case *syntax.Int, *syntax.Float:
		return
	case *syntax.String:
		t.literal(x.Value, n)
	case *syntax.Keyword:
		t.literal(x.Name, n)
	case *syntax.Quote:
		syntax.Walk(x.X, func(y syntax.Node) bool {
			switch y := y.(type) {
			case *syntax.Symbol:
				t.literal(y.Name, n)
			case *syntax.String:
				t.literal(y.Value, n)
			}
			return t.fail == ""
		})
	case *syntax.Symbol:
		t.symbol(x)
	case *syntax.List:
		t.list(x)
	default:
		t.fail = "a form the trace cannot read: " + h.where(n)
	}
}

func (t *pickTrace) literal(name string, n syntax.Node) {
	if name == "nil" || name == "t" {
		return
	}
	if t.h.sig.MayName == nil || t.h.sig.MayName(name) {
		t.fail = "a literal that may name an object: " + t.h.where(n)
	}
}

func (t *pickTrace) symbol(s *syntax.Symbol) {
	h := t.h
	if s.Name == "nil" || s.Name == "t" {
		return
	}
	if h.res.IsTemp(s.Name) {
		if o := h.res.Origin(s); o != nil && o != syntax.Node(s) {
			t.trace(o)
			return
		}
		t.fail = "a temporary without origin"
		return
	}
	if h.a.closureAssigned()[s.Name] {
		t.fail = s.Name + " is assigned in a closure"
		return
	}
	if h.a.specials[s.Name] {
		t.global(s.Name)
		return
	}
	key, met := h.a.symKey[s]
	if !met || key == conflictKey || key == "" {
		t.fail = "a reference the analysis did not resolve: " + h.where(s)
		return
	}
	if _, ok := t.loops[key]; ok {
		if h.a.assignedKeys[key] {
			t.fail = "a detecting loop's variable is assigned"
			return
		}
		t.read(s, key)
		return
	}
	if t.keysDone[key] {
		return
	}
	t.keysDone[key] = true
	if init, ok := t.binders[key]; ok {
		t.trace(init) // nil: none
	} else if !t.param(key) {
		if t.fail == "" {
			t.fail = "a variable bound where the trace does not follow: " + h.where(s)
		}
		return
	}
	t.assignments(s.Name, key)
}

// param traces every call's argument for parameter key; false when key
// is no parameter of a plan function called by name only.
func (t *pickTrace) param(key string) bool {
	h := t.h
	fn, p, found := strings.Cut(key, "\x00")
	fi := h.a.funcs[fn]
	if !found || fi == nil || fi.free || h.dup[fn] || h.local[fn] || h.a.paramKey(fn, p) != key {
		return false
	}
	idx := slices.Index(fi.params, p)
	if idx < 0 || slices.ContainsFunc(fi.params, func(q string) bool { return strings.HasPrefix(q, "&") }) {
		return false
	}
	if d := h.defs[fn]; d == nil || forms.Head(d) != "defun" {
		t.fail = "a parameter of " + fn + ", which is no defun"
		return true
	}
	for _, site := range h.sites[fn] {
		if len(site.call.Elems) != len(fi.params)+1 {
			t.fail = "a call of " + fn + " with another number of arguments: " + h.where(site.call)
			return true
		}
		t.trace(site.call.Elems[idx+1])
	}
	return true
}

// global traces a special variable: its definitions and assignments.
func (t *pickTrace) global(name string) {
	k := "\x01" + name
	if t.keysDone[k] {
		return
	}
	t.keysDone[k] = true
	for _, f := range t.h.res.Forms {
		if l, ok := f.(*syntax.List); ok && len(l.Elems) >= 3 && syntax.IsSymbol(l.Elems[1], name) {
			switch forms.Head(l) {
			case "defparameter", "defvar", "defconstant":
				t.trace(l.Elems[2])
			}
		}
	}
	// A let may bind the special dynamically: its init is a value too.
	for _, f := range t.h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || t.fail != "" {
				return t.fail == ""
			}
			switch forms.Head(l) {
			case "let", "let*":
				if bl, ok := argAt(l, 1).(*syntax.List); ok {
					for _, b := range bl.Elems {
						if bb, ok := b.(*syntax.List); ok && syntax.IsSymbol(argAt(bb, 0), name) {
							t.trace(argAt(bb, 1))
						}
					}
				}
			case "dolist", "dotimes":
				if spec, ok := argAt(l, 1).(*syntax.List); ok && syntax.IsSymbol(argAt(spec, 0), name) {
					t.fail = "a binding of special " + name + ": " + t.h.where(l)
				}
			case "defun", "lambda", "destructuring-bind", "multiple-value-bind":
				ps := argAt(l, 1)
				if forms.Head(l) == "defun" {
					ps = argAt(l, 2)
				}
				if ps != nil && mentions(ps, name) {
					t.fail = "a binding of special " + name + ": " + t.h.where(l)
				}
			}
			return t.fail == ""
		})
	}
	t.assignments(name, "")
}

// assignments traces what every assignment of name (of binding key, or
// any binding when key is "") stores.
func (t *pickTrace) assignments(name, key string) {
	h := t.h
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || t.fail != "" {
				return t.fail == ""
			}
			head := forms.Head(l)
			if !assignHeads[head] {
				return true
			}
			mine := func(x syntax.Node) bool {
				s, ok := x.(*syntax.Symbol)
				if !ok || s.Name != name {
					return false
				}
				if key == "" {
					return true
				}
				k := t.bindingAt(s)
				return k == key || k == "?"
			}
			switch head {
			case "setq", "setf", "psetq", "psetf":
				for i := 1; i+1 < len(l.Elems); i += 2 {
					if mine(l.Elems[i]) {
						t.trace(l.Elems[i+1])
					} else if _, isSym := l.Elems[i].(*syntax.Symbol); !isSym && mentions(l.Elems[i], name) {
						t.fail = "an assignment of a place of " + name + ": " + h.where(l)
					}
				}
			case "push", "pushnew":
				if len(l.Elems) >= 3 && mine(l.Elems[2]) {
					t.trace(l.Elems[1])
				} else if len(l.Elems) >= 3 && mentions(l.Elems[2], name) {
					if _, isSym := l.Elems[2].(*syntax.Symbol); !isSym {
						t.fail = "a push onto a place of " + name + ": " + h.where(l)
					}
				}
			case "pop", "incf", "decf":
				if len(l.Elems) >= 2 {
					if _, isSym := l.Elems[1].(*syntax.Symbol); !isSym && mentions(l.Elems[1], name) {
						t.fail = "an assignment of a place of " + name + ": " + h.where(l)
					}
				}
			default:
				if mentions(l, name) {
					t.fail = "a " + head + " of " + name + ": " + h.where(l)
				}
			}
			return t.fail == ""
		})
	}
}

// bindingAt is the key of the binding of s's name in scope where s
// stands: "" for a special variable, "?" when the trace cannot tell.
func (t *pickTrace) bindingAt(s *syntax.Symbol) string {
	h := t.h
	if k, met := h.a.symKey[s]; met && k != conflictKey {
		return k
	}
	if h.a.specials[s.Name] {
		return ""
	}
	n := syntax.Node(s)
	for depth := 0; depth < 200; depth++ {
		p := t.parent[n]
		if p == nil {
			return "?"
		}
		i := slices.Index(p.Elems, n)
		switch head := forms.Head(p); head {
		case "let", "let*":
			bl, ok := argAt(p, 1).(*syntax.List)
			if !ok {
				return "?"
			}
			for _, b := range bl.Elems {
				if bb, ok := b.(*syntax.List); ok && syntax.IsSymbol(argAt(bb, 0), s.Name) || syntax.IsSymbol(b, s.Name) {
					if i == 1 {
						return "?" // in the bindings: which one is in scope depends on let or let*
					}
					return h.a.lexKey(s.Name, b)
				}
			}
		case "dolist", "dotimes":
			if spec, ok := argAt(p, 1).(*syntax.List); ok && syntax.IsSymbol(argAt(spec, 0), s.Name) {
				if i == 1 {
					return "?"
				}
				return h.a.lexKey(s.Name, spec.Elems[0])
			}
		case "defun":
			if ps, ok := argAt(p, 2).(*syntax.List); ok && slices.ContainsFunc(ps.Elems, func(x syntax.Node) bool { return syntax.IsSymbol(x, s.Name) }) {
				if fn, ok := argAt(p, 1).(*syntax.Symbol); ok {
					return h.a.paramKey(forms.Name(fn), s.Name)
				}
				return "?"
			}
		default:
			if head == "lambda" || head == "flet" || head == "labels" || head == "with-failure-handling" || head == "handler-case" ||
				head == "destructuring-bind" || head == "multiple-value-bind" || strings.HasPrefix(head, "def") {
				if mentions(p, s.Name) && head != "with-failure-handling" && head != "handler-case" {
					return "?"
				}
			}
		}
		n = p
	}
	return "?"
}

// list traces a form by its head.
func (t *pickTrace) list(l *syntax.List) {
	h := t.h
	if len(l.Elems) == 0 {
		return
	}
	hs, ok := l.Elems[0].(*syntax.Symbol)
	if !ok {
		t.fail = "a form the trace cannot read: " + h.where(l)
		return
	}
	head := forms.Name(hs)
	last := func(xs []syntax.Node) {
		if len(xs) > 0 {
			t.trace(xs[len(xs)-1])
		}
	}
	switch {
	case h.local[head] || h.dup[head]:
		t.fail = "a call of " + head + ", which the trace cannot follow"
	case h.defs[head] != nil:
		t.returns(head)
	case forms.IsDesignator(l):
		for _, e := range l.Elems[2:] {
			if p, ok := e.(*syntax.List); ok && len(p.Elems) == 2 {
				t.trace(p.Elems[1])
			} else {
				t.fail = "a designator the trace cannot read: " + h.where(l)
			}
		}
	case head == "perform":
		typ, _, known := actionDesig(l)
		if !known || typ == h.sig.Detects || typ == h.sig.Grips {
			t.fail = "the value of " + h.where(l)
		}
	case head == "let" || head == "let*" || head == "when" || head == "unless" || head == "with-failure-handling" || head == "handler-case":
		if head == "with-failure-handling" || head == "handler-case" {
			var clauses []syntax.Node
			if head == "with-failure-handling" {
				if cl, ok := argAt(l, 1).(*syntax.List); ok {
					clauses = cl.Elems
				}
				last(l.Elems[2:])
			} else {
				clauses = l.Elems[2:]
				t.trace(argAt(l, 1))
			}
			for _, c := range clauses {
				if cl, ok := c.(*syntax.List); ok && len(cl.Elems) > 2 {
					last(cl.Elems[2:])
				}
			}
			return
		}
		last(l.Elems[2:])
	case head == "if":
		t.trace(argAt(l, 2))
		t.trace(argAt(l, 3))
	case head == "cond":
		for _, c := range l.Elems[1:] {
			if cl, ok := c.(*syntax.List); ok && len(cl.Elems) > 0 {
				last(cl.Elems)
			}
		}
	case head == "case" || head == "ecase":
		for _, c := range l.Elems[2:] {
			if cl, ok := c.(*syntax.List); ok && len(cl.Elems) > 1 {
				last(cl.Elems[1:])
			}
		}
	case head == "and" || head == "or":
		for _, a := range l.Elems[1:] {
			t.trace(a)
		}
	case head == "setq":
		if len(l.Elems) >= 3 {
			t.trace(l.Elems[len(l.Elems)-1])
		}
	case head == "dolist" || head == "dotimes" || head == "while":
		if head != "while" {
			if spec, ok := argAt(l, 1).(*syntax.List); ok && len(spec.Elems) > 2 {
				t.trace(spec.Elems[2])
			}
		}
		t.loopReturns(l)
	case nameless[head]:
		return
	case head == "progn" || head == "ignore-errors":
		last(l.Elems[1:])
	case head == "prog1":
		t.trace(argAt(l, 1))
	default:
		idx, ok := partsOf[head]
		if !ok || h.res.IsUserFunc(head) {
			t.fail = "the value of " + h.where(l)
			return
		}
		if idx < 0 {
			for _, a := range l.Elems[1:] {
				t.trace(a)
			}
		} else {
			t.trace(argAt(l, idx))
		}
	}
}

// loopReturns traces the values (return X) forms within loop l pass.
func (t *pickTrace) loopReturns(l *syntax.List) {
	for _, b := range l.Elems[2:] {
		syntax.Walk(b, func(x syntax.Node) bool {
			if r, ok := x.(*syntax.List); ok && forms.Head(r) == "return" {
				t.trace(argAt(r, 1))
			}
			if r, ok := x.(*syntax.List); ok && forms.Head(r) == "return-from" {
				t.fail = "a return-from: " + t.h.where(r)
			}
			return t.fail == ""
		})
	}
}

// returns traces what plan function fn may return.
func (t *pickTrace) returns(fn string) {
	k := "\x02" + fn
	if t.keysDone[k] {
		return
	}
	t.keysDone[k] = true
	d := t.h.defs[fn]
	if forms.Head(d) != "defun" || len(d.Elems) < 4 {
		t.fail = "the value of " + fn
		return
	}
	t.trace(d.Elems[len(d.Elems)-1])
	syntax.Walk(d, func(x syntax.Node) bool {
		if r, ok := x.(*syntax.List); ok && forms.Head(r) == "return-from" {
			t.fail = "a return-from in " + fn
		}
		return t.fail == ""
	})
}

// read records a read of a detecting loop's variable with the conditions
// it sits under within the loop.
func (t *pickTrace) read(s *syntax.Symbol, key string) {
	if t.readSeen[s] {
		return
	}
	t.readSeen[s] = true
	loop := t.loops[key]
	var guards []guardAtom
	n := syntax.Node(s)
	for depth := 0; ; depth++ {
		p := t.parent[n]
		if p == nil || depth > 200 {
			t.fail = "a read of a detecting loop's variable outside its loop"
			return
		}
		if p == loop {
			break
		}
		i := slices.Index(p.Elems, n)
		if g := t.parent[p]; g != nil && i >= 1 && (forms.Head(g) == "cond" || forms.Head(g) == "case") {
			if gi := slices.Index(g.Elems, syntax.Node(p)); forms.Head(g) == "cond" && gi >= 1 {
				guards = append(guards, t.split(p.Elems[0], true)...)
				n = p
				continue
			} else if forms.Head(g) == "case" && gi >= 2 {
				guards = append(guards, guardAtom{test: g.Elems[1], want: true, keys: p.Elems[0]})
				n = p
				continue
			}
		}
		switch forms.Head(p) {
		case "when", "unless":
			if i >= 2 {
				guards = append(guards, t.split(p.Elems[1], forms.Head(p) == "when")...)
			}
		case "if":
			if i == 2 || i == 3 {
				guards = append(guards, t.split(p.Elems[1], i == 2)...)
			}
		case "and", "or":
			if i >= 2 {
				for _, a := range p.Elems[1:i] {
					guards = append(guards, t.split(a, forms.Head(p) == "and")...)
				}
			}
		}
		n = p
	}
	t.reads = append(t.reads, detRead{sym: s, key: key, guards: guards})
}

// split is the conditions test having truth want means: the conjuncts of
// an and that holds, the disjuncts of an or that fails, through not and
// normalize's let* wrappers.
func (t *pickTrace) split(test syntax.Node, want bool) []guardAtom {
	test = t.h.res.Unwrap(test)
	l, ok := test.(*syntax.List)
	if ok {
		switch forms.Head(l) {
		case "not", "null":
			if len(l.Elems) == 2 {
				return t.split(l.Elems[1], !want)
			}
		case "and", "or":
			if (forms.Head(l) == "and") == want {
				var out []guardAtom
				for _, a := range l.Elems[1:] {
					out = append(out, t.split(a, want)...)
				}
				return out
			}
		}
	}
	return []guardAtom{{test: test, want: want}}
}

// rulesOut lists the conditions of read rd that cannot hold for a
// designator of an object in region r of type ty (by index).
func (t *pickTrace) rulesOut(rd detRead, r, ty string, inits map[string]syntax.Node) []int {
	h := t.h
	var out []int
	for gi, g := range rd.guards {
		e := &regionEval{h: h, loops: map[string][]string{rd.key: {r}}, inits: inits}
		e.leaf = func(l *syntax.List, env map[string][]rval) ([]rval, bool) {
			q, isQ := argAt(l, 2).(*syntax.Quote)
			if forms.Head(l) != "desig-prop" || len(l.Elems) != 3 || !isQ || !syntax.IsSymbol(q.X, h.sig.TypeKey) {
				return nil, false
			}
			ds, ok := e.eval(l.Elems[1], env, 1)
			if !ok || len(ds) != 1 || ds[0].desig != rd.key {
				return nil, false
			}
			return []rval{{sym: ty}}, true
		}
		var vals []rval
		var ok bool
		if g.keys != nil {
			ks, kok := e.eval(g.test, nil, 0)
			if !kok {
				continue
			}
			ok = true
			for _, k := range ks {
				if k.desig != "" || k.nonNil {
					ok = false
					break
				}
				hit, hok := caseKeyHolds(g.keys, k)
				if !hok {
					ok = false
					break
				}
				vals = addVal(vals, truthVal(hit))
			}
		} else {
			vals, ok = e.eval(g.test, nil, 0)
		}
		if !ok {
			continue
		}
		if mayTrue, mayFalse := truthOf(vals); g.want && !mayTrue || !g.want && !mayFalse {
			out = append(out, gi)
		}
	}
	return out
}

// guardText shows condition g of a read.
func (t *pickTrace) guardText(g guardAtom) string {
	what := t.h.show(g.test)
	switch {
	case g.keys != nil:
		return fmt.Sprintf("%s to be %s (a case clause)", what, t.h.show(g.keys))
	case !g.want:
		return "(not " + what + ")"
	}
	return what
}

// whyUntaken says, for the start regions and types in combos, which
// condition keeps each read from taking such an object.
func (t *pickTrace) whyUntaken(combos [][2]string, outs [][][]int) string {
	sig := t.h.sig
	var regions, types []string
	for _, c := range combos {
		if !slices.Contains(regions, c[0]) {
			regions = append(regions, c[0])
		}
		if !slices.Contains(types, c[1]) {
			types = append(types, c[1])
		}
	}
	if len(t.reads) == 0 {
		return "no picking-up of the plan takes an object"
	}
	objs := "an object that starts in " + orList(regions)
	if len(types) < len(sig.Types) {
		objs += " with type " + orList(types)
	}
	var parts []string
	for i, rd := range t.reads {
		common := slices.Clone(outs[0][i])
		for _, o := range outs[1:] {
			common = slices.DeleteFunc(common, func(g int) bool { return !slices.Contains(o[i], g) })
		}
		if len(common) > 0 {
			parts = append(parts, fmt.Sprintf("the read at %s needs %s", t.h.where(rd.sym), t.guardText(rd.guards[common[0]])))
			continue
		}
		for ci, c := range combos {
			parts = append(parts, fmt.Sprintf("the read at %s needs %s, false for a %s in %s", t.h.where(rd.sym), t.guardText(rd.guards[outs[ci][i][0]]), c[1], c[0]))
		}
	}
	return fmt.Sprintf("no read takes %s: %s", objs, strings.Join(parts, "; "))
}

func orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// objectKeys are the bindings whose object the conjuncts ask the start
// region of.
func (t *pickTrace) objectKeys(conj []syntax.Node, inits map[string]syntax.Node) []string {
	h := t.h
	var keys []string
	for _, c := range conj {
		e := &regionEval{h: h, inits: inits}
		e.leaf = func(l *syntax.List, env map[string][]rval) ([]rval, bool) {
			if (forms.Head(l) == h.sig.InitialRegionQuery || forms.Head(l) == h.sig.RegionQuery) && len(l.Elems) == 2 {
				if s, ok := l.Elems[1].(*syntax.Symbol); ok {
					if k, met := h.a.symKey[s]; met && k != "" && k != conflictKey && !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
			return nil, false
		}
		e.eval(c, nil, 0)
	}
	return keys
}

// decide reports whether no start region, type and membership of its
// name in the lists the conjuncts test lets every conjunct hold for the
// object bound at key, and why.
func (t *pickTrace) decide(conj []syntax.Node, key string, inits map[string]syntax.Node, mayPick func(r, ty string) ([][]int, bool)) (string, bool, bool) {
	h := t.h
	sig := h.sig
	if key == "" || h.a.assignedKeys[key] {
		return "", false, false
	}
	regions := sig.Regions
	var notes []string
	if r, ok := t.startRegion(key); ok {
		regions = []string{r}
		notes = append(notes, fmt.Sprintf("the object is one of (%s '%s), which started in %s", sig.StartQuery, r, r))
	}
	lists := t.memberLists(conj, key)
	if len(lists) > 3 {
		lists = lists[:3]
	}
	named := map[string]string{}
	for _, s := range lists {
		if why, ok := t.picksNamed(s); ok {
			named[s] = why
		}
	}
	type sub struct{ a, b, why string }
	var subs []sub
	for _, a := range lists {
		for _, b := range lists {
			if why, ok := t.subsetOf(a, b); ok {
				subs = append(subs, sub{a, b, why})
			}
		}
	}
	var combos [][2]string
	var outs [][][]int
	used := map[string]bool{}
	stays := false
	for _, r := range regions {
		for _, ty := range sig.Types {
			for mask := 0; mask < 1<<len(lists); mask++ {
				in := map[string]bool{}
				for i, s := range lists {
					in[s] = mask&(1<<i) != 0
				}
				if !t.holds(conj, key, r, ty, inits, false, in) {
					continue // the conjuncts alone rule it out
				}
				broken := ""
				for _, sb := range subs {
					if in[sb.a] && !in[sb.b] {
						broken = sb.why
					}
				}
				if broken != "" {
					used[broken] = true
					continue
				}
				notNamed := ""
				for _, s := range lists {
					if why, ok := named[s]; ok && !in[s] {
						notNamed = why
					}
				}
				o, picked := mayPick(r, ty)
				if picked && notNamed == "" || t.holds(conj, key, r, ty, inits, true, in) {
					return "", false, false
				}
				stays = true
				if notNamed != "" {
					used[notNamed] = true
				} else {
					combos, outs = append(combos, [2]string{r, ty}), append(outs, o)
				}
			}
		}
	}
	if len(combos) == 0 && len(used) == 0 {
		return "", false, false // the conjuncts alone, without the rule
	}
	var whys []string
	if len(combos) > 0 {
		whys = append(whys, t.whyUntaken(combos, outs))
	}
	for w := range used {
		whys = append(whys, w)
	}
	sort.Strings(whys[min(1, len(combos)):])
	return strings.Join(append(notes, whys...), "; "), stays, true
}

// holds reports whether every conjunct may hold for the object bound at
// key that starts in region r with type ty, its name in the lists in
// says; stays says it is still there (else where it is now is unknown).
func (t *pickTrace) holds(conj []syntax.Node, key, r, ty string, inits map[string]syntax.Node, stays bool, in map[string]bool) bool {
	h := t.h
	sig := h.sig
	e := &regionEval{h: h, inits: inits}
	e.leaf = func(l *syntax.List, env map[string][]rval) ([]rval, bool) {
		if s, ok := t.memberTest(l, key); ok && env == nil {
			if v, known := in[s]; known {
				if v {
					return []rval{{nonNil: true}}, true
				}
				return []rval{{sym: "nil"}}, true
			}
		}
		head := forms.Head(l)
		if len(l.Elems) != 2 || head != sig.RegionQuery && head != sig.InitialRegionQuery && head != sig.TypeQuery {
			return nil, false
		}
		s, ok := l.Elems[1].(*syntax.Symbol)
		if !ok || env != nil {
			return nil, false
		}
		if k, met := h.a.symKey[s]; !met || k != key {
			return nil, false
		}
		switch {
		case head == sig.TypeQuery:
			return []rval{{sym: ty}}, true
		case head == sig.InitialRegionQuery || stays:
			return []rval{{sym: r}}, true
		}
		return nil, false
	}
	for _, c := range conj {
		vals, ok := e.eval(c, nil, 0)
		if !ok {
			continue
		}
		if mayTrue, _ := truthOf(vals); !mayTrue {
			return false
		}
	}
	return true
}
