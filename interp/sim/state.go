package sim

import (
	"math"

	"github.com/labelcov/labelcov/interp/value"
)

// Failure kinds the simulator signals. They are nodes of the VM's kind tree
// (docs/language.md); torso-failure is the simulator's own and descends from
// plan-failure like any kind the VM does not know.
const (
	KindObjectNotFound      = "object-not-found"
	KindNavigationFailure   = "navigation-failure"
	KindManipulationFailure = "manipulation-failure"
	KindGraspingFailure     = "grasping-failure"
	KindObjectUnreachable   = "object-unreachable"
	KindPlacingFailure      = "placing-failure"
	KindTorsoFailure        = "torso-failure"
	KindTypeError           = "type-error"
)

// Failure is an action or query that cannot be carried out. The VM adapter
// turns it into a plan failure of the same kind.
type Failure struct {
	Kind    string
	Message string
}

func (f *Failure) Error() string { return f.Kind + ": " + f.Message }

// objState is one dynamic object. An object is on a surface (surface >= 0),
// held by an arm (held >= 0), or on the floor (both -1) after falling off
// an edge.
type objState struct {
	typ     int
	surface int
	u, v    float64
	orient  int
	held    int
}

// State is a world plus the positions of its objects and of the robot,
// ready for one plan run. It is not safe for concurrent use; make one State
// per goroutine (they may share the World).
type State struct {
	w *World

	init  []objState // as placed by the environment
	objs  []objState // current
	names []string
	syms  []value.Value // object names as symbols
	// desigs are the objects' designators (an object (type T) (name N)),
	// shared from the World: designators are immutable.
	desigs []value.Value
	perc   []percept // perceived designators, per object

	x, y, yaw float64
	loc       int // location index, -1 at a free pose
	torso     float64
	parked    []bool
	holding   []int // object index per arm, -1 when empty

	// Trace collects one record per performed action; Hits counts
	// performed actions per coverage bucket. Both are cleared by Reset.
	trace []ActionRecord
	hits  []uint32
}

// NewState makes a State for w with no objects; call Reset with an
// environment before running a plan.
func NewState(w *World) *State {
	s := &State{
		w:       w,
		parked:  make([]bool, len(w.Robot.Arms)),
		holding: make([]int, len(w.Robot.Arms)),
		hits:    make([]uint32, w.totalBucket),
	}
	s.Reset(&Env{})
	return s
}

// World returns the world s simulates.
func (s *State) World() *World { return s.w }

// Reset places the objects of env and puts the robot at its start, clearing
// trace and coverage hits. Objects with indices outside the world are
// skipped. It reuses the State's storage: after the first
// few runs it does not allocate.
func (s *State) Reset(env *Env) {
	if env == nil {
		env = &Env{}
	}
	w := s.w
	s.init = s.init[:0]
	s.names = s.names[:0]
	s.syms = s.syms[:0]
	s.desigs = s.desigs[:0]
	var counts [64]int
	for _, o := range env.Objects {
		if !w.valid(o) {
			// Environments from DecodeEnv and ParseEnv are always valid;
			// one built by hand with bad indices loses those objects
			// rather than crash the run.
			continue
		}
		r := &w.Regions[o.Region]
		u, v := r.Cell(o.Col, o.Row)
		s.init = append(s.init, objState{typ: o.Type, surface: r.Surface, u: u, v: v, orient: o.Orientation, held: -1})
		k := 0
		if o.Type < len(counts) {
			k = counts[o.Type]
			counts[o.Type]++
		} else {
			for _, q := range s.init[:len(s.init)-1] {
				if q.typ == o.Type {
					k++
				}
			}
		}
		s.names = append(s.names, w.ObjectName(o.Type, k))
		s.syms = append(s.syms, w.objectSymbol(o.Type, k))
		s.desigs = append(s.desigs, w.objectDesignator(o.Type, k))
	}
	s.objs = append(s.objs[:0], s.init...)
	if cap(s.perc) < len(s.objs) {
		s.perc = make([]percept, len(s.objs))
	} else {
		s.perc = s.perc[:len(s.objs)]
		clear(s.perc)
	}
	s.loc = w.Robot.Start
	if s.loc >= 0 {
		l := &w.Locations[s.loc]
		s.x, s.y, s.yaw = l.X, l.Y, l.Yaw
	} else {
		s.x, s.y, s.yaw = w.Room.X0, w.Room.Y0, 0
	}
	s.torso = w.Robot.TorsoInit
	for i := range s.parked {
		s.parked[i] = true
		s.holding[i] = -1
	}
	clear(s.trace) // drop references to old violation lists
	s.trace = s.trace[:0]
	clear(s.hits)
}

