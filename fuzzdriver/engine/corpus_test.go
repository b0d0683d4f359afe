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
		p.picks = 0 // measure the static weights, not the decay
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
	c.entries[4].picks = 1000
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
		p.picks = 0
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
