package forms

import "github.com/labelcov/labelcov/interp/syntax"

// Slot is the place of one evaluated subexpression inside a form.
type Slot struct {
	// Path indexes from the form down to the subexpression: [i] is
	// form.Elems[i]; [i, j] is form.Elems[i].Elems[j], and so on.
	Path []int
	// Test marks the test of a decision: the test of if, when, unless,
	// while and assert, of each cond clause and of a conditional
	// designator property.
	Test bool
	// Data marks a designator property value that labelcov's VM evaluates
	// but CRAM's a/an macro reads as data (property values other than
	// nested designators; the tests of desig:when are code for both): the
	// compiler and the analyses treat it as an expression, but no pass may
	// rewrite it or inject labels into it, which would change what the
	// designator holds in CRAM.
	Data bool
}

// IsDesignator reports whether n is a designator form (a, an): CRAM
// evaluates one nested as a property value.
func IsDesignator(n syntax.Node) bool {
	f := Lookup(Head(n))
	return f != nil && f.Shape == Designator
}

// At returns the node at path below l, or nil if the path does not exist.
func At(l *syntax.List, path []int) syntax.Node {
	var n syntax.Node = l
	for _, i := range path {
		ll, ok := n.(*syntax.List)
		if !ok || i < 0 || i >= len(ll.Elems) {
			return nil
		}
		n = ll.Elems[i]
	}
	return n
}

// IsDesignatorVar reports whether a bare symbol used as a designator
// property value is evaluated (a ?-variable) rather than a literal symbol.
func IsDesignatorVar(name string) bool { return len(name) > 1 && name[0] == '?' }

// Opaque reports whether no pass may take list l apart: it holds a reader
// conditional (#+feature x, #-feature x) among its elements, so which
// elements exist depends on the feature set the compiler decides with.
// Copying l whole (into a label's predicate, say) is safe; pulling an
// operand out of it (into a temporary, a mutation, a condition of its own)
// is not. Backquotes and other reader macros need no such care: they are
// never lists, so the passes, which look into lists only, leave them as
// written.
func Opaque(l *syntax.List) bool {
	for _, e := range l.Elems {
		if _, ok := e.(*syntax.Conditional); ok {
			return true
		}
	}
	return false
}

