package sim

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// causeHolds evaluates c on action designator d (or on query arguments
// args when d is nil) in state s, before the action.
func causeHolds(c domain.Cause, s *State, d *value.Designator, args []value.Value) bool {
	switch c.Kind {
	case domain.Always:
		return true
	case domain.ArmNotParked:
		return slices.Contains(s.parked, false)
	}
	var v value.Value
	ok := false
	if d != nil {
		for _, k := range c.Keys {
			if v, ok = d.Get(k); ok {
				break
			}
		}
	} else if c.Arg < len(args) {
		v, ok = args[c.Arg], true
	}
	if !ok {
		return !c.AbsentOK
	}
	if sd := v.Designator(); sd != nil && c.Sub != "" {
		if v, ok = sd.Get(c.Sub); !ok {
			return true
		}
	}
	switch {
	case v.Kind() == value.KSymbol:
		return !slices.Contains(c.Names, v.Str())
	case v.IsNumber() && c.Range != nil:
		x := v.Number()
		return !(x >= c.Range.Lo && x <= c.Range.Hi)
	}
	return true
}

// allowed reports whether sigs declare kind with a cause that holds.
func allowed(sigs []domain.Signal, kind string, s *State, d *value.Designator, args []value.Value) bool {
	for _, sg := range sigs {
		if sg.Kind == kind && causeHolds(sg.Cause, s, d, args) {
			return true
		}
	}
	return false
}

// signalGen draws action designators and query arguments from a world's
// names, names it does not have and edge values.
type signalGen struct {
	w   *World
	rng *rand.Rand
	s   *State
}

func (g *signalGen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

// name is a world name of some kind, or one no world has.
func (g *signalGen) name() value.Value {
	n := namesOf(g.w)
	var pool []string
	for _, names := range [][]string{n.locs, n.levels, n.arms, n.regions, n.types, n.furniture} {
		pool = append(pool, names...)
	}
	pool = append(pool, g.s.names...)
	pool = append(pool, "nowhere", "middle-arm", "sky", "left", "right", "center")
	name := g.pick(pool)
	switch g.rng.IntN(8) {
	case 0:
		return value.Keyword(name)
	case 1:
		return value.String(name)
	}
	return value.Symbol(name)
}

func (g *signalGen) number() value.Value {
	r := g.w.Robot
	xs := []float64{r.TorsoMin, r.TorsoMax, r.TorsoMin - 1e-9, r.TorsoMax + 1e-9, (r.TorsoMin + r.TorsoMax) / 2,
		math.NaN(), math.Inf(1), math.Inf(-1), -1, 0, 1, 2.5, 100, g.w.Room.X1 / 2, g.w.Room.Y1 / 2}
	x := xs[g.rng.IntN(len(xs))]
	if x == math.Trunc(x) && !math.IsInf(x, 0) && g.rng.IntN(2) == 0 {
		return value.Int(int64(x))
	}
	return value.Float(x)
}

func (g *signalGen) desig(class string, keys []string, depth int) value.Value {
	d := &value.Designator{Class: class}
	for _, k := range keys {
		if g.rng.IntN(3) > 0 {
			d.Props = append(d.Props, value.Prop{Key: k, Val: g.val(depth + 1)})
		}
	}
	return value.FromDesignator(d)
}

// val is an argument value: a name, a number, a list, nil, t, or a
// location or object designator.
func (g *signalGen) val(depth int) value.Value {
	k := g.rng.IntN(12)
	if depth > 2 && k >= 8 {
		k = 0
	}
	switch k {
	case 0, 1, 2, 3:
		return g.name()
	case 4, 5:
		return g.number()
	case 6:
		if g.rng.IntN(2) == 0 {
			return value.Nil
		}
		return value.T
	case 7:
		return value.List(value.Int(int64(g.rng.IntN(20)-2)), value.Int(int64(g.rng.IntN(20)-2)))
	case 8:
		return g.desig("location", []string{"name", "at", "side", "on", "region", "cell"}, depth)
	case 9:
		return value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{{Key: "pose", Val: value.List(g.number(), g.number(), g.number())}}})
	case 10:
		return g.desig("object", []string{"type", "name"}, depth)
	}
	if len(g.s.objs) > 0 {
		return g.s.perceived(g.rng.IntN(len(g.s.objs)))
	}
	return value.Nil
}

