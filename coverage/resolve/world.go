package resolve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/labels"
)

// The environment search (searchWorld) of a plan with a world: what the
// solver is for arguments, a search over scenarios is for query results,
// which the environment decides through the simulator (geometry, field of
// view, occlusion, reach), none of which a solver models.
//
// Candidates are environments as object lists. They come from three
// sources, interleaved round by round so that a short budget still tries
// some of each:
//
//   - the seeds: the suite's tests and the campaign's inputs;
//   - the world's structured seeds: regions packed full (packs), and
//     every object the world allows (each type in each region, at each
//     cell and orientation) alone in the environment, in an order drawn
//     from the seed;
//   - mutations, per label still uncovered in turn, of the environments
//     that came closest to it: a change of one object's type, region,
//     column, row or orientation (by one step or to any value), an object
//     added (anywhere, or next to another one), removed, duplicated or
//     moved in the order, or objects taken from another close
//     environment; one to three changes a child.
//
// "Closest" is a fitness per target label: its point reached (its
// predicate evaluated) first, then the number of label points reached
// before it in the same top-level form (an approach level read from the
// label counters, which needs nothing of the VM beyond them), then the
// number of those covered. Each label keeps its searchElite best, ties
// included (so that a plateau is walked rather than stuck on).
//
// Every random choice comes from Options.Seed; the search stops at ctx's
// deadline, after Options.Runs candidates, when every label is covered,
// or, with neither a deadline nor a bound on runs, once it finds nothing
// more (envSearch.stall).

// searchElite is how many environments each target keeps as parents;
// maxSeen how many environments run the search remembers, so as not to run
// them again; stallRuns the fewest runs without a find after which a
// search with no deadline gives up (envSearch.stall).
const (
	searchElite = 8
	maxSeen     = 1 << 20
	stallRuns   = 20000
)

// searchStats is what the environment search did.
type searchStats struct {
	// Runs counts the environments run; Seeds the seeds among them;
	// Packs the packed regions (packs) and Singles the world's one-object
	// environments tried.
	Runs, Seeds, Packs, Singles int
	// Reached counts, per label still uncovered, the environments that
	// reached its point.
	Reached map[int]int
}

// envCand is an environment the search keeps as a parent.
type envCand struct {
	objs []sim.EnvObject
	fit  fitness
	key  string
}

// fitness orders environments for one target label (greater is closer).
type fitness struct {
	reached         bool
	before, before2 int // points reached before it in its form; of those, covered
}

func (a fitness) less(b fitness) bool {
	if a.reached != b.reached {
		return !a.reached
	}
	if a.before != b.before {
		return a.before < b.before
	}
	return a.before2 < b.before2
}

// target is one label the search looks for.
type target struct {
	id     int
	before []int // active labels before it in the same top-level form
	elite  []envCand
	done   bool
}

// envSearch is one environment search.
type envSearch struct {
	w       *sim.World
	lb      *measure.Labeler
	rng     *rand.Rand
	maxObjs int
	targets []*target
	byID    map[int]*target
	// found receives each environment that covers a label no test
	// covered; it returns the labels now covered (their targets end).
	found func(objs []sim.EnvObject, covered []int) ([]int, error)
	stats searchStats
	// stall, when set, ends the search once it has run every one-object
	// environment and found nothing in the last max(stallRuns, lastFind)
	// runs (lastFind: the runs when it last covered a label).
	stall    bool
	lastFind int
	seen     map[string]bool
	buf      []byte
	cov      map[int]bool
}

// newEnvSearch prepares the search for ids (active labels of m no test
// covers).
func newEnvSearch(m *measure.Measurer, ids []int, seed uint64) (*envSearch, error) {
	lb, err := m.Labeler()
	if err != nil {
		return nil, err
	}
	s := &envSearch{w: m.World(), lb: lb, rng: rand.New(rand.NewPCG(seed, 0x6c6162656c636f76)), maxObjs: lb.MaxObjects(),
		byID: map[int]*target{}, seen: map[string]bool{}, cov: map[int]bool{}, stats: searchStats{Reached: map[int]int{}}}
	forms := formSpans(m)
	all := m.Labels()
	for _, id := range ids {
		t := &target{id: id}
		var l *labels.Label
		for _, x := range all {
			if x.ID == id {
				l = x
			}
		}
		if l != nil {
			f := formOf(forms, l.Pos.Offset)
			for _, x := range all {
				if x.ID != id && x.Pos.Offset < l.Pos.Offset && formOf(forms, x.Pos.Offset) == f && f >= 0 {
					t.before = append(t.before, x.ID)
				}
			}
		}
		s.targets = append(s.targets, t)
		s.byID[id] = t
	}
	return s, nil
}

