package domain

// Signals is what the simulator declares of the failures its actions and
// queries may signal, and under which conditions of their arguments
// (sim.LabelSignals), for feasible.Options.Signals: a failure handler
// whose body can reach no action, query or (fail ...) that signals its
// kind is never entered, and the labels in it are infeasible.
//
// A declaration may allow more than the simulator does (a cause that
// holds without the failure following), never less: every failure a
// perform or a query signals has a declared Signal of its kind whose
// Cause holds (the simulator's differential test checks it).
type Signals struct {
	// Actions maps an action type (the type property of an action
	// designator) to the failures performing it may signal.
	Actions map[string][]Signal
	// Queries maps a query (a builtin the plan calls) to the failures a
	// call may signal; a query not listed signals none in the
	// plan-failure tree (only errors such as type-error).
	Queries map[string][]Signal
	// Unknown are the failures of performing anything else: an action
	// type not in Actions, or a designator that is no action.
	Unknown []Signal
	// ParksArms is the action type that, performed without an arm
	// property and returning, leaves every arm parked ("" when none).
	ParksArms string
	// Moves is the only action type that changes where the robot
	// stands; performed with the property MoveKeys (the first present)
	// naming a location, or holding a designator whose MoveSub names one,
	// it returns only with the robot at that location, which the query
	// robot-location then names until the next move.
	Moves    string
	MoveKeys []string
	MoveSub  string
	// Detects is the action type that perceives objects; Seen maps a
	// location to the regions ("nil": none) an object it returns, from a
	// robot standing there, may be in.
	Detects string
	Seen    map[string][]string
	// KeepsView are action types (Detects among them) after which a
	// detection from where the robot stands returns what it did before,
	// the same objects with the same properties: they move neither the
	// robot's base nor any object, and what a detection returns depends
	// on nothing else (not on the torso's height, say).
	KeepsView []string
	// Fixed are action types (Detects among them) that move no object:
	// while only they are performed, every detection, from wherever the
	// robot stands, returns each object at most once, under a name no
	// other object has, with the same properties each time.
	Fixed []string
	// DistinctCells, with CellKey, says that while only Fixed actions
	// have been performed since the run began, two objects Detects
	// returns under different names never have equal RegionKey
	// properties and equal CellKey properties (COL ROW) both: objects
	// of an environment never share a cell of a region.
	DistinctCells bool
	CellKey       string
	// Perceived maps a property of the object designators Detects
	// returns to the symbols it may hold ("nil": absent), from wherever
	// the robot stands: "type" one of the world's object types, "region"
	// one of its regions (nil only when some surface has area outside
	// every region). A property not listed may hold anything.
	Perceived map[string][]string
	// PerceivedCell bounds the cell (COL ROW) of such a designator, when
	// it has one: 0 <= COL < PerceivedCell[0], 0 <= ROW <
	// PerceivedCell[1] (zeros: unknown).
	PerceivedCell [2]int
	// PerceivedRows, when not nil, also says that such a designator has
	// a cell exactly when it has a region R, and then 0 <= ROW <
	// PerceivedRows[R] (a region not listed: PerceivedCell's bound): the
	// rows a hidden back strip keeps out of sight are left out.
	PerceivedRows map[string]int
	// Floor is the query that says an object lies on the floor ("":
	// none declared). No environment starts with an object there, and
	// only performing Places may leave one there: with a target (the
	// first of PlaceKeys present) that is a location designator naming
	// (the first of PlaceRegionKeys) a region or surface and a cell
	// (PlaceCell) that FallCells lists for that name. A placing without
	// a cell, or with a name FallCells does not list, never does.
	Floor           string
	Places          string
	PlaceKeys       []string
	PlaceRegionKeys []string
	PlaceCell       string
	FallCells       map[string][][2]int
	// Grips is the only action type that makes an arm hold an object:
	// the arm its property GripKey names, or without one a free arm. It
	// signals the kinds GripFreeKinds only when the arm it uses (the one
	// GripKey names, then one of Arms, or a free one) holds nothing.
	// HoldQuery is the query that says what an arm holds (nil: nothing).
	Grips         string
	GripKey       string
	GripFreeKinds []string
	Arms          []string
	HoldQuery     string
	// Reach says where a placing reaches (nil: nothing declared).
	Reach *Reach
	// Takes, objects that stay where they started: an object's place
	// (region, cell, the arm holding it) changes only after a Grips
	// action whose property PickKey names it, by a designator's NameKey
	// property or as a name; until then RegionQuery gives what
	// InitialRegionQuery does, which is one of Regions. TypeQuery gives
	// one of Types and never changes. A Detects action returns
	// designators whose NameKey, TypeKey and RegionKey properties are the
	// object's name, its type and its region then (RegionKey absent when
	// none). Any other action returns t or nil. MayName reports whether
	// a symbol or string could be an object's name (nil: any). See
	// feasible's untaken.go.
	// NameQuery gives an object's name (a symbol); StartQuery, the
	// objects that started in the region its argument names.
	PickKey, NameKey, TypeKey, RegionKey       string
	RegionQuery, InitialRegionQuery, TypeQuery string
	NameQuery, StartQuery                      string
	Regions, Types                             []string
	MayName                                    func(name string) bool
	// Spots, when not nil, bounds where placings leave objects: a
	// placing (Places) whose target names (PlaceRegionKeys) a region or
	// surface N and a cell (PlaceCell) C, when it returns, leaves the
	// object it placed in no region or at one of Spots(N, C) (none: the
	// placing never returns with the object in a region); no two objects
	// ever stand at one point of a surface at once; only Grips and
	// Places change an object's place; and AllQuery returns every object
	// exactly once. See feasible's placebound.go.
	Spots    func(name string, col, row int) []Spot
	AllQuery string
	// Parent is the failure kind tree: the parent of a kind, "" at the
	// root (a kind the tree does not name descends from plan-failure).
	Parent func(kind string) string
	// Why says where the declarations come from, for reasons ("the
	// warehouse world").
	Why string
}