func (g *signalGen) action() *value.Designator {
	types := append(ActionNames(), "flying")
	d := &value.Designator{Class: "action"}
	if g.rng.IntN(30) == 0 {
		d.Class = "location"
	}
	if g.rng.IntN(30) > 0 {
		d.Props = append(d.Props, value.Prop{Key: "type", Val: value.Symbol(g.pick(types))})
	}
	for _, k := range []string{"location", "target", "height", "level", "position", "arm", "object"} {
		if g.rng.IntN(4) == 0 {
			d.Props = append(d.Props, value.Prop{Key: k, Val: g.val(0)})
		}
	}
	// Often a well-formed action, so that the geometry and the state
	// decide (and the arms get unparked by picking and placing).
	if g.rng.IntN(2) == 0 {
		return g.wellFormed()
	}
	return d
}

func (g *signalGen) wellFormed() *value.Designator {
	w := g.w
	n := namesOf(w)
	locs, arms, levels := n.locs, n.arms, n.levels
	sym := value.Symbol
	p := func(k string, v value.Value) value.Prop { return value.Prop{Key: k, Val: v} }
	a := func(ps ...value.Prop) *value.Designator { return &value.Designator{Class: "action", Props: ps} }
	switch g.rng.IntN(7) {
	case 0:
		return a(p("type", sym("navigating")), p("location", value.FromDesignator(&value.Designator{Class: "location", Props: []value.Prop{p("name", sym(g.pick(locs)))}})))
	case 1:
		return a(p("type", sym("moving-torso")), p("height", sym(g.pick(levels))))
	case 2:
		if g.rng.IntN(2) == 0 {
			return a(p("type", sym("parking-arms")))
		}
		return a(p("type", sym("parking-arms")), p("arm", sym(g.pick(arms))))
	case 3:
		return a(p("type", sym("detecting")))
	case 4:
		if len(g.s.objs) == 0 {
			return a(p("type", sym("detecting")))
		}
		return a(p("type", sym("picking-up")), p("arm", sym(g.pick(arms))), p("object", g.s.perceived(g.rng.IntN(len(g.s.objs)))))
	}
	r := w.Regions[g.rng.IntN(len(w.Regions))]
	target := []value.Prop{p("on", sym(r.Name))}
	if g.rng.IntN(2) == 0 {
		target = append(target, p("cell", value.List(value.Int(int64(g.rng.IntN(r.Cols))), value.Int(int64(g.rng.IntN(r.Rows))))))
	}
	return a(p("type", sym("placing")), p("arm", sym(g.pick(arms))), p("target", value.FromDesignator(&value.Designator{Class: "location", Props: target})))
}

