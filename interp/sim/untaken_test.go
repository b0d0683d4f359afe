package sim

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/domain"
)

// pickNames is the object name a Grips action designator d names by
// decl's rule (its PickKey property: a designator by its NameKey
// property, else the value as a name), "" when none.
func pickNames(decl *domain.Signals, d *value.Designator) string {
	if d.Class != "action" || d.Type() != decl.Grips {
		return ""
	}
	v, ok := d.Get(decl.PickKey)
	if !ok {
		return ""
	}
	if od := v.Designator(); od != nil {
		if v, ok = od.Get(decl.NameKey); !ok {
			return ""
		}
	}
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString, value.KObject:
		return v.Str()
	}
	return ""
}

// TestUntakenStay is the differential test of what LabelSignals declares
// of objects no picking-up has named (domain.Signals.PickKey and the
// fields after it): on every bundled world, seeded random environments
// and sequences of random and well-formed actions, an object no Grips
// action has named stands where it started (so object-region equals
// initial-region, a declared region), held by no arm; object-type is a
// declared type; object-name gives the name; initial-objects-in-region
// lists exactly the objects that start there; every name is one MayName allows; every designator a
// detecting returns carries the object's name, type and region of the
// moment; and other actions than detecting and picking up return t or
// nil.
func TestUntakenStay(t *testing.T) {
	worlds, err := filepath.Glob("../../testdata/worlds/*.world")
	if err != nil || len(worlds) == 0 {
		t.Fatalf("worlds: %v", err)
	}
	runs := testenv.Sized(150, 3000)
	query := map[string]func(*State, []value.Value) (value.Value, error){}
	for _, q := range Queries() {
		query[q.Name] = q.Fn
	}
	ask := func(s *State, name string, i int) string {
		v, err := query[name](s, []value.Value{value.Symbol(s.names[i])})
		if err != nil {
			t.Fatalf("(%s %s): %v", name, s.names[i], err)
		}
		return v.String()
	}
	for wi, path := range worlds {
		w, err := LoadWorld(path)
		if err != nil {
			t.Fatal(err)
		}
		decl := LabelSignals(w)
		if query[decl.RegionQuery] == nil || query[decl.InitialRegionQuery] == nil || query[decl.TypeQuery] == nil {
			t.Fatalf("%s: the declared queries %q, %q, %q are not all queries", w.Name, decl.RegionQuery, decl.InitialRegionQuery, decl.TypeQuery)
		}
		rng := rand.New(rand.NewPCG(uint64(wi), 0x57a7))
		s := NewState(w)
		g := &signalGen{w: w, rng: rng, s: s}
		moved, detected := 0, 0
		for run := 0; run < runs; run++ {
			data := make([]byte, w.BytesPerObject()*rng.IntN(9))
			for i := range data {
				data[i] = byte(rng.Uint32())
			}
			s.Reset(w.DecodeEnv(data, 0))
			named := make([]bool, len(s.objs))
			for i := range s.objs {
				if !decl.MayName(s.names[i]) {
					t.Fatalf("%s: MayName(%q) is false", w.Name, s.names[i])
				}
				if r := ask(s, decl.InitialRegionQuery, i); !slices.Contains(decl.Regions, r) {
					t.Fatalf("%s: %s starts in %s, not one of %v", w.Name, s.names[i], r, decl.Regions)
				}
				if ty := ask(s, decl.TypeQuery, i); !slices.Contains(decl.Types, ty) {
					t.Fatalf("%s: %s has type %s, not one of %v", w.Name, s.names[i], ty, decl.Types)
				}
				if v, err := query[decl.NameQuery](s, []value.Value{s.perceived(i)}); err != nil || v.Kind() != value.KSymbol || v.Str() != s.names[i] {
					t.Fatalf("%s: (%s %s) is %v (%v)", w.Name, decl.NameQuery, s.names[i], v, err)
				}
			}
			// StartQuery lists exactly the objects that start in its region.
			for _, r := range decl.Regions {
				v, err := query[decl.StartQuery](s, []value.Value{value.Symbol(r)})
				if err != nil {
					t.Fatalf("%s: (%s %s): %v", w.Name, decl.StartQuery, r, err)
				}
				n := 0
				for l := v; l.Kind() == value.KCons; l = l.Cdr() {
					nv, _ := l.Car().Designator().Get(decl.NameKey)
					i := s.objectByName(nv.Str())
					if i < 0 || ask(s, decl.InitialRegionQuery, i) != r {
						t.Fatalf("%s: (%s %s) lists %s", w.Name, decl.StartQuery, r, l.Car())
					}
					n++
				}
				for i := range s.objs {
					if ask(s, decl.InitialRegionQuery, i) == r {
						n--
					}
				}
				if n != 0 {
					t.Fatalf("%s: (%s %s) misses objects", w.Name, decl.StartQuery, r)
				}
			}
			for step := 0; step < 30; step++ {
				d := g.action()
				if name := pickNames(decl, d); name != "" {
					for i := range s.objs {
						if s.names[i] == name {
							named[i] = true
						}
					}
				}
				res, err := s.Perform(d)
				for i := range s.objs {
					if named[i] {
						if s.objs[i] != s.init[i] {
							moved++
						}
						continue
					}
					if s.objs[i] != s.init[i] {
						t.Fatalf("%s: %s moved (%+v, started %+v) after %s though no picking-up named it", w.Name, s.names[i], s.objs[i], s.init[i], value.FromDesignator(d))
					}
					if a, b := ask(s, decl.RegionQuery, i), ask(s, decl.InitialRegionQuery, i); a != b {
						t.Fatalf("%s: %s untaken, in %s, started in %s", w.Name, s.names[i], a, b)
					}
				}
				if err == nil && d.Class == "action" && d.Type() != decl.Detects && d.Type() != decl.Grips && !res.IsNil() && res != value.T {
					t.Fatalf("%s: %s returned %s, neither t nor nil", w.Name, value.FromDesignator(d), res)
				}
				if err != nil || d.Class != "action" || d.Type() != decl.Detects {
					continue
				}
				for l := res; l.Kind() == value.KCons; l = l.Cdr() {
					od := l.Car().Designator()
					nv, _ := od.Get(decl.NameKey)
					i := s.objectByName(nv.Str())
					if i < 0 {
						t.Fatalf("%s: detected %s names no object", w.Name, l.Car())
					}
					detected++
					tv, _ := od.Get(decl.TypeKey)
					region := "nil"
					if rv, ok := od.Get(decl.RegionKey); ok {
						region = rv.String()
					}
					if tv.String() != ask(s, decl.TypeQuery, i) || region != ask(s, decl.RegionQuery, i) {
						t.Fatalf("%s: detected %s, but %s is a %s in %s", w.Name, l.Car(), s.names[i], ask(s, decl.TypeQuery, i), ask(s, decl.RegionQuery, i))
					}
				}
			}
		}
		if moved == 0 || detected == 0 {
			t.Errorf("%s: %d moves of named objects, %d detections in %d runs: the draws miss what the test is about", w.Name, moved, detected, runs)
		}
	}
}
