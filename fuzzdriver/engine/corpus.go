package engine

import (
	"math/rand/v2"
	"sort"
)

// entry is one kept input. data is never modified after the entry is added,
// so workers may mutate copies of it without holding the lock.
type entry struct {
	id    int    // queue id (the "id:" of its file)
	data  []byte // the input
	name  string // file name under queue/, "" when the campaign is in memory
	cov   []uint32
	picks int  // times scheduled for mutation
	favor bool // smallest input hitting some counter (AFL's "favored")
	// rarity is the fewest entries hitting any one of e's counters: 1 when
	// e alone reaches some counter (FairFuzz's rare branches, counted
	// over the corpus rather than over every run).
	rarity int32
	rareAt uint32 // a counter of cov hit by rarity entries (when cov is not empty)
}

// corpus is the set of kept inputs plus what scheduling needs. It is guarded
// by the engine's lock.
type corpus struct {
	entries []*entry
	top     []int32 // per counter: index in entries of the smallest input hitting it
	hits    []int32 // per counter: number of entries hitting it
	dirty   bool    // favor flags need recomputing

	// What pick keeps between picks, so that a pick recomputes only what
	// the last one changed: base[i] is entry i's weight before the decay
	// by its picks (it depends on n, favor and rarity, which change only
	// when an entry is added), weight[i] its weight, sums[i] the prefix
	// sum of weight[:i+1]. sums[:valid] are up to date; from valid on they
	// are recomputed in entry order, one addition each, so that every
	// sum is the float64 a from-scratch pass would compute (the same
	// operations in the same order) and the same entries are picked.
	base   []float64
	weight []float64
	sums   []float64
	valid  int
	stale  bool // base needs recomputing (an entry was added)
}

// add appends e, whose run left counters, and updates the smallest-input
// table that decides which entries are favored, and the entries' rarity.
func (c *corpus) add(e *entry, counters []uint8) {
	idx := int32(len(c.entries))
	c.entries = append(c.entries, e)
	for len(c.top) < len(counters) {
		c.top = append(c.top, -1)
		c.hits = append(c.hits, 0)
	}
	c.stale = true
	e.cov = e.cov[:0]
	for i, n := range counters {
		if n == 0 {
			continue
		}
		e.cov = append(e.cov, uint32(i))
		c.hits[i]++
		if t := c.top[i]; t < 0 || len(e.data) < len(c.entries[t].data) {
			c.top[i] = idx
			c.dirty = true
		}
	}
	c.rerate(e, counters)
}

// refavor marks the entries that are the smallest input for some counter:
// a small set that together covers everything seen, which AFL fuzzes most.
func (c *corpus) refavor() {
	if !c.dirty {
		return
	}
	for _, e := range c.entries {
		e.favor = false
	}
	for _, t := range c.top {
		if t >= 0 {
			c.entries[t].favor = true
		}
	}
	c.dirty = false
}

// rerate updates the entries' rarity after e was added with counters.
// Hits only grow, so an entry's rarity can change only when the counter it
// was reached at (rareAt) was hit again: any other counter of the entry had
// at least as many hits before and has no fewer now. Those entries, e and
// the entries with no counter (whose rarity is the number of entries) are
// rated again; the rest keep the rarity a full pass would compute.
func (c *corpus) rerate(e *entry, counters []uint8) {
	n := int32(len(c.entries))
	for _, o := range c.entries {
		if o == e || len(o.cov) == 0 || int(o.rareAt) < len(counters) && counters[o.rareAt] != 0 {
			o.rate(c.hits, n)
		}
	}
}

// rate computes e's rarity: the fewest hits of one of its counters, n (the
// number of entries) when it has none.
func (e *entry) rate(hits []int32, n int32) {
	if len(e.cov) == 0 {
		e.rarity = n
		return
	}
	e.rarity, e.rareAt = hits[e.cov[0]], e.cov[0] // at most n
	for _, i := range e.cov[1:] {
		if h := hits[i]; h < e.rarity {
			e.rarity, e.rareAt = h, i
		}
	}
}

// pick chooses the next entry to mutate and a splice partner. Weights favour
// recent entries (a new entry opened new code, its neighbourhood is
// unexplored), small entries (cheaper, and mutations hit the bytes that
// matter more often), favored entries, entries reaching a counter few
// other entries reach (the frontier: a comparison one step closer to
// flipping sits behind such a counter, FairFuzz's rare-branch insight), and
// entries picked few times.
func (c *corpus) pick(r *rand.Rand) (parent, other *entry) {
	n := len(c.entries)
	if n == 0 {
		return nil, nil
	}
	c.reweigh()
	sum := c.sums[n-1]
	x := r.Float64() * sum
	i := min(sort.SearchFloat64s(c.sums, x), n-1)
	parent = c.entries[i]
	parent.picks++
	c.weight[i] = c.base[i] / (1 + float64(parent.picks)/16)
	c.valid = min(c.valid, i)
	return parent, c.entries[r.IntN(n)]
}

// reweigh brings base, weight and sums up to date: every entry's after an
// add, else the prefix sums from the first entry whose weight changed.
func (c *corpus) reweigh() {
	n := len(c.entries)
	if c.stale {
		c.refavor()
		c.base = c.base[:0]
		c.weight = c.weight[:0]
		for i, e := range c.entries {
			w := 1 + 3*float64(i+1)/float64(n)
			if e.favor {
				w *= 4
			}
			w *= 64 / float64(64+len(e.data))
			w *= 1 + 7/float64(max(e.rarity, 1))
			c.base = append(c.base, w)
			c.weight = append(c.weight, w/(1+float64(e.picks)/16))
		}
		c.sums = append(c.sums[:0], c.weight...)
		c.valid = 0
		c.stale = false
	}
	sum := 0.0
	if c.valid > 0 {
		sum = c.sums[c.valid-1]
	}
	for i := c.valid; i < n; i++ {
		sum += c.weight[i]
		c.sums[i] = sum
	}
	c.valid = n
}

// energy is how many mutants of e a worker runs before picking again.
func (e *entry) energy() int {
	n := 16
	if e.favor {
		n *= 2
	}
	if e.picks <= 1 {
		n *= 2 // fresh entries get a first thorough look
	}
	return n
}
