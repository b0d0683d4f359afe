package sim

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/value"
)

// ActionRecord is one performed action in a run's trace. Outcome is "ok" or
// the failure kind; the other fields are the key arguments as resolved by
// the simulator.
type ActionRecord struct {
	Type    string `json:"type"`
	Arm     string `json:"arm,omitempty"`
	Object  string `json:"object,omitempty"`
	Target  string `json:"target,omitempty"`
	Result  string `json:"result,omitempty"`
	Outcome string `json:"outcome"`
	Message string `json:"message,omitempty"`
	// Violations are the categories def-policy functions returned right
	// after this action.
	Violations []string `json:"violations,omitempty"`
}

// String renders r on one line: "picking-up arm=left object=milk-1 -> ok".
func (r *ActionRecord) String() string {
	b := []byte(r.Type)
	add := func(k, v string) {
		if v != "" {
			b = append(b, ' ')
			b = append(b, k...)
			b = append(b, '=')
			b = append(b, v...)
		}
	}
	add("arm", r.Arm)
	add("object", r.Object)
	add("target", r.Target)
	b = append(b, " -> "...)
	b = append(b, r.Outcome...)
	if r.Result != "" {
		b = append(b, " ["...)
		b = append(b, r.Result...)
		b = append(b, ']')
	}
	if r.Message != "" {
		b = append(b, " ("...)
		b = append(b, r.Message...)
		b = append(b, ')')
	}
	for _, v := range r.Violations {
		b = append(b, " !"...)
		b = append(b, v...)
	}
	return string(b)
}

