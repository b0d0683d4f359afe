package transform

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/labels/srcpos"
	"github.com/labelcov/labelcov/normalize"
)

// Options configure Plan.
type Options struct {
	Labels labels.Options
	// Feasible says what the analyses that prune labels know (the
	// world's domains) and whether they run.
	Feasible  feasible.Options
	Normalize normalize.Options
	// KeepCalls leaves calls of pure user functions and externals in the
	// label sites, where every label re-evaluates them. By default Plan
	// normalizes with normalize.Options.HoistCalls: a labelled site that
	// calls a function evaluates each call once, into a temporary, and its
	// labels read the temporaries.
	KeepCalls bool
	// TextOnly leaves Result.File and Result.Whens nil: for a caller that
	// writes the annotated text and compiles nothing (building the tree
	// costs about what a parse of the text does).
	TextOnly bool
}

// Result is an annotated plan.
type Result struct {
	// Source is the annotated plan text.
	Source []byte
	// File is Source's tree, built while Source was written: the tree
	// syntax.Parse reads from Source (positions, comments and all),
	// without parsing it (nil with Options.TextOnly).
	File *syntax.File
	// Whens maps each active label's id to its injected (when ...) node
	// in File (labels of one point with the same predicate share one;
	// nil with Options.TextOnly).
	Whens map[int]*syntax.List
	// Normalized is the normalized plan the labels were enumerated on.
	Normalized *normalize.Result
	// Labels holds every label; active ones have Annotated set.
	Labels *labels.Set
	// Positions maps positions in Source to the original plan's text:
	// where a failure of the annotated plan happened in the plan as
	// written (see normalize.Result.RenderMapped).
	Positions *srcpos.Map
}

// Manifest returns the label manifest of the annotated plan, naming the
// annotated file out ("" when it is not written to a file).
func (r *Result) Manifest(out string) *labels.Manifest {
	m := r.Labels.Manifest()
	m.Annotated = out
	m.SHA256 = labels.Digest(r.Normalized.Orig.Src)
	m.AnnotatedSHA256 = labels.Digest(r.Source)
	return m
}

// marker matches the comment transform writes after each injected label.
var marker = regexp.MustCompile(`^;+ *label [0-9]+ (mcc|cc|wm-abs|wm-aor|wm-cor|wm-ror|dist|mcdc)\b`)

// CheckNotAnnotated refuses a plan that already carries injected labels
// or normalize's temporaries: labelling it again would label the labels.
// It knows the label comments and any top-level form that names
// forms.TempsHead, whatever form the declaration takes (a declaim, or a
// declaration wrapped so that other Lisps accept it).
func CheckNotAnnotated(f *syntax.File) error {
	for _, c := range f.Comments {
		if !c.Block && marker.MatchString(c.Text) {
			return syntax.Errorf(f.Name, f.Src, c.Start,
				"plan is already annotated by labelcov (found %q); annotate the original plan instead", c.Text)
		}
	}
	if !bytes.Contains(f.Src, []byte(forms.TempsHead)) {
		return nil
	}
	for _, form := range f.Forms {
		var at syntax.Node
		syntax.Walk(form, func(n syntax.Node) bool {
			if s, ok := n.(*syntax.Symbol); ok && strings.EqualFold(s.Name, forms.TempsHead) && at == nil {
				at = form
			}
			return at == nil
		})
		if at != nil {
			return f.NodeErrorf(at, "plan is already annotated by labelcov (it declares %s, as normalize writes them); use the original plan instead", forms.TempsHead)
		}
	}
	return nil
}

