package sim

import (
	"github.com/labelcov/labelcov/interp/value"
)

// Query is a builtin that plans and checks call to inspect the simulated
// world. Fn reads the State and never changes it. Arguments that denote an
// object accept an object designator with a name, an object handle or the
// object's name; regions and arms are symbols (or keywords).
type Query struct {
	Name             string
	MinArgs, MaxArgs int
	Doc              string
	Fn               func(s *State, args []value.Value) (value.Value, error)
}

// Queries returns the simulator's query builtins (documented in
// docs/world.md). The slice is fresh; callers may keep it.
func Queries() []Query {
	return []Query{
		{"object-type", 1, 1, "type of OBJ as a symbol", qObject(func(s *State, i int) value.Value {
			return s.w.typeSyms[s.objs[i].typ]
		})},
		{"object-name", 1, 1, "name of OBJ as a symbol", qObject(func(s *State, i int) value.Value {
			return s.syms[i]
		})},
		{"object-region", 1, 1, "region OBJ stands in now, nil when held, fallen or outside every region", qObject(func(s *State, i int) value.Value {
			return s.regionSym(s.objRegion(&s.objs[i]))
		})},
		{"initial-region", 1, 1, "region OBJ started in", qObject(func(s *State, i int) value.Value {
			return s.regionSym(s.objRegion(&s.init[i]))
		})},
		{"object-cell", 1, 1, "(COL ROW) of OBJ's cell in its current region, or nil", qObject(func(s *State, i int) value.Value {
			return s.cellOf(&s.objs[i])
		})},
		{"initial-cell", 1, 1, "(COL ROW) of OBJ's start cell", qObject(func(s *State, i int) value.Value {
			return s.cellOf(&s.init[i])
		})},
		{"object-surface", 1, 1, "surface OBJ stands on, or nil", qObject(func(s *State, i int) value.Value {
			if sf := s.objs[i].surface; sf >= 0 {
				return s.w.surfSyms[sf]
			}
			return value.Nil
		})},
		{"object-orientation", 1, 1, "orientation of OBJ in degrees", qObject(func(s *State, i int) value.Value {
			return value.Int(int64(s.w.Orientations[s.objs[i].orient]))
		})},
		{"object-position", 1, 1, "(X Y Z) world position of OBJ's centre, nil unless on a surface", qObject(func(s *State, i int) value.Value {
			o := &s.objs[i]
			if o.surface < 0 {
				return value.Nil
			}
			x, y, z := s.w.worldPos(o)
			return value.List(value.Float(x), value.Float(y), value.Float(z))
		})},
		{"object-held-by", 1, 1, "arm holding OBJ, or nil", qObject(func(s *State, i int) value.Value {
			if a := s.objs[i].held; a >= 0 {
				return s.w.armSyms[a]
			}
			return value.Nil
		})},
		{"object-on-floor-p", 1, 1, "t when OBJ fell off a surface", qObject(func(s *State, i int) value.Value {
			o := &s.objs[i]
			return value.Bool(o.surface < 0 && o.held < 0)
		})},
		{"arm-holding", 1, 1, "object designator of what ARM holds, or nil", func(s *State, args []value.Value) (value.Value, error) {
			name, _ := nameOf(args[0])
			a := s.w.ArmIndex(name)
			if a < 0 {
				return value.Nil, fail(KindTypeError, "the robot has no arm %s", args[0])
			}
			if i := s.holding[a]; i >= 0 {
				return s.objectDesignator(i), nil
			}
			return value.Nil, nil
		}},
		{"robot-location", 0, 0, "name of the location the robot stands at, nil at a free pose", func(s *State, _ []value.Value) (value.Value, error) {
			if s.loc >= 0 {
				return s.w.locSyms[s.loc], nil
			}
			return value.Nil, nil
		}},
		{"robot-pose", 0, 0, "(X Y YAW) of the robot base", func(s *State, _ []value.Value) (value.Value, error) {
			return value.List(value.Float(s.x), value.Float(s.y), value.Float(s.yaw)), nil
		}},
		{"torso-height", 0, 0, "current torso height", func(s *State, _ []value.Value) (value.Value, error) {
			return value.Float(s.torso), nil
		}},
		{"all-objects", 0, 0, "object designators of every object, in environment order", func(s *State, _ []value.Value) (value.Value, error) {
			return s.objectList(func(int) bool { return true }), nil
		}},
		{"objects-in-region", 1, 1, "object designators of the objects now in REGION", func(s *State, args []value.Value) (value.Value, error) {
			r, err := s.regionArg(args[0])
			if err != nil {
				return value.Nil, err
			}
			return s.objectList(func(i int) bool { return s.objRegion(&s.objs[i]) == r }), nil
		}},
		{"initial-objects-in-region", 1, 1, "object designators of the objects that started in REGION", func(s *State, args []value.Value) (value.Value, error) {
			r, err := s.regionArg(args[0])
			if err != nil {
				return value.Nil, err
			}
			return s.objectList(func(i int) bool { return s.objRegion(&s.init[i]) == r }), nil
		}},
		{"region-surface", 1, 1, "surface of REGION", func(s *State, args []value.Value) (value.Value, error) {
			r, err := s.regionArg(args[0])
			if err != nil {
				return value.Nil, err
			}
			return s.w.surfSyms[s.w.Regions[r].Surface], nil
		}},
		{"region-grid", 1, 1, "(COLS ROWS) of REGION", func(s *State, args []value.Value) (value.Value, error) {
			r, err := s.regionArg(args[0])
			if err != nil {
				return value.Nil, err
			}
			reg := &s.w.Regions[r]
			return value.List(value.Int(int64(reg.Cols)), value.Int(int64(reg.Rows))), nil
		}},
		{"world-regions", 0, 0, "names of the world's regions", func(s *State, _ []value.Value) (value.Value, error) {
			return value.List(s.w.regionSyms...), nil
		}},
		{"world-locations", 0, 0, "names of the world's locations", func(s *State, _ []value.Value) (value.Value, error) {
			return value.List(s.w.locSyms...), nil
		}},
		{"world-object-types", 0, 0, "names of the world's object types", func(s *State, _ []value.Value) (value.Value, error) {
			return value.List(s.w.typeSyms...), nil
		}},
	}
}

