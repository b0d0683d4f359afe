package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// desig builds a designator from key/value pairs: strings become symbols,
// ints and floats numbers, Values and designators stay as they are.
func desig(class string, kv ...any) *value.Designator {
	d := &value.Designator{Class: class}
	for i := 0; i+1 < len(kv); i += 2 {
		var v value.Value
		switch x := kv[i+1].(type) {
		case string:
			v = value.Symbol(x)
		case int:
			v = value.Int(int64(x))
		case float64:
			v = value.Float(x)
		case value.Value:
			v = x
		case *value.Designator:
			v = value.FromDesignator(x)
		}
		d.Props = append(d.Props, value.Prop{Key: kv[i].(string), Val: v})
	}
	return d
}

func action(typ string, kv ...any) *value.Designator {
	return desig("action", append([]any{"type", typ}, kv...)...)
}

func named(name string) *value.Designator { return desig("object", "name", name) }

func loc(name string) *value.Designator { return desig("location", "name", name) }

func cell(c, r int) value.Value { return value.List(value.Int(int64(c)), value.Int(int64(r))) }

// perform runs d and returns its value and failure kind ("" for success).
func perform(t *testing.T, s *State, d *value.Designator) (value.Value, string) {
	t.Helper()
	v, err := s.Perform(d)
	if err == nil {
		return v, ""
	}
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("error %v is not a *Failure", err)
	}
	return v, f.Kind
}

func mustOK(t *testing.T, s *State, d *value.Designator) value.Value {
	t.Helper()
	v, kind := perform(t, s, d)
	if kind != "" {
		t.Fatalf("%s failed: %s (%s)", value.FromDesignator(d), kind, s.trace[len(s.trace)-1].Message)
	}
	return v
}

func mustFail(t *testing.T, s *State, d *value.Designator, want string) {
	t.Helper()
	_, kind := perform(t, s, d)
	if kind != want {
		t.Fatalf("%s: got %q, want failure %q", value.FromDesignator(d), kind, want)
	}
}

func query(t *testing.T, s *State, name string, args ...value.Value) value.Value {
	t.Helper()
	for _, q := range Queries() {
		if q.Name == name {
			v, err := q.Fn(s, args)
			if err != nil {
				t.Fatalf("(%s %v): %v", name, args, err)
			}
			return v
		}
	}
	t.Fatalf("no query %s", name)
	return value.Nil
}

func sym(s string) value.Value { return value.Symbol(s) }

