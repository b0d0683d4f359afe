package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// TestDistinctCells checks LabelSignals' DistinctCells on every bundled
// world: from seeded random environments, after random sequences of
// Fixed actions (navigating anywhere, parking, moving the torso,
// detecting), no two objects detections return under different names
// (in one detection or in two) have the same region and cell.
func TestDistinctCells(t *testing.T) {
	runs := testenv.Sized(200, 3000)
	eachWorld(t, 0xd15c, func(w *World, decl *domain.Signals, s *State, g *signalGen, rng *rand.Rand) {
		if !decl.DistinctCells || decl.CellKey == "" {
			t.Fatalf("%s: DistinctCells not declared: the test checks nothing", w.Name)
		}
		n := namesOf(w)
		sym := value.Symbol
		p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
		pairs := 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*(2+rng.IntN(15)))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			var ds []*value.Designator // every object detected in this run
			for step := 1 + rng.IntN(8); step > 0; step-- {
				var d *value.Designator
				switch typ := decl.Fixed[rng.IntN(len(decl.Fixed))]; typ {
				case decl.Moves:
					d = &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(typ)),
						p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(g.pick(n.locs)))}}))}}
				case "moving-torso":
					d = &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(typ)), p("height", sym(g.pick(n.levels)))}}
				default:
					d = &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(typ))}}
				}
				_, _ = s.Perform(d)
				res, err := s.Perform(&value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.Detects))}})
				if err != nil {
					continue
				}
				old := len(ds)
				for c := res.Cons(); c != nil; c = c.Cdr.Cons() {
					ds = append(ds, c.Car.Designator())
				}
				for i := old; i < len(ds); i++ {
					a := ds[i]
					for _, b := range ds[:i] {
						an, _ := a.Get(decl.NameKey)
						bn, _ := b.Get(decl.NameKey)
						ar, aok := a.Get(decl.RegionKey)
						br, bok := b.Get(decl.RegionKey)
						ac, cok := a.Get(decl.CellKey)
						bc, dok := b.Get(decl.CellKey)
						if value.Equal(an, bn) || !aok || !bok || !cok || !dok || !value.Equal(ar, br) {
							continue
						}
						pairs++
						if value.Equal(ac, bc) {
							t.Fatalf("%s: %v and %v detected in one cell (this detection or an earlier one) after Fixed actions only", w.Name, a, b)
						}
					}
				}
			}
		}
		if pairs < runs {
			t.Errorf("%s: only %d pairs of objects in one region compared in %d runs: the draws miss the fact", w.Name, pairs, runs)
		}
	})
}