// Slots lists the evaluated subexpressions of form l in evaluation order:
// for a special form as its Shape says (binding names, designator keys and
// literal property values, quoted data and case keys are not expressions),
// for a call every argument; nothing for an Opaque list. Malformed forms
// yield the slots that exist; the compiler reports the malformation.
func Slots(l *syntax.List) []Slot {
	n := len(l.Elems)
	if n == 0 || Opaque(l) {
		return nil
	}
	var out []Slot
	add := func(path ...int) { out = append(out, Slot{Path: path}) }
	test := func(path ...int) { out = append(out, Slot{Path: path, Test: true}) }
	// value adds a designator property value: data for CRAM unless it is
	// a nested designator.
	value := func(path ...int) {
		out = append(out, Slot{Path: path, Data: !IsDesignator(At(l, path))})
	}
	from := func(i int) {
		for ; i < n; i++ {
			add(i)
		}
	}
	sub := func(i int) (*syntax.List, bool) {
		if i >= n {
			return nil, false
		}
		s, ok := l.Elems[i].(*syntax.List)
		return s, ok
	}
	f := Lookup(Head(l))
	if f == nil {
		from(1)
		return out
	}
	if f.Params > 0 {
		if ps, ok := sub(f.Params); ok {
			for k, p := range ps.Elems {
				if p, ok := p.(*syntax.List); ok && len(p.Elems) >= 2 {
					add(f.Params, k, 1) // an &optional or &key default
				}
			}
		}
	}
	switch f.Shape {
	case Unevaluated:
		return out
	case Body:
		from(f.From)
	case Test:
		if n > 1 {
			test(1)
		}
		from(f.From)
	case Bindings:
		if bl, ok := sub(1); ok {
			for k, b := range bl.Elems {
				if b, ok := b.(*syntax.List); ok && len(b.Elems) >= 2 {
					add(1, k, 1)
				}
			}
		}
		from(f.From)
	case LoopSpec:
		if spec, ok := sub(1); ok {
			for j := 1; j < len(spec.Elems) && j <= 2; j++ {
				add(1, j)
			}
		}
		from(f.From)
	case Places:
		for i := 1; i+1 < n; i += 2 {
			placeArgs(l.Elems[i], i, add)
			add(i + 1)
		}
	case Place:
		start := min(f.Place, f.From)
		for i := start; i < n; i++ {
			if i == f.Place {
				placeArgs(l.Elems[i], i, add)
			} else if i >= f.From {
				add(i)
			}
		}
	case Clauses:
		if n > 1 {
			add(1)
		}
		for i := 2; i < n; i++ {
			if c, ok := sub(i); ok {
				for j := 1; j < len(c.Elems); j++ {
					add(i, j)
				}
			}
		}
	case Cond:
		for i := 1; i < n; i++ {
			if c, ok := sub(i); ok {
				for j := range c.Elems {
					out = append(out, Slot{Path: []int{i, j}, Test: j == 0})
				}
			}
		}
	case Handlers:
		if cl, ok := sub(1); ok {
			for k, c := range cl.Elems {
				if c, ok := c.(*syntax.List); ok {
					for j := 2; j < len(c.Elems); j++ {
						add(1, k, j)
					}
				}
			}
		}
		from(f.From)
	case CaseHandlers:
		if n > 1 {
			add(1)
		}
		for i := 2; i < n; i++ {
			if c, ok := sub(i); ok {
				for j := 2; j < len(c.Elems); j++ {
					add(i, j)
				}
			}
		}
	case Functions:
		if fl, ok := sub(1); ok {
			for k, d := range fl.Elems {
				if d, ok := d.(*syntax.List); ok {
					for j := 2; j < len(d.Elems); j++ {
						add(1, k, j)
					}
				}
			}
		}
		from(f.From)
	case Designator:
		if n > 1 {
			if _, ok := l.Elems[1].(*syntax.Symbol); !ok {
				return nil
			}
		}
		for i := 2; i < n; i++ {
			p, ok := sub(i)
			if !ok {
				continue
			}
			if Head(p) == "when" {
				if len(p.Elems) > 1 {
					test(i, 1)
				}
				for j := 2; j < len(p.Elems); j++ {
					if q, ok := p.Elems[j].(*syntax.List); ok && propValue(q) {
						value(i, j, 1)
					}
				}
				continue
			}
			if propValue(p) {
				value(i, 1)
			}
		}
	}
	return out
}

// IsDataList reports whether designator property value l can be a
// literal list, as in (gripper (left right)) or (pose ((pose ?p) (frame
// map))): every element a symbol, keyword, number, string or such a list,
// headed by a symbol of no package or by such a list. Whether a symbol
// head names an operator of the plan (then it is a call) is the caller's
// to check.
func IsDataList(l *syntax.List) bool {
	if len(l.Elems) == 0 {
		return false
	}
	switch h := l.Elems[0].(type) {
	case *syntax.Symbol:
		if h.Pkg != "" {
			return false
		}
	case *syntax.List:
	default:
		return false
	}
	for _, e := range l.Elems {
		switch e := e.(type) {
		case *syntax.Symbol, *syntax.Keyword, *syntax.Int, *syntax.Float, *syntax.String:
		case *syntax.List:
			if !IsDataList(e) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// propValue reports whether the designator property (KEY VALUE) has an
// evaluated value: anything but a literal symbol such as left in (arm left).
func propValue(p *syntax.List) bool {
	if len(p.Elems) != 2 {
		return false
	}
	s, ok := p.Elems[1].(*syntax.Symbol)
	return !ok || IsDesignatorVar(s.Name)
}

// placeArgs adds the evaluated arguments of a place form (car x), found at
// element i: the place itself is not an expression; a variable has none.
func placeArgs(place syntax.Node, i int, add func(...int)) {
	if p, ok := place.(*syntax.List); ok {
		for j := 1; j < len(p.Elems); j++ {
			add(i, j)
		}
	}
}