// scene: milk-1 on the table front middle, cereal-1 (turned, so
// ungraspable) on the table's left, bowl-1 on board-1 (reachable only with
// the torso down), milk-2 at the back of board-3 (hidden from the camera,
// reachable only with the torso up).
func scene(t *testing.T) *State {
	w := loadWorld(t, "warehouse")
	env, err := w.ParseEnv("scene.env", []byte(`(environment
	  (object milk (region table) (cell 8 2) (orientation 0))
	  (object cereal (region table) (cell 2 2) (orientation 90))
	  (object bowl (region board-1) (cell 8 4) (orientation 0))
	  (object milk (region board-3) (cell 8 14) (orientation 0)))`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(w)
	s.Reset(env)
	return s
}

func TestNavigating(t *testing.T) {
	s := scene(t)
	if got := query(t, s, "robot-location"); got != sym("table-center") {
		t.Fatalf("start location %v", got)
	}
	mustOK(t, s, action("navigating", "location", loc("shelf-left")))
	if got := query(t, s, "robot-location"); got != sym("shelf-left") {
		t.Errorf("location %v", got)
	}
	mustOK(t, s, action("navigating", "location", desig("location", "at", "table", "side", "right")))
	if got := query(t, s, "robot-location"); got != sym("table-right") {
		t.Errorf("location %v", got)
	}
	mustFail(t, s, action("navigating", "location", loc("garden")), KindNavigationFailure)
	mustFail(t, s, action("navigating", "location", desig("location", "at", "table", "side", "back")), KindNavigationFailure)
	mustFail(t, s, action("navigating", "location", desig("location", "colour", "red")), KindNavigationFailure)
	mustOK(t, s, action("navigating", "location", value.Symbol("shelf-right")))
	mustFail(t, s, action("navigating"), KindTypeError)
	mustFail(t, s, action("navigating", "location", desig("location", "pose", value.List(value.Float(10), value.Float(1)))), KindNavigationFailure)
	mustFail(t, s, action("navigating", "location", desig("location", "pose", value.List(value.Float(3), value.Float(1.2)))), KindNavigationFailure)
	mustOK(t, s, action("navigating", "location", desig("location", "pose", value.List(value.Float(1), value.Float(2.5), value.Int(0)))))
	if got := query(t, s, "robot-location"); !got.IsNil() {
		t.Errorf("at a free pose the location is %v", got)
	}
	// An unparked arm blocks navigation until parking-arms.
	mustOK(t, s, action("navigating", "location", loc("table-center")))
	mustOK(t, s, action("picking-up", "arm", "left", "object", named("milk-1")))
	mustFail(t, s, action("navigating", "location", loc("shelf-center")), KindNavigationFailure)
	mustFail(t, s, action("parking-arms", "arm", "middle"), KindManipulationFailure)
	mustOK(t, s, action("parking-arms", "arm", "left"))
	mustOK(t, s, action("navigating", "location", loc("shelf-center")))
}

func TestMovingTorso(t *testing.T) {
	s := scene(t)
	mustOK(t, s, action("moving-torso", "height", "high"))
	if got := query(t, s, "torso-height"); got.Float() != 0.4 {
		t.Errorf("torso %v", got)
	}
	mustOK(t, s, action("moving-torso", "height", 0.1))
	mustFail(t, s, action("moving-torso", "height", 0.9), KindTorsoFailure)
	mustFail(t, s, action("moving-torso", "height", "sky"), KindTorsoFailure)
	mustFail(t, s, action("moving-torso", "height", value.String("x")), KindTorsoFailure)
	mustFail(t, s, action("moving-torso", "height", value.List()), KindTypeError)
	if got := query(t, s, "torso-height"); got.Float() != 0.1 {
		t.Errorf("failed moves changed the torso: %v", got)
	}
}

func names(t *testing.T, v value.Value) string {
	t.Helper()
	xs, _ := v.Slice()
	var out []string
	for _, x := range xs {
		n, _ := x.Designator().Get("name")
		out = append(out, n.Str())
	}
	return strings.Join(out, " ")
}

func TestDetecting(t *testing.T) {
	s := scene(t)
	// From the table's centre, cereal-1 at the left end is just out of
	// the 110° field of view; from the left end both are in view.
	if got := names(t, mustOK(t, s, action("detecting"))); got != "milk-1" {
		t.Errorf("seen from table-center: %q", got)
	}
	mustOK(t, s, action("navigating", "location", loc("table-left")))
	if got := names(t, mustOK(t, s, action("detecting"))); got != "milk-1 cereal-1" {
		t.Errorf("seen from table-left: %q", got)
	}
	// The perceived designator carries region and cell.
	v := mustOK(t, s, action("detecting", "object", desig("object", "type", "milk")))
	d := v.Car().Designator()
	if r, _ := d.Get("region"); r != sym("table") {
		t.Errorf("region %v", r)
	}
	if c, _ := d.Get("cell"); !value.Equal(c, cell(8, 2)) {
		t.Errorf("cell %v", c)
	}
	mustFail(t, s, action("detecting", "object", named("bowl-1")), KindObjectNotFound)
	mustFail(t, s, action("detecting", "object", desig("object", "type", "spoon")), KindObjectNotFound)
	// The field of view: from the table's right end, cereal-1 at the far
	// left front is out of view.
	mustOK(t, s, action("navigating", "location", loc("table-right")))
	if got := names(t, mustOK(t, s, action("detecting"))); got != "milk-1" {
		t.Errorf("seen from table-right: %q", got)
	}
	// At the shelf, milk-2 stands in the hidden strip at the back.
	mustOK(t, s, action("navigating", "location", loc("shelf-center")))
	if got := names(t, mustOK(t, s, action("detecting"))); got != "bowl-1" {
		t.Errorf("seen at the shelf: %q", got)
	}
}

func TestOcclusion(t *testing.T) {
	w := loadWorld(t, "warehouse")
	s := NewState(w)
	env, err := w.ParseEnv("o.env", []byte(`(environment
	  (object milk (region table) (cell 8 8) (orientation 0))
	  (object cereal (region table) (cell 8 2) (orientation 0))
	  (object bowl (region table) (cell 4 8) (orientation 0))
	  (object milk (region table) (cell 4 2) (orientation 0)))`))
	if err != nil {
		t.Fatal(err)
	}
	s.Reset(env)
	// The cereal box (20 cm wide, 28 cm high) hides milk-1 behind it; the
	// milk carton in front of the bowl is narrower than half the bowl, so
	// the bowl stays visible.
	if got := names(t, mustOK(t, s, action("detecting"))); got != "cereal-1 bowl-1 milk-2" {
		t.Errorf("seen: %q", got)
	}
}

func TestPickingUp(t *testing.T) {
	s := scene(t)
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("milk-9")), KindObjectNotFound)
	mustFail(t, s, action("picking-up", "arm", "left", "object", desig("object", "type", "milk")), KindObjectNotFound)
	mustFail(t, s, action("picking-up", "arm", "left"), KindTypeError)
	mustFail(t, s, action("picking-up", "arm", "tail", "object", named("milk-1")), KindManipulationFailure)
	mustFail(t, s, action("picking-up", "arm", "right", "object", named("milk-2")), KindObjectUnreachable)
	mustOK(t, s, action("navigating", "location", loc("table-left")))
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("cereal-1")), KindGraspingFailure)
	got := mustOK(t, s, action("picking-up", "arm", "right", "object", named("milk-1")))
	if n, _ := got.Designator().Get("name"); n != sym("milk-1") {
		t.Errorf("picking-up returned %v", got)
	}
	if h := query(t, s, "object-held-by", sym("milk-1")); h != sym("right") {
		t.Errorf("held by %v", h)
	}
	if r := query(t, s, "object-region", sym("milk-1")); !r.IsNil() {
		t.Errorf("held object in region %v", r)
	}
	if r := query(t, s, "initial-region", sym("milk-1")); r != sym("table") {
		t.Errorf("initial region %v", r)
	}
	mustFail(t, s, action("picking-up", "arm", "right", "object", named("cereal-1")), KindManipulationFailure)
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("milk-1")), KindObjectNotFound)
	// Without an arm, the first free arm is used.
	s2 := scene(t)
	mustOK(t, s2, action("picking-up", "object", named("milk-1")))
	if h := query(t, s2, "arm-holding", sym("left")); h.IsNil() {
		t.Error("left arm should hold milk-1")
	}
	// Reach depends on the torso: milk-2 at the back of board-3 needs it up.
	s3 := scene(t)
	mustOK(t, s3, action("navigating", "location", loc("shelf-center")))
	mustOK(t, s3, action("moving-torso", "height", "low"))
	mustFail(t, s3, action("picking-up", "arm", "left", "object", named("milk-2")), KindObjectUnreachable)
	mustOK(t, s3, action("moving-torso", "height", "high"))
	mustOK(t, s3, action("picking-up", "arm", "left", "object", named("milk-2")))
	// ... and bowl-1 on board-1 needs it down.
	mustFail(t, s3, action("picking-up", "arm", "right", "object", named("bowl-1")), KindObjectUnreachable)
	mustOK(t, s3, action("moving-torso", "height", "low"))
	mustOK(t, s3, action("picking-up", "arm", "right", "object", named("bowl-1")))
	mustFail(t, s3, action("picking-up", "object", named("cereal-1")), KindManipulationFailure)
}

