package engine

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// setPicks sets e's pick count behind pick's back, so the weights pick
// keeps must be recomputed.
func (c *corpus) setPicks(e *entry, n int) {
	e.picks = n
	c.stale = true
}

// Scheduling favours recent entries, small entries and favored entries.
func TestPickFavoursRecentSmallFavored(t *testing.T) {
	var c corpus
	add := func(id, size, counter int) {
		counters := make([]uint8, 4)
		counters[counter] = 1
		c.add(&entry{id: id, data: make([]byte, size)}, counters)
	}
	add(0, 200, 0) // old and big
	add(0, 4, 0)   // keeps 0's counter from being rare (1 is 0's twin for it)
	add(1, 4, 1)   // old and small
	add(1, 4, 1)
	add(2, 4, 2) // recent and small
	add(3, 4, 2) // as small as 2 for the same counter: 2 stays the favored one
	r := rand.New(rand.NewPCG(1, 1))
	counts := map[int]int{}
	for i := 0; i < 20000; i++ {
		p, other := c.pick(r)
		if other == nil {
			t.Fatal("no splice partner")
		}
		counts[p.id]++
		c.setPicks(p, 0) // measure the static weights, not the decay
	}
	if !(counts[2] > counts[1] && counts[1] > counts[0]) {
		t.Fatalf("picks %v: want recent-small > old-small > old-big", counts)
	}
	if c.entries[5].favor || !c.entries[4].favor {
		t.Fatal("favored flags wrong")
	}
	if counts[2] < 2*counts[3] {
		t.Fatalf("picks %v: the favored entry should be picked far more than its unfavored twin", counts)
	}
	// Picking an entry often lowers its weight (AFL's fuzz level).
	c.setPicks(c.entries[4], 1000)
	before := counts[2]
	counts = map[int]int{}
	for i := 0; i < 20000; i++ {
		p, _ := c.pick(r)
		counts[p.id]++
		if p.id != 2 {
			c.setPicks(p, 0)
		}
	}
	if counts[2]*4 > before {
		t.Fatalf("a much-picked entry keeps its weight: %d then %d", before, counts[2])
	}
}

// An entry reaching a counter no other entry reaches is picked more than
// entries whose counters are common, even older than them: it sits at the
// frontier (a comparison one mutation closer to flipping).
func TestPickFavoursRareCounters(t *testing.T) {
	var c corpus
	add := func(id int, hit ...int) {
		counters := make([]uint8, 4)
		for _, i := range hit {
			counters[i] = 1
		}
		c.add(&entry{id: id, data: make([]byte, 8)}, counters)
	}
	add(0, 0, 1) // alone on counter 1, and the oldest
	add(1, 0, 2) // counter 2 is shared by 1, 2 and 3
	add(2, 0, 2)
	add(3, 0, 2)
	r := rand.New(rand.NewPCG(2, 2))
	counts := map[int]int{}
	for i := 0; i < 20000; i++ {
		p, _ := c.pick(r)
		counts[p.id]++
		c.setPicks(p, 0)
	}
	// 0 and 1 are both favored (the first, smallest entry for a counter)
	// and 1 is more recent: only rarity puts 0 ahead.
	if !c.entries[0].favor || !c.entries[1].favor {
		t.Fatal("favored flags wrong")
	}
	if c.entries[0].rarity != 1 || c.entries[1].rarity != 3 {
		t.Fatalf("rarity %d, %d; want 1, 3", c.entries[0].rarity, c.entries[1].rarity)
	}
	if counts[0] < 3*counts[1]/2 {
		t.Fatalf("picks %v: the entry alone on a counter should lead", counts)
	}
}

