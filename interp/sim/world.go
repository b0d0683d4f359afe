package sim

import (
	"math"
	"strconv"

	"github.com/labelcov/labelcov/interp/value"
)

// World is the static part of a scenario, loaded from a .world file: room,
// furniture with its surfaces, the robot, object types, the regions where
// objects may start, orientations and action-coverage buckets. A World is
// immutable after loading and may be shared by any number of States.
type World struct {
	Name         string
	Room         Rect // x0 y0 x1 y1 in world coordinates (metres)
	Furniture    []Furniture
	Surfaces     []Surface
	Robot        Robot
	Locations    []Location
	Types        []ObjectType
	Regions      []Region
	Orientations []int // yaw in degrees, relative to the surface's frame
	Buckets      []BucketSpec

	// Grid is the number of cells p of every region.
	Grid int
	// bytesPerObject is b, the smallest b with 256^(b-1) < t·r·p·o <= 256^b.
	bytesPerObject int
	// objectSpace is t·r·p·o.
	objectSpace uint64
	// names[t][k] is the name of the (k+1)-th object of type t ("milk-3"),
	// precomputed so that resetting a state never formats strings.
	names [][]string
	// Symbols of names, precomputed so that queries and perception do not
	// allocate a Value per name.
	nameSyms   [][]value.Value
	nameDesigs [][]value.Value
	// halfU/halfV[t*len(Orientations)+o] are the half extents of the
	// footprint of type t at orientation o (see footprintUV).
	halfU, halfV                                     []float64
	typeSyms, regionSyms, locSyms, armSyms, surfSyms []value.Value
	// bucketBase[i] is the index of the first bucket of Buckets[i].
	bucketBase  []int
	totalBucket int
	actionSpec  [numActions]int // index into Buckets, or -1
}

// Rect is an axis-aligned rectangle.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Furniture is a piece of furniture: a rectangle of Width along its front
// edge and Depth into it. Pose is the world position of the middle of the
// front edge; Yaw (degrees) is the direction its front faces, i.e. towards a
// robot standing in front of it.
type Furniture struct {
	Name         string
	X, Y, Yaw    float64
	Width, Depth float64
	Surfaces     []int   // indices into World.Surfaces
	fx, fy       float64 // unit vector from the front edge into the furniture
	rx, ry       float64 // unit vector along the front edge, to a facing robot's right
	footprint    Rect    // world-axis bounding box, for navigation
}

// Surface is a horizontal surface of a piece of furniture (a table top, a
// shelf board). It spans the whole furniture rectangle in the furniture's
// local frame: u in [0, Width] from the left end (as seen by a robot facing
// it) and v in [0, Depth] from the front edge.
type Surface struct {
	Name      string
	Furniture int
	Height    float64
	// HiddenBack is the depth of the strip along the back edge in which
	// objects cannot be perceived (shelf boards hide what stands at the back).
	HiddenBack float64
}

// Robot describes the two-armed mobile manipulator.
type Robot struct {
	ShoulderHeight float64 // shoulder height with the torso at 0
	TorsoMin       float64
	TorsoMax       float64
	TorsoInit      float64
	TorsoLevels    []TorsoLevel
	Arms           []Arm
	CameraHeight   float64 // with the torso at 0
	FOV            float64 // horizontal field of view, degrees
	ViewRange      float64 // metres, horizontal
	// OccludeRatio: an object hides another behind it on the same surface
	// when it covers at least this fraction of the other's width and is at
	// least this fraction of its height.
	OccludeRatio float64
	// ParkBeforeNavigating makes navigating fail while an arm is unparked.
	ParkBeforeNavigating bool
	EdgeMargin           float64 // placing closer than this to an edge drifts
	EdgeDrift            float64 // ... by this much, outward
	Start                int     // index of the start location, or -1 (Room origin)
	Radius               float64 // base radius, for collision with furniture
}

// TorsoLevel is a named torso height: moving-torso accepts the name, and
// coverage buckets use the level nearest the current height.
type TorsoLevel struct {
	Name   string
	Height float64
}