// Plan normalizes f, enumerates its labels and injects the active ones.
func Plan(f *syntax.File, opts Options) (*Result, error) {
	if err := CheckNotAnnotated(f); err != nil {
		return nil, err
	}
	nopts := opts.Normalize
	if !opts.KeepCalls {
		nopts.HoistCalls = true
	}
	nr, err := normalize.Plan(f, nopts)
	if err != nil {
		return nil, fmt.Errorf("annotate %s: %w", f.Name, err)
	}
	set, err := feasible.Enumerate(nr, opts.Labels, opts.Feasible)
	if err != nil {
		return nil, fmt.Errorf("annotate %s: %w", f.Name, err)
	}
	nr.DeclareGlobals(set.Globals)
	a, err := annotateMapped(nr, set, !opts.TextOnly)
	if err != nil {
		return nil, err
	}
	return &Result{Source: a.src, File: a.file, Whens: a.whens, Normalized: nr, Labels: set, Positions: a.pos}, nil
}

// Enumerate lists the labels of f without injecting them (labelcov
// labels): it refuses an annotated plan as Plan does, normalizes f with
// opts.Normalize as given and enumerates. Unlike Plan it never hoists
// calls (KeepCalls is implied), so each predicate reads the plan's own
// expressions.
func Enumerate(f *syntax.File, opts Options) (*labels.Set, error) {
	if err := CheckNotAnnotated(f); err != nil {
		return nil, err
	}
	nr, err := normalize.Plan(f, opts.Normalize)
	if err != nil {
		return nil, err
	}
	return feasible.Enumerate(nr, opts.Labels, opts.Feasible)
}

// Annotate renders the normalized plan with each active label of set
// injected, and records in each label the position of its (when ...).
//
// Placement: the labels of one point P (a decision's test, a mutated
// expression, a variable) become
//
//	(progn (when (ignore-errors PRED)) ; label N KEY OPERATOR
//	       ...
//	       P)
//
// so they run exactly when P is evaluated, once per evaluation, before P
// and after any effects normalize hoisted ahead of P. Every predicate is
// wrapped in ignore-errors, also one that cannot fail: the compiler makes
// each such when, whose value the progn discards, a label probe
// (compile.PROBE), whose instructions and allocations are charged to the
// VM's label budget and not to the plan's, so the annotated plan takes
// exactly the steps of the normalized plan. MCC and CC labels sit
// at the whole decision test, so short-circuiting inside the decision does
// not guard them.
func Annotate(nr *normalize.Result, set *labels.Set) ([]byte, error) {
	a, err := annotateMapped(nr, set, false)
	if err != nil {
		return nil, err
	}
	return a.src, nil
}

// annotated is what annotateMapped makes.
type annotated struct {
	src   []byte
	file  *syntax.File
	whens map[int]*syntax.List
	pos   *srcpos.Map
}

// annotateMapped is Annotate that also maps the text's positions to the
// original plan's and, with tree, builds the annotated text's tree, with
// each active label's when.
func annotateMapped(nr *normalize.Result, set *labels.Set, tree bool) (*annotated, error) {
	inj := &injector{byPoint: map[syntax.Node][]*labels.Label{}}
	for _, l := range set.Active() {
		if l.Point == nil {
			return nil, fmt.Errorf("annotate: label %d has no point in the plan tree", l.ID)
		}
		inj.byPoint[l.Point] = append(inj.byPoint[l.Point], l)
	}
	if err := inj.limitDepth(nr, set); err != nil {
		return nil, err
	}
	if tree {
		inj.whens = make(map[int]*syntax.List, len(set.Labels))
	}
	src, file, pos, err := nr.RenderMapped(inj, tree)
	if err != nil {
		return nil, fmt.Errorf("annotate: building the annotated plan (a bug): %w", err)
	}
	// One pass over the text, counting lines up to each when in turn
	// (Wrap records them in output order; the sort only makes sure).
	sort.SliceStable(inj.at, func(i, j int) bool { return inj.at[i].off < inj.at[j].off })
	line, bol, i := 1, 0, 0
	for _, p := range inj.at {
		for ; i < p.off; i++ {
			if src[i] == '\n' {
				line, bol = line+1, i+1
			}
		}
		p.l.Annotated = &labels.Position{Line: line, Col: p.off - bol + 1, Offset: p.off}
	}
	return &annotated{src: src, file: file, whens: inj.whens, pos: pos}, nil
}

