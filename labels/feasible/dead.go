package feasible

import (
	"fmt"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Dead functions. A defun is called only where its name appears: a call,
// #'f, 'f (funcall, apply, a :key), or a symbol a function value computed
// at run time names, which the plan cannot do when it calls no such value
// (dynamicCalls). So a defun that no form the plan may run names — the
// def-plans, checks, policies and top-level forms, and the functions
// their code names, transitively — never runs, and every label in it is
// infeasible.

// deadDefuns maps each top-level defun no run reaches to its name; nil
// when the plan calls function values computed at run time.
func (a *valueAnalysis) deadDefuns() map[syntax.Node]string {
	if a.dynamicCalls() {
		return nil
	}
	defs := map[string][]syntax.Node{}
	var roots []syntax.Node
	for _, f := range a.res.Forms {
		if l, ok := f.(*syntax.List); ok && (forms.Head(l) == "defun" || forms.Head(l) == "def-cram-function") && len(l.Elems) > 2 {
			if s, ok := l.Elems[1].(*syntax.Symbol); ok {
				defs[forms.Name(s)] = append(defs[forms.Name(s)], f)
				continue
			}
		}
		roots = append(roots, f)
	}
	live := map[string]bool{}
	for len(roots) > 0 {
		r := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		syntax.Walk(r, func(n syntax.Node) bool {
			if s, ok := n.(*syntax.Symbol); ok {
				for _, name := range []string{forms.Name(s), s.Name} {
					if !live[name] && defs[name] != nil {
						live[name] = true
						for _, d := range defs[name] {
							// the body, not the name being defined
							roots = append(roots, &syntax.List{Elems: d.(*syntax.List).Elems[2:]})
						}
					}
				}
			}
			return true
		})
	}
	out := map[syntax.Node]string{}
	for name, ds := range defs {
		if !live[name] {
			for _, d := range ds {
				out[d] = name
			}
		}
	}
	return out
}

// deadVerdicts marks the active labels of ls inside a dead defun
// infeasible.
func deadVerdicts(top []syntax.Node, dead map[syntax.Node]string, ls []*pathLabel) {
	if len(dead) == 0 {
		return
	}
	in := map[syntax.Node]string{}
	for _, f := range top {
		name, ok := dead[f]
		if !ok {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			in[n] = name
			return true
		})
	}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		if name, ok := in[pl.l.Point]; ok {
			pl.l.Status = labels.Infeasible
			pl.l.Reason = fmt.Sprintf("never runs: no form the plan runs names %s (a call, #'%s or '%s), transitively, and no call goes through a function value computed at run time", name, name, name)
		}
	}
}