// formSpans are the offsets [start, end) of the plan's top-level forms.
func formSpans(m *measure.Measurer) [][2]int {
	f := m.Plan()
	if f == nil {
		return nil
	}
	out := make([][2]int, 0, len(f.Forms))
	for _, n := range f.Forms {
		a, b := n.Span()
		out = append(out, [2]int{a.Offset, b.Offset})
	}
	return out
}

func formOf(spans [][2]int, off int) int {
	for i, s := range spans {
		if off >= s[0] && off <= s[1] {
			return i
		}
	}
	return -1
}

// encode writes objs in the world's byte layout (docs/environment.md);
// decoding drops what overlaps, as for any input.
func (s *envSearch) encode(objs []sim.EnvObject) []byte {
	out := s.buf[:0]
	for _, o := range objs {
		out = s.w.AppendObject(out, o)
	}
	s.buf = out
	return out
}

// active says whether the search still has a target.
func (s *envSearch) active() bool {
	for _, t := range s.targets {
		if !t.done {
			return true
		}
	}
	return false
}

// run runs objs (decoded as bytes, so overlapping objects are dropped)
// and updates the targets; false once the search should stop.
func (s *envSearch) run(ctx context.Context, objs []sim.EnvObject) error {
	data := s.encode(objs)
	key := string(data)
	if s.seen[key] {
		return nil
	}
	if len(s.seen) >= maxSeen {
		clear(s.seen) // bounded memory: a repeat costs one run, not a wrong answer
	}
	s.seen[key] = true
	covered, err := s.lb.RunBytes(ctx, data)
	if err != nil {
		return err
	}
	s.stats.Runs++
	clear(s.cov)
	var hit []int
	for _, id := range covered {
		s.cov[id] = true
		if t := s.byID[id]; t != nil && !t.done {
			hit = append(hit, id)
		}
	}
	if len(hit) > 0 {
		s.lastFind = s.stats.Runs
		objs := append([]sim.EnvObject(nil), objs...)
		done, err := s.found(objs, hit)
		if err != nil {
			return err
		}
		for _, id := range done {
			if t := s.byID[id]; t != nil {
				t.done = true
			}
		}
	}
	for _, t := range s.targets {
		if t.done {
			continue
		}
		var f fitness
		f.reached = s.lb.Reached(t.id)
		if f.reached {
			s.stats.Reached[t.id]++
		}
		for _, id := range t.before {
			if s.lb.Reached(id) {
				f.before++
			}
			if s.cov[id] {
				f.before2++
			}
		}
		t.offer(objs, f, key)
	}
	return nil
}

// offer keeps objs among t's parents when it is as close as the worst of
// them (or there is room).
func (t *target) offer(objs []sim.EnvObject, f fitness, key string) {
	if len(t.elite) == searchElite && f.less(t.elite[len(t.elite)-1].fit) {
		return
	}
	c := envCand{objs: append([]sim.EnvObject(nil), objs...), fit: f, key: key}
	i := sort.Search(len(t.elite), func(i int) bool { return t.elite[i].fit.less(f) })
	t.elite = append(t.elite, envCand{})
	copy(t.elite[i+1:], t.elite[i:])
	t.elite[i] = c
	if len(t.elite) > searchElite {
		t.elite = t.elite[:searchElite]
	}
}

