package transform

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// Options configure Plan.
type Options struct {
	Labels    labels.Options
	Normalize normalize.Options
}

// Result is an annotated plan.
type Result struct {
	// Source is the annotated plan text; File its parse (positions in
	// Source).
	Source []byte
	File   *syntax.File
	// Normalized is the normalized plan the labels were enumerated on.
	Normalized *normalize.Result
	// Labels holds every label; active ones have Annotated set.
	Labels *labels.Set
}

// Manifest returns the label manifest of the annotated plan, naming the
// annotated file out ("" when it is not written to a file).
func (r *Result) Manifest(out string) *labels.Manifest {
	m := r.Labels.Manifest()
	m.Annotated = out
	return m
}

// marker matches the comment transform writes after each injected label.
var marker = regexp.MustCompile(`^;+ *label [0-9]+ (mcc|cc|wm-abs|wm-aor|wm-cor|wm-ror)\b`)

// CheckNotAnnotated refuses a plan that already carries injected labels:
// annotating it again would label the labels.
func CheckNotAnnotated(f *syntax.File) error {
	for _, c := range f.Comments {
		if !c.Block && marker.MatchString(c.Text) {
			return syntax.Errorf(f.Name, f.Src, c.Start,
				"plan is already annotated by labelcov (found %q); annotate the original plan instead", c.Text)
		}
	}
	return nil
}

// Plan normalizes f, enumerates its labels and injects the active ones.
func Plan(f *syntax.File, opts Options) (*Result, error) {
	if err := CheckNotAnnotated(f); err != nil {
		return nil, err
	}
	nr, err := normalize.Plan(f, opts.Normalize)
	if err != nil {
		return nil, fmt.Errorf("annotate %s: %w", f.Name, err)
	}
	set, err := labels.Enumerate(nr, opts.Labels)
	if err != nil {
		return nil, fmt.Errorf("annotate %s: %w", f.Name, err)
	}
	src, af, err := Annotate(nr, set)
	if err != nil {
		return nil, err
	}
	return &Result{Source: src, File: af, Normalized: nr, Labels: set}, nil
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
// and after any effects normalize hoisted ahead of P. MCC and CC labels sit
// at the whole decision test, so short-circuiting inside the decision does
// not guard them.
func Annotate(nr *normalize.Result, set *labels.Set) ([]byte, *syntax.File, error) {
	inj := &injector{byPoint: map[syntax.Node][]*labels.Label{}, at: map[*labels.Label]int{}}
	for _, l := range set.Active() {
		if l.Point == nil || l.Cond == nil {
			return nil, nil, fmt.Errorf("annotate: label %d has no point in the plan tree", l.ID)
		}
		inj.byPoint[l.Point] = append(inj.byPoint[l.Point], l)
	}
	src := nr.Render(inj)
	af, err := syntax.Parse(nr.Orig.Name, src)
	if err != nil {
		return nil, nil, fmt.Errorf("annotate: annotated plan does not parse (a bug): %w", err)
	}
	whens := map[int]bool{}
	for _, form := range af.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok && syntax.Head(l) == "when" {
				whens[l.Open.Offset] = true
			}
			return true
		})
	}
	lines := lineStarts(src)
	for l, off := range inj.at {
		if !whens[off] {
			return nil, nil, fmt.Errorf("annotate: label %d is not at a when form (a bug)", l.ID)
		}
		p := posAt(lines, off)
		l.Annotated = &labels.Position{Line: p.Line, Col: p.Col, Offset: off}
	}
	return src, af, nil
}

type injector struct {
	byPoint map[syntax.Node][]*labels.Label
	at      map[*labels.Label]int
}

func (in *injector) Wraps(n syntax.Node) bool { return len(in.byPoint[n]) > 0 }

func (in *injector) Wrap(out *bytes.Buffer, n syntax.Node, body func()) {
	b := out.Bytes()
	col := len(b) - (bytes.LastIndexByte(b, '\n') + 1)
	indent := strings.Repeat(" ", col+len("(progn "))
	out.WriteString("(progn ")
	for i, l := range in.byPoint[n] {
		if i > 0 {
			out.WriteString(indent)
		}
		in.at[l] = out.Len()
		fmt.Fprintf(out, "(when (ignore-errors %s)) ; label %d %s %s\n",
			syntax.NodeString(l.Cond), l.ID, l.Criterion, l.Operator)
	}
	out.WriteString(indent)
	body()
	out.WriteByte(')')
}

func lineStarts(src []byte) []int {
	ls := []int{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

func posAt(lines []int, off int) syntax.Pos {
	lo, hi := 0, len(lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return syntax.Pos{Offset: off, Line: lo + 1, Col: off - lines[lo] + 1}
}