// TestLabelSignals is the differential test of LabelSignals: on every
// bundled world, seeded random environments and sequences of random
// and well-formed actions (and random query calls), every failure an
// action or a query signals is declared, with a cause that holds on its
// arguments and the state before it.
func TestLabelSignals(t *testing.T) {
	worlds, err := filepath.Glob("../../testdata/worlds/*.world")
	if err != nil || len(worlds) == 0 {
		t.Fatalf("worlds: %v", err)
	}
	runs := testenv.Sized(150, 3000)
	for wi, path := range worlds {
		w, err := LoadWorld(path)
		if err != nil {
			t.Fatal(err)
		}
		decl := LabelSignals(w)
		if len(decl.Perceived["type"]) != len(w.Types) || len(decl.Perceived["region"]) < len(w.Regions) {
			t.Errorf("%s: Perceived %v does not list the world's types and regions", w.Name, decl.Perceived)
		}
		rng := rand.New(rand.NewPCG(uint64(wi), 0x516e))
		s := NewState(w)
		g := &signalGen{w: w, rng: rng, s: s}
		seen := map[string]int{}
		seenRegion := map[string]int{}
		falls := 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*rng.IntN(9))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			for i := range s.objs {
				if onFloor(s, i) {
					t.Fatalf("%s: environment %x starts with an object on the floor", w.Name, data)
				}
			}
			for step := 0; step < 30; step++ {
				d := g.action()
				before := slices.Clone(s.parked)
				at := s.loc
				var floorBefore []bool
				for i := range s.objs {
					floorBefore = append(floorBefore, onFloor(s, i))
				}
				holdBefore := slices.Clone(s.holding)
				res, err := s.Perform(d)
				if s.loc != at && (d.Class != "action" || d.Type() != decl.Moves) {
					t.Fatalf("%s: %s moved the robot, which only %s may", w.Name, value.FromDesignator(d), decl.Moves)
				}
				checkGrips(t, w, decl, d, holdBefore, s.holding, err)
				for i := range s.objs {
					if onFloor(s, i) && !floorBefore[i] {
						falls++
						if !fallDeclared(decl, d) {
							t.Fatalf("%s: %s left an object on the floor, which LabelSignals does not declare", w.Name, value.FromDesignator(d))
						}
					}
				}
				if err == nil {
					if d.Class == "action" && d.Type() == decl.ParksArms {
						if _, has := d.Get("arm"); !has && slices.Contains(s.parked, false) {
							t.Fatalf("%s: %s returned with an arm unparked", w.Name, value.FromDesignator(d))
						}
					}
					if d.Class == "action" && d.Type() == decl.Moves {
						if name, ok := movesTo(decl, d); ok && (s.loc < 0 || w.Locations[s.loc].Name != name) {
							t.Fatalf("%s: %s returned with the robot elsewhere (location %d)", w.Name, value.FromDesignator(d), s.loc)
						}
						if name, ok := movesTo(decl, d); ok {
							if v, err := robotLocation(s); err != nil || v.Kind() != value.KSymbol || v.Str() != name {
								t.Fatalf("%s: after %s, (robot-location) is %v (%v)", w.Name, value.FromDesignator(d), v, err)
							}
						}
					}
					if d.Class == "action" && d.Type() == decl.Detects {
						checkPerceived(t, w, decl, res)
					}
					if d.Class == "action" && d.Type() == decl.Detects && at >= 0 {
						seen := decl.Seen[w.Locations[at].Name]
						for l := res; l.Kind() == value.KCons; l = l.Cdr() {
							r := "nil"
							if v, ok := l.Car().Designator().Get("region"); ok {
								r = v.Str()
							}
							seenRegion[r]++
							if !slices.Contains(seen, r) {
								t.Fatalf("%s: from %s, detecting saw %s in region %s, not declared (%v)", w.Name, w.Locations[at].Name, l.Car(), r, seen)
							}
						}
					}
					continue
				}
				var f *Failure
				if !errors.As(err, &f) {
					t.Fatalf("%s: %v is no *Failure", w.Name, err)
				}
				seen[f.Kind]++
				sigs, known := decl.Actions[d.Type()]
				if d.Class != "action" || !known {
					sigs = decl.Unknown
				}
				now := s.parked
				s.parked = before // causes read the state before the action
				ok := allowed(sigs, f.Kind, s, d, nil)
				s.parked = now
				if !ok {
					t.Fatalf("%s: %s signalled %s (%s), which LabelSignals does not allow", w.Name, value.FromDesignator(d), f.Kind, f.Message)
				}
			}
			for _, q := range Queries() {
				args := make([]value.Value, q.MinArgs)
				for i := range args {
					args[i] = g.val(0)
				}
				if _, err := q.Fn(s, args); err != nil {
					var f *Failure
					if !errors.As(err, &f) {
						t.Fatalf("%s: %s: %v is no *Failure", w.Name, q.Name, err)
					}
					seen[q.Name+":"+f.Kind]++
					if !allowed(decl.Queries[q.Name], f.Kind, s, nil, args) {
						t.Fatalf("%s: (%s %v) signalled %s (%s), which LabelSignals does not allow", w.Name, q.Name, args, f.Kind, f.Message)
					}
				}
			}
		}
		if falls == 0 && runs >= 1000 {
			t.Errorf("%s: no object fell in %d runs: the draws miss what FallCells declares", w.Name, runs)
		}
		if len(seenRegion) < 2 {
			t.Errorf("%s: detections saw objects in %v only", w.Name, seenRegion)
		}
		// The draws must reach the failures the declarations are about.
		for _, k := range []string{KindNavigationFailure, KindTorsoFailure, KindManipulationFailure, KindObjectNotFound, KindTypeError} {
			if seen[k] == 0 {
				t.Errorf("%s: no %s in %d runs: the draws miss it (%v)", w.Name, k, runs, seen)
			}
		}
	}
}

