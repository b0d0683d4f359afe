package sim

import (
	"fmt"
	"math"
	"os"
	"strconv"

	"github.com/labelcov/labelcov/interp/syntax"
)

// MaxCells bounds the number of cells of a region.
const MaxCells = 1 << 16

// LoadWorld reads and parses the world file at path.
func LoadWorld(path string) (*World, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading world: %w", err)
	}
	return ParseWorld(path, src)
}

// ParseWorld parses a world file. Errors are *syntax.Error values naming
// file:line:col. The format is documented in docs/world.md.
func ParseWorld(filename string, src []byte) (*World, error) {
	f, err := syntax.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	p := &worldParser{f: f, w: &World{}}
	for i := range p.w.actionSpec {
		p.w.actionSpec[i] = -1
	}
	p.w.Robot = Robot{ShoulderHeight: 0.9, FOV: 90, ViewRange: 3, OccludeRatio: 0.5, CameraHeight: 1.3, Start: -1, Radius: 0.3}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.w, nil
}

type worldParser struct {
	f *syntax.File
	w *World
	// locFurniture remembers the furniture names of locations until all
	// furniture is known, so forms may come in any order.
	locAt    []syntax.Node
	regionAt []syntax.Node
	start    syntax.Node
	robotAt  syntax.Node
	// ungraspableAt keeps the nodes of each type's ungraspable orientations
	// for error positions.
	ungraspableAt [][]syntax.Node
}

func (p *worldParser) errf(n syntax.Node, format string, args ...any) error {
	return p.f.NodeErrorf(n, format, args...)
}

// singleForms are the world forms a file may hold once, with why: a second
// one would silently replace the first.
var singleForms = map[string]string{
	"world":        "a world has one name",
	"room":         "a world has one room",
	"robot":        "a world has one robot",
	"orientations": "a world has one list of orientations",
}

func (p *worldParser) parse() error {
	var bucketForms []*syntax.List
	seen := map[string]syntax.Node{}
	for _, form := range p.f.Forms {
		l, ok := form.(*syntax.List)
		head := syntax.Head(form)
		if !ok || head == "" {
			return p.errf(form, "expected a world form such as (furniture ...), (robot ...) or (region ...)")
		}
		if first := seen[head]; first != nil && singleForms[head] != "" {
			start, _ := first.Span()
			return p.errf(l, "duplicate %s form: the first is at %s:%d:%d (%s)", head, p.f.Name, start.Line, start.Col, singleForms[head])
		}
		var err error
		switch head {
		case "world":
			p.w.Name, err = p.nameArg(l, 1)
			if err == nil && len(l.Elems) > 2 {
				err = p.errf(l.Elems[2], "unexpected argument: (world NAME) takes only a name")
			}
		case "room":
			var v []float64
			v, err = p.numbers(l, 1, 4)
			if err == nil {
				p.w.Room = Rect{v[0], v[1], v[2], v[3]}
				if v[2] <= v[0] || v[3] <= v[1] {
					err = p.errf(l, "room must have x1 > x0 and y1 > y0")
				}
			}
		case "furniture":
			err = p.furniture(l)
		case "robot":
			p.robotAt = l
			err = p.robot(l)
		case "location":
			err = p.location(l)
		case "object-type":
			err = p.objectType(l)
		case "orientations":
			err = p.orientations(l)
		case "region":
			err = p.region(l)
		case "buckets":
			bucketForms = append(bucketForms, l)
		default:
			return p.errf(l.Elems[0], "unknown world form %q (expected world, room, furniture, robot, location, object-type, orientations, region or buckets)", head)
		}
		if err != nil {
			return err
		}
		if seen[head] == nil {
			seen[head] = l
		}
	}
	if err := p.resolve(); err != nil {
		return err
	}
	for _, b := range bucketForms {
		if err := p.buckets(b); err != nil {
			return err
		}
	}
	return p.finish()
}

func (p *worldParser) nameArg(l *syntax.List, i int) (string, error) {
	if i >= len(l.Elems) {
		return "", p.errf(l, "(%s ...) needs a name", syntax.Head(l))
	}
	s, ok := l.Elems[i].(*syntax.Symbol)
	if !ok || s.Name == "nil" || s.Name == "t" {
		return "", p.errf(l.Elems[i], "expected a name (a symbol)")
	}
	return s.Name, nil
}