// packs are environments that fill one region with one type: objects at
// orientation 0 on the closest lattice of cells where they do not overlap,
// nearest first to an anchor (each end of the region, and where each
// location at its furniture stands), as many as the cap leaves room for
// one more; then that one more, an object of each type in the middle of
// each other region (or none). A full region is what makes placing fail
// where a plan would put something down, and what no random input reaches.
func (s *envSearch) packs() [][]sim.EnvObject {
	w := s.w
	var out [][]sim.EnvObject
	for ri := range w.Regions {
		r := &w.Regions[ri]
		cw, ch := (r.U1-r.U0)/float64(r.Cols), (r.V1-r.V0)/float64(r.Rows)
		anchors := []float64{r.U0, r.U1}
		if sf := r.Surface; sf >= 0 && sf < len(w.Surfaces) {
			for _, l := range w.Locations {
				if l.Furniture == w.Surfaces[sf].Furniture {
					anchors = append(anchors, l.U)
				}
			}
		}
		for ti := range w.Types {
			t := &w.Types[ti]
			sc, sr := stride(t.Width, cw), stride(t.Depth, ch)
			var cells [][2]int
			for c := 0; c < r.Cols; c += sc {
				for j := 0; j < r.Rows; j += sr {
					cells = append(cells, [2]int{c, j})
				}
			}
			for _, a := range anchors {
				sorted := append([][2]int(nil), cells...)
				du := func(c [2]int) float64 {
					u, _ := r.Cell(c[0], c[1])
					if u < a {
						return a - u
					}
					return u - a
				}
				sort.SliceStable(sorted, func(i, j int) bool { return du(sorted[i]) < du(sorted[j]) })
				pack := make([]sim.EnvObject, 0, s.maxObjs)
				for _, c := range sorted[:min(len(sorted), s.maxObjs-1)] {
					pack = append(pack, sim.EnvObject{Type: ti, Region: ri, Col: c[0], Row: c[1]})
				}
				out = append(out, pack)
				for r2 := range w.Regions {
					if r2 == ri {
						continue
					}
					q := &w.Regions[r2]
					for t2 := range w.Types {
						m := sim.EnvObject{Type: t2, Region: r2, Col: q.Cols / 2, Row: q.Rows / 2}
						out = append(out, append([]sim.EnvObject{m}, pack...))
					}
				}
			}
		}
	}
	return out
}

// stride is how many cells of size cell an object of size size spans.
func stride(size, cell float64) int {
	if cell <= 0 {
		return 1
	}
	n := 1
	for float64(n)*cell < size-1e-9 {
		n++
	}
	return n
}

// randomObject is any object the world allows.
func (s *envSearch) randomObject() sim.EnvObject {
	return s.w.ObjectOf(s.rng.Uint64N(s.w.ObjectSpace()))
}

// mutate changes objs once (a copy).
func (s *envSearch) mutate(objs []sim.EnvObject, donor []sim.EnvObject) []sim.EnvObject {
	out := append([]sim.EnvObject(nil), objs...)
	w := s.w
	if len(out) == 0 {
		return append(out, s.randomObject())
	}
	k := s.rng.IntN(len(out))
	o := &out[k]
	step := func(v, n int) int {
		if s.rng.IntN(2) == 0 {
			return s.rng.IntN(n)
		}
		v += 1 - 2*s.rng.IntN(2)
		return min(max(v, 0), n-1)
	}
	switch s.rng.IntN(11) {
	case 0:
		o.Type = s.rng.IntN(len(w.Types))
	case 1:
		o.Region = s.rng.IntN(len(w.Regions))
		r := &w.Regions[o.Region]
		o.Col, o.Row = min(o.Col, r.Cols-1), min(o.Row, r.Rows-1)
	case 2:
		o.Col = step(o.Col, w.Regions[o.Region].Cols)
	case 3:
		o.Row = step(o.Row, w.Regions[o.Region].Rows)
	case 4:
		o.Orientation = s.rng.IntN(len(w.Orientations))
	case 5:
		if len(out) < s.maxObjs {
			i := s.rng.IntN(len(out) + 1)
			out = append(out[:i], append([]sim.EnvObject{s.randomObject()}, out[i:]...)...)
		}
	case 6:
		out = append(out[:k], out[k+1:]...)
	case 7: // a neighbour of object k: same region, a nearby cell
		if len(out) < s.maxObjs {
			n := *o
			if s.rng.IntN(2) == 0 {
				n.Type = s.rng.IntN(len(w.Types))
			}
			r := &w.Regions[n.Region]
			n.Col = min(max(n.Col+s.rng.IntN(7)-3, 0), r.Cols-1)
			n.Row = min(max(n.Row+s.rng.IntN(7)-3, 0), r.Rows-1)
			out = append(out, n)
		}
	case 8: // move object k elsewhere in the order (names and detection order)
		if len(out) > 1 {
			x := *o
			out = append(out[:k], out[k+1:]...)
			i := s.rng.IntN(len(out) + 1)
			out = append(out[:i], append([]sim.EnvObject{x}, out[i:]...)...)
		}
	case 9: // an edge of the grid
		r := &w.Regions[o.Region]
		switch s.rng.IntN(4) {
		case 0:
			o.Col = 0
		case 1:
			o.Col = r.Cols - 1
		case 2:
			o.Row = 0
		default:
			o.Row = r.Rows - 1
		}
	default: // objects of another close environment
		if len(donor) > 0 {
			d := donor[s.rng.IntN(len(donor))]
			if s.rng.IntN(2) == 0 || len(out) >= s.maxObjs {
				*o = d
			} else {
				out = append(out, d)
			}
		}
	}
	return out
}

