package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

func loadWorld(t testing.TB, name string) *World {
	t.Helper()
	w, err := LoadWorld("../../testdata/worlds/" + name + ".world")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestBundledWorlds(t *testing.T) {
	w := loadWorld(t, "warehouse")
	if got := len(w.Types) * len(w.Regions) * w.Grid * len(w.Orientations); uint64(got) != w.ObjectSpace() || got != 12288 {
		t.Errorf("object space = %d (%d), want 12288", w.ObjectSpace(), got)
	}
	if w.BytesPerObject() != 2 {
		t.Errorf("warehouse bytes per object = %d, want 2", w.BytesPerObject())
	}
	if w.NumBuckets() != 88 {
		t.Errorf("warehouse buckets = %d, want 88", w.NumBuckets())
	}
	if w.Robot.Start != w.LocationIndex("table-center") {
		t.Errorf("start = %d", w.Robot.Start)
	}
	if got := w.BucketName(0); got != "navigating location=table-left holding=0" {
		t.Errorf("bucket 0 = %q", got)
	}
	if got := w.BucketName(w.NumBuckets() - 1); got != "placing arm=right type=bowl region=board-3" {
		t.Errorf("last bucket = %q", got)
	}
	k := loadWorld(t, "kitchen")
	if k.NumBuckets() != 51 || k.BytesPerObject() != 2 || len(k.Furniture) != 3 {
		t.Errorf("kitchen: %d buckets, %d bytes, %d furniture", k.NumBuckets(), k.BytesPerObject(), len(k.Furniture))
	}
}

func TestBytesFor(t *testing.T) {
	for _, c := range []struct {
		n    uint64
		want int
	}{{1, 1}, {2, 1}, {256, 1}, {257, 2}, {65536, 2}, {65537, 3}, {1 << 24, 3}, {1<<24 + 1, 4}} {
		if got := bytesFor(c.n); got != c.want {
			t.Errorf("bytesFor(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// minimal is a small valid world; the error tests break one line of it.
const minimal = `(room 0 0 4 4)
(furniture table (pose 2 1 90) (size 1.0 0.5) (surface top (height 0.7)))
(robot (torso 0 0.3) (arm left (lateral -0.2) (reach 0.7)))
(location near (at table) (u 0.5) (standoff 0.2))
(object-type box (size 0.1 0.1 0.1))
(orientations 0 90)
(region top (surface top) (grid 4 4))
`

func TestMinimalWorld(t *testing.T) {
	w, err := ParseWorld("min.world", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	// 1 type x 1 region x 16 cells x 2 orientations = 32 values: one byte.
	if w.ObjectSpace() != 32 || w.BytesPerObject() != 1 || w.NumBuckets() != 0 {
		t.Errorf("space %d, bytes %d, buckets %d", w.ObjectSpace(), w.BytesPerObject(), w.NumBuckets())
	}
	// The table's front faces +y: a robot at the location stands at y=1.2
	// looking at -y (yaw -90), 0.5 m from the left end = x 2.0.
	l := w.Locations[0]
	if !near(l.X, 2.0) || !near(l.Y, 1.2) || !near(l.Yaw, -90) {
		t.Errorf("location pose = %g %g %g", l.X, l.Y, l.Yaw)
	}
	// u grows to the right of a robot facing -y, i.e. towards -x.
	x, y := w.Furniture[0].local(0, 0.5)
	if !near(x, 2.5) || !near(y, 0.5) {
		t.Errorf("local(0, 0.5) = %g %g", x, y)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestWorldErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown form", "(room 0 0 4 4)", "(rooms 0 0 4 4)", "w.world:1:2: unknown world form \"rooms\""},
		{"bad number", "(room 0 0 4 4)", "(room 0 0 four 4)", "w.world:1:11: expected a number"},
		{"room order", "(room 0 0 4 4)", "(room 4 0 0 4)", "w.world:1:1: room must have x1 > x0"},
		{"no surface", "(surface top (height 0.7))", "", "w.world:2:1: furniture table has no (surface"},
		{"unknown prop", "(size 1.0 0.5)", "(size 1.0 0.5) (colour red)", "w.world:2:48: unknown property \"colour\" in (furniture ...)"},
		{"no torso", "(torso 0 0.3) ", "", "w.world:3:1: robot needs (torso"},
		{"unknown furniture", "(at table)", "(at tabel)", "w.world:4:20: unknown furniture \"tabel\""},
		{"unknown surface", "(region top (surface top)", "(region top (surface bottom)", "w.world:7:22: unknown surface \"bottom\""},
		{"grid mismatch", "(grid 4 4))", "(grid 4 4))\n(region top2 (surface top) (grid 3 3))", "w.world:8:23: region top2 has 9 cells but top has 16"},
		{"duplicate type", "(object-type box (size 0.1 0.1 0.1))", "(object-type box (size 0.1 0.1 0.1)) (object-type box (size 1 1 1))", "w.world:5:51: duplicate object type \"box\""},
		{"ungraspable orientation", "(size 0.1 0.1 0.1))", "(size 0.1 0.1 0.1) (ungraspable 45))", "w.world:5:50: orientation 45 is not among"},
		{"bucket action", "(grid 4 4))", "(grid 4 4))\n(buckets (flying arm))", "w.world:8:11: unknown action \"flying\""},
		{"bucket feature", "(grid 4 4))", "(grid 4 4))\n(buckets (navigating arm))", "w.world:8:22: action navigating has no feature arm"},
		{"bucket no levels", "(grid 4 4))", "(grid 4 4))\n(buckets (moving-torso torso))", "w.world:8:24: feature torso has no values"},
		{"no region", "(region top (surface top) (grid 4 4))", "", "w.world:1:1: world has no (region ...)"},
		{"reader error", "(room 0 0 4 4)", "(room 0 0 4 4", "w.world:1:1:"},
		{"not a list", "(room 0 0 4 4)", "room", "w.world:1:1: expected a world form"},
		{"duplicate room", "(room 0 0 4 4)", "(room 0 0 4 4) (room 0 0 9 9)", "w.world:1:16: duplicate room form: the first is at w.world:1:1 (a world has one room)"},
		{"duplicate world", "(room 0 0 4 4)", "(world a)\n(room 0 0 4 4)\n(world b)", "w.world:3:1: duplicate world form: the first is at w.world:1:1"},
		{"duplicate robot", "(orientations 0 90)", "(orientations 0 90) (robot (torso 0 0.3) (arm left (lateral -0.2) (reach 0.7)))", "w.world:6:21: duplicate robot form: the first is at w.world:3:1 (a world has one robot)"},
		{"duplicate orientations", "(orientations 0 90)", "(orientations 0 90) (orientations 0)", "w.world:6:21: duplicate orientations form: the first is at w.world:6:1"},
		{"area too big", "(grid 4 4))", "(grid 4 4) (area 0 0 2 2))", "w.world:7:22: region top's area exceeds surface top"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(minimal, c.old, c.new, 1)
			if src == minimal {
				t.Fatalf("replacement %q not applied", c.old)
			}
			_, err := ParseWorld("w.world", []byte(src))
			if err == nil {
				t.Fatal("no error")
			}
			var serr *syntax.Error
			if !errors.As(err, &serr) {
				t.Fatalf("error %T is not a *syntax.Error: %v", err, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error = %q\nwant prefix %q", err, c.want)
			}
		})
	}
}