func numberOf(n syntax.Node) (float64, bool) {
	switch n := n.(type) {
	case *syntax.Int:
		return float64(n.Value), true
	case *syntax.Float:
		if math.IsNaN(n.Value) || math.IsInf(n.Value, 0) {
			return 0, false
		}
		return n.Value, true
	}
	return 0, false
}

// numbers reads exactly count numbers from l.Elems[from:].
func (p *worldParser) numbers(l *syntax.List, from, count int) ([]float64, error) {
	if len(l.Elems)-from != count {
		return nil, p.errf(l, "(%s ...) takes %d number(s), got %d", syntax.Head(l), count, max(len(l.Elems)-from, 0))
	}
	out := make([]float64, count)
	for i := range count {
		v, ok := numberOf(l.Elems[from+i])
		if !ok {
			return nil, p.errf(l.Elems[from+i], "expected a number")
		}
		out[i] = v
	}
	return out, nil
}

func (p *worldParser) number(l *syntax.List) (float64, error) {
	v, err := p.numbers(l, 1, 1)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func (p *worldParser) positive(l *syntax.List) (float64, error) {
	v, err := p.number(l)
	if err == nil && v <= 0 {
		err = p.errf(l.Elems[1], "expected a positive number")
	}
	return v, err
}

func (p *worldParser) nonNegative(l *syntax.List) (float64, error) {
	v, err := p.number(l)
	if err == nil && v < 0 {
		err = p.errf(l.Elems[1], "expected a number >= 0")
	}
	return v, err
}

func (p *worldParser) integer(n syntax.Node) (int, error) {
	i, ok := n.(*syntax.Int)
	if !ok || i.Value < math.MinInt32 || i.Value > math.MaxInt32 {
		return 0, p.errf(n, "expected an integer")
	}
	return int(i.Value), nil
}

// props iterates the (key args...) sub-forms of l from index from on.
func (p *worldParser) props(l *syntax.List, from int, fn func(key string, kl *syntax.List) error) error {
	for _, e := range l.Elems[min(from, len(l.Elems)):] {
		kl, ok := e.(*syntax.List)
		key := syntax.Head(e)
		if !ok || key == "" {
			return p.errf(e, "expected a property (key value...) in (%s ...)", syntax.Head(l))
		}
		if err := fn(key, kl); err != nil {
			return err
		}
	}
	return nil
}

func (p *worldParser) unknown(kl *syntax.List, form string, allowed string) error {
	return p.errf(kl.Elems[0], "unknown property %q in (%s ...) (expected %s)", syntax.Head(kl), form, allowed)
}

func (p *worldParser) checkNew(n syntax.Node, kind, name string, exists bool) error {
	if exists {
		return p.errf(n, "duplicate %s %q", kind, name)
	}
	return nil
}

func (p *worldParser) furniture(l *syntax.List) error {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return err
	}
	if err := p.checkNew(l.Elems[1], "furniture", name, p.w.FurnitureIndex(name) >= 0); err != nil {
		return err
	}
	fu := Furniture{Name: name}
	var havePose, haveSize bool
	idx := len(p.w.Furniture)
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		switch key {
		case "pose":
			v, err := p.numbers(kl, 1, 3)
			if err != nil {
				return err
			}
			fu.X, fu.Y, fu.Yaw = v[0], v[1], v[2]
			havePose = true
		case "size":
			v, err := p.numbers(kl, 1, 2)
			if err != nil {
				return err
			}
			if v[0] <= 0 || v[1] <= 0 {
				return p.errf(kl, "furniture size must be positive")
			}
			fu.Width, fu.Depth = v[0], v[1]
			haveSize = true
		case "surface":
			s, err := p.surface(kl, idx)
			if err != nil {
				return err
			}
			fu.Surfaces = append(fu.Surfaces, len(p.w.Surfaces))
			p.w.Surfaces = append(p.w.Surfaces, s)
		default:
			return p.unknown(kl, "furniture", "pose, size or surface")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !havePose || !haveSize {
		return p.errf(l, "furniture %s needs (pose X Y YAW) and (size WIDTH DEPTH)", name)
	}
	if len(fu.Surfaces) == 0 {
		return p.errf(l, "furniture %s has no (surface NAME (height H))", name)
	}
	// The front faces direction Yaw; "into the furniture" is the opposite.
	s, c := math.Sincos(fu.Yaw * math.Pi / 180)
	fu.fx, fu.fy = round9(-c), round9(-s)
	// A robot facing the furniture looks along (fx, fy); its right is that
	// direction turned by -90°.
	fu.rx, fu.ry = fu.fy, -fu.fx
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, uv := range [][2]float64{{0, 0}, {fu.Width, 0}, {0, fu.Depth}, {fu.Width, fu.Depth}} {
		x, y := fu.local(uv[0], uv[1])
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	fu.footprint = Rect{x0, y0, x1, y1}
	p.w.Furniture = append(p.w.Furniture, fu)
	return nil
}

func (p *worldParser) surface(l *syntax.List, furniture int) (Surface, error) {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return Surface{}, err
	}
	if err := p.checkNew(l.Elems[1], "surface", name, p.w.SurfaceIndex(name) >= 0); err != nil {
		return Surface{}, err
	}
	s := Surface{Name: name, Furniture: furniture, Height: math.NaN()}
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		var err error
		switch key {
		case "height":
			s.Height, err = p.nonNegative(kl)
		case "hidden-back":
			s.HiddenBack, err = p.nonNegative(kl)
		default:
			err = p.unknown(kl, "surface", "height or hidden-back")
		}
		return err
	})
	if err == nil && math.IsNaN(s.Height) {
		err = p.errf(l, "surface %s needs (height H)", name)
	}
	return s, err
}

