package sim

import (
	"math/rand/v2"
	"os"
	"strings"
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

// TestDistinctCellsFalse: a world with two regions on one surface does
// not declare DistinctCells, and rightly: with a fine region over the
// left end of the kitchen counter after the counter's own (coarser)
// region, two objects the environment stands in different cells of the
// fine region lie in one cell of the counter's, which the simulator
// reports (the first region that holds a point is its region) for both.
func TestDistinctCellsFalse(t *testing.T) {
	src, err := os.ReadFile("../../testdata/worlds/kitchen.world")
	if err != nil {
		t.Fatal(err)
	}
	const one = "(region counter      (surface counter)      (grid 8 8))"
	if !strings.Contains(string(src), one) {
		t.Fatalf("kitchen.world no longer has %q", one)
	}
	split := "(region counter (surface counter) (grid 8 8))\n(region counter-end (surface counter) (grid 8 8) (area 0 0 0.4 0.6))"
	w, err := ParseWorld("split.world", []byte(strings.Replace(string(src), one, split, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if distinctCells(w) || LabelSignals(w).DistinctCells {
		t.Fatal("DistinctCells declared for a world with two regions on one surface")
	}
	if !LabelSignals(loadWorld(t, "kitchen")).DistinctCells {
		t.Fatal("DistinctCells not declared for the kitchen world itself")
	}
	env, err := w.ParseEnv("split.env", []byte(`(environment
	  (object bottle (region counter-end) (cell 4 4) (orientation 0))
	  (object cup (region counter-end) (cell 7 4) (orientation 0)))`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(w)
	s.Reset(env)
	res, err := s.Perform(action("detecting"))
	if err != nil {
		t.Fatal(err)
	}
	var ds []*value.Designator
	for c := res.Cons(); c != nil; c = c.Cdr.Cons() {
		ds = append(ds, c.Car.Designator())
	}
	if len(ds) != 2 {
		t.Fatalf("detected %v, want both objects", ds)
	}
	for _, key := range []string{"region", "cell"} {
		a, _ := ds[0].Get(key)
		b, _ := ds[1].Get(key)
		if !value.Equal(a, b) {
			t.Errorf("%s: %v and %v differ: the split world does not show what DistinctCells rules out", key, a, b)
		}
	}
	if a, _ := ds[0].Get("name"); func() bool { b, _ := ds[1].Get("name"); return value.Equal(a, b) }() {
		t.Errorf("one name for both objects: %v", ds)
	}
}
