package normalize

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Options tune the plan front end.
type Options struct {
	// PureFuncs names external functions (simulator queries, say) that the
	// caller knows to be free of effects. Unknown functions are impure.
	PureFuncs []string
	// HoistCalls also binds calls of user functions and of PureFuncs to
	// temporaries when they sit in a label site (a decision test, a
	// relational or arithmetic call, and/or), pure or not, so that labels
	// read their values instead of calling again. transform.Plan sets it.
	HoistCalls bool
	// PassThrough lists more top-level forms to leave alone, besides
	// those forms.File.Skip names: the definitions the compiler passed
	// through (compile.Program.PassedThrough), which have their notes
	// there.
	PassThrough []syntax.Node
}

// Result is a normalized plan. Forms is the rewritten tree: nodes that did
// not change are the very nodes of Orig, so their source text and
// positions are still known; new nodes have zero positions. Source is the
// rendered text (Reparse reads it back).
type Result struct {
	Orig   *syntax.File
	Forms  []syntax.Node
	Source []byte
	// Prefix starts the name of every temporary (%lc1, %lc2, ...). It is
	// chosen so that no symbol of the input starts with it.
	Prefix string
	// Temps is the number of temporaries introduced.
	Temps int
	// Notes reports the top-level forms left alone (forms.File.Skip):
	// forms labelcov does not compile, definitions that use a macro.
	Notes []*syntax.Error

	skipped map[syntax.Node]bool // top-level forms left alone

	orig    map[syntax.Node]bool          // nodes of Orig
	origin  map[syntax.Node]syntax.Node   // residue -> the original node it stands for
	copyOf  map[*syntax.List]*syntax.List // edited copy -> original list
	lets    map[*syntax.List]bool         // the let* forms normalize introduced
	reqs    map[string][]Requirement      // temp -> what its truth requires
	pur     *purity
	sizes   map[syntax.Node]int  // memo of size
	frozen  map[syntax.Node]bool // see Frozen
	globals []string             // DeclareGlobals
}