// Arm is one arm. Lateral is the shoulder's offset along the robot's right
// axis (negative: on the robot's left); Reach is the maximum distance from
// the shoulder to a grasp point.
type Arm struct {
	Name    string
	Lateral float64
	Forward float64
	Reach   float64
}

// Location is a named place where the robot stands: in front of a piece of
// furniture at offset U along its front edge, Standoff metres away, facing
// it; or at a free world pose (Furniture == -1).
type Location struct {
	Name      string
	Furniture int
	Side      string // optional short name, so (a location (at table) (side left)) resolves
	U         float64
	Standoff  float64
	X, Y, Yaw float64 // resolved world pose of the robot base
}

// ObjectType is a kind of object. Width is along the surface's u axis at
// orientation 0, Depth along v, Height up. Ungraspable lists orientation
// indices at which grasping fails.
type ObjectType struct {
	Name                 string
	Width, Depth, Height float64
	Ungraspable          []int
}

// Region is where dynamic objects may start: a surface area divided into a
// Cols x Rows grid. Cell (i, j) has its centre at u = U0 + (i+0.5)·(U1−U0)/Cols,
// v = V0 + (j+0.5)·(V1−V0)/Rows; j = 0 is the row nearest the front edge.
type Region struct {
	Name           string
	Surface        int
	Cols, Rows     int
	U0, V0, U1, V1 float64
}

// Cell returns the centre of cell (i, j) in the surface frame.
func (r *Region) Cell(i, j int) (u, v float64) {
	u = r.U0 + (float64(i)+0.5)*(r.U1-r.U0)/float64(r.Cols)
	v = r.V0 + (float64(j)+0.5)*(r.V1-r.V0)/float64(r.Rows)
	return u, v
}

// CellAt returns the cell containing (u, v), clamped to the grid, and
// whether (u, v) lies inside the region's area.
func (r *Region) CellAt(u, v float64) (i, j int, inside bool) {
	inside = u >= r.U0 && u <= r.U1 && v >= r.V0 && v <= r.V1
	i = int(math.Floor((u - r.U0) / (r.U1 - r.U0) * float64(r.Cols)))
	j = int(math.Floor((v - r.V0) / (r.V1 - r.V0) * float64(r.Rows)))
	i = min(max(i, 0), r.Cols-1)
	j = min(max(j, 0), r.Rows-1)
	return i, j, inside
}

// BytesPerObject is b: how many bytes one object takes in a byte-encoded
// environment.
func (w *World) BytesPerObject() int { return w.bytesPerObject }

// ObjectSpace is t·r·p·o, the number of distinct object encodings.
func (w *World) ObjectSpace() uint64 { return w.objectSpace }

// ObjectName returns the name of the (k+1)-th object of type t, e.g. milk-2.
func (w *World) ObjectName(t, k int) string {
	if k < len(w.names[t]) {
		return w.names[t][k]
	}
	return w.Types[t].Name + "-" + strconv.Itoa(k+1)
}

// TypeIndex, RegionIndex, LocationIndex, SurfaceIndex, ArmIndex and
// FurnitureIndex look a name up; they return -1 when it is unknown.
func (w *World) TypeIndex(name string) int {
	for i := range w.Types {
		if w.Types[i].Name == name {
			return i
		}
	}
	return -1
}

func (w *World) RegionIndex(name string) int {
	for i := range w.Regions {
		if w.Regions[i].Name == name {
			return i
		}
	}
	return -1
}

func (w *World) LocationIndex(name string) int {
	for i := range w.Locations {
		if w.Locations[i].Name == name {
			return i
		}
	}
	return -1
}

func (w *World) SurfaceIndex(name string) int {
	for i := range w.Surfaces {
		if w.Surfaces[i].Name == name {
			return i
		}
	}
	return -1
}

func (w *World) ArmIndex(name string) int {
	for i := range w.Robot.Arms {
		if w.Robot.Arms[i].Name == name {
			return i
		}
	}
	return -1
}