// search runs the environment search over seeds until ctx ends, runs
// candidates have run (0: no bound) or every target is covered.
func (s *envSearch) search(ctx context.Context, seeds []*sim.Env, runs int) error {
	stop := func() bool {
		return ctx.Err() != nil || !s.active() || runs > 0 && s.stats.Runs >= runs ||
			s.stall && s.stats.Singles == int(min(s.w.ObjectSpace(), math.MaxInt)) && s.stats.Runs-s.lastFind > max(stallRuns, s.lastFind)
	}
	for _, e := range seeds {
		if stop() {
			return nil
		}
		if e == nil {
			continue
		}
		s.stats.Seeds++
		if err := s.run(ctx, e.Objects); err != nil {
			return s.ctxErr(ctx, err)
		}
	}
	if err := s.run(ctx, nil); err != nil { // the empty environment
		return s.ctxErr(ctx, err)
	}
	for _, objs := range s.packs() {
		if stop() {
			return nil
		}
		s.stats.Packs++
		if err := s.run(ctx, objs); err != nil {
			return s.ctxErr(ctx, err)
		}
	}
	space := s.w.ObjectSpace()
	// The singles, in an order drawn from the seed: a random start and a
	// stride prime to the space visit each once.
	start, stride := s.rng.Uint64N(space), coprimeStride(space, s.rng)
	var next uint64
	for round := 0; !stop(); round++ {
		if next < space && round%2 == 0 {
			o := s.w.ObjectOf((start + next*stride) % space)
			next++
			s.stats.Singles++
			if err := s.run(ctx, []sim.EnvObject{o}); err != nil {
				return s.ctxErr(ctx, err)
			}
			continue
		}
		t := s.targets[round%len(s.targets)]
		if t.done || len(t.elite) == 0 {
			continue
		}
		parent := t.elite[s.rng.IntN(len(t.elite))].objs
		donor := t.elite[s.rng.IntN(len(t.elite))].objs
		child := parent
		for n := 1 + s.rng.IntN(3); n > 0; n-- {
			child = s.mutate(child, donor)
		}
		if err := s.run(ctx, child); err != nil {
			return s.ctxErr(ctx, err)
		}
	}
	return nil
}

// ctxErr is nil when err comes from ctx ending (the search just stops).
func (s *envSearch) ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// coprimeStride is a stride in [1, n) prime to n (1 when n < 3).
func coprimeStride(n uint64, rng *rand.Rand) uint64 {
	if n < 3 {
		return 1
	}
	for {
		s := 1 + rng.Uint64N(n-1)
		if gcd(s, n) == 1 {
			return s
		}
	}
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// searchReason is the reason of a label the search left uncovered: what
// it tried.
func (s *envSearch) searchReason(ctx context.Context, id int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "not covered by the environment search: %d environment(s) run (%d seed(s) from the suite and the campaign, %d packed region(s), %d of the world's %d one-object environments, the rest mutations of those closest to each label)",
		s.stats.Runs, s.stats.Seeds, s.stats.Packs, s.stats.Singles, s.w.ObjectSpace())
	if n := s.stats.Reached[id]; n > 0 {
		fmt.Fprintf(&b, "; %d reached its point with the predicate false", n)
	} else {
		b.WriteString("; none reached its point")
	}
	switch {
	case ctx.Err() != nil:
		b.WriteString("; stopped by the time budget")
	case s.stall && s.active():
		fmt.Fprintf(&b, "; stopped after %d run(s) without a find", s.stats.Runs-s.lastFind)
	}
	return b.String()
}

