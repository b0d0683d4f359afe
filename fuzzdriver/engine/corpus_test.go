package engine

import (
	"math/rand/v2"
	"testing"
)

// Scheduling favours recent entries, small entries and favored entries.
func TestPickFavoursRecentSmallFavored(t *testing.T) {
	var c corpus
	add := func(id, size, counter int) {
		counters := make([]uint8, 4)
		counters[counter] = 1
		c.add(&entry{id: id, data: make([]byte, size)}, counters)
	}
	add(0, 200, 0) // old and big
	add(1, 4, 1)   // old and small
	add(2, 4, 2)   // recent and small
	add(3, 4, 2)   // as small as 2 for the same counter: 2 stays the favored one
	r := rand.New(rand.NewPCG(1, 1))
	counts := map[int]int{}
	for i := 0; i < 20000; i++ {
		p, other := c.pick(r)
		if other == nil {
			t.Fatal("no splice partner")
		}
		counts[p.id]++
		p.picks = 0 // measure the static weights, not the decay
	}
	if !(counts[2] > counts[1] && counts[1] > counts[0]) {
		t.Fatalf("picks %v: want recent-small > old-small > old-big", counts)
	}
	if c.entries[3].favor || !c.entries[2].favor {
		t.Fatal("favored flags wrong")
	}
	if counts[2] < 2*counts[3] {
		t.Fatalf("picks %v: the favored entry should be picked far more than its unfavored twin", counts)
	}
	// Picking an entry often lowers its weight (AFL's fuzz level).
	c.entries[2].picks = 1000
	before := counts[2]
	counts = map[int]int{}
	for i := 0; i < 20000; i++ {
		p, _ := c.pick(r)
		counts[p.id]++
		if p.id != 2 {
			p.picks = 0
		}
	}
	if counts[2]*4 > before {
		t.Fatalf("a much-picked entry keeps its weight: %d then %d", before, counts[2])
	}
}
