package feasible

import (
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// The run of pickstand.go: a function DEL from its start, its parameter
// any non-empty list of given elements, over the sets of states its local
// variables take, to see whether a call is reached. Forms that neither
// hold the call nor assign a variable it follows leave the states as
// they are (a failure they signal only keeps the call from being
// reached); a test it cannot decide goes both ways; a value it cannot
// compute, a form holding the call it does not model, or too many states
// give no answer.

// maxPickStates bounds the states of one run.
const maxPickStates = 512

type pickRun struct {
	e      *elemAnalysis
	param  string
	elems  []*cval
	target syntax.Node
	hit    bool
	fail   bool
	loops  int // dolists around the form being run
}

type penv map[string]*cval

func (s penv) key() string {
	var ks []string
	for k, v := range s {
		ks = append(ks, k+"="+cString(v))
	}
	sort.Strings(ks)
	return strings.Join(ks, "\x00")
}

func (s penv) with(name string, v *cval) penv {
	out := make(penv, len(s)+1)
	for k, x := range s {
		out[k] = x
	}
	out[name] = v
	return out
}

func uniq(xs []penv) []penv {
	seen := map[string]bool{}
	var out []penv
	for _, x := range xs {
		if k := x.key(); !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	return out
}

// reaches runs del's body with its parameter param any non-empty list of
// (list H OBJ), H not nil, OBJ one of objs: whether target is reached
// (ok false: no answer).
func (p *pickStand) reaches(del *syntax.List, param string, objs []*cval, target syntax.Node) (reached, ok bool) {
	e := p.elems()
	if e == nil {
		return false, false
	}
	r := &pickRun{e: e, param: param, target: target}
	for _, o := range objs {
		r.elems = append(r.elems, cListOf([]*cval{cNonNil, o}))
	}
	e.ch = nil
	r.stmts(del.Elems[3:], []penv{{}})
	if r.fail {
		return false, false
	}
	return r.hit, true
}

func (r *pickRun) holds(x syntax.Node) bool {
	found := false
	syntax.Walk(x, func(y syntax.Node) bool {
		found = found || y == r.target
		return !found
	})
	return found
}

// touches reports whether x may assign a variable the states follow.
func (r *pickRun) touches(x syntax.Node, in []penv) bool {
	for _, s := range in {
		for k := range s {
			if mayAssignIn([]syntax.Node{x}, k) {
				return true
			}
		}
		break
	}
	return false
}

func (r *pickRun) stmts(xs []syntax.Node, in []penv) []penv {
	for _, x := range xs {
		if r.fail || len(in) == 0 {
			return nil
		}
		in = r.stmt(x, in)
	}
	return in
}

func (r *pickRun) eval(x syntax.Node, s penv) (*cval, bool) {
	if r.holds(x) {
		r.fail = true
		return nil, false
	}
	v, err := r.e.ceval(x, s, 0)
	if err != nil {
		r.fail = true
		return nil, false
	}
	return v, true
}

// split evaluates test in every state: those where it may be true,
// false (both when it cannot tell: reading the arm known only not to be
// nil, say; neither runs when it signals, so both is more than may
// happen).
func (r *pickRun) split(test syntax.Node, in []penv) (yes, no []penv) {
	if r.holds(test) || r.touches(test, in) {
		r.fail = true
		return nil, nil
	}
	for _, s := range in {
		v, err := r.e.ceval(test, s, 0)
		switch {
		case err != nil:
			yes, no = append(yes, s), append(no, s)
		case v.truthy():
			yes = append(yes, s)
		default:
			no = append(no, s)
		}
	}
	return yes, no
}

func (r *pickRun) stmt(x syntax.Node, in []penv) []penv {
	if x == r.target {
		r.hit = true
		return in
	}
	if !r.holds(x) && !r.touches(x, in) {
		return in
	}
	l := asList(x)
	if l == nil || len(l.Elems) == 0 {
		r.fail = true
		return nil
	}
	if _, ok := l.Elems[0].(*syntax.Symbol); !ok {
		r.fail = true
		return nil
	}
	head := forms.Head(l)
	if r.e.h.defs[head] != nil || r.e.h.local[head] {
		// A plan function cannot assign the caller's locals: only its
		// arguments matter.
		for _, a := range l.Elems[1:] {
			if r.holds(a) || r.touches(a, in) {
				r.fail = true
				return nil
			}
		}
		return in
	}
	switch head {
	case "progn":
		return r.stmts(l.Elems[1:], in)
	case "let", "let*":
		bl := asList(argAt(l, 1))
		if bl == nil {
			r.fail = true
			return nil
		}
		var names []string
		cur := in
		for _, b := range bl.Elems {
			bb := asList(b)
			if bb == nil || len(bb.Elems) != 2 {
				r.fail = true
				return nil
			}
			s, ok := bb.Elems[0].(*syntax.Symbol)
			if !ok || r.e.h.a.specials[s.Name] || s.Name == r.param || slices.Contains(names, s.Name) {
				r.fail = true
				return nil
			}
			for _, st := range in {
				if _, shadow := st[s.Name]; shadow {
					r.fail = true
					return nil
				}
				break
			}
			names = append(names, s.Name)
			var next []penv
			for _, st := range cur {
				from := st
				if head == "let" {
					from = stripNames(st, names[:len(names)-1])
				}
				v, ok := r.eval(bb.Elems[1], from)
				if !ok {
					return nil
				}
				next = append(next, st.with(s.Name, v))
			}
			cur = next
		}
		out := r.stmts(l.Elems[2:], cur)
		for i := range out {
			out[i] = stripNames(out[i], names)
		}
		return uniq(out)
	case "if":
		if len(l.Elems) < 3 || len(l.Elems) > 4 {
			r.fail = true
			return nil
		}
		yes, no := r.split(l.Elems[1], in)
		out := r.stmts(l.Elems[2:3], yes)
		out = append(out, r.stmts(l.Elems[3:], no)...)
		return uniq(out)
	case "when", "unless":
		if len(l.Elems) < 2 {
			r.fail = true
			return nil
		}
		yes, no := r.split(l.Elems[1], in)
		if head == "unless" {
			yes, no = no, yes
		}
		return uniq(append(r.stmts(l.Elems[2:], yes), no...))
	case "cond":
		var out []penv
		rest := in
		for _, c := range l.Elems[1:] {
			cl := asList(c)
			if cl == nil || len(cl.Elems) == 0 {
				r.fail = true
				return nil
			}
			yes, no := r.split(cl.Elems[0], rest)
			out = append(out, r.stmts(cl.Elems[1:], yes)...)
			rest = no
		}
		return uniq(append(out, rest...))
	case "setq":
		if len(l.Elems)%2 != 1 {
			r.fail = true
			return nil
		}
		cur := in
		for i := 1; i+1 < len(l.Elems); i += 2 {
			s, ok := l.Elems[i].(*syntax.Symbol)
			if !ok {
				r.fail = true
				return nil
			}
			var next []penv
			for _, st := range cur {
				v, ok := r.eval(l.Elems[i+1], st)
				if !ok {
					return nil
				}
				if _, tracked := st[s.Name]; tracked {
					st = st.with(s.Name, v)
				}
				next = append(next, st)
			}
			cur = next
		}
		return uniq(cur)
	case "incf", "decf":
		s, ok := argAt(l, 1).(*syntax.Symbol)
		if !ok || len(l.Elems) > 3 {
			r.fail = true
			return nil
		}
		var out []penv
		for _, st := range in {
			by := &cval{k: cInt, n: 1}
			if len(l.Elems) == 3 {
				if by, ok = r.eval(l.Elems[2], st); !ok {
					return nil
				}
			}
			old, tracked := st[s.Name]
			if !tracked {
				out = append(out, st)
				continue
			}
			if old.k != cInt || by.k != cInt || old.n > 1<<40 || old.n < -(1<<40) || by.n > 1<<40 || by.n < -(1<<40) {
				r.fail = true
				return nil
			}
			n := old.n + by.n
			if head == "decf" {
				n = old.n - by.n
			}
			out = append(out, st.with(s.Name, &cval{k: cInt, n: n}))
		}
		return uniq(out)
	case "with-failure-handling":
		// Its body runs once when no clause retries; a clause runs after
		// the body failed and ends the form, so the call, in the body, is
		// not reached after it unless a loop around runs the form again
		// (with the states of wherever the body failed: not modelled).
		if len(l.Elems) < 2 || r.loops > 0 || !r.holds(l) || r.holds(l.Elems[1]) || r.touches(l.Elems[1], in) || hasHead(l.Elems[1], "retry") || hasHead(l.Elems[1], "do-retry") {
			r.fail = true
			return nil
		}
		return r.stmts(l.Elems[2:], in)
	case "dolist":
		spec := asList(argAt(l, 1))
		if spec == nil || len(spec.Elems) != 2 || hasHead(l, "return") || hasHead(l, "return-from") {
			r.fail = true
			return nil
		}
		v, ok := spec.Elems[0].(*syntax.Symbol)
		if !ok || !isSym(spec.Elems[1], r.param) || r.e.h.a.specials[v.Name] || v.Name == r.param {
			r.fail = true
			return nil
		}
		for _, st := range in {
			if _, shadow := st[v.Name]; shadow || st[r.param] != nil {
				r.fail = true
				return nil
			}
			break
		}
		// The list is not empty: at least one iteration, each over any
		// element, to a fixpoint.
		var out []penv
		seen := map[string]bool{}
		frontier := in
		for round := 0; len(frontier) > 0; round++ {
			var next []penv
			for _, st := range frontier {
				for _, el := range r.elems {
					r.loops++
					body := r.stmts(l.Elems[2:], []penv{st.with(v.Name, el)})
					r.loops--
					for _, o := range body {
						next = append(next, stripNames(o, []string{v.Name}))
					}
					if r.fail {
						return nil
					}
				}
			}
			frontier = nil
			for _, st := range uniq(next) {
				if k := st.key(); !seen[k] {
					seen[k] = true
					out = append(out, st)
					frontier = append(frontier, st)
				}
			}
			if len(out) > maxPickStates {
				r.fail = true
				return nil
			}
		}
		return out
	}
	r.fail = true
	return nil
}

func stripNames(s penv, names []string) penv {
	out := make(penv, len(s))
	for k, v := range s {
		if !slices.Contains(names, k) {
			out[k] = v
		}
	}
	return out
}