// scratchPick is pick as it was before pick kept its weights between
// picks and the corpus its entries' rarity between adds: every entry's
// favor flag, rarity and weight and the prefix sums computed anew from the
// entries alone, in entry order. sums receives the prefix sums.
func scratchPick(entries []*entry, r *rand.Rand, sums []float64) (parent, other *entry, _ []float64) {
	n := len(entries)
	if n == 0 {
		return nil, nil, sums
	}
	hits := map[uint32]int32{}
	top := map[uint32]int{} // the first of the smallest entries on each counter
	for k, e := range entries {
		for _, i := range e.cov {
			hits[i]++
			if t, ok := top[i]; !ok || len(e.data) < len(entries[t].data) {
				top[i] = k
			}
		}
	}
	favor := map[int]bool{}
	for _, k := range top {
		favor[k] = true
	}
	sums = sums[:0]
	sum := 0.0
	for i, e := range entries {
		rarity := int32(n)
		for _, k := range e.cov {
			rarity = min(rarity, hits[k])
		}
		w := 1 + 3*float64(i+1)/float64(n)
		if favor[i] {
			w *= 4
		}
		w *= 64 / float64(64+len(e.data))
		w *= 1 + 7/float64(max(rarity, 1))
		w /= 1 + float64(e.picks)/16
		sum += w
		sums = append(sums, sum)
	}
	x := r.Float64() * sum
	i := min(sort.SearchFloat64s(sums, x), n-1)
	parent = entries[i]
	parent.picks++
	return parent, entries[r.IntN(n)], sums
}

// pick keeps weights and prefix sums between picks and recomputes only
// what changed, and add updates only the rarity that may have changed;
// over random corpora grown, picked from and reset in random orders, pick
// picks the same entries as the from-scratch computation and its prefix
// sums are the same float64s, bit for bit.
func TestPickIncrementalMatchesScratch(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		ops := rand.New(rand.NewPCG(seed, 0))
		var inc corpus
		var ref []*entry // the same entries, for scratchPick
		rInc := rand.New(rand.NewPCG(seed, 1))
		rRef := rand.New(rand.NewPCG(seed, 1))
		width := 1 + ops.IntN(48)
		var sums []float64
		incremental := 0 // picks that reused the kept sums
		for step := 0; step < 400; step++ {
			switch k := ops.IntN(20); {
			case k < 3 || len(inc.entries) == 0:
				counters := make([]uint8, width)
				var cov []uint32
				density := []int{0, 2, 4, 16}[ops.IntN(4)] // one counter in density hit; none for 0
				for i := range counters {
					if density > 0 && ops.IntN(density) == 0 {
						counters[i] = uint8(1 + ops.IntN(255))
						cov = append(cov, uint32(i))
					}
				}
				size := ops.IntN(300)
				if ops.IntN(8) == 0 {
					width += ops.IntN(4) // later runs may have more counters
				}
				inc.add(&entry{id: step, data: make([]byte, size)}, counters)
				ref = append(ref, &entry{id: step, data: make([]byte, size), cov: cov})
			case k == 3:
				i, n := ops.IntN(len(inc.entries)), ops.IntN(40)
				inc.setPicks(inc.entries[i], n)
				ref[i].picks = n
			default:
				if !inc.stale && inc.valid > 0 {
					incremental++
				}
				inc.reweigh() // what pick does first: the sums it searches
				n := len(inc.entries)
				got := append([]float64(nil), inc.sums[:n]...)
				p, o := inc.pick(rInc)
				var q, u *entry
				q, u, sums = scratchPick(ref, rRef, sums)
				if p.id != q.id || o.id != u.id || p.picks != q.picks {
					t.Fatalf("seed %d step %d: picked %d+%d (picks %d), from scratch %d+%d (picks %d)",
						seed, step, p.id, o.id, p.picks, q.id, u.id, q.picks)
				}
				for i := range sums {
					if math.Float64bits(got[i]) != math.Float64bits(sums[i]) {
						t.Fatalf("seed %d step %d: sum %d is %v, from scratch %v", seed, step, i, got[i], sums[i])
					}
				}
			}
		}
		if incremental == 0 {
			t.Fatalf("seed %d: no pick reused the kept sums", seed)
		}
	}
}