func (w *World) FurnitureIndex(name string) int {
	for i := range w.Furniture {
		if w.Furniture[i].Name == name {
			return i
		}
	}
	return -1
}

// OrientationIndex returns the index of an orientation given in degrees.
func (w *World) OrientationIndex(deg int) int {
	for i, o := range w.Orientations {
		if o == deg {
			return i
		}
	}
	return -1
}

// local converts a point of furniture f's frame (u along the front edge from
// the left end, v into the furniture) to world coordinates.
func (f *Furniture) local(u, v float64) (x, y float64) {
	du := u - f.Width/2
	return f.X + du*f.rx + v*f.fx, f.Y + du*f.ry + v*f.fy
}

// footprintUV returns the half extents along u and v of an object of type t
// turned by deg degrees: the bounding box of the rotated rectangle.
func footprintUV(t *ObjectType, deg int) (hu, hv float64) {
	s, c := math.Sincos(float64(deg) * math.Pi / 180)
	s, c = math.Abs(s), math.Abs(c)
	// Rounding keeps 90° turns exact (cos 90° is 6e-17, not 0).
	hu = round9((t.Width*c + t.Depth*s) / 2)
	hv = round9((t.Width*s + t.Depth*c) / 2)
	return hu, hv
}

func round9(f float64) float64 { return math.Round(f*1e9) / 1e9 }

// objectSymbol is the name of the (k+1)-th object of type t as a symbol.
func (w *World) objectSymbol(t, k int) value.Value {
	if k < len(w.nameSyms[t]) {
		return w.nameSyms[t][k]
	}
	return value.Symbol(w.ObjectName(t, k))
}

// objectDesignator is (an object (type T) (name N)) for the (k+1)-th
// object of type t.
func (w *World) objectDesignator(t, k int) value.Value {
	if k < len(w.nameDesigs[t]) {
		return w.nameDesigs[t][k]
	}
	return newObjectDesignator(w.typeSyms[t], value.Symbol(w.ObjectName(t, k)))
}

func newObjectDesignator(typ, name value.Value) value.Value {
	return value.FromDesignator(&value.Designator{Class: "object", Props: []value.Prop{
		{Key: "type", Val: typ},
		{Key: "name", Val: name},
	}})
}

// half returns the footprint half extents of type t at orientation index o.
func (w *World) half(t, o int) (hu, hv float64) {
	i := t*len(w.Orientations) + o
	return w.halfU[i], w.halfV[i]
}

// precompute fills the tables that keep per-run work free of string
// formatting, trigonometry and allocation.
func (w *World) precompute() {
	w.nameSyms = make([][]value.Value, len(w.Types))
	w.nameDesigs = make([][]value.Value, len(w.Types))
	for t := range w.Types {
		w.typeSyms = append(w.typeSyms, value.Symbol(w.Types[t].Name))
		w.nameSyms[t] = make([]value.Value, len(w.names[t]))
		w.nameDesigs[t] = make([]value.Value, len(w.names[t]))
		for k, n := range w.names[t] {
			w.nameSyms[t][k] = value.Symbol(n)
			w.nameDesigs[t][k] = newObjectDesignator(w.typeSyms[t], w.nameSyms[t][k])
		}
		for _, deg := range w.Orientations {
			hu, hv := footprintUV(&w.Types[t], deg)
			w.halfU = append(w.halfU, hu)
			w.halfV = append(w.halfV, hv)
		}
	}
	for _, r := range w.Regions {
		w.regionSyms = append(w.regionSyms, value.Symbol(r.Name))
	}
	for _, l := range w.Locations {
		w.locSyms = append(w.locSyms, value.Symbol(l.Name))
	}
	for _, a := range w.Robot.Arms {
		w.armSyms = append(w.armSyms, value.Symbol(a.Name))
	}
	for _, sf := range w.Surfaces {
		w.surfSyms = append(w.surfSyms, value.Symbol(sf.Name))
	}
}