func (p *worldParser) robot(l *syntax.List) error {
	r := &p.w.Robot
	haveTorso := false
	err := p.props(l, 1, func(key string, kl *syntax.List) error {
		var err error
		switch key {
		case "shoulder-height":
			r.ShoulderHeight, err = p.nonNegative(kl)
		case "torso":
			if len(kl.Elems) != 3 && len(kl.Elems) != 4 {
				return p.errf(kl, "(torso MIN MAX [INITIAL]) takes 2 or 3 numbers")
			}
			v, err := p.numbers(kl, 1, len(kl.Elems)-1)
			if err != nil {
				return err
			}
			r.TorsoMin, r.TorsoMax, r.TorsoInit = v[0], v[1], v[0]
			if len(v) == 3 {
				r.TorsoInit = v[2]
			}
			if r.TorsoMin > r.TorsoMax || r.TorsoInit < r.TorsoMin || r.TorsoInit > r.TorsoMax {
				return p.errf(kl, "torso range must satisfy MIN <= INITIAL <= MAX")
			}
			haveTorso = true
		case "torso-level":
			name, err := p.nameArg(kl, 1)
			if err != nil {
				return err
			}
			v, err := p.numbers(kl, 2, 1)
			if err != nil {
				return err
			}
			for _, t := range r.TorsoLevels {
				if t.Name == name {
					return p.errf(kl.Elems[1], "duplicate torso level %q", name)
				}
			}
			r.TorsoLevels = append(r.TorsoLevels, TorsoLevel{Name: name, Height: v[0]})
		case "arm":
			return p.arm(kl)
		case "camera":
			return p.props(kl, 1, func(key string, cl *syntax.List) error {
				var err error
				switch key {
				case "height":
					r.CameraHeight, err = p.nonNegative(cl)
				case "fov":
					r.FOV, err = p.positive(cl)
					if err == nil && r.FOV >= 360 {
						err = p.errf(cl.Elems[1], "field of view must be below 360 degrees")
					}
				case "range":
					r.ViewRange, err = p.positive(cl)
				case "occlusion":
					r.OccludeRatio, err = p.positive(cl)
				default:
					err = p.unknown(cl, "camera", "height, fov, range or occlusion")
				}
				return err
			})
		case "park-before-navigating":
			if len(kl.Elems) != 2 || !(syntax.IsSymbol(kl.Elems[1], "t") || syntax.IsSymbol(kl.Elems[1], "nil")) {
				return p.errf(kl, "(park-before-navigating t|nil)")
			}
			r.ParkBeforeNavigating = syntax.IsSymbol(kl.Elems[1], "t")
		case "placing":
			return p.props(kl, 1, func(key string, pl *syntax.List) error {
				var err error
				switch key {
				case "edge-margin":
					r.EdgeMargin, err = p.nonNegative(pl)
				case "drift":
					r.EdgeDrift, err = p.nonNegative(pl)
				default:
					err = p.unknown(pl, "placing", "edge-margin or drift")
				}
				return err
			})
		case "start":
			if _, err := p.nameArg(kl, 1); err != nil {
				return err
			}
			p.start = kl.Elems[1]
		case "radius":
			r.Radius, err = p.nonNegative(kl)
		default:
			err = p.unknown(kl, "robot", "shoulder-height, torso, torso-level, arm, camera, park-before-navigating, placing, start or radius")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !haveTorso {
		return p.errf(l, "robot needs (torso MIN MAX [INITIAL])")
	}
	if len(r.Arms) == 0 {
		return p.errf(l, "robot needs at least one (arm NAME (lateral L) (reach R))")
	}
	for _, t := range r.TorsoLevels {
		if t.Height < r.TorsoMin || t.Height > r.TorsoMax {
			return p.errf(l, "torso level %s (%g) is outside the torso range", t.Name, t.Height)
		}
	}
	return nil
}

func (p *worldParser) arm(l *syntax.List) error {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return err
	}
	if err := p.checkNew(l.Elems[1], "arm", name, p.w.ArmIndex(name) >= 0); err != nil {
		return err
	}
	a := Arm{Name: name}
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		var err error
		switch key {
		case "lateral":
			a.Lateral, err = p.number(kl)
		case "forward":
			a.Forward, err = p.number(kl)
		case "reach":
			a.Reach, err = p.positive(kl)
		default:
			err = p.unknown(kl, "arm", "lateral, forward or reach")
		}
		return err
	})
	if err == nil && a.Reach == 0 {
		err = p.errf(l, "arm %s needs (reach R)", name)
	}
	p.w.Robot.Arms = append(p.w.Robot.Arms, a)
	return err
}