// maxAlign is the widest column whens are aligned to; maxIndent the
// deepest indentation of an injected line. Without the cap, nested
// wrappers (a chain of sites flattened into one let*) would each indent
// further than the last, and the annotated text would grow quadratically.
const (
	maxAlign  = 48
	maxIndent = 64
)

type injector struct {
	byPoint map[syntax.Node][]*labels.Label
	// at lists the offset of each injected label's when, in output order.
	at []placed
	// whens maps each injected label's id to its when node.
	whens map[int]*syntax.List
	cmt   strings.Builder // the label comment being written
}

// placed is a label and the offset of its when in the annotated text.
type placed struct {
	l   *labels.Label
	off int
}

func (in *injector) Wraps(n syntax.Node) bool { return len(in.byPoint[n]) > 0 }

func (in *injector) Wrap(out *syntax.TreeWriter, n syntax.Node, body func()) {
	// Align the whens under each other while that stays readable; deep in
	// a line, indent from the line's own indentation instead, which keeps
	// the annotated text from growing quadratically with nesting.
	b := out.Bytes()
	bol := bytes.LastIndexByte(b, '\n') + 1
	col := len(b) - bol
	width := col + len("(progn ")
	if width > maxAlign {
		width = 4
		for bol+width-4 < len(b) && b[bol+width-4] == ' ' && width < maxIndent {
			width++
		}
	}
	indent := strings.Repeat(" ", width)
	out.Open()
	out.Symbol("progn")
	out.Blank(" ")
	ls := in.byPoint[n]
	done := make([]bool, len(ls))
	first := true
	if sh := sharedOf(ls); sh != nil {
		// The atoms the MCC labels below read, evaluated once.
		var b strings.Builder
		b.WriteString("(when (ignore-errors (progn (setq ")
		b.WriteString(sh.Flag)
		b.WriteString(" nil)")
		for i, a := range sh.Atoms {
			if a == nil {
				continue // a variable, read as it is
			}
			b.WriteString(" (setq ")
			b.WriteString(sh.Globals[i])
			b.WriteByte(' ')
			b.WriteString(syntax.NodeString(a))
			b.WriteByte(')')
		}
		b.WriteString(" (setq ")
		b.WriteString(sh.Flag)
		b.WriteString(" t) nil))) ; atoms of the mcc labels below\n")
		out.Text(b.String())
		first = false
	}
	for i, l := range ls {
		if done[i] {
			continue
		}
		if !first {
			out.Blank(indent)
		}
		first = false
		// Labels of other criteria with the same predicate at this point
		// (CC c and MCC T of a one-atom decision) share one when: same
		// coverage, half the cost.
		// Every label is (when (ignore-errors PRED)), also when PRED
		// cannot fail: the compiler turns that shape into a probe, whose
		// instructions are not charged to the plan's step budget.
		at := out.Len()
		// The predicate, rendered once by labels, is read here alone.
		out.Open()
		out.Symbol("when")
		out.Blank(" ")
		out.Open()
		out.Symbol("ignore-errors")
		out.Blank(" ")
		out.Text(l.Predicate)
		out.Close()
		w := out.Close() // nil without a tree
		c := &in.cmt
		c.Reset()
		for j := i; j < len(ls); j++ {
			if done[j] || ls[j].Predicate != l.Predicate {
				continue
			}
			done[j] = true
			in.at = append(in.at, placed{ls[j], at})
			if w != nil {
				in.whens[ls[j].ID] = w // nil without a tree: no when read
			}
			if j != i {
				c.WriteByte(' ')
			}
			c.WriteString("; label ")
			c.WriteString(strconv.Itoa(ls[j].ID))
			c.WriteByte(' ')
			c.WriteString(string(ls[j].Criterion))
			c.WriteByte(' ')
			c.WriteString(ls[j].Operator)
		}
		out.Blank(" ")
		out.Comment(c.String())
		out.Blank("\n")
	}
	out.Blank(indent)
	body()
	out.Close()
}

