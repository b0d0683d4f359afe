package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// TestSpots checks LabelSignals' Spots and AllQuery on every bundled
// world: from seeded random environments, after every action of random
// sequences (well-formed ones, and placings on regions, surfaces and
// unknown names at cells inside and outside the grids), an object's
// place changed only by a picking-up that took it or a placing of the
// object the arm held; a placing with a cell that returned left the
// object in no region or at a spot Spots lists for the target's name
// and cell; no two objects stand at one point of a surface; and
// all-objects lists every object once. It also counts the placings that
// landed off the cell's centre (a drift): a declaration of the centres
// alone would be wrong, and the draws must show it.
func TestSpots(t *testing.T) {
	runs := testenv.Sized(150, 2000)
	all := -1
	for i, q := range Queries() {
		if q.Name == "all-objects" {
			all = i
		}
	}
	if all < 0 {
		t.Fatal("no all-objects query")
	}
	allObjects := Queries()[all].Fn
	drifted := 0
	eachWorld(t, 0x5907, func(w *World, decl *domain.Signals, s *State, g *signalGen, rng *rand.Rand) {
		if decl.Spots == nil || decl.AllQuery != "all-objects" {
			t.Fatalf("%s: Spots or AllQuery not declared: the test checks nothing", w.Name)
		}
		names := []string{"nowhere"}
		for _, r := range w.Regions {
			names = append(names, r.Name)
		}
		for _, sf := range w.Surfaces {
			names = append(names, sf.Name)
		}
		sym := value.Symbol
		p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
		landed := 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*(1+rng.IntN(12)))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			for step := 0; step < 60; step++ {
				d := g.wellFormed()
				name, col, row, cell := "", 0, 0, false
				held := slices.ContainsFunc(s.holding, func(h int) bool { return h >= 0 })
				if !held && len(s.objs) > 0 && rng.IntN(3) == 0 {
					d = &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.Grips)),
						p("arm", sym(g.pick(namesOf(w).arms))), p("object", s.perceived(rng.IntN(len(s.objs))))}}
				} else if held && rng.IntN(2) == 0 {
					name = g.pick(names)
					col, row, cell = rng.IntN(18)-1, rng.IntN(18)-1, rng.IntN(4) > 0
					target := []value.Prop{p("on", sym(name))}
					if cell {
						target = append(target, p("cell", value.List(value.Int(int64(col)), value.Int(int64(row)))))
					}
					d = &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.Places)),
						p("arm", sym(g.pick(namesOf(w).arms))), p("target", value.FromDesignator(&value.Designator{Class: "location", Props: target}))}}
				} else if d.Type() == decl.Places {
					tg, _ := d.Get("target")
					on, _ := tg.Designator().Get("on")
					name = on.Str()
					if c, ok := tg.Designator().Get("cell"); ok {
						col, row, cell = int(c.Car().Int()), int(c.Cdr().Car().Int()), true
					}
				}
				before := slices.Clone(s.objs)
				holding := slices.Clone(s.holding)
				_, err := s.Perform(d)
				for i := range s.objs {
					if s.objs[i] == before[i] {
						continue
					}
					switch {
					case d.Type() == decl.Grips && err == nil && s.objs[i].held >= 0 && before[i].held < 0:
					case d.Type() == decl.Places && err == nil && slices.Contains(holding, i) && s.objs[i].held < 0:
						r := s.objRegion(&s.objs[i])
						if !cell || r < 0 {
							continue
						}
						landed++
						sp := domain.Spot{Region: w.Regions[r].Name, At: [2]float64{s.objs[i].u, s.objs[i].v}}
						if !slices.Contains(decl.Spots(name, col, row), sp) {
							t.Fatalf("%s: %s left %s at %v, not among Spots(%s, %d, %d) = %v", w.Name, value.FromDesignator(d), s.names[i], sp, name, col, row, decl.Spots(name, col, row))
						}
						if ri := w.RegionIndex(name); ri >= 0 {
							if u, v := w.Regions[ri].Cell(col, row); u != sp.At[0] || v != sp.At[1] {
								drifted++
							}
						}
					default:
						t.Fatalf("%s: %s (error %v) moved %s from %+v to %+v", w.Name, value.FromDesignator(d), err, s.names[i], before[i], s.objs[i])
					}
				}
				for i := range s.objs {
					for j := range i {
						a, b := &s.objs[i], &s.objs[j]
						if a.surface >= 0 && a.surface == b.surface && a.u == b.u && a.v == b.v {
							t.Fatalf("%s: %s and %s stand at one point after %s", w.Name, s.names[i], s.names[j], value.FromDesignator(d))
						}
					}
				}
			}
			res, err := allObjects(s, nil)
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			for c := res.Cons(); c != nil; c = c.Cdr.Cons() {
				n, _ := c.Car.Designator().Get(decl.NameKey)
				if slices.Contains(seen, n.Str()) {
					t.Fatalf("%s: all-objects lists %s twice", w.Name, n)
				}
				seen = append(seen, n.Str())
			}
			if len(seen) != len(s.objs) {
				t.Fatalf("%s: all-objects lists %d objects of %d", w.Name, len(seen), len(s.objs))
			}
		}
		if landed < runs/10 {
			t.Errorf("%s: only %d placings with a cell landed in a region in %d runs: the draws miss the fact", w.Name, landed, runs)
		}
	})
	if drifted == 0 {
		t.Error("no placing drifted off its cell's centre on any world: the draws cannot tell Spots from the centres alone")
	}
}