// QueryNames lists the names of the query builtins, so that a plan run
// without a world can link each to a function that signals no-world.
func QueryNames() []string {
	qs := Queries()
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Name
	}
	return out
}

func qObject(fn func(s *State, i int) value.Value) func(*State, []value.Value) (value.Value, error) {
	return func(s *State, args []value.Value) (value.Value, error) {
		i, f := s.resolveObject(args[0])
		if f != nil {
			return value.Nil, f
		}
		return fn(s, i), nil
	}
}

func (s *State) regionSym(r int) value.Value {
	if r < 0 {
		return value.Nil
	}
	return s.w.regionSyms[r]
}

func (s *State) cellOf(o *objState) value.Value {
	r := s.objRegion(o)
	if r < 0 {
		return value.Nil
	}
	i, j, _ := s.w.Regions[r].CellAt(o.u, o.v)
	return value.List(value.Int(int64(i)), value.Int(int64(j)))
}

func (s *State) regionArg(v value.Value) (int, error) {
	name, _ := nameOf(v)
	r := s.w.RegionIndex(name)
	if r < 0 {
		return -1, fail(KindTypeError, "no region %s in world %s", v, s.w.Name)
	}
	return r, nil
}

func (s *State) objectList(keep func(int) bool) value.Value {
	l := value.Nil
	for i := len(s.objs) - 1; i >= 0; i-- {
		if keep(i) {
			l = value.NewCons(s.objectDesignator(i), l)
		}
	}
	return l
}