// wrapDepth is how many forms a label wraps around its point and its
// predicate: (progn (when (ignore-errors PRED)) POINT).
const wrapDepth = 3

// limitDepth keeps the annotated plan readable: the reader refuses forms
// nested deeper than syntax.MaxDepth, and the labels of a point add
// wrapDepth levels around the point and everything below it, plus the
// depth of their predicates. Walking from the top, a label that would end
// deeper than the limit is skipped (status Skipped, with a warning), so
// the deepest points lose their labels and the rest of the plan keeps
// them. Active labels are renumbered when any is skipped. A normalized
// plan that is itself too deep is an error.
func (in *injector) limitDepth(nr *normalize.Result, set *labels.Set) error {
	var skipped []*labels.Label
	var tooDeep syntax.Node
	var walk func(n syntax.Node, d int) // d forms are open around n
	walk = func(n syntax.Node, d int) {
		if tooDeep != nil {
			return
		}
		if ls := in.byPoint[n]; len(ls) > 0 {
			keep := ls[:0]
			for _, l := range ls {
				if d+need(l) > syntax.MaxDepth {
					skipped = append(skipped, l)
				} else {
					keep = append(keep, l)
				}
			}
			if len(keep) == 0 {
				delete(in.byPoint, n)
			} else {
				in.byPoint[n] = keep
				d++ // the progn
			}
		}
		if _, ok := n.(*syntax.List); ok && d+1 > syntax.MaxDepth {
			tooDeep = n
			return
		}
		normalize.Subforms(n, func(c syntax.Node) { walk(c, d+1) })
	}
	for _, f := range nr.Forms {
		walk(f, 0)
	}
	if tooDeep != nil {
		at := syntax.Pos{Line: 1, Col: 1}
		if o := nr.Origin(tooDeep); o != nil {
			at, _ = o.Span()
		}
		return syntax.Errorf(nr.Orig.Name, nr.Orig.Src, at,
			"cannot annotate: the plan with side effects moved out of its conditions nests deeper than %d", syntax.MaxDepth)
	}
	if len(skipped) == 0 {
		return nil
	}
	for _, l := range skipped {
		l.Status = labels.Skipped
		l.Reason = fmt.Sprintf("nested too deep: injected here, the annotated plan would nest deeper than %d", syntax.MaxDepth)
	}
	id := 0
	for _, l := range set.Labels {
		if l.Status == labels.Active {
			id++
			l.ID = id
		} else {
			l.ID = 0
		}
	}
	first := skipped[0].Pos
	set.Warnings = append(set.Warnings, syntax.Errorf(nr.Orig.Name, nr.Orig.Src,
		syntax.Pos{Line: first.Line, Col: first.Col, Offset: first.Offset},
		"warning: %d labels are nested too deep to inject (the annotated plan would nest deeper than %d): they are skipped", len(skipped), syntax.MaxDepth))
	return nil
}

// sharedOf returns the SharedAtoms the labels of one point read, if any
// (one decision's MCC labels share one).
func sharedOf(ls []*labels.Label) *labels.SharedAtoms {
	for _, l := range ls {
		if l.Shared != nil {
			return l.Shared
		}
	}
	return nil
}

// need is how many forms label l adds at its point, predicate included:
// (progn (when (ignore-errors PRED)) ...), or for a label reading shared
// atoms the probe that computes them,
// (progn (when (ignore-errors (progn (setq G ATOM) ...)))).
func need(l *labels.Label) int {
	d := wrapDepth + l.Depth
	if l.Shared != nil {
		for _, a := range l.Shared.Atoms {
			if a != nil {
				d = max(d, wrapDepth+2+normalize.Depth(a, syntax.MaxDepth))
			}
		}
	}
	return d
}