func (p *worldParser) location(l *syntax.List) error {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return err
	}
	if err := p.checkNew(l.Elems[1], "location", name, p.w.LocationIndex(name) >= 0); err != nil {
		return err
	}
	loc := Location{Name: name, Furniture: -1, Standoff: math.NaN(), U: math.NaN()}
	var at, pose syntax.Node
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		var err error
		switch key {
		case "at":
			if _, err = p.nameArg(kl, 1); err == nil {
				at = kl.Elems[1]
			}
		case "side":
			loc.Side, err = p.nameArg(kl, 1)
		case "u":
			loc.U, err = p.number(kl)
		case "standoff":
			loc.Standoff, err = p.nonNegative(kl)
		case "pose":
			var v []float64
			v, err = p.numbers(kl, 1, 3)
			if err == nil {
				loc.X, loc.Y, loc.Yaw = v[0], v[1], v[2]
				pose = kl
			}
		default:
			err = p.unknown(kl, "location", "at, side, u, standoff or pose")
		}
		return err
	})
	if err != nil {
		return err
	}
	switch {
	case at != nil && pose != nil:
		return p.errf(pose, "a location is either (at FURNITURE) ... or (pose X Y YAW), not both")
	case at == nil && pose == nil:
		return p.errf(l, "location %s needs (at FURNITURE) (u U) (standoff S) or (pose X Y YAW)", name)
	case at != nil && (math.IsNaN(loc.U) || math.IsNaN(loc.Standoff)):
		return p.errf(l, "location %s at a piece of furniture needs (u U) and (standoff S)", name)
	}
	p.w.Locations = append(p.w.Locations, loc)
	p.locAt = append(p.locAt, at)
	return nil
}

