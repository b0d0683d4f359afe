package solve

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Analysis is the symbolic execution of one run of an annotated plan over
// its integer arguments: for each active label, the paths that reach its
// point and the conditions under which its predicate holds there.
type Analysis struct {
	// Params are the def-plan's parameters, in order: the SMT constants
	// arg0, arg1, ... stand for them.
	Params []string
	// Unmodelled lists what the run met outside label predicates that the
	// translation does not model (sorted); GaveUp why it stopped early
	// ("" when it ran to the end). Either makes every label that is not
	// solved unresolved rather than infeasible.
	Unmodelled []string
	GaveUp     string
	labels     map[int]*labels.Label
	goals      map[int]*goal
}

// reach is one path reaching a label's point: its condition and, per
// way the predicate can hold there, the extra conditions.
type reach struct {
	pc    []cond
	preds [][]cond
}

// features are the reader features the compiler decides #+/#- by
// (compile.Features).
var features = map[string]bool{"labelcov": true, "common-lisp": true, "ansi-cl": true, "sbcl": true, "ros": true}

// Analyze runs plan (its def-plan named plan; "" for main or the only one)
// of the annotated file f symbolically, with active its active labels
// (their Annotated positions locate their points in f). It never fails on
// a construct it does not model: it notes it (Analysis.Unmodelled).
func Analyze(f *syntax.File, active []*labels.Label, plan string) (*Analysis, error) {
	m := &machine{funcs: map[string]*syntax.List{}, goals: map[int][]int{}, byLabel: map[int]*goal{}, unmodelled: map[string]bool{}}
	a := &Analysis{labels: map[int]*labels.Label{}, goals: m.byLabel}
	for _, l := range active {
		if l.Annotated == nil {
			continue
		}
		m.goals[l.Annotated.Offset] = append(m.goals[l.Annotated.Offset], l.ID)
		m.byLabel[l.ID] = &goal{unmodelled: map[string]bool{}}
		a.labels[l.ID] = l
	}
	fi := forms.ScanFile(f)
	var plans, checks []*syntax.List
	var top []syntax.Node
	for _, n := range f.Forms {
		if c, ok := n.(*syntax.Conditional); ok {
			holds, err := forms.FeatureHolds(c.Feature, func(s string) bool { return features[s] })
			if err != nil || holds != c.Plus {
				continue
			}
			n = c.X
		}
		if _, skip := fi.Skip(n); skip {
			if h := forms.Head(n); h != "declaim" && h != "in-package" && h != "defpackage" {
				m.unmodelled["top-level "+h] = true
			}
			continue
		}
		l, _ := n.(*syntax.List)
		switch h := forms.Head(n); h {
		case "defun", "def-plan", "def-check":
			if len(l.Elems) < 3 {
				return nil, fmt.Errorf("solve: malformed %s", h)
			}
			name, ok := l.Elems[1].(*syntax.Symbol)
			ps, ok2 := l.Elems[2].(*syntax.List)
			if !ok || !ok2 && !syntax.IsSymbol(l.Elems[2], "nil") {
				return nil, fmt.Errorf("solve: malformed %s", h)
			}
			if ps == nil {
				ps = &syntax.List{}
				l = &syntax.List{Open: l.Open, Close: l.Close, Elems: append([]syntax.Node{l.Elems[0], l.Elems[1], ps}, l.Elems[3:]...)}
			}
			for _, p := range ps.Elems {
				if s, ok := p.(*syntax.Symbol); !ok || strings.HasPrefix(s.Name, "&") {
					m.unmodelled["a lambda list with "+syntax.NodeString(p)] = true
					return a.finish(m), nil
				}
			}
			switch h {
			case "defun":
				m.funcs[name.Name] = l
			case "def-plan":
				if plan == "" && name.Name == "main" || plan == name.Name {
					plans = append([]*syntax.List{l}, plans...)
				} else if plan == "" {
					plans = append(plans, l)
				}
			default:
				checks = append(checks, l)
			}
		case "declaim", "in-package", "defpackage":
		default:
			top = append(top, n)
		}
	}
	if len(plans) == 0 {
		return nil, errors.New("solve: no def-plan to run")
	}
	if plan == "" && len(plans) > 1 && forms.Head(plans[0]) == "def-plan" && plans[0].Elems[1].(*syntax.Symbol).Name != "main" {
		return nil, errors.New("solve: several def-plans and none is main: name one")
	}
	p := plans[0]
	// Top-level forms: defparameter and friends; a failure ends the run.
	frontier := []*state{{}}
	for _, n := range top {
		var next []*state
		for _, st := range frontier {
			for _, o := range m.toplevel(n, st) {
				if !o.err {
					next = append(next, o.st)
				}
			}
		}
		frontier = next
		if m.stopped() {
			return a.finish(m), nil
		}
	}
	var ends []*state
	for _, st := range frontier {
		s := st.clone()
		for i, x := range p.Elems[2].(*syntax.List).Elems {
			name := x.(*syntax.Symbol).Name
			if len(a.Params) < len(p.Elems[2].(*syntax.List).Elems) {
				a.Params = append(a.Params, name)
			}
			s.loc = append(s.loc, bind{name, vTerm(fmt.Sprintf("arg%d", i))})
		}
		s.base = 0
		for _, o := range m.seq(p.Elems[3:], s) {
			e := o.st.clone()
			e.loc, e.base = nil, 0
			ends = append(ends, e)
		}
		if m.stopped() {
			return a.finish(m), nil
		}
	}
	// The checks, in order, each on every state a run may end in; a
	// check that sets no global leaves the states as they were.
	for _, c := range checks {
		w := m.writes
		var outs []*state
		for _, st := range ends {
			for _, o := range m.seq(c.Elems[3:], st) {
				e := o.st.clone()
				e.loc, e.base = nil, 0
				outs = append(outs, e)
			}
			if m.stopped() {
				return a.finish(m), nil
			}
		}
		if m.writes > w {
			ends = outs
			if len(ends) > maxPaths {
				m.giveUp("too many paths")
				return a.finish(m), nil
			}
		}
	}
	return a.finish(m), nil
}