// Spot is a point where a placing may leave an object: in region Region,
// at At (COL ROW of the region's grid is not enough: a drift may leave
// two objects in one cell); equal spots are one point of one surface.
type Spot struct {
	Region string
	At     [2]float64
}

// Reach is what the simulator declares of a placing's reach. A placing
// (Signals.Places) whose property ArmKey is present and names no arm of
// Signals.Arms never signals Kind. One with a target (Signals.PlaceKeys)
// that is a location designator naming (Signals.PlaceRegionKeys) a
// region or surface and a cell (Signals.PlaceCell) signals Kind only
// when Cells does not list that cell for the location the robot stands
// at, the torso level it stands at, the arm and that name, whatever the
// object held. Performing TorsoMoves with the first of TorsoKeys present
// naming one of Levels returns only with the torso at that level, and a
// failing one leaves the torso where it was; no other action moves the
// torso (the robot starts at no level in particular).
type Reach struct {
	Kind       string
	ArmKey     string
	TorsoMoves string
	TorsoKeys  []string
	Levels     []string
	Cells      map[ReachKey][][2]int
	// A placing whose target names a region or surface and a cell Drops
	// lists for it never signals DropKind: from there the placing's
	// drift carries every object, of any type and orientation, off the
	// surface, and the placing returns.
	DropKind string
	Drops    map[string][][2]int
}

// ReachKey names where a placing starts: the robot's location, its torso
// level, the arm and the region or surface named.
type ReachKey struct {
	Loc, Level, Arm, Region string
}

// Signal is one way an action or a query may fail: with Kind, when Cause
// holds.
type Signal struct {
	Kind  string
	Cause Cause
}

// CauseKind says what a Cause reads.
type CauseKind int

const (
	// Always: the failure may follow whatever the arguments (the state,
	// the objects or the geometry decide).
	Always CauseKind = iota
	// ArgNotIn: the argument Keys/Sub is present and is not one of Names
	// (a symbol) nor a number in Range; an absent argument makes the cause
	// hold unless AbsentOK.
	ArgNotIn
	// ArmNotParked: some arm of the robot is not parked.
	ArmNotParked
)

// Cause is a condition under which a Signal may follow.
type Cause struct {
	Kind CauseKind
	// Keys: the argument is the value of the first of these properties of
	// the action designator present (in this order); for a query, Keys is
	// nil and Arg is the argument's index.
	Keys []string
	Arg  int
	// Sub: when the argument is a designator, the argument is its
	// property Sub instead (absent: the cause holds).
	Sub string
	// Names are the symbols the argument may be; Range, when not nil, the
	// numbers.
	Names []string
	Range *Range
	// AbsentOK: no property of Keys present does not make the cause hold.
	AbsentOK bool
	// Why describes the cause for reasons: "an unknown location".
	Why string
}

// IsKind reports whether kind equals ancestor or descends from it in
// s's kind tree.
func (s *Signals) IsKind(kind, ancestor string) bool {
	for k, n := kind, 0; k != "" && n < 64; k, n = s.Parent(k), n+1 {
		if k == ancestor {
			return true
		}
	}
	return false
}