// checkPerceived checks every designator a detection returned against
// decl.Perceived: its type and region (nil when absent) are among the
// symbols declared for them.
func checkPerceived(t *testing.T, w *World, decl *domain.Signals, res value.Value) {
	t.Helper()
	for l := res; l.Kind() == value.KCons; l = l.Cdr() {
		d := l.Car().Designator()
		if d == nil {
			t.Fatalf("%s: detecting returned %s, no designator", w.Name, l.Car())
		}
		if v, ok := d.Get("cell"); ok {
			c, r := v.Car(), v.Cdr().Car()
			if c.Kind() != value.KInt || r.Kind() != value.KInt || c.Int() < 0 || r.Int() < 0 ||
				c.Int() >= int64(decl.PerceivedCell[0]) || r.Int() >= int64(decl.PerceivedCell[1]) {
				t.Fatalf("%s: detecting returned %s, whose cell lies outside PerceivedCell %v", w.Name, l.Car(), decl.PerceivedCell)
			}
		}
		for key, syms := range decl.Perceived {
			got := "nil"
			if v, ok := d.Get(key); ok {
				got = v.Str()
			}
			if !slices.Contains(syms, got) {
				t.Fatalf("%s: detecting returned %s, whose %s %s Perceived does not declare (%v)", w.Name, l.Car(), key, got, syms)
			}
		}
	}
}

// robotLocation calls the query robot-location on s.
func robotLocation(s *State) (value.Value, error) {
	for _, q := range Queries() {
		if q.Name == "robot-location" {
			return q.Fn(s, nil)
		}
	}
	return value.Nil, errors.New("no query robot-location")
}

// movesTo is the location name a Moves action designator names.
func movesTo(decl *domain.Signals, d *value.Designator) (string, bool) {
	for _, k := range decl.MoveKeys {
		v, ok := d.Get(k)
		if !ok {
			continue
		}
		if sd := v.Designator(); sd != nil {
			if v, ok = sd.Get(decl.MoveSub); !ok {
				return "", false
			}
		}
		if v.Kind() == value.KSymbol {
			return v.Str(), true
		}
		return "", false
	}
	return "", false
}

func onFloor(s *State, i int) bool { return s.objs[i].surface < 0 && s.objs[i].held < 0 }

// fallDeclared reports whether decl allows action d to leave an object on
// the floor: a Places action whose target names a region or surface and
// a cell FallCells lists for it.
func fallDeclared(decl *domain.Signals, d *value.Designator) bool {
	name, cell, ok := placingCell(decl, d)
	return ok && slices.Contains(decl.FallCells[name], cell)
}

// checkGrips fails when action d, performed with the arms holding
// before (holding after), made an arm hold something other than as
// decl.Grips with its GripKey arm (or none named), or signalled one of
// GripFreeKinds while the arm it names is no arm or held something.
func checkGrips(t *testing.T, w *World, decl *domain.Signals, d *value.Designator, before, after []int, err error) {
	t.Helper()
	named := -1
	hasArm := false
	if d.Class == "action" {
		if v, ok := d.Get(decl.GripKey); ok {
			hasArm = true
			if name, ok := nameOf(v); ok {
				named = w.ArmIndex(name)
			}
		}
	}
	for a := range after {
		if before[a] < 0 && after[a] >= 0 {
			if d.Class != "action" || d.Type() != decl.Grips || hasArm && named != a {
				t.Fatalf("%s: %s made arm %d hold an object, which LabelSignals does not declare", w.Name, value.FromDesignator(d), a)
			}
		}
	}
	var f *Failure
	if err == nil || !errors.As(err, &f) || d.Class != "action" || d.Type() != decl.Grips || !slices.Contains(decl.GripFreeKinds, f.Kind) {
		return
	}
	if !hasArm {
		return // it uses a free arm
	}
	if named < 0 || !slices.Contains(decl.Arms, w.Robot.Arms[named].Name) || before[named] >= 0 {
		t.Fatalf("%s: %s signalled %s with its arm no arm or holding something, which LabelSignals does not declare", w.Name, value.FromDesignator(d), f.Kind)
	}
}
