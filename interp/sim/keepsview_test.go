package sim

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// TestKeepsView checks LabelSignals' KeepsView on every bundled world:
// from seeded random environments and states (random actions, the robot
// at every location), a detection performed again after any sequence of
// the declared actions (torso moves to levels and heights, detections,
// some of them ill-formed) returns the same objects with the same
// properties, or fails the same way.
func TestKeepsView(t *testing.T) {
	runs := testenv.Sized(200, 3000)
	eachWorld(t, 0x5ee, func(w *World, decl *domain.Signals, s *State, g *signalGen, rng *rand.Rand) {
		if !slices.Contains(decl.KeepsView, decl.Detects) {
			t.Fatalf("%s: KeepsView %v lacks the detecting action", w.Name, decl.KeepsView)
		}
		n := namesOf(w)
		sym := value.Symbol
		p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
		compared, nonEmpty := 0, 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*(1+rng.IntN(8)))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			for step := rng.IntN(8); step > 0; step-- {
				_, _ = s.Perform(g.action())
			}
			nav := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.Moves)),
				p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(g.pick(n.locs)))}}))}}
			_, _ = s.Perform(&value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.ParksArms))}})
			_, _ = s.Perform(nav)
			detect := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.Detects))}}
			if rng.IntN(2) == 0 {
				detect.Props = append(detect.Props, p("object", value.FromDesignator(&value.Designator{Class: "object",
					Props: []value.Prop{p("type", sym(g.pick(n.types)))}})))
			}
			before, errBefore := s.Perform(detect)
			for step := 1 + rng.IntN(4); step > 0; step-- {
				typ := decl.KeepsView[rng.IntN(len(decl.KeepsView))]
				d := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(typ))}}
				switch rng.IntN(3) {
				case 0:
					d.Props = append(d.Props, p("height", sym(g.pick(n.levels))))
				case 1:
					d.Props = append(d.Props, p("height", g.number()))
				default:
					d.Props = append(d.Props, p("object", g.val(0)))
				}
				_, _ = s.Perform(d)
			}
			after, errAfter := s.Perform(detect)
			compared++
			if before.Kind() == value.KCons {
				nonEmpty++
			}
			var fb, fa *Failure
			errors.As(errBefore, &fb)
			errors.As(errAfter, &fa)
			if (errBefore == nil) != (errAfter == nil) || fb != nil && fa != nil && fb.Kind != fa.Kind || !value.Equal(before, after) {
				t.Fatalf("%s: a detection returned %v (%v), then %v (%v) after actions KeepsView declares", w.Name, before, errBefore, after, errAfter)
			}
		}
		if nonEmpty < compared/10 {
			t.Errorf("%s: only %d of %d detections saw anything: the draws miss what KeepsView is about", w.Name, nonEmpty, compared)
		}
	})
}

// checkRows checks PerceivedRows on a detected designator: a cell
// exactly with a region, its row within the rows the region shows.
func checkRows(t *testing.T, w *World, decl *domain.Signals, d value.Value) {
	t.Helper()
	rv, hasRegion := d.Designator().Get("region")
	cv, hasCell := d.Designator().Get("cell")
	if hasRegion != hasCell {
		t.Fatalf("%s: detected %v: a region without a cell or the reverse", w.Name, d)
	}
	if !hasCell {
		return
	}
	rows, listed := decl.PerceivedRows[rv.Str()]
	if row := cv.Cdr().Car().Int(); !listed || row < 0 || int(row) >= rows {
		t.Fatalf("%s: detected %v in row %d, beyond the %d rows PerceivedRows gives %s", w.Name, d, row, rows, rv.Str())
	}
}

// eachWorld runs f on every bundled world with its declarations, a state
// and a generator drawing from rng, seeded by the world's index and seed.
func eachWorld(t *testing.T, seed uint64, f func(w *World, decl *domain.Signals, s *State, g *signalGen, rng *rand.Rand)) {
	t.Helper()
	worlds, err := filepath.Glob("../../testdata/worlds/*.world")
	if err != nil || len(worlds) == 0 {
		t.Fatalf("worlds: %v", err)
	}
	for wi, path := range worlds {
		w, err := LoadWorld(path)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(wi), seed))
		s := NewState(w)
		f(w, LabelSignals(w), s, &signalGen{w: w, rng: rng, s: s}, rng)
	}
}

// TestFixed checks LabelSignals' Fixed on every bundled world: from
// seeded random environments and states, while only the declared actions
// are performed (moves to every location, torso moves, parking, some of
// them ill-formed), every detection lists each name once, and a name
// seen twice has the same designator both times; every detected
// designator has a cell exactly with a region, in a row PerceivedRows
// allows.
func TestFixed(t *testing.T) {
	runs := testenv.Sized(150, 2000)
	eachWorld(t, 0xf1ed, func(w *World, decl *domain.Signals, s *State, g *signalGen, rng *rand.Rand) {
		if !slices.Contains(decl.Fixed, decl.Detects) {
			t.Fatalf("%s: Fixed %v lacks the detecting action", w.Name, decl.Fixed)
		}
		n := namesOf(w)
		sym := value.Symbol
		p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
		again := 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*(1+rng.IntN(8)))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			for step := rng.IntN(8); step > 0; step-- {
				_, _ = s.Perform(g.action())
			}
			seen := map[string]value.Value{}
			for step := 0; step < 12; step++ {
				typ := decl.Fixed[rng.IntN(len(decl.Fixed))]
				d := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(typ))}}
				switch {
				case typ == decl.Moves && rng.IntN(4) > 0:
					d.Props = append(d.Props, p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(g.pick(n.locs)))}})))
				case typ == decl.Detects && rng.IntN(3) == 0:
					d.Props = append(d.Props, p("object", value.FromDesignator(&value.Designator{Class: "object", Props: []value.Prop{p("type", sym(g.pick(n.types)))}})))
				case rng.IntN(3) == 0:
					d.Props = append(d.Props, p("height", sym(g.pick(n.levels))))
				case rng.IntN(2) == 0:
					d.Props = append(d.Props, p(g.pick([]string{"location", "height", "arm", "object"}), g.val(0)))
				}
				if typ == decl.Moves && rng.IntN(2) == 0 {
					_, _ = s.Perform(&value.Designator{Class: "action", Props: []value.Prop{p("type", sym(decl.ParksArms))}})
				}
				res, err := s.Perform(d)
				if typ != decl.Detects || err != nil {
					continue
				}
				names := map[string]bool{}
				for l := res; l.Kind() == value.KCons; l = l.Cdr() {
					nv, _ := l.Car().Designator().Get("name")
					name := nv.Str()
					if names[name] {
						t.Fatalf("%s: a detection listed %s twice: %v", w.Name, name, res)
					}
					names[name] = true
					checkRows(t, w, decl, l.Car())
					if old, ok := seen[name]; ok {
						again++
						if !value.Equal(old, l.Car()) {
							t.Fatalf("%s: %s was detected as %v, then as %v, with only %v performed", w.Name, name, old, l.Car(), decl.Fixed)
						}
					}
					seen[name] = l.Car()
				}
			}
		}
		if again < runs/4 {
			t.Errorf("%s: only %d objects were detected twice in %d runs: the draws miss what Fixed is about", w.Name, again, runs)
		}
	})
}
