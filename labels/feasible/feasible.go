package feasible

import (
	"fmt"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Options say what the analyses know and which of them run.
type Options struct {
	// Domains maps functions the plan calls (the simulator's queries) to
	// what is known of their results (numbers, symbols, failing on nil);
	// labels that cannot hold within them are infeasible. The caller that knows the world fills
	// it (sim.LabelDomains); nil knows nothing.
	Domains map[string]domain.Domain
	// NoValues turns the value and path analyses off: no label is
	// infeasible or trivial for the ranges of the plan's own arithmetic
	// or of Domains (docs/labels.md), only for constant predicates,
	// contradictory bounds of a conjunction and short-circuits.
	NoValues bool
	// Entry names the def-plan the harness runs (the runner: the plan,
	// then its checks, with its policies): the labels of a function no
	// code that may run names are infeasible (entry.go). "" when any
	// function may be called (annotate for SBCL, labels).
	Entry string
	// Signals is what the simulator declares of the failures its actions
	// and queries may signal (sim.LabelSignals): the labels of a failure
	// handler nothing its body reaches may enter are infeasible
	// (handlers.go). nil knows nothing.
	Signals *domain.Signals
}

// Enumerate lists the labels of a normalized plan (labels.Enumerate) and
// prunes them with the analyses as they are listed: the one place that
// composes enumeration and pruning.
func Enumerate(res *normalize.Result, lo labels.Options, o Options) (*labels.Set, error) {
	lo.Judge = o.judge
	return labels.Enumerate(res, lo)
}

// judge is the labels.Judge of one plan.
type judge struct {
	res   *normalize.Result
	dom   *domains
	off   bool
	entry string
	sig   *domain.Signals
	paths []*pathLabel
	reach []reachFact // noreturn.go
}

func (o Options) judge(res *normalize.Result, show func(syntax.Node) string) labels.Judge {
	d := newDomains(res, o.Domains, o.NoValues)
	d.show = show
	j := &judge{res: res, dom: d, off: o.NoValues, entry: o.Entry, sig: o.Signals}
	if !o.NoValues {
		j.reach = reachFacts(res)
	}
	return j
}

// Predicate decides a label from the ranges of its operands. On a dist
// rung (and (< D K) REST...) only the ranges' verdict on (< D K) reads
// the bound K (neverTrue, unreachedBy, the symbols' verdicts and REST
// read D and the operands alone), and that verdict is monotone: never
// when every value of D is at least K, always when every one is below
// it. So a ladder whose closest and farthest rungs are active has every
// rung active, as labels.Judge asks (TestLadderSameVerdicts).
func (j *judge) Predicate(p syntax.Node) (labels.Status, string) {
	if why, ok := neverTrue(j.res, j.dom.show, p); ok && !j.off {
		return labels.Infeasible, why
	}
	if why, ok := unreachedBy(j.reach, j.dom.show, literals(j.res, p)); ok {
		return labels.Infeasible, why
	}
	switch verdict, why := j.dom.decide(p); verdict {
	case "never":
		return labels.Infeasible, why
	case "always":
		return labels.Trivial, why
	}
	return labels.Active, ""
}

// Combination decides an MCC label from the bounds its atoms put on the
// same variable.
func (j *judge) Combination(lits []labels.Literal) (labels.Status, string) {
	if why, ok := infeasibleConj(lits); ok {
		return labels.Infeasible, why
	}
	if why, ok := unreachedBy(j.reach, j.dom.show, lits); ok {
		return labels.Infeasible, why
	}
	if why, ok := j.dom.linearConj(lits); ok {
		return labels.Infeasible, why
	}
	for _, l := range lits {
		// The combination is true only once every atom has returned (a
		// temporary holding an atom that never returns may still be nil).
		if !j.off && (l.Value && neverNonNil(j.res, l.Atom) || neverReturns(j.res, l.Atom)) {
			return labels.Infeasible, fmt.Sprintf("%s is never true: (fail ...) signals a failure, it never returns", j.dom.show(l.Atom))
		}
	}
	return labels.Active, ""
}

// Listed keeps the label for the path analysis.
func (j *judge) Listed(l *labels.Label, p syntax.Node) {
	if !j.off {
		j.paths = append(j.paths, &pathLabel{l: l, pred: p})
	}
}

// Done runs the path analysis over the labels still active.
func (j *judge) Done() {
	if !j.off {
		entryVerdicts(j.res, j.entry, j.paths)
		handlerVerdicts(j.res, j.dom.a, j.sig, j.dom.show, j.paths)
		pathVerdicts(j.res, j.paths)
		sortedVerdicts(j.res, j.dom.a, j.dom.show, j.entry, j.paths)
		sortedCellVerdicts(j.res, j.dom.a, j.sig, j.dom.show, j.entry, j.paths)
		elemVerdicts(j.res, j.dom.a, j.sig, j.dom.show, j.entry, j.paths)
		retryCountVerdicts(j.res, j.dom.a, j.dom.show, j.entry, j.paths)
		pickStandVerdicts(j.res, j.dom.a, j.sig, j.dom.show, j.entry, j.paths)
		g := newGuardAnalysis(j.res, j.dom.a)
		lb := g.loopBounds()
		for _, pl := range j.paths {
			if pl.l.Status != labels.Active {
				continue
			}
			if why, ok := g.verdict(pl.l, pl.pred); ok {
				pl.l.Status, pl.l.Reason = labels.Infeasible, why
			} else if why, ok := g.loopVerdict(lb, pl.l, pl.pred); ok {
				pl.l.Status, pl.l.Reason = labels.Infeasible, why
			} else if why, ok := g.clauseVerdict(j.dom, pl.l, pl.pred); ok {
				pl.l.Status, pl.l.Reason = labels.Infeasible, why
			}
		}
	}
}

func sym(name string) *syntax.Symbol { return &syntax.Symbol{Name: name} }