func (p *worldParser) objectType(l *syntax.List) error {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return err
	}
	if err := p.checkNew(l.Elems[1], "object type", name, p.w.TypeIndex(name) >= 0); err != nil {
		return err
	}
	t := ObjectType{Name: name}
	var ungraspable []syntax.Node
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		switch key {
		case "size":
			v, err := p.numbers(kl, 1, 3)
			if err != nil {
				return err
			}
			if v[0] <= 0 || v[1] <= 0 || v[2] <= 0 {
				return p.errf(kl, "object size must be positive")
			}
			t.Width, t.Depth, t.Height = v[0], v[1], v[2]
		case "ungraspable":
			ungraspable = append(ungraspable, kl.Elems[1:]...)
		default:
			return p.unknown(kl, "object-type", "size or ungraspable")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if t.Width == 0 {
		return p.errf(l, "object type %s needs (size WIDTH DEPTH HEIGHT)", name)
	}
	// Orientations may be declared later; keep the degrees for now and
	// resolve them in resolve.
	for _, n := range ungraspable {
		d, err := p.integer(n)
		if err != nil {
			return err
		}
		t.Ungraspable = append(t.Ungraspable, d)
	}
	p.w.Types = append(p.w.Types, t)
	p.ungraspableAt = append(p.ungraspableAt, ungraspable)
	return nil
}

func (p *worldParser) orientations(l *syntax.List) error {
	if len(l.Elems) < 2 {
		return p.errf(l, "(orientations DEG...) needs at least one orientation")
	}
	for _, n := range l.Elems[1:] {
		d, err := p.integer(n)
		if err != nil {
			return err
		}
		if p.w.OrientationIndex(d) >= 0 {
			return p.errf(n, "duplicate orientation %d", d)
		}
		p.w.Orientations = append(p.w.Orientations, d)
	}
	return nil
}

func (p *worldParser) region(l *syntax.List) error {
	name, err := p.nameArg(l, 1)
	if err != nil {
		return err
	}
	if err := p.checkNew(l.Elems[1], "region", name, p.w.RegionIndex(name) >= 0); err != nil {
		return err
	}
	r := Region{Name: name, Surface: -1, U0: math.NaN()}
	var surf syntax.Node
	err = p.props(l, 2, func(key string, kl *syntax.List) error {
		switch key {
		case "surface":
			if _, err := p.nameArg(kl, 1); err != nil {
				return err
			}
			surf = kl.Elems[1]
		case "grid":
			if len(kl.Elems) != 3 {
				return p.errf(kl, "(grid COLS ROWS) takes two integers")
			}
			c, err := p.integer(kl.Elems[1])
			if err != nil {
				return err
			}
			rw, err := p.integer(kl.Elems[2])
			if err != nil {
				return err
			}
			// The cap keeps every per-cell search (placing without a
			// cell) cheap, whatever the world file says.
			if c < 1 || rw < 1 || c*rw > MaxCells {
				return p.errf(kl, "a grid needs 1 to %d cells, got %d x %d", MaxCells, c, rw)
			}
			r.Cols, r.Rows = c, rw
		case "area":
			v, err := p.numbers(kl, 1, 4)
			if err != nil {
				return err
			}
			if v[2] <= v[0] || v[3] <= v[1] {
				return p.errf(kl, "area must have U1 > U0 and V1 > V0")
			}
			r.U0, r.V0, r.U1, r.V1 = v[0], v[1], v[2], v[3]
		default:
			return p.unknown(kl, "region", "surface, grid or area")
		}
		return nil
	})
	if err != nil {
		return err
	}
	if surf == nil || r.Cols == 0 {
		return p.errf(l, "region %s needs (surface NAME) and (grid COLS ROWS)", name)
	}
	p.w.Regions = append(p.w.Regions, r)
	p.regionAt = append(p.regionAt, surf)
	return nil
}