// Plan normalizes a parsed plan. A plan whose label sites are all pure
// comes back with Source byte-identical to the input.
func Plan(f *syntax.File, opts Options) (*Result, error) {
	ext := map[string]bool{}
	for _, n := range opts.PureFuncs {
		ext[n] = true
	}
	fi := forms.ScanFile(f)
	skipped := map[syntax.Node]bool{}
	var notes []*syntax.Error
	for _, form := range opts.PassThrough {
		skipped[form] = true
	}
	for _, form := range f.Forms {
		if note, skip := fi.Skip(form); skip {
			skipped[form] = true
			if note != "" {
				notes = append(notes, f.NodeErrorf(form, "%s", note))
			}
		}
	}
	r := &Result{
		Notes:   notes,
		skipped: skipped,
		Orig:    f,
		orig:    map[syntax.Node]bool{},
		origin:  map[syntax.Node]syntax.Node{},
		copyOf:  map[*syntax.List]*syntax.List{},
		lets:    map[*syntax.List]bool{},
		reqs:    map[string][]Requirement{},
		pur:     newPurity(f, skipped, ext, opts.HoistCalls),
		sizes:   map[syntax.Node]int{},
		frozen:  map[syntax.Node]bool{},
	}
	names := map[string]bool{}
	for _, form := range f.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			r.orig[n] = true
			if s, ok := n.(*syntax.Symbol); ok {
				names[s.Name] = true
			}
			return true
		})
	}
	r.Prefix = tempPrefix(names)
	z := &normalizer{r: r}
	r.Forms = make([]syntax.Node, len(f.Forms))
	for i, form := range f.Forms {
		if skipped[form] {
			r.Forms[i] = form
			continue
		}
		r.Forms[i] = z.expr(form, false)
	}
	if r.Temps > 0 {
		// Binding big operands flattens chains of sites, but around
		// other forms (an if between two sums) each binding nests a let*
		// deeper. If that would make a deep plan deeper than it was,
		// normalize again without it: labels that would copy big operands
		// are then skipped (labels.MaxPredicate) rather than the plan
		// becoming unreadable (syntax.MaxDepth).
		limit := max(formsDepth(f.Forms), syntax.MaxDepth/2)
		if formsDepth(r.Forms) > limit {
			r.redo(f, &normalizer{r: r, keepBig: true})
		}
	}
	// The normalized plan may nest as deep as the original or to the
	// limit less a margin for labels, whichever is deeper.
	fits := min(max(formsDepth(f.Forms), syntax.MaxDepth-maxDepthMargin), syntax.MaxDepth)
	if r.Temps > 0 && formsDepth(r.Forms) > fits {
		// Moving effects out of sites nests a let* per site; around
		// special forms (a sum of an if of a progn of a sum ...) these
		// add up. Leave the deepest parts of the plan as they are,
		// without labels (Frozen), at the largest depth that keeps the
		// plan readable.
		depth := originalDepths(f)
		lo, hi := 0, formsDepth(f.Forms) // lo always fits: nothing normalized
		for lo < hi {
			mid := (lo + hi + 1) / 2
			r.redo(f, &normalizer{r: r, keepBig: true, depth: depth, freezeAt: mid})
			if formsDepth(r.Forms) <= fits {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		r.redo(f, &normalizer{r: r, keepBig: true, depth: depth, freezeAt: lo})
	}
	r.Source = r.Render(nil)
	return r, nil
}

// maxDepthMargin is the nesting normalize leaves for the forms that
// labels add around their points (transform skips labels that would not
// fit).
const maxDepthMargin = 16

// redo normalizes f again with z, forgetting the previous attempt.
func (r *Result) redo(f *syntax.File, z *normalizer) {
	r.origin, r.copyOf = map[syntax.Node]syntax.Node{}, map[*syntax.List]*syntax.List{}
	r.lets, r.reqs = map[*syntax.List]bool{}, map[string][]Requirement{}
	r.frozen = map[syntax.Node]bool{}
	r.Temps = 0
	for i, form := range f.Forms {
		if !r.skipped[form] {
			r.Forms[i] = z.expr(form, false)
		}
	}
}

// originalDepths maps every list of f to how many forms enclose it.
func originalDepths(f *syntax.File) map[syntax.Node]int {
	out := map[syntax.Node]int{}
	var walk func(n syntax.Node, d int)
	walk = func(n syntax.Node, d int) {
		if _, ok := n.(*syntax.List); ok {
			out[n] = d
		}
		Subforms(n, func(c syntax.Node) { walk(c, d+1) })
	}
	for _, form := range f.Forms {
		walk(form, 0)
	}
	return out
}

// Subforms calls fn on each form directly inside n, one nesting level
// down as the reader counts (syntax.MaxDepth): the elements of a list,
// the form under a quote or a reader-macro prefix, a conditional's
// feature and form.
func Subforms(n syntax.Node, fn func(syntax.Node)) {
	switch n := n.(type) {
	case *syntax.List:
		for _, e := range n.Elems {
			fn(e)
		}
	case *syntax.Quote:
		fn(n.X)
	case *syntax.Prefixed:
		fn(n.X)
	case *syntax.Conditional:
		fn(n.Feature)
		fn(n.X)
	}
}

// Frozen reports whether normalize left n (an original list) and
// everything in it as written because the plan nests too deep to move
// its effects out: no label may be put in it.
func (r *Result) Frozen(n syntax.Node) bool { return r.frozen[n] }

// Depth is how many forms n nests, as the reader counts them against
// syntax.MaxDepth: 0 for an atom, 1 for a list of atoms; a quote, a
// reader-macro prefix and a #+/#- conditional count as a form too. It
// stops counting past limit, so its cost is bounded on hostile trees.
func Depth(n syntax.Node, limit int) int {
	if limit <= 0 {
		return 1
	}
	switch n := n.(type) {
	case *syntax.List:
		d := 0
		for _, e := range n.Elems {
			d = max(d, Depth(e, limit-1))
		}
		return d + 1
	case *syntax.Quote:
		return Depth(n.X, limit-1) + 1
	case *syntax.Prefixed:
		return Depth(n.X, limit-1) + 1
	case *syntax.Conditional:
		return max(Depth(n.Feature, limit-1), Depth(n.X, limit-1)) + 1
	}
	return 0
}

// formsDepth is how deep forms nest (lists and quotes), counted up to
// syntax.MaxDepth+1.
func formsDepth(forms []syntax.Node) int {
	d := 0
	for _, f := range forms {
		d = max(d, Depth(f, syntax.MaxDepth+1))
	}
	return d
}

// Reparse reads Source back into a tree with positions in Source. It is
// separate from Plan because a caller that goes on to annotate the plan
// never needs the normalized text parsed.
func (r *Result) Reparse() (*syntax.File, error) {
	f, err := syntax.Parse(r.Orig.Name, r.Source)
	if err != nil {
		return nil, fmt.Errorf("normalize: rendered plan does not parse (a bug): %w", err)
	}
	return f, nil
}

// tempPrefix picks "%lc", lengthened with '%' until no user symbol starts
// with it, so temporaries can never capture or shadow a user name.
func tempPrefix(names map[string]bool) string {
	p := "%lc"
	for {
		clash := false
		for n := range names {
			if strings.HasPrefix(n, p) {
				clash = true
				break
			}
		}
		if !clash {
			return p
		}
		p += "%"
	}
}

// Nodes is the number of nodes of the original plan (lists, atoms,
// quotes): a size hint for passes that keep a map entry per node.
func (r *Result) Nodes() int { return len(r.orig) }

// Skipped reports whether the top-level form n is left alone: labelcov
// does not compile it, so nothing in it is normalized or labelled.
func (r *Result) Skipped(n syntax.Node) bool { return r.skipped[n] }

// Changed reports whether normalization rewrote anything.
func (r *Result) Changed() bool { return r.Temps > 0 || len(r.globals) > 0 }

// Origin returns the node of the original plan that n stands for: n itself
// when it is original, the rewritten site for a residue or a temporary that
// holds an original operand's value, nil for scaffolding normalize made up.
func (r *Result) Origin(n syntax.Node) syntax.Node {
	if r.orig[n] {
		return n
	}
	if l, ok := n.(*syntax.List); ok {
		if o, ok := r.copyOf[l]; ok {
			return o
		}
	}
	return r.origin[n]
}

// Unwrap returns the expression a label site's predicates must see: for a
// let* that normalize wrapped around a site, its residue (last body form),
// which runs after the hoisted effects; otherwise n itself.
func (r *Result) Unwrap(n syntax.Node) syntax.Node {
	if r.isNormalLet(n) {
		l := n.(*syntax.List)
		return l.Elems[len(l.Elems)-1]
	}
	return n
}

// isNormalLet recognises a site already in A-normal form, as normalize
// writes it: (let* ((%lc... VALUE)...) PURE-RESIDUE). Normalizing its
// output again then changes nothing. Any name starting with %lc counts, so
// the output of a run that had to lengthen the prefix is recognised too.
func (r *Result) isNormalLet(n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	if !ok {
		return false
	}
	if r.lets[l] {
		return true
	}
	if len(l.Elems) != 3 || syntax.Head(l) != "let*" {
		return false
	}
	bl, ok := l.Elems[1].(*syntax.List)
	if !ok || len(bl.Elems) == 0 {
		return false
	}
	for _, b := range bl.Elems {
		b, ok := b.(*syntax.List)
		if !ok || len(b.Elems) != 2 {
			return false
		}
		s, ok := b.Elems[0].(*syntax.Symbol)
		if !ok || !strings.HasPrefix(s.Name, "%lc") {
			return false
		}
	}
	return r.pur.pure(l.Elems[2])
}

// Requirement says that a temporary can only be true when another one has
// the given truth: under (and A B) the temporary for B is computed (and so
// can be non-nil) only when A's was true; under (or A B) only when A's was
// false.
type Requirement struct {
	Temp   string
	Truthy bool
}

// Requires lists what temporary name needs to be true (see Requirement).
func (r *Result) Requires(name string) []Requirement { return r.reqs[name] }

// IsTemp reports whether name is one of normalize's temporaries.
func (r *Result) IsTemp(name string) bool { return strings.HasPrefix(name, r.Prefix) }

// Calls reports whether n calls a user function or a pure external while
// calls are hoisted (Options.HoistCalls): code a label had better not
// evaluate again.
func (r *Result) Calls(n syntax.Node) bool { return r.pur.scan(n).calls }

// DeclareGlobals adds (defvar NAME) for each name before the first
// top-level form that is not a package form (so a Common Lisp compiler
// knows them as special variables before any use), for globals that later
// passes assign (labels' shared atoms), and renders Source again. A defvar without a value compiles to nothing
// (the global stays unbound until assigned), so the declarations cost the
// plan no step: labels' shared atoms are assigned (flag first) before
// anything reads them, and a label reading an unbound global is false, as
// it is on nil. The normalized plan declares what the annotated plan
// declares.
func (r *Result) DeclareGlobals(names []string) {
	if len(names) == 0 {
		return
	}
	r.globals = append(r.globals, names...)
	r.Source = r.Render(nil)
}

// Pure reports whether evaluating n has no effect visible outside n.
func (r *Result) Pure(n syntax.Node) bool { return r.pur.pure(n) }

// IsUserFunc reports whether name is defined by the plan (and so shadows a
// builtin of the same name).
func (r *Result) IsUserFunc(name string) bool { return r.pur.isUser(name) }

type normalizer struct {
	r *Result
	// keepBig leaves big operands in place (see Plan and flattens).
	keepBig bool
	// depth, when set, gives the nesting of each original list; lists at
	// freezeAt or deeper are left as they are and marked frozen.
	depth    map[syntax.Node]int
	freezeAt int
}

// freeze reports (and records) whether n is left as written.
func (z *normalizer) freeze(n syntax.Node) bool {
	if z.depth == nil {
		return false
	}
	d, ok := z.depth[n]
	if !ok || d < z.freezeAt {
		return false
	}
	z.r.frozen[n] = true
	return true
}

type binding struct {
	name *syntax.Symbol
	val  syntax.Node
}

// isSite reports whether n is a label site whose operands a label may
// re-evaluate: a binary relational or arithmetic call, unary minus, a
// binary string= or equal (dist's prefix stones), or an and/or with at
// least two operands.
func (z *normalizer) isSite(n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	if !ok || Opaque(l) {
		return false
	}
	h := forms.Head(l)
	switch {
	case h == "and" || h == "or":
		return len(l.Elems) >= 3
	case z.r.pur.isUser(h):
		return false
	case relational[h] || arithmetic[h]:
		return len(l.Elems) == 3 || (h == "-" && len(l.Elems) == 2)
	case stringEqualities[h]:
		return len(l.Elems) == 3
	}
	return false
}

// BigOperand is the size (in nodes: lists, atoms and quotes) above which
// an operand of a label site is bound to a temporary instead of being
// copied into the site's labels. Labels copy their site's operands, so
// without this bound a site nesting sites ((+ 1 (+ 1 …)) 500 deep) would
// make the annotated plan quadratic in size and, once wrapped, nested
// far deeper than the original. Operands of hand-written plans are
// almost always smaller, so they stay in place.
const BigOperand = 24

// size counts the nodes of n, memoized: every node is sized once.
func (r *Result) size(n syntax.Node) int {
	switch n := n.(type) {
	case *syntax.List:
		if s, ok := r.sizes[n]; ok {
			return s
		}
		s := 1
		for _, e := range n.Elems {
			s += r.size(e)
		}
		r.sizes[n] = s
		return s
	case *syntax.Quote:
		return 1 + r.size(n.X)
	case *syntax.Prefixed:
		return 1 + r.size(n.X)
	case *syntax.Conditional:
		return 1 + r.size(n.Feature) + r.size(n.X)
	}
	return 1
}

func (z *normalizer) big(n syntax.Node) bool { return !z.keepBig && z.r.size(n) > BigOperand }

// flattens reports whether n is a pure call (or an and/or) with a big
// operand that is always evaluated when n is — every argument of a call,
// the first operand of and/or — so that decompose binds it to a temporary.
// Later and/or operands are evaluated conditionally and stay in place.
func (z *normalizer) flattens(n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	if z.keepBig || !ok || len(l.Elems) < 2 || Opaque(l) || z.r.size(l) <= BigOperand {
		return false
	}
	h := syntax.Head(l)
	switch {
	case h == "and" || h == "or":
		return z.big(l.Elems[1])
	case z.callDecomposes(h):
		for _, a := range l.Elems[1:] {
			if z.big(a) {
				return true
			}
		}
	}
	return false
}

// callDecomposes reports whether decompose splits a call of h into its
// arguments (decomposeCall): a function with no effects of its own whose
// call is neither costly nor hoisted as a whole.
func (z *normalizer) callDecomposes(h string) bool {
	return h != "" && !isSpecial(h) && z.r.pur.pureFn(h) && !z.r.pur.costly[h] && !z.r.pur.hoisted(h)
}

// expr normalizes n in an expression slot; test marks decision tests.
func (z *normalizer) expr(n syntax.Node, test bool) syntax.Node {
	if z.freeze(n) {
		return n
	}
	if (test || z.isSite(n)) && z.flattens(n) && !z.r.isNormalLet(n) {
		return z.anf(n)
	}
	e := z.r.pur.scan(n)
	if !e.touches {
		if _, ok := n.(*syntax.List); !ok || z.r.size(n) <= BigOperand {
			return n
		}
		// Big and pure: sites below may still have big operands.
	}
	if (test || z.isSite(n)) && !z.r.pur.cheapE(e) && !z.r.isNormalLet(n) {
		return z.anf(n)
	}
	l, ok := n.(*syntax.List)
	if !ok {
		return n
	}
	var out *syntax.List
	for _, s := range Slots(l) {
		if s.Data {
			continue // CRAM's data: left as written (labels leave it too)
		}
		c := At(l, s.Path)
		c2 := z.expr(c, s.Test)
		if c2 != c {
			if out == nil {
				out = z.copyList(l)
			}
			z.replace(out, s.Path, c2)
		}
	}
	if out == nil {
		return n
	}
	return out
}

func (z *normalizer) copyList(l *syntax.List) *syntax.List {
	c := &syntax.List{Open: l.Open, Close: l.Close, Elems: append([]syntax.Node(nil), l.Elems...)}
	// A copy of original text keeps a link to it, so rendering can keep
	// the text between elements; a copy of generated code needs none.
	if o, ok := z.r.copyOf[l]; ok {
		z.r.copyOf[c] = o
	} else if z.r.orig[l] {
		z.r.copyOf[c] = l
	}
	return c
}

// replace sets the node at path below the copy l, copying the lists on the
// way down that are still shared with the original tree.
func (z *normalizer) replace(l *syntax.List, path []int, n syntax.Node) {
	for len(path) > 1 {
		child := l.Elems[path[0]].(*syntax.List)
		if z.r.orig[child] {
			child = z.copyList(child)
			l.Elems[path[0]] = child
		}
		l, path = child, path[1:]
	}
	l.Elems[path[0]] = n
}

// anf rewrites the impure site n as (let* (BINDINGS) RESIDUE) where RESIDUE
// is pure and the bindings run n's effects in their original order.
func (z *normalizer) anf(n syntax.Node) syntax.Node {
	binds, res := z.decompose(n)
	bl := &syntax.List{}
	for _, b := range binds {
		val := z.expr(b.val, false) // hoisted code may hold sites of its own
		bl.Elems = append(bl.Elems, &syntax.List{Elems: []syntax.Node{b.name, val}})
	}
	let := &syntax.List{Elems: []syntax.Node{sym("let*"), bl, res}}
	z.r.lets[let] = true
	return let
}

func sym(name string) *syntax.Symbol { return &syntax.Symbol{Name: name} }

func (z *normalizer) temp(standsFor syntax.Node) *syntax.Symbol {
	z.r.Temps++
	s := sym(z.r.Prefix + strconv.Itoa(z.r.Temps))
	if o := z.r.Origin(standsFor); o != nil {
		z.r.origin[s] = o
	}
	return s
}

// use returns a fresh reference to temporary t (each node appears once in
// the tree, so positions and origins stay unambiguous).
func use(t *syntax.Symbol) *syntax.Symbol { return sym(t.Name) }

// decompose splits n into bindings, evaluated in order, and a pure residue
// that, evaluated after them, gives n's value.
func (z *normalizer) decompose(n syntax.Node) ([]binding, syntax.Node) {
	if z.r.pur.cheap(n) && !z.flattens(n) {
		return nil, n
	}
	if z.freeze(n) {
		// Left as written, evaluated once, in order, into a temporary.
		t := z.temp(n)
		return []binding{{t, n}}, use2(z, t, n)
	}
	l, ok := n.(*syntax.List)
	if !ok {
		// An atom is pure, except a backquote template or a reader
		// conditional, which is evaluated once, into a temporary.
		t := z.temp(n)
		return []binding{{t, n}}, use2(z, t, n)
	}
	h := forms.Head(l)
	switch {
	case h == "and" || h == "or":
		return z.decomposeAndOr(l, h)
	case z.callDecomposes(h):
		return z.decomposeCall(l)
	}
	t := z.temp(n)
	return []binding{{t, n}}, use2(z, t, n)
}

// use2 is use, keeping the origin of the node the temporary stands for.
func use2(z *normalizer, t *syntax.Symbol, standsFor syntax.Node) *syntax.Symbol {
	u := use(t)
	if o := z.r.Origin(standsFor); o != nil {
		z.r.origin[u] = o
	}
	return u
}

// decomposeCall handles a call of a pure function with impure arguments:
// arguments are evaluated left to right, so every argument before the last
// impure one is saved in a temporary before later effects can change it —
// (+ x (incf x)) reads the old x.
func (z *normalizer) decomposeCall(l *syntax.List) ([]binding, syntax.Node) {
	args := l.Elems[1:]
	last := -1 // the last argument with effects, or big (see flattens)
	for i, a := range args {
		if !z.r.pur.pure(a) || z.big(a) {
			last = i
		}
	}
	var binds []binding
	res := &syntax.List{Elems: []syntax.Node{l.Elems[0]}}
	for i, a := range args {
		var b []binding
		b, r := z.decompose(a) // also hoists costly pure calls
		binds = append(binds, b...)
		if s, ok := r.(*syntax.Symbol); ok && z.r.IsTemp(s.Name) && len(b) > 0 {
			res.Elems = append(res.Elems, r) // already a temporary
			continue
		}
		if (i < last || z.big(a)) && !IsConstant(r) {
			t := z.temp(a)
			binds = append(binds, binding{t, r})
			r = use2(z, t, a)
		}
		res.Elems = append(res.Elems, r)
	}
	z.r.origin[res] = z.r.Origin(l)
	return binds, res
}

// decomposeAndOr keeps short-circuiting: operand i (up to the last impure
// one) is bound to a temporary that is computed only when the original
// would evaluate it, and is nil otherwise; the residue is the same and/or
// over the temporaries, so it returns the same deciding value.
func (z *normalizer) decomposeAndOr(l *syntax.List, h string) ([]binding, syntax.Node) {
	ops := l.Elems[1:]
	last := -1 // the last operand labels may not re-evaluate
	for i, a := range ops {
		if e := z.r.pur.scan(a); !e.pure() || e.costly {
			last = i
		}
	}
	if last < 0 && (!z.r.pur.cheap(ops[0]) || z.big(ops[0])) {
		// Only calls: the first operand always runs, so its calls are
		// hoisted; a later one runs only when the earlier ones allow it
		// and stays in place (extracting it conditionally would make
		// the MCC combinations that evaluate it against short-circuiting
		// infeasible).
		last = 0
	}
	res := &syntax.List{Elems: []syntax.Node{l.Elems[0]}}
	z.r.origin[res] = z.r.Origin(l)
	var binds []binding
	var guards []syntax.Node // the values standing for ops[0..i-1]
	guardRef := func(g syntax.Node) syntax.Node {
		if s, ok := g.(*syntax.Symbol); ok && z.r.IsTemp(s.Name) {
			return use(s)
		}
		return g
	}
	for i := 0; i <= last; i++ {
		var g syntax.Node
		if i == 0 {
			b, r := z.decompose(ops[0])
			binds = append(binds, b...)
			g = r
			if rs, ok := r.(*syntax.Symbol); ok && z.r.IsTemp(rs.Name) {
				g = rs // already a temporary holding ops[0]
			} else if (last > 0 || z.big(ops[0])) && !IsConstant(r) {
				t := z.temp(ops[0])
				binds = append(binds, binding{t, r})
				g = t
			}
		} else {
			var cond syntax.Node
			if h == "and" {
				// All earlier operands were true iff the previous one was
				// (each is nil when not reached).
				cond = &syntax.List{Elems: []syntax.Node{sym("if"), guardRef(guards[i-1]), ops[i], sym("nil")}}
			} else {
				test := guardRef(guards[0])
				if i > 1 {
					or := &syntax.List{Elems: []syntax.Node{sym("or")}}
					for _, gg := range guards {
						or.Elems = append(or.Elems, guardRef(gg))
					}
					test = or
				}
				cond = &syntax.List{Elems: []syntax.Node{sym("if"), test, sym("nil"), ops[i]}}
			}
			t := z.temp(ops[i])
			binds = append(binds, binding{t, cond})
			for j := 0; j < i; j++ {
				if h == "or" || j == i-1 {
					if s, ok := guards[j].(*syntax.Symbol); ok && z.r.IsTemp(s.Name) {
						z.r.reqs[t.Name] = append(z.r.reqs[t.Name], Requirement{Temp: s.Name, Truthy: h == "and"})
					}
				}
			}
			g = t
		}
		guards = append(guards, g)
		if s, ok := g.(*syntax.Symbol); ok && z.r.IsTemp(s.Name) && z.r.origin[s] != nil {
			res.Elems = append(res.Elems, use2(z, s, ops[i]))
		} else {
			res.Elems = append(res.Elems, g)
		}
	}
	res.Elems = append(res.Elems, ops[last+1:]...)
	return binds, res
}

func isSpecial(h string) bool { return forms.Lookup(h) != nil }
