package sim

import (
	"errors"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// levelsAt are the names of the torso levels whose height the torso is
// at.
func levelsAt(s *State, decl *domain.Reach) []string {
	var out []string
	for _, name := range decl.Levels {
		h, found := 0.0, false
		for _, l := range s.w.Robot.TorsoLevels {
			if l.Name == name {
				h, found = l.Height, true
			}
		}
		if found && h == s.torso {
			out = append(out, name)
		}
	}
	return out
}

// reachClaimed reports whether decl says placing d, performed in state s,
// never signals decl.Kind, and why.
func reachClaimed(s *State, sig *domain.Signals, d *value.Designator) (string, bool) {
	decl := sig.Reach
	if d.Class != "action" || d.Type() != sig.Places {
		return "", false
	}
	av, hasArm := d.Get(decl.ArmKey)
	if !hasArm {
		return "", false
	}
	arm, named := nameOf(av)
	if !named || !slices.Contains(sig.Arms, arm) {
		return "an arm property naming no arm", true
	}
	if s.loc < 0 {
		return "", false
	}
	name, cell, ok := placingCell(sig, d)
	if !ok {
		return "", false
	}
	for _, level := range levelsAt(s, decl) {
		if slices.Contains(decl.Cells[domain.ReachKey{Loc: s.w.Locations[s.loc].Name, Level: level, Arm: arm, Region: name}], cell) {
			return "a declared cell", true
		}
	}
	return "", false
}

// placingCell is the region or surface name and the cell (COL ROW) of
// placing d's target, false when it names no cell of two integers.
func placingCell(sig *domain.Signals, d *value.Designator) (string, [2]int, bool) {
	if d.Class != "action" || d.Type() != sig.Places {
		return "", [2]int{}, false
	}
	var target *value.Designator
	for _, k := range sig.PlaceKeys {
		if v, ok := d.Get(k); ok {
			target = v.Designator()
			break
		}
	}
	if target == nil {
		return "", [2]int{}, false
	}
	name := ""
	for _, k := range sig.PlaceRegionKeys {
		if v, ok := target.Get(k); ok {
			name, _ = nameOf(v)
			break
		}
	}
	cv, ok := target.Get(sig.PlaceCell)
	if !ok || cv.Len() != 2 || cv.Car().Kind() != value.KInt || cv.Cdr().Car().Kind() != value.KInt {
		return "", [2]int{}, false
	}
	return name, [2]int{int(cv.Car().Int()), int(cv.Cdr().Car().Int())}, true
}

// dropClaimed reports whether decl says placing d never signals
// decl.Reach.DropKind: its target names a region and a cell of Drops.
func dropClaimed(sig *domain.Signals, d *value.Designator) bool {
	name, cell, ok := placingCell(sig, d)
	return ok && slices.Contains(sig.Reach.Drops[name], cell)
}

// TestLabelReach checks LabelSignals' Reach against Perform: first every
// declared cell, from its location, torso level and arm, with every
// object type held (in turn at each orientation), never signals
// object-unreachable; then seeded random environments and sequences of
// random and well-formed actions: a placing the declaration says never
// signals it does not (nor the placing failure at a drop cell, also
// checked from every location with another object at the cell), moving the torso to a level by name returns only
// with the torso there, nothing else moves the torso, and every failure
// message holds a space.
func TestLabelReach(t *testing.T) {
	worlds, err := filepath.Glob("../../testdata/worlds/*.world")
	if err != nil || len(worlds) == 0 {
		t.Fatalf("worlds: %v", err)
	}
	sym := value.Symbol
	p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
	for wi, path := range worlds {
		w, err := LoadWorld(path)
		if err != nil {
			t.Fatal(err)
		}
		sig := LabelSignals(w)
		decl := sig.Reach
		if decl == nil || len(decl.Cells) == 0 {
			t.Fatalf("%s: no reach declared", w.Name)
		}
		// Every declared cell.
		s := NewState(w)
		env := &Env{Objects: []EnvObject{{}}}
		placed, k := 0, 0
		for key, cells := range decl.Cells {
			a := w.ArmIndex(key.Arm)
			for _, c := range cells {
				for ty := range w.Types {
					k++
					env.Objects[0] = EnvObject{Type: ty}
					s.Reset(env)
					for _, act := range []*value.Designator{
						{Class: "action", Props: []value.Prop{p("type", sym("parking-arms"))}},
						{Class: "action", Props: []value.Prop{p("type", sym("navigating")), p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(key.Loc))}}))}},
						{Class: "action", Props: []value.Prop{p("type", sym(decl.TorsoMoves)), p(decl.TorsoKeys[0], sym(key.Level))}},
					} {
						if _, err := s.Perform(act); err != nil {
							t.Fatalf("%s: %s: %v", w.Name, value.FromDesignator(act), err)
						}
					}
					s.objs[0].surface, s.objs[0].held, s.objs[0].orient = -1, a, k%len(w.Orientations)
					s.holding[a] = 0
					d := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(sig.Places)), p(decl.ArmKey, sym(key.Arm)),
						p("target", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("on", sym(key.Region)), p("cell", value.List(value.Int(int64(c[0])), value.Int(int64(c[1]))))}}))}}
					if why, ok := reachClaimed(s, sig, d); !ok || why != "a declared cell" {
						t.Fatalf("%s: %v is declared but reachClaimed does not see it", w.Name, key)
					}
					_, err := s.Perform(d)
					var f *Failure
					if errors.As(err, &f) && f.Kind == decl.Kind {
						t.Fatalf("%s: %s from %v signalled %s (%s), though declared reached", w.Name, value.FromDesignator(d), key, f.Kind, f.Message)
					}
					placed++
				}
			}
		}
		if placed == 0 {
			t.Fatalf("%s: no declared cell", w.Name)
		}
		// Every drop cell, from every location, with every type and
		// orientation held, another object standing at the cell: never
		// the placing failure (the object falls off before room counts).
		fell := 0
		env2 := &Env{Objects: []EnvObject{{}, {}}}
		for name, cells := range decl.Drops {
			ri := w.RegionIndex(name)
			if ri < 0 {
				sf := w.SurfaceIndex(name)
				for r := range w.Regions {
					if w.Regions[r].Surface == sf {
						ri = r
						break
					}
				}
			}
			for li, l := range w.Locations {
				if w.LocationIndex(l.Name) != li {
					continue
				}
				for _, c := range cells {
					for ty := range w.Types {
						for o := range w.Orientations {
							if k++; !testenv.IsLong() && k%len(w.Orientations) != 0 {
								continue // a quarter of the orientations, in turn
							}
							env2.Objects[0] = EnvObject{Type: ty, Orientation: o}
							env2.Objects[1] = EnvObject{Type: ty, Region: ri, Col: c[0], Row: c[1]}
							s.Reset(env2)
							for _, act := range []*value.Designator{
								{Class: "action", Props: []value.Prop{p("type", sym("parking-arms"))}},
								{Class: "action", Props: []value.Prop{p("type", sym("navigating")), p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(l.Name))}}))}},
							} {
								if _, err := s.Perform(act); err != nil {
									t.Fatalf("%s: %s: %v", w.Name, value.FromDesignator(act), err)
								}
							}
							s.objs[0].surface, s.objs[0].held = -1, 0
							s.holding[0] = 0
							d := &value.Designator{Class: "action", Props: []value.Prop{p("type", sym(sig.Places)), p(decl.ArmKey, sym(w.Robot.Arms[0].Name)),
								p("target", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("on", sym(name)), p("cell", value.List(value.Int(int64(c[0])), value.Int(int64(c[1]))))}}))}}
							if !dropClaimed(sig, d) {
								t.Fatalf("%s: %s: dropClaimed does not see the declared cell", w.Name, value.FromDesignator(d))
							}
							_, err := s.Perform(d)
							var f *Failure
							if errors.As(err, &f) && f.Kind == decl.DropKind {
								t.Fatalf("%s: %s from %s signalled %s (%s), though a drop cell", w.Name, value.FromDesignator(d), l.Name, f.Kind, f.Message)
							}
							if err == nil {
								fell++
								if !onFloor(s, 0) {
									t.Fatalf("%s: %s from %s returned with the object on a surface", w.Name, value.FromDesignator(d), l.Name)
								}
							}
						}
					}
				}
			}
		}
		if len(decl.Drops) > 0 && fell == 0 {
			t.Errorf("%s: no placing at a drop cell returned: the check tests nothing", w.Name)
		}
		// Random scenarios.
		rng := rand.New(rand.NewPCG(uint64(wi), 0x7eac))
		g := &signalGen{w: w, rng: rng, s: s}
		runs := testenv.Sized(150, 3000)
		claimed, unreached := 0, 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*rng.IntN(9))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			for step := 0; step < 30; step++ {
				d := g.action()
				torso := s.torso
				why, claim := reachClaimed(s, sig, d)
				var level string
				if d.Class == "action" && d.Type() == decl.TorsoMoves {
					for _, k := range decl.TorsoKeys {
						if v, ok := d.Get(k); ok {
							if v.Kind() == value.KSymbol && slices.Contains(decl.Levels, v.Str()) {
								level = v.Str()
							}
							break
						}
					}
				}
				_, err := s.Perform(d)
				var f *Failure
				if err != nil && !errors.As(err, &f) {
					t.Fatalf("%s: %v is no *Failure", w.Name, err)
				}
				if claim {
					claimed++
				}
				// Messages are sentences: never a name (feasible's reach
				// rule takes no failure message for an arm's name).
				if f != nil && !strings.Contains(f.Message, " ") {
					t.Fatalf("%s: %s failed with message %q, no sentence", w.Name, value.FromDesignator(d), f.Message)
				}
				if f != nil && f.Kind == decl.DropKind && dropClaimed(sig, d) {
					t.Fatalf("%s: %s signalled %s (%s) at a drop cell", w.Name, value.FromDesignator(d), f.Kind, f.Message)
				}
				if f != nil && f.Kind == decl.Kind {
					unreached++
					if claim {
						t.Fatalf("%s: %s signalled %s (%s), though declared never to (%s)", w.Name, value.FromDesignator(d), f.Kind, f.Message, why)
					}
				}
				switch {
				case d.Class == "action" && d.Type() == decl.TorsoMoves && err == nil && level != "":
					if !slices.Contains(levelsAt(s, decl), level) {
						t.Fatalf("%s: %s returned with the torso at %g", w.Name, value.FromDesignator(d), s.torso)
					}
				case d.Class == "action" && d.Type() == decl.TorsoMoves && err == nil:
				case s.torso != torso:
					t.Fatalf("%s: %s moved the torso from %g to %g", w.Name, value.FromDesignator(d), torso, s.torso)
				}
			}
		}
		if runs >= 1000 && (claimed == 0 || unreached == 0) {
			t.Errorf("%s: %d placing(s) declared to reach, %d unreached in %d runs: the draws miss what Reach declares", w.Name, claimed, unreached, runs)
		}
	}
}
