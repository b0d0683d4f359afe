package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Objects on the floor. The simulator declares (domain.Signals.Floor)
// that no environment starts with an object on the floor and that only
// a placing with a cell among the declared FallCells of its target
// region may leave one there (an edge cell from which the placing's
// drift carries an object off its surface; a placing without a cell
// picks one away from the edges). When every perform of the plan is an
// action written out whose type is known, and every placing either has
// no cell or targets regions whose fall cells its cell's columns and
// rows (as the value analysis bounds them) exclude, no object is ever on
// the floor: a label's conjunct (object-on-floor-p X) never holds. A
// perform of a designator the text does not spell, a call of perform
// through a value, or a cell the analysis cannot bound keeps the labels.

// floorVerdicts marks infeasible the active labels of ls with a conjunct
// (object-on-floor-p X).
func (h *handlerAnalysis) floorVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Floor == "" || sig.Places == "" || h.a == nil || h.defs[sig.Floor] != nil || h.local[sig.Floor] || h.res.IsUserFunc(sig.Floor) {
		return
	}
	var todo []*pathLabel
	for _, pl := range ls {
		if pl.l.Status != labels.Active {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			if h.floorTest(c) {
				todo = append(todo, pl)
				break
			}
		}
	}
	if len(todo) == 0 {
		return
	}
	why, ok := h.noFalls()
	if !ok {
		return
	}
	for _, pl := range todo {
		for _, c := range conjuncts(pl.pred) {
			if h.floorTest(c) {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never true: no object is ever on the floor, %s", h.show(c), why)
				break
			}
		}
	}
}

// conjuncts are the conjuncts of a label's predicate.
func conjuncts(pred syntax.Node) []syntax.Node {
	if forms.Head(pred) == "and" {
		return pred.(*syntax.List).Elems[1:]
	}
	return []syntax.Node{pred}
}

// floorTest reports whether c is a call of the floor query, or a
// normalize temporary that holds one.
func (h *handlerAnalysis) floorTest(c syntax.Node) bool {
	if s, ok := c.(*syntax.Symbol); ok && h.res.IsTemp(s.Name) {
		if o := h.res.Origin(s); o != nil && o != syntax.Node(s) {
			c = o
		}
	}
	l, ok := c.(*syntax.List)
	return ok && len(l.Elems) == 2 && forms.Head(l) == h.sig.Floor
}

// noFalls says why no placing of the plan leaves an object on the floor,
// or false when one may (or the analysis cannot tell).
func (h *handlerAnalysis) noFalls() (string, bool) {
	sig := h.sig
	if h.defs["perform"] != nil || h.local["perform"] || h.res.IsUserFunc("perform") {
		return "", false
	}
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic {
		return "", false
	}
	ok := true
	placings, noCell := 0, 0
	var notes []string
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) || !ok {
			continue
		}
		heads := map[*syntax.Symbol]bool{}
		syntax.Walk(f, func(n syntax.Node) bool {
			if !ok {
				return false
			}
			switch x := n.(type) {
			case *syntax.List:
				if s, isSym := argAt(x, 0).(*syntax.Symbol); isSym {
					heads[s] = true
				}
				if forms.Head(x) != "perform" {
					return true
				}
				typ, props, known := actionDesig(x)
				if !known {
					ok = false // any action, a placing included
					return false
				}
				if typ != sig.Places {
					return true
				}
				placings++
				note, cell, safe := h.placingSafe(x, props)
				if !safe {
					ok = false
					return false
				}
				if !cell {
					noCell++
				} else if note != "" {
					notes = append(notes, note)
				}
			case *syntax.Symbol:
				// perform named anywhere but as a call's head: a call
				// through a value (#'perform, 'perform).
				if x.Name == "perform" && !heads[x] {
					ok = false
				}
			}
			return ok
		})
	}
	if !ok {
		return "", false
	}
	why := fmt.Sprintf("by %s no environment starts with one there and only a placing with a cell at an edge of its region leaves one there", sig.Why)
	switch {
	case placings == 0:
		why += "; the plan performs no placing"
	case len(notes) == 0:
		why += fmt.Sprintf("; the plan's %d placing(s) give no cell", placings)
	default:
		if noCell > 0 {
			why += fmt.Sprintf("; %d of the plan's placings give no cell", noCell)
		}
		why += "; " + strings.Join(notes, "; ")
	}
	return why, true
}

// placingSafe reports whether placing perform l (props) never leaves an
// object on the floor, whether it gives a cell, and what shows it.
func (h *handlerAnalysis) placingSafe(l *syntax.List, props map[string]syntax.Node) (string, bool, bool) {
	sig := h.sig
	var target syntax.Node
	for _, k := range sig.PlaceKeys {
		if v, ok := props[k]; ok {
			target = v
			break
		}
	}
	if target == nil {
		return "", false, true // no target: the placing fails
	}
	if !forms.IsDesignator(target) {
		return "", false, false
	}
	sub, ok := desigProps(target.(*syntax.List))
	if !ok {
		return "", false, false
	}
	cell := sub[sig.PlaceCell]
	if cell == nil {
		return "", false, true
	}
	var region syntax.Node
	for _, k := range sig.PlaceRegionKeys {
		if v, ok := sub[k]; ok {
			region = v
			break
		}
	}
	if region == nil {
		return "", true, true // no region: the placing fails
	}
	rv, rtext, ok := h.propVal(region)
	if !ok || rv.other && !rv.symsKnown() {
		return "", true, false
	}
	var risky []string
	for _, r := range rv.syms {
		if len(sig.FallCells[r]) > 0 {
			risky = append(risky, r)
		}
	}
	if len(risky) == 0 {
		return fmt.Sprintf("%s places on %s (%s), where no cell is at such an edge", h.where(l), rtext, strings.Join(rv.syms, ", ")), true, true
	}
	cv, ctext, ok := h.propVal(cell)
	if !ok {
		return "", true, false
	}
	if !cv.other {
		return "", true, true // a number: no cell, the placing fails
	}
	if cv.unknownCons() {
		return "", true, false
	}
	if !cv.mayCons() {
		return "", true, true // no list: the placing fails
	}
	es := cv.lists.elems
	if len(es) < 2 {
		return "", true, false
	}
	col, row := es[0], es[1]
	if !col.num || !row.num {
		return "", true, true // a column or row that is no number: the placing fails
	}
	if !col.finite() || !row.finite() {
		return "", true, false
	}
	for _, r := range risky {
		if slices.ContainsFunc(sig.FallCells[r], func(c [2]int) bool {
			return float64(c[0]) >= col.lo && float64(c[0]) <= col.hi && float64(c[1]) >= row.lo && float64(c[1]) <= row.hi
		}) {
			return "", true, false
		}
	}
	return fmt.Sprintf("%s places on %s at %s, with %s and %s, where %s has no edge cell",
		h.where(l), strings.Join(rv.syms, ", "), ctext, boundText("column", col), boundText("row", row), strings.Join(risky, ", ")), true, true
}

// boundText says what range v's numbers lie in.
func boundText(what string, v aval) string {
	if v.lo <= minInt && v.hi >= maxInt {
		return "any " + what
	}
	return fmt.Sprintf("the %s in [%g, %g]", what, v.lo, v.hi)
}