func (a *Analysis) finish(m *machine) *Analysis {
	for u := range m.unmodelled {
		a.Unmodelled = append(a.Unmodelled, u)
	}
	sort.Strings(a.Unmodelled)
	a.GaveUp = m.gaveUp
	return a
}

// toplevel evaluates one top-level form.
func (m *machine) toplevel(n syntax.Node, st *state) []out {
	l, ok := n.(*syntax.List)
	h := forms.Head(n)
	switch {
	case ok && (h == "defparameter" || h == "defvar" || h == "defconstant") && len(l.Elems) >= 2:
		name, ok := l.Elems[1].(*syntax.Symbol)
		if !ok {
			m.un("a malformed " + h)
			return []out{{st: st, v: vNil}}
		}
		if len(l.Elems) < 3 {
			return []out{{st: st, v: vNil}} // unbound
		}
		if _, bound := st.global(name.Name); bound && h == "defvar" {
			return []out{{st: st, v: vNil}}
		}
		var outs []out
		for _, o := range m.eval(l.Elems[2], st) {
			if !o.err {
				o.st = o.st.setGlobal(name.Name, o.v)
			}
			outs = append(outs, o)
		}
		return outs
	}
	return m.eval(n, st)
}

// Labels lists the ids of the labels the analysis knows, in order.
func (a *Analysis) Labels() []int {
	var ids []int
	for id := range a.goals {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// Complete reports whether the analysis saw every path of the run with
// nothing unmodelled outside label predicates: then an unsatisfiable
// reach condition proves a label infeasible.
func (a *Analysis) Complete() bool { return a.GaveUp == "" && len(a.Unmodelled) == 0 }

// Exact reports whether label id's reach condition is exact: the run is
// complete and its predicate is modelled wherever it is reached.
func (a *Analysis) Exact(id int) bool {
	g := a.goals[id]
	return g != nil && a.Complete() && len(g.unmodelled) == 0
}

// whyNotExact says what keeps label id's reach condition from being exact.
func (a *Analysis) whyNotExact(id int) string {
	var why []string
	if a.GaveUp != "" {
		why = append(why, "the symbolic run stopped early ("+a.GaveUp+")")
	}
	for _, u := range a.Unmodelled {
		why = append(why, u+" not modelled")
	}
	if g := a.goals[id]; g != nil {
		var us []string
		for u := range g.unmodelled {
			us = append(us, u)
		}
		sort.Strings(us)
		for _, u := range us {
			why = append(why, u+" not modelled (in its predicate)")
		}
	}
	return strings.Join(why, "; ")
}