// resolve links names between forms, computes poses of locations and checks
// what the world as a whole needs.
func (p *worldParser) resolve() error {
	w := p.w
	if len(w.Furniture) == 0 {
		return p.errf(p.fileStart(), "world has no (furniture ...)")
	}
	if p.robotAt == nil {
		return p.errf(p.fileStart(), "world has no (robot ...)")
	}
	if len(w.Types) == 0 {
		return p.errf(p.fileStart(), "world has no (object-type ...)")
	}
	if len(w.Regions) == 0 {
		return p.errf(p.fileStart(), "world has no (region ...)")
	}
	if len(w.Orientations) == 0 {
		return p.errf(p.fileStart(), "world has no (orientations ...)")
	}
	if w.Room == (Rect{}) {
		return p.errf(p.fileStart(), "world has no (room X0 Y0 X1 Y1)")
	}
	for i := range w.Locations {
		loc := &w.Locations[i]
		at := p.locAt[i]
		if at == nil {
			continue
		}
		fname := at.(*syntax.Symbol).Name
		fi := w.FurnitureIndex(fname)
		if fi < 0 {
			return p.errf(at, "unknown furniture %q", fname)
		}
		loc.Furniture = fi
		fu := &w.Furniture[fi]
		loc.X, loc.Y = fu.local(loc.U, -loc.Standoff)
		loc.Yaw = math.Atan2(fu.fy, fu.fx) * 180 / math.Pi
		if loc.Side != "" {
			for j := range i {
				if o := &w.Locations[j]; o.Furniture == fi && o.Side == loc.Side {
					return p.errf(at, "furniture %s already has a location with side %s (%s)", fname, loc.Side, o.Name)
				}
			}
		}
	}
	if p.start != nil {
		name := p.start.(*syntax.Symbol).Name
		w.Robot.Start = w.LocationIndex(name)
		if w.Robot.Start < 0 {
			return p.errf(p.start, "unknown start location %q", name)
		}
	}
	for i := range w.Regions {
		r := &w.Regions[i]
		sname := p.regionAt[i].(*syntax.Symbol).Name
		r.Surface = w.SurfaceIndex(sname)
		if r.Surface < 0 {
			return p.errf(p.regionAt[i], "unknown surface %q", sname)
		}
		fu := &w.Furniture[w.Surfaces[r.Surface].Furniture]
		if math.IsNaN(r.U0) {
			r.U0, r.V0, r.U1, r.V1 = 0, 0, fu.Width, fu.Depth
		}
		if r.U0 < 0 || r.V0 < 0 || r.U1 > fu.Width || r.V1 > fu.Depth {
			return p.errf(p.regionAt[i], "region %s's area exceeds surface %s (%g x %g)", r.Name, sname, fu.Width, fu.Depth)
		}
		if i == 0 {
			w.Grid = r.Cols * r.Rows
		} else if r.Cols*r.Rows != w.Grid {
			return p.errf(p.regionAt[i], "region %s has %d cells but %s has %d: every region needs the same number of cells", r.Name, r.Cols*r.Rows, w.Regions[0].Name, w.Grid)
		}
	}
	for i := range w.Types {
		t := &w.Types[i]
		for k, d := range t.Ungraspable {
			oi := w.OrientationIndex(d)
			if oi < 0 {
				return p.errf(p.ungraspableAt[i][k], "orientation %d is not among the world's orientations", d)
			}
			t.Ungraspable[k] = oi
		}
	}
	return nil
}

func (p *worldParser) fileStart() syntax.Node {
	if len(p.f.Forms) > 0 {
		return p.f.Forms[0]
	}
	return &syntax.Symbol{Start: syntax.Pos{Line: 1, Col: 1}, End: syntax.Pos{Line: 1, Col: 1}}
}

// finish computes the byte layout and the precomputed names.
func (p *worldParser) finish() error {
	w := p.w
	space := uint64(len(w.Types)) * uint64(len(w.Regions)) * uint64(w.Grid) * uint64(len(w.Orientations))
	if space > 1<<56 {
		return p.errf(p.fileStart(), "too many object encodings (%d); at most 2^56", space)
	}
	w.objectSpace = space
	w.bytesPerObject = bytesFor(space)
	w.names = make([][]string, len(w.Types))
	for t := range w.Types {
		w.names[t] = make([]string, 64)
		for k := range w.names[t] {
			w.names[t][k] = w.Types[t].Name + "-" + strconv.Itoa(k+1)
		}
	}
	w.precompute()
	w.bucketBase = make([]int, len(w.Buckets))
	w.totalBucket = 0
	for i := range w.Buckets {
		w.bucketBase[i] = w.totalBucket
		w.totalBucket += w.Buckets[i].size(w)
	}
	return nil
}

// bytesFor returns the smallest b >= 1 with 256^(b-1) < n <= 256^b.
func bytesFor(n uint64) int {
	b := 1
	for lim := uint64(256); n > lim; lim <<= 8 {
		b++
	}
	return b
}