// searchWorld resolves the labels of a plan with a world that no test
// covers (by holds every active label, Status set for those covered) with
// the environment search: an environment that covers one is replayed on
// the measurer (both programs, as every test) and, when it covers it
// there too, handed to o.Write; the labels it leaves end unresolved with
// what it tried.
func searchWorld(ctx context.Context, m *measure.Measurer, have map[string]bool, by map[int]*Label, o Options) (*Result, error) {
	ann := m.Annotated()
	w := m.World()
	res := &Result{}
	var ids []int
	for _, l := range ann.Active {
		if by[l.ID].Status == "" {
			ids = append(ids, l.ID)
		}
	}
	if len(ids) == 0 {
		for _, l := range ann.Active {
			res.Labels = append(res.Labels, *by[l.ID])
		}
		return res, nil
	}
	sctx := ctx
	_, bounded := ctx.Deadline()
	if !bounded && o.Runs <= 0 {
		timeout := o.Timeout
		if timeout <= 0 {
			timeout = DefaultTimeout
		}
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, timeout*time.Duration(len(ids)))
		defer cancel()
	}
	s, err := newEnvSearch(m, ids, o.Seed)
	if err != nil {
		return nil, err
	}
	s.stall = !bounded && o.Runs <= 0
	// found holds, without Write, the scenario found for each label.
	found := map[int]string{}
	s.found = func(objs []sim.EnvObject, hit []int) ([]int, error) {
		env := w.DecodeEnv(s.encode(objs), s.maxObjs)
		text := w.FormatEnv(env)
		t, err := m.ParseTest("search.env", text)
		if err != nil {
			return nil, fmt.Errorf("the environment found does not read as a test (a labelcov bug): %w", err)
		}
		got, err := m.Items(ctx, []*measure.Test{t})
		if err != nil {
			return nil, err
		}
		var adds []string
		var done []int
		for _, it := range got[0] {
			if !have[it] {
				adds = append(adds, it)
				if id, ok := labelOf(it); ok && by[id] != nil && by[id].Status == "" {
					done = append(done, id)
				}
			}
		}
		if len(done) == 0 {
			return nil, fmt.Errorf("labels %v: an environment that covered them did not on replay (a labelcov bug)", hit)
		}
		if o.Write == nil {
			var lines []string
			for _, ln := range strings.Split(string(text), "\n") {
				ln, _, _ = strings.Cut(ln, ";")
				lines = append(lines, ln)
			}
			line := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
			for _, id := range done {
				found[id] = line
			}
			return done, nil
		}
		name, err := o.Write(string(text), ".env", done[0], adds)
		if err != nil {
			return nil, err
		}
		res.Tests = append(res.Tests, name)
		for _, it := range adds {
			have[it] = true
		}
		for _, id := range done {
			by[id].Status, by[id].Test = measure.StatusCovered, name
		}
		return done, nil
	}
	var seeds []*sim.Env
	for _, t := range o.Seeds {
		seeds = append(seeds, t.Env)
	}
	if err := s.search(sctx, seeds, o.Runs); err != nil {
		return nil, err
	}
	for _, l := range ann.Active {
		r := by[l.ID]
		if r.Status == "" {
			r.Status = measure.StatusUnresolved
			if env, ok := found[l.ID]; ok {
				r.Reason = fmt.Sprintf("no test covers it; the environment search found a scenario that covers it on replay (gentests --solve writes it as a test): %s", env)
			} else {
				r.Reason = s.searchReason(sctx, l.ID)
			}
		}
		res.Labels = append(res.Labels, *r)
	}
	return res, nil
}