func TestPlacing(t *testing.T) {
	s := scene(t)
	target := func(kv ...any) *value.Designator { return desig("location", kv...) }
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "table")), KindManipulationFailure)
	mustFail(t, s, action("placing", "target", target("on", "table")), KindManipulationFailure)
	mustOK(t, s, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustFail(t, s, action("placing", "arm", "right"), KindTypeError)
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "floor")), KindPlacingFailure)
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "table", "cell", cell(16, 0))), KindPlacingFailure)
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "table", "cell", value.Int(3))), KindTypeError)
	// cereal-1 stands at (2 2), turned: a milk carton behind it collides.
	mustOK(t, s, action("parking-arms"))
	mustOK(t, s, action("navigating", "location", loc("table-left")))
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "table", "cell", cell(2, 3))), KindPlacingFailure)
	mustFail(t, s, action("placing", "arm", "right", "target", target("on", "board-2", "cell", cell(3, 2))), KindObjectUnreachable)
	mustOK(t, s, action("placing", "arm", "right", "target", target("on", "table", "cell", cell(5, 6))))
	if c := query(t, s, "object-cell", sym("milk-1")); !value.Equal(c, cell(5, 6)) {
		t.Errorf("placed at %v", c)
	}
	if c := query(t, s, "initial-cell", sym("milk-1")); !value.Equal(c, cell(8, 2)) {
		t.Errorf("initial cell %v", c)
	}
	// Without a cell, the first free reachable cell away from the edges.
	mustOK(t, s, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustOK(t, s, action("placing", "arm", "right", "target", target("on", "table")))
	if c := query(t, s, "object-cell", sym("milk-1")); !value.Equal(c, cell(1, 2)) {
		t.Errorf("auto-placed at %v", c)
	}
	// Near an edge placing drifts outward: from the front row it falls off.
	mustOK(t, s, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustOK(t, s, action("placing", "arm", "right", "target", target("on", "table", "cell", cell(8, 0))))
	if r := s.trace[len(s.trace)-1].Result; r != "fell off table" {
		t.Errorf("placing at the edge: %q", r)
	}
	if f := query(t, s, "object-on-floor-p", sym("milk-1")); f != value.T {
		t.Error("milk-1 should be on the floor")
	}
	if r := query(t, s, "object-region", sym("milk-1")); !r.IsNil() {
		t.Errorf("fallen object in region %v", r)
	}
	mustFail(t, s, action("picking-up", "arm", "right", "object", named("milk-1")), KindObjectNotFound)
	if h := query(t, s, "arm-holding", sym("right")); !h.IsNil() {
		t.Errorf("right arm still holds %v", h)
	}
	// One row further back it drifts but stays: its centre is still on.
	s2 := scene(t)
	mustOK(t, s2, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustOK(t, s2, action("placing", "arm", "right", "target", target("on", "table", "cell", cell(8, 1))))
	if r := s2.trace[len(s2.trace)-1].Result; r != "drifted" {
		t.Errorf("placing at the front edge: %q", r)
	}
	// From the table nothing on the shelf is in reach: no free place.
	mustOK(t, s2, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustFail(t, s2, action("placing", "arm", "right", "target", target("on", "board-2")), KindPlacingFailure)
	// A surface name stands for its first region.
	mustOK(t, s2, action("parking-arms"))
	mustOK(t, s2, action("navigating", "location", loc("shelf-center")))
	mustOK(t, s2, action("placing", "target", target("on", "board-2")))
	if r := query(t, s2, "object-region", sym("milk-1")); r != sym("board-2") {
		t.Errorf("placed on surface board-2: region %v", r)
	}
}

func TestActionArgumentErrors(t *testing.T) {
	s := scene(t)
	if _, err := s.Perform(desig("object", "type", "milk")); err == nil {
		t.Error("performing an object designator succeeded")
	}
	mustFail(t, s, action("flying"), KindTypeError)
	mustFail(t, s, action("navigating", "location", value.Int(3)), KindTypeError)
	mustFail(t, s, action("detecting", "object", value.Int(3)), KindTypeError)
}

func TestActionCoverageCounting(t *testing.T) {
	s := scene(t)
	w := s.World()
	mustOK(t, s, action("navigating", "location", loc("table-left")))
	mustOK(t, s, action("moving-torso", "height", "low"))
	mustOK(t, s, action("detecting"))
	mustOK(t, s, action("detecting"))
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("cereal-1")), KindGraspingFailure)
	mustOK(t, s, action("picking-up", "arm", "right", "object", named("milk-1")))
	mustOK(t, s, action("parking-arms"))
	mustOK(t, s, action("navigating", "location", loc("table-center")))
	// A navigation to a free pose has no location: no bucket.
	mustOK(t, s, action("navigating", "location", desig("location", "pose", value.List(value.Float(1), value.Float(2.5)))))
	mustOK(t, s, action("moving-torso", "height", 0.15))
	mustOK(t, s, action("detecting"))
	c := w.Coverage(s.Hits())
	got := map[string]uint32{}
	for _, b := range c.Buckets {
		got[b.Bucket] = b.Hits
	}
	want := map[string]uint32{
		"navigating location=table-left holding=0":     1,
		"moving-torso torso=low":                       1,
		"detecting location=table-left torso=low":      2,
		"picking-up arm=left type=cereal region=table": 1,
		"picking-up arm=right type=milk region=table":  1,
		"parking-arms": 1,
		"navigating location=table-center holding=1": 1,
		"moving-torso torso=middle":                  1,
	}
	if len(got) != len(want) || c.Covered != len(want) || c.Total != 88 {
		t.Errorf("coverage %d/%d: %v", c.Covered, c.Total, got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("bucket %q: %d hits, want %d", k, got[k], v)
		}
	}
	if len(s.Trace()) != 11 {
		t.Errorf("trace has %d records", len(s.Trace()))
	}
	s.Reset(&Env{})
	if len(s.Trace()) != 0 || w.Coverage(s.Hits()).Covered != 0 {
		t.Error("Reset kept trace or hits")
	}
}

func TestKitchenPoseLocation(t *testing.T) {
	w := loadWorld(t, "kitchen")
	env, err := w.ParseEnv("k.env", []byte(`(environment
	  (object cup (region dining-table) (cell 3 6) (orientation 0))
	  (object bottle (region counter) (cell 1 1) (orientation 0))
	  (object cup (region counter) (cell 6 1) (orientation 180)))`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewState(w)
	s.Reset(env)
	// The back half of the dining table is out of reach from the front
	// and in reach from the named pose behind it.
	mustOK(t, s, action("navigating", "location", loc("dining-left")))
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("cup-1")), KindObjectUnreachable)
	mustOK(t, s, action("navigating", "location", loc("dining-far")))
	if got := query(t, s, "robot-location"); got != sym("dining-far") {
		t.Errorf("location %v", got)
	}
	if got := names(t, mustOK(t, s, action("detecting"))); got != "cup-1" {
		t.Errorf("seen from dining-far: %q", got)
	}
	mustOK(t, s, action("picking-up", "object", named("cup-1")))
	// Two arms: carry a bottle too; a cup turned away cannot be grasped.
	mustOK(t, s, action("parking-arms"))
	mustOK(t, s, action("navigating", "location", desig("location", "at", "counter", "side", "left")))
	mustOK(t, s, action("picking-up", "object", named("bottle-1")))
	if h := query(t, s, "arm-holding", sym("right")); h.IsNil() {
		t.Error("the right arm should hold bottle-1")
	}
	mustOK(t, s, action("parking-arms"))
	mustOK(t, s, action("navigating", "location", loc("counter-right")))
	mustFail(t, s, action("picking-up", "object", named("cup-2")), KindManipulationFailure)
	mustOK(t, s, action("placing", "arm", "left", "target", desig("location", "on", "counter")))
	mustFail(t, s, action("picking-up", "arm", "left", "object", named("cup-2")), KindGraspingFailure)
}

// A designator without a type names its keys (a misspelled (typ ...) is the
// usual cause) instead of saying "unknown action type nil".
func TestUnknownActionMessages(t *testing.T) {
	s := scene(t)
	for _, c := range []struct {
		d    *value.Designator
		want string
	}{
		{desig("action", "typ", "parking-arms"), "the action designator has no type property (its keys: typ; did you mean type for typ?): write (an action (type T) ...) with T one of navigating, "},
		{desig("action"), "no type property (it has no properties)"},
		{desig("action", "kind", "x", "arm", "left"), "no type property (its keys: kind, arm): "},
		{action("parkin-arms"), "unknown action type parkin-arms (the simulator knows navigating, moving-torso, parking-arms, detecting, picking-up, placing); did you mean parking-arms?"},
		{desig("action", "type", 3), "the action type must be a symbol, got 3"},
	} {
		_, err := s.Perform(c.d)
		var f *Failure
		if !errors.As(err, &f) || f.Kind != KindTypeError || !strings.Contains(f.Message, c.want) || strings.Contains(f.Message, "nil") {
			t.Errorf("%s: %v, want type-error containing %q", value.FromDesignator(c.d), err, c.want)
		}
	}
}