func fail(kind, format string, args ...any) *Failure {
	return &Failure{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// unknownAction says why d names no action: no type property at all (a
// misspelled key), a type that is not a symbol, or a type the simulator
// does not know, with the nearest name it does.
func unknownAction(d *value.Designator) *Failure {
	v, ok := d.Get("type")
	switch {
	case !ok:
		keys := make([]string, len(d.Props))
		hint := ""
		for i, p := range d.Props {
			keys[i] = p.Key
			if hint == "" && closest(p.Key, []string{"type"}) != "" {
				hint = fmt.Sprintf("; did you mean type for %s?", p.Key)
			}
		}
		has := "it has no properties"
		if len(keys) > 0 {
			has = "its keys: " + strings.Join(keys, ", ")
		}
		return fail(KindTypeError, "the action designator has no type property (%s%s): write (an action (type T) ...) with T one of %s",
			has, hint, strings.Join(actionNames[:], ", "))
	case v.Kind() != value.KSymbol:
		return fail(KindTypeError, "the action type must be a symbol, got %s (one of %s)", v, strings.Join(actionNames[:], ", "))
	}
	msg := fmt.Sprintf("unknown action type %s (the simulator knows %s)", v, strings.Join(actionNames[:], ", "))
	if s := closest(v.SymbolName(), actionNames[:]); s != "" {
		msg += fmt.Sprintf("; did you mean %s?", s)
	}
	return fail(KindTypeError, "%s", msg)
}

// Perform executes an action designator, records it in the trace and the
// coverage hits, and returns the action's value. Impossible actions return a
// *Failure whose Kind is one of the Kind constants.
func (s *State) Perform(d *value.Designator) (value.Value, error) {
	if d == nil || d.Class != "action" {
		return value.Nil, fail(KindTypeError, "perform needs an action designator")
	}
	typ := d.Type()
	a := actionIndex(typ)
	if a < 0 {
		return value.Nil, unknownAction(d)
	}
	var feats [numFeatures]int
	for i := range feats {
		feats[i] = -1
	}
	feats[FeatLocation] = s.loc
	feats[FeatHolding] = s.numHeld()
	feats[FeatTorso] = s.w.torsoLevel(s.torso)
	rec := ActionRecord{Type: typ}
	var res value.Value
	var f *Failure
	switch a {
	case ActNavigating:
		res, f = s.navigate(d, &feats, &rec)
	case ActMovingTorso:
		res, f = s.moveTorso(d, &feats, &rec)
	case ActParkingArms:
		res, f = s.parkArms(d, &feats, &rec)
	case ActDetecting:
		res, f = s.detect(d, &feats, &rec)
	case ActPickingUp:
		res, f = s.pickUp(d, &feats, &rec)
	case ActPlacing:
		res, f = s.place(d, &feats, &rec)
	}
	if f != nil {
		rec.Outcome, rec.Message = f.Kind, f.Message
		feats[FeatOutcome] = 1
	} else {
		rec.Outcome = "ok"
		feats[FeatOutcome] = 0
	}
	s.trace = append(s.trace, rec)
	if b := s.w.bucket(a, &feats); b >= 0 && s.hits[b] < math.MaxUint32 {
		s.hits[b]++
	}
	if f != nil {
		return value.Nil, f
	}
	return res, nil
}

// prop returns the first of the properties keys present in d.
func prop(d *value.Designator, keys ...string) (value.Value, bool) {
	for _, k := range keys {
		if v, ok := d.Get(k); ok {
			return v, true
		}
	}
	return value.Nil, false
}

// nameOf returns the name carried by a symbol, keyword or string.
func nameOf(v value.Value) (string, bool) {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str(), true
	}
	return "", false
}

// location resolves a location designator to a location index, or to a free
// pose (index -1 with ok).
func (s *State) location(v value.Value) (loc int, x, y, yaw float64, f *Failure) {
	w := s.w
	d := v.Designator()
	if d == nil {
		if name, ok := nameOf(v); ok {
			if i := w.LocationIndex(name); i >= 0 {
				return i, 0, 0, 0, nil
			}
			return -1, 0, 0, 0, fail(KindNavigationFailure, "unknown location %s", name)
		}
		return -1, 0, 0, 0, fail(KindTypeError, "expected a location designator, got %s", v)
	}
	if n, ok := d.Get("name"); ok {
		name, _ := nameOf(n)
		if i := w.LocationIndex(name); i >= 0 {
			return i, 0, 0, 0, nil
		}
		return -1, 0, 0, 0, fail(KindNavigationFailure, "unknown location %s", n)
	}
	if at, ok := d.Get("at"); ok {
		fname, _ := nameOf(at)
		side, _ := d.Get("side")
		sname, _ := nameOf(side)
		fi := w.FurnitureIndex(fname)
		for i := range w.Locations {
			if l := &w.Locations[i]; fi >= 0 && l.Furniture == fi && (l.Side == sname || sname == "" && l.Side == "") {
				return i, 0, 0, 0, nil
			}
		}
		return -1, 0, 0, 0, fail(KindNavigationFailure, "no location at %s side %s", at, side)
	}
	if p, ok := d.Get("pose"); ok {
		xs, ok := p.Slice()
		if !ok || (len(xs) != 2 && len(xs) != 3) || !xs[0].IsNumber() || !xs[1].IsNumber() || (len(xs) == 3 && !xs[2].IsNumber()) {
			return -1, 0, 0, 0, fail(KindTypeError, "pose must be a list (X Y [YAW]), got %s", p)
		}
		x, y = xs[0].Number(), xs[1].Number()
		if len(xs) == 3 {
			yaw = xs[2].Number()
		}
		if math.IsNaN(x+y+yaw) || math.IsInf(x+y+yaw, 0) {
			return -1, 0, 0, 0, fail(KindNavigationFailure, "pose %s is not finite", p)
		}
		return -1, x, y, yaw, nil
	}
	return -1, 0, 0, 0, fail(KindNavigationFailure, "location %s names no (name N), (at FURNITURE) or (pose (X Y YAW))", v)
}

func (s *State) navigate(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	w := s.w
	v, ok := prop(d, "location", "target")
	if !ok {
		return value.Nil, fail(KindTypeError, "navigating needs (location L)")
	}
	loc, x, y, yaw, f := s.location(v)
	if f != nil {
		return value.Nil, f
	}
	if loc >= 0 {
		feats[FeatLocation] = loc
		rec.Target = w.Locations[loc].Name
		l := &w.Locations[loc]
		x, y, yaw = l.X, l.Y, l.Yaw
	} else {
		feats[FeatLocation] = -1
		rec.Target = "pose " + strconv.FormatFloat(x, 'g', 4, 64) + " " + strconv.FormatFloat(y, 'g', 4, 64)
	}
	if w.Robot.ParkBeforeNavigating {
		for i, p := range s.parked {
			if !p {
				return value.Nil, fail(KindNavigationFailure, "arm %s is not parked", w.Robot.Arms[i].Name)
			}
		}
	}
	if loc < 0 {
		r := w.Robot.Radius
		if x-r < w.Room.X0 || x+r > w.Room.X1 || y-r < w.Room.Y0 || y+r > w.Room.Y1 {
			return value.Nil, fail(KindNavigationFailure, "pose (%g %g) is outside the room", x, y)
		}
		for i := range w.Furniture {
			fp := w.Furniture[i].footprint
			if x > fp.X0-r && x < fp.X1+r && y > fp.Y0-r && y < fp.Y1+r {
				return value.Nil, fail(KindNavigationFailure, "pose (%g %g) collides with %s", x, y, w.Furniture[i].Name)
			}
		}
	}
	s.x, s.y, s.yaw, s.loc = x, y, yaw, loc
	return value.T, nil
}

func (s *State) moveTorso(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	w := s.w
	v, ok := prop(d, "height", "level", "position")
	if !ok {
		return value.Nil, fail(KindTypeError, "moving-torso needs (height H) or (height LEVEL)")
	}
	var h float64
	if v.IsNumber() {
		h = v.Number()
		rec.Target = value.FormatFloat(h)
		if !(h >= w.Robot.TorsoMin && h <= w.Robot.TorsoMax) {
			return value.Nil, fail(KindTorsoFailure, "torso height %s is outside [%g, %g]", v, w.Robot.TorsoMin, w.Robot.TorsoMax)
		}
	} else if name, ok := nameOf(v); ok {
		rec.Target = name
		found := false
		for _, l := range w.Robot.TorsoLevels {
			if l.Name == name {
				h, found = l.Height, true
			}
		}
		if !found {
			return value.Nil, fail(KindTorsoFailure, "unknown torso level %s", name)
		}
	} else {
		return value.Nil, fail(KindTypeError, "torso height must be a number or a level name, got %s", v)
	}
	feats[FeatTorso] = w.torsoLevel(h)
	s.torso = h
	return value.T, nil
}

// arm resolves an (arm A) property; missing means -1 with no failure.
func (s *State) arm(d *value.Designator, rec *ActionRecord) (int, *Failure) {
	v, ok := d.Get("arm")
	if !ok {
		return -1, nil
	}
	name, _ := nameOf(v)
	a := s.w.ArmIndex(name)
	if a < 0 {
		return -1, fail(KindManipulationFailure, "the robot has no arm %s", v)
	}
	rec.Arm = name
	return a, nil
}

func (s *State) parkArms(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	a, f := s.arm(d, rec)
	if f != nil {
		return value.Nil, f
	}
	if a >= 0 {
		s.parked[a] = true
		feats[FeatArm] = a
		return value.T, nil
	}
	for i := range s.parked {
		s.parked[i] = true
	}
	return value.T, nil
}

// objectDesignator describes object i for a plan: (an object (type T)
// (name N)).
func (s *State) objectDesignator(i int) value.Value {
	return s.desigs[i]
}

// perceived describes object i as perception sees it: type, name, region
// and cell. Designators are immutable, so the one built for an object is
// reused until the object moves (plans detect the same scene many times).
func (s *State) perceived(i int) value.Value {
	o := &s.objs[i]
	if c := &s.perc[i]; c.valid && c.surface == o.surface && c.u == o.u && c.v == o.v {
		return c.d
	}
	// One allocation for the designator, its properties and its cell list.
	b := &perceivedBox{}
	b.props[0] = value.Prop{Key: "type", Val: s.w.typeSyms[o.typ]}
	b.props[1] = value.Prop{Key: "name", Val: s.syms[i]}
	n := 2
	if r := s.objRegion(o); r >= 0 {
		ci, cj, _ := s.w.Regions[r].CellAt(o.u, o.v)
		b.cell[1] = value.Cons{Car: value.Int(int64(cj)), Cdr: value.Nil}
		b.cell[0] = value.Cons{Car: value.Int(int64(ci)), Cdr: value.FromCons(&b.cell[1])}
		b.props[2] = value.Prop{Key: "region", Val: s.w.regionSyms[r]}
		b.props[3] = value.Prop{Key: "cell", Val: value.FromCons(&b.cell[0])}
		n = 4
	}
	b.d = value.Designator{Class: "object", Props: b.props[:n]}
	d := value.FromDesignator(&b.d)
	s.perc[i] = percept{valid: true, surface: o.surface, u: o.u, v: o.v, d: d}
	return d
}

// perceivedBox holds a perceived designator with its storage.
type perceivedBox struct {
	d     value.Designator
	props [4]value.Prop
	cell  [2]value.Cons
}

// percept caches the perceived designator of an object at one place.
type percept struct {
	valid   bool
	surface int
	u, v    float64
	d       value.Value
}

// resolveObject finds the object a value refers to: an object designator
// with a name, an object handle, or a name.
func (s *State) resolveObject(v value.Value) (int, *Failure) {
	var name string
	switch v.Kind() {
	case value.KDesignator:
		d := v.Designator()
		n, ok := d.Get("name")
		if !ok {
			return -1, fail(KindObjectNotFound, "designator %s identifies no object (detect it first)", v)
		}
		name, _ = nameOf(n)
	case value.KObject, value.KSymbol, value.KString:
		name = v.Str()
	default:
		return -1, fail(KindTypeError, "expected an object, got %s", v)
	}
	i := s.objectByName(name)
	if i < 0 {
		return -1, fail(KindObjectNotFound, "no object named %s", name)
	}
	return i, nil
}

func (s *State) detect(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	w := s.w
	wantType, wantName := -1, ""
	filtered := false
	if v, ok := prop(d, "object"); ok {
		od := v.Designator()
		if od == nil {
			return value.Nil, fail(KindTypeError, "detecting needs (object (an object ...)), got %s", v)
		}
		filtered = true
		if tv, ok := od.Get("type"); ok {
			t, _ := nameOf(tv)
			wantType = w.TypeIndex(t)
			if wantType < 0 {
				return value.Nil, fail(KindObjectNotFound, "no object type %s in this world", t)
			}
			feats[FeatType] = wantType
			rec.Object = t
		}
		if n, ok := od.Get("name"); ok {
			wantName, _ = nameOf(n)
			rec.Object = wantName
		}
	}
	// Collect the visible objects in environment order, then make the
	// list's conses in one piece.
	var buf [DefaultMaxObjects]int
	vis := buf[:0]
	for i := range s.objs {
		if wantType >= 0 && s.objs[i].typ != wantType || wantName != "" && s.names[i] != wantName {
			continue
		}
		if s.visible(i) {
			vis = append(vis, i)
		}
	}
	seen := len(vis)
	out := value.Conses(seen, value.Nil)
	for c, k := out.Cons(), 0; c != nil; c, k = c.Cdr.Cons(), k+1 {
		c.Car = s.perceived(vis[k])
	}
	rec.Result = seenText(seen)
	if filtered && seen == 0 {
		return value.Nil, fail(KindObjectNotFound, "no %s visible from here", describe(rec.Object, "object"))
	}
	return out, nil
}

func describe(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

func (s *State) pickUp(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	w := s.w
	ov, ok := prop(d, "object")
	if !ok {
		return value.Nil, fail(KindTypeError, "picking-up needs (object O)")
	}
	i, f := s.resolveObject(ov)
	if f != nil {
		return value.Nil, f
	}
	o := &s.objs[i]
	rec.Object = s.names[i]
	feats[FeatType] = o.typ
	feats[FeatOrientation] = o.orient
	feats[FeatRegion] = s.objRegion(o)
	a, f := s.arm(d, rec)
	if f != nil {
		return value.Nil, f
	}
	if a < 0 {
		for k, h := range s.holding {
			if h < 0 {
				a = k
				break
			}
		}
		if a < 0 {
			return value.Nil, fail(KindManipulationFailure, "both hands are full")
		}
		rec.Arm = w.Robot.Arms[a].Name
	}
	feats[FeatArm] = a
	if o.held >= 0 {
		return value.Nil, fail(KindObjectNotFound, "%s is in the %s hand", s.names[i], w.Robot.Arms[o.held].Name)
	}
	if o.surface < 0 {
		return value.Nil, fail(KindObjectNotFound, "%s is on the floor", s.names[i])
	}
	if h := s.holding[a]; h >= 0 {
		return value.Nil, fail(KindManipulationFailure, "arm %s already holds %s", rec.Arm, s.names[h])
	}
	x, y, z := w.worldPos(o)
	if dist := s.reachDistance(a, x, y, z); dist > w.Robot.Arms[a].Reach {
		return value.Nil, fail(KindObjectUnreachable, "%s is %.2f m from the %s shoulder (reach %.2f m)", s.names[i], dist, rec.Arm, w.Robot.Arms[a].Reach)
	}
	s.parked[a] = false
	for _, bad := range w.Types[o.typ].Ungraspable {
		if bad == o.orient {
			return value.Nil, fail(KindGraspingFailure, "cannot grasp %s at orientation %d", s.names[i], w.Orientations[o.orient])
		}
	}
	o.surface, o.held = -1, a
	s.holding[a] = i
	return s.objectDesignator(i), nil
}

// placeTarget resolves a placing target: (a location (on REGION) [(cell
// (COL ROW))]). cell is false when no cell was given.
func (s *State) placeTarget(v value.Value) (region, col, row int, cell bool, f *Failure) {
	w := s.w
	d := v.Designator()
	if d == nil {
		return -1, 0, 0, false, fail(KindTypeError, "placing needs (target (a location (on REGION) ...)), got %s", v)
	}
	on, ok := prop(d, "on", "region")
	if !ok {
		return -1, 0, 0, false, fail(KindPlacingFailure, "target %s names no (on REGION)", v)
	}
	name, _ := nameOf(on)
	region = w.RegionIndex(name)
	if region < 0 {
		if sf := w.SurfaceIndex(name); sf >= 0 {
			for r := range w.Regions {
				if w.Regions[r].Surface == sf {
					region = r
					break
				}
			}
		}
	}
	if region < 0 {
		return -1, 0, 0, false, fail(KindPlacingFailure, "no region or surface %s", on)
	}
	cv, ok := d.Get("cell")
	if !ok {
		return region, 0, 0, false, nil
	}
	// Read (COL ROW) without Slice: placing is hot and Slice allocates.
	cx, cy := cv.Car(), cv.Cdr().Car()
	if cv.Len() != 2 || !cv.Cdr().Cdr().IsNil() || cx.Kind() != value.KInt || cy.Kind() != value.KInt {
		return -1, 0, 0, false, fail(KindTypeError, "cell must be a list (COL ROW) of integers, got %s", cv)
	}
	r := &w.Regions[region]
	c, rw := cx.Int(), cy.Int()
	if c < 0 || c >= int64(r.Cols) || rw < 0 || rw >= int64(r.Rows) {
		return -1, 0, 0, false, fail(KindPlacingFailure, "cell %s is outside region %s's %dx%d grid", cv, r.Name, r.Cols, r.Rows)
	}
	return region, int(c), int(rw), true, nil
}

// fits reports whether held object i would stand at (u, v) on surface sf
// without overlapping another object.
func (s *State) fits(i, sf int, u, v float64) bool {
	w := s.w
	o := &s.objs[i]
	hu, hv := w.half(o.typ, o.orient)
	box := Rect{u - hu, v - hv, u + hu, v + hv}
	for j := range s.objs {
		q := &s.objs[j]
		if j == i || q.surface != sf {
			continue
		}
		qhu, qhv := w.half(q.typ, q.orient)
		if box.overlaps(Rect{q.u - qhu, q.v - qhv, q.u + qhu, q.v + qhv}) {
			return false
		}
	}
	return true
}

// drift applies the edge inaccuracy: placing an object closer than
// EdgeMargin to an edge of its surface moves it EdgeDrift further out.
func (w *World) drift(o *objState, sf int, u, v float64) (float64, float64) {
	m, dr := w.Robot.EdgeMargin, w.Robot.EdgeDrift
	if m <= 0 || dr == 0 {
		return u, v
	}
	fu := &w.Furniture[w.Surfaces[sf].Furniture]
	hu, hv := w.half(o.typ, o.orient)
	if u-hu < m {
		u -= dr
	} else if fu.Width-(u+hu) < m {
		u += dr
	}
	if v-hv < m {
		v -= dr
	} else if fu.Depth-(v+hv) < m {
		v += dr
	}
	return u, v
}

func (s *State) place(d *value.Designator, feats *[numFeatures]int, rec *ActionRecord) (value.Value, *Failure) {
	w := s.w
	a, f := s.arm(d, rec)
	if f != nil {
		return value.Nil, f
	}
	if a < 0 {
		for k, h := range s.holding {
			if h >= 0 {
				a = k
				break
			}
		}
		if a < 0 {
			return value.Nil, fail(KindManipulationFailure, "the robot holds nothing to place")
		}
		rec.Arm = w.Robot.Arms[a].Name
	}
	feats[FeatArm] = a
	i := s.holding[a]
	if i < 0 {
		return value.Nil, fail(KindManipulationFailure, "arm %s holds nothing", rec.Arm)
	}
	o := &s.objs[i]
	rec.Object = s.names[i]
	feats[FeatType] = o.typ
	feats[FeatOrientation] = o.orient
	tv, ok := prop(d, "target", "location")
	if !ok {
		return value.Nil, fail(KindTypeError, "placing needs (target (a location (on REGION) ...))")
	}
	region, col, row, haveCell, f := s.placeTarget(tv)
	if f != nil {
		return value.Nil, f
	}
	feats[FeatRegion] = region
	r := &w.Regions[region]
	sf := r.Surface
	z := w.Surfaces[sf].Height + w.Types[o.typ].Height/2
	fu := &w.Furniture[w.Surfaces[sf].Furniture]
	reach := w.Robot.Arms[a].Reach
	var u, v float64
	if haveCell {
		rec.Target = r.Name + " (" + strconv.Itoa(col) + " " + strconv.Itoa(row) + ")"
		u, v = r.Cell(col, row)
		x, y := fu.local(u, v)
		if dist := s.reachDistance(a, x, y, z); dist > reach {
			return value.Nil, fail(KindObjectUnreachable, "%s is %.2f m from the %s shoulder (reach %.2f m)", rec.Target, dist, rec.Arm, reach)
		}
	} else {
		// Choose the first free, reachable cell away from the edges, front
		// row first, left to right.
		rec.Target = r.Name
		found := false
		for j := 0; j < r.Rows && !found; j++ {
			for c := 0; c < r.Cols && !found; c++ {
				u, v = r.Cell(c, j)
				if du, dv := w.drift(o, sf, u, v); du != u || dv != v {
					continue
				}
				x, y := fu.local(u, v)
				if s.reachDistance(a, x, y, z) <= reach && s.fits(i, sf, u, v) {
					found = true
					rec.Target = r.Name + " (" + strconv.Itoa(c) + " " + strconv.Itoa(j) + ")"
				}
			}
		}
		if !found {
			return value.Nil, fail(KindPlacingFailure, "no free reachable place on %s", r.Name)
		}
	}
	s.parked[a] = false
	if du, dv := w.drift(o, sf, u, v); du != u || dv != v {
		u, v = du, dv
		rec.Result = "drifted"
	}
	if u < 0 || u > fu.Width || v < 0 || v > fu.Depth {
		o.held, o.surface = -1, -1
		s.holding[a] = -1
		rec.Result = "fell off " + w.Surfaces[sf].Name
		return value.T, nil
	}
	if !s.fits(i, sf, u, v) {
		return value.Nil, fail(KindPlacingFailure, "%s does not fit at %s: another object is in the way", s.names[i], rec.Target)
	}
	o.held, o.surface, o.u, o.v = -1, sf, u, v
	s.holding[a] = -1
	return value.T, nil
}

var seenTexts = func() (t [DefaultMaxObjects + 1]string) {
	for i := range t {
		t[i] = strconv.Itoa(i) + " seen"
	}
	return t
}()

func seenText(n int) string {
	if n < len(seenTexts) {
		return seenTexts[n]
	}
	return strconv.Itoa(n) + " seen"
}