// NumObjects is the number of objects in the current environment.
func (s *State) NumObjects() int { return len(s.objs) }

// ObjectName returns the name of object i ("milk-2").
func (s *State) ObjectName(i int) string { return s.names[i] }

// Trace returns the actions performed since Reset. The slice is reused by
// the next Reset; copy it to keep it.
func (s *State) Trace() []ActionRecord { return s.trace }

// Hits returns the per-bucket action counts since Reset (reused by Reset).
func (s *State) Hits() []uint32 { return s.hits }

// objectByName returns the index of the object called name, or -1.
func (s *State) objectByName(name string) int {
	for i, n := range s.names {
		if n == name {
			return i
		}
	}
	return -1
}

// region returns the region holding an object on a surface, or -1: the
// first region (in declaration order) of its surface whose area contains
// the object's centre.
func (w *World) regionAt(surface int, u, v float64) int {
	for i := range w.Regions {
		r := &w.Regions[i]
		if r.Surface == surface && u >= r.U0 && u <= r.U1 && v >= r.V0 && v <= r.V1 {
			return i
		}
	}
	return -1
}

func (s *State) objRegion(o *objState) int {
	if o.surface < 0 {
		return -1
	}
	return s.w.regionAt(o.surface, o.u, o.v)
}

// worldPos returns the world coordinates of the centre of an object on a
// surface.
func (w *World) worldPos(o *objState) (x, y, z float64) {
	sf := &w.Surfaces[o.surface]
	fu := &w.Furniture[sf.Furniture]
	x, y = fu.local(o.u, o.v)
	return x, y, sf.Height + w.Types[o.typ].Height/2
}

// shoulder returns the world position of arm a's shoulder.
func (s *State) shoulder(a int) (x, y, z float64) {
	arm := &s.w.Robot.Arms[a]
	sy, cy := math.Sincos(s.yaw * math.Pi / 180)
	// forward (cy, sy); right (sy, -cy)
	x = s.x + arm.Forward*cy + arm.Lateral*sy
	y = s.y + arm.Forward*sy - arm.Lateral*cy
	return x, y, s.w.Robot.ShoulderHeight + s.torso
}

// reachDistance is the distance from arm a's shoulder to point (x, y, z).
func (s *State) reachDistance(a int, x, y, z float64) float64 {
	sx, sy, sz := s.shoulder(a)
	return math.Sqrt((x-sx)*(x-sx) + (y-sy)*(y-sy) + (z-sz)*(z-sz))
}

// torsoLevel is the index of the torso level nearest h, or -1 when the
// world declares none.
func (w *World) torsoLevel(h float64) int {
	best, bd := -1, math.Inf(1)
	for i, l := range w.Robot.TorsoLevels {
		if d := math.Abs(l.Height - h); d < bd {
			best, bd = i, d
		}
	}
	return best
}

func (s *State) numHeld() int {
	n := 0
	for _, h := range s.holding {
		if h >= 0 {
			n++
		}
	}
	return n
}

// visible reports whether object i can be perceived from where the robot
// stands: in range and field of view, not in its surface's hidden back
// strip, and not occluded by an object in front of it on the same surface.
func (s *State) visible(i int) bool {
	w := s.w
	o := &s.objs[i]
	if o.surface < 0 {
		return false
	}
	sf := &w.Surfaces[o.surface]
	fu := &w.Furniture[sf.Furniture]
	if sf.HiddenBack > 0 && o.v > fu.Depth-sf.HiddenBack {
		return false
	}
	ox, oy, _ := w.worldPos(o)
	dx, dy := ox-s.x, oy-s.y
	dist := math.Hypot(dx, dy)
	if dist > w.Robot.ViewRange {
		return false
	}
	if dist > 1e-9 {
		sy, cy := math.Sincos(s.yaw * math.Pi / 180)
		cosb := (dx*cy + dy*sy) / dist
		if cosb < math.Cos(w.Robot.FOV/2*math.Pi/180)-1e-12 {
			return false
		}
	}
	t := &w.Types[o.typ]
	hu, _ := w.half(o.typ, o.orient)
	ratio := w.Robot.OccludeRatio
	for j := range s.objs {
		q := &s.objs[j]
		if j == i || q.surface != o.surface || q.v >= o.v {
			continue
		}
		qt := &w.Types[q.typ]
		qhu, _ := w.half(q.typ, q.orient)
		cover := math.Min(o.u+hu, q.u+qhu) - math.Max(o.u-hu, q.u-qhu)
		if cover >= ratio*2*hu-1e-9 && qt.Height >= ratio*t.Height-1e-9 {
			return false
		}
	}
	return true
}
