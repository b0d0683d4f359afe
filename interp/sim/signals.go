package sim

import (
	"math"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels/domain"
)

// LabelSignals declares, for feasible.Options.Signals, which failures w's
// actions and queries may signal and under which conditions of their
// arguments, as Perform and the queries decide them (actions.go,
// queries.go): navigating fails with navigation-failure only for a
// location that is no world location by name, or while an arm is not
// parked (when the robot must park first); moving the torso fails only
// for a height that is no torso level nor a number within the torso's
// travel; parking the arms only for an arm the robot does not have.
// Detecting, picking up and placing depend on the objects and the
// geometry: their failures may always follow. Every query that resolves
// an object may signal object-not-found. Type errors (a property
// missing or of the wrong kind) may always follow. TestLabelSignals runs
// actions and queries on random and edge arguments and states and checks
// that every failure seen is declared with a cause that holds.
func LabelSignals(w *World) *domain.Signals {
	if w == nil {
		return nil
	}
	n := namesOf(w)
	locs, levels, arms := n.locs, n.levels, n.arms
	always := func(kinds ...string) []domain.Signal {
		out := make([]domain.Signal, len(kinds))
		for i, k := range kinds {
			out[i] = domain.Signal{Kind: k, Cause: domain.Cause{Kind: domain.Always, Why: "whatever its arguments"}}
		}
		return out
	}
	nav := []domain.Signal{{Kind: KindNavigationFailure, Cause: domain.Cause{Kind: domain.ArgNotIn,
		Keys: []string{"location", "target"}, Sub: "name", Names: locs, AbsentOK: true,
		Why: "a location that is no world location by name"}}}
	if w.Robot.ParkBeforeNavigating {
		nav = append(nav, domain.Signal{Kind: KindNavigationFailure, Cause: domain.Cause{Kind: domain.ArmNotParked,
			Why: "an arm that is not parked (the robot must park its arms before navigating)"}})
	}
	s := &domain.Signals{
		Actions: map[string][]domain.Signal{
			"navigating": append(always(KindTypeError), nav...),
			"moving-torso": append(always(KindTypeError), domain.Signal{Kind: KindTorsoFailure, Cause: domain.Cause{Kind: domain.ArgNotIn,
				Keys: []string{"height", "level", "position"}, Names: levels, Range: &domain.Range{Lo: w.Robot.TorsoMin, Hi: w.Robot.TorsoMax},
				AbsentOK: true, Why: "a height that is no torso level nor a number within the torso's travel"}}),
			"parking-arms": {{Kind: KindManipulationFailure, Cause: domain.Cause{Kind: domain.ArgNotIn,
				Keys: []string{"arm"}, Names: arms, AbsentOK: true, Why: "an arm the robot does not have"}}},
			"detecting":  always(KindTypeError, KindObjectNotFound),
			"picking-up": always(KindTypeError, KindObjectNotFound, KindManipulationFailure, KindObjectUnreachable, KindGraspingFailure),
			"placing":    always(KindTypeError, KindManipulationFailure, KindPlacingFailure, KindObjectUnreachable),
		},
		Queries:   map[string][]domain.Signal{},
		Unknown:   always(KindTypeError),
		ParksArms: "parking-arms",
		Moves:     "navigating",
		MoveKeys:  []string{"location", "target"},
		MoveSub:   "name",
		Detects:   "detecting",
		Seen:      seenRegions(w),
		// visible and perceived read the base pose and the objects only;
		// moving the torso and detecting change neither.
		KeepsView: []string{"moving-torso", "detecting"},
		// Objects move only when picked, placed or carried (a held
		// object is seen by no detection); perceived reads the object
		// alone, and names are unique per environment.
		Fixed:     []string{"navigating", "moving-torso", "parking-arms", "detecting"},
		Perceived: perceivedProps(w),
		// Objects start at the centres of their cells and two in one
		// cell would overlap (DecodeEnv and ParseEnv refuse that);
		// perceived gives the region and cell the object stands in.
		DistinctCells: distinctCells(w), CellKey: "cell",
		// perceived: CellAt keeps a cell inside its region's grid.
		PerceivedCell: maxGrid(w),
		PerceivedRows: perceivedRows(w),
		Floor:         "object-on-floor-p",
		Places:        "placing",
		PlaceKeys:     []string{"target", "location"},
		// placeTarget reads the region as (on NAME) or (region NAME).
		PlaceRegionKeys: []string{"on", "region"},
		PlaceCell:       "cell",
		FallCells:       fallCells(w),
		// pickUp: object-unreachable and grasping-failure come after the
		// arm is resolved and found empty.
		Grips:         "picking-up",
		GripKey:       "arm",
		GripFreeKinds: []string{KindObjectUnreachable, KindGraspingFailure},
		Arms:          arms,
		HoldQuery:     "arm-holding",
		Reach:         reachOf(w),
		Parent:        vm.ParentKind,
		// place: a cell target leaves the object at the cell's centre,
		// drifted (World.drift), off the furniture or where fits finds
		// no overlap; DecodeEnv and ParseEnv refuse overlaps; pickUp and
		// place alone change objects' places; all-objects lists each
		// object once (objectList).
		Spots:    spotsOf(w),
		AllQuery: "all-objects",
		Why:      "the simulator's actions in world " + w.Name,
		// pickUp resolves its object by name (resolveObject); only pickUp
		// and place change an object's place; perceived gives the name,
		// type and region (objRegion) of the moment.
		PickKey: "object", NameKey: "name", TypeKey: "type", RegionKey: "region",
		RegionQuery: "object-region", InitialRegionQuery: "initial-region", TypeQuery: "object-type",
		NameQuery: "object-name", StartQuery: "initial-objects-in-region",
		Regions: n.regions, Types: n.types, MayName: mayNameObject(w),
	}
	for _, q := range Queries() {
		if objectQuery(q) {
			s.Queries[q.Name] = always(KindTypeError, KindObjectNotFound)
		} else {
			s.Queries[q.Name] = always(KindTypeError)
		}
	}
	return s
}

// fallCells maps each region name, and each surface name that names no
// region, to the cells (COL ROW) of the region a placing there uses from
// which place (drift) may carry an object of some type and orientation
// off its surface: the only way an object reaches the floor.
func fallCells(w *World) map[string][][2]int {
	out := map[string][][2]int{}
	of := func(ri int) [][2]int {
		r := &w.Regions[ri]
		sf := r.Surface
		fu := &w.Furniture[w.Surfaces[sf].Furniture]
		cells := [][2]int{}
		for c := 0; c < r.Cols; c++ {
			for j := 0; j < r.Rows; j++ {
				u, v := r.Cell(c, j)
				falls := false
				for ty := range w.Types {
					for o := range w.Orientations {
						du, dv := w.drift(&objState{typ: ty, orient: o}, sf, u, v)
						if du < 0 || du > fu.Width || dv < 0 || dv > fu.Depth {
							falls = true
						}
					}
				}
				if falls {
					cells = append(cells, [2]int{c, j})
				}
			}
		}
		return cells
	}
	for ri, r := range w.Regions {
		out[r.Name] = of(ri)
	}
	for si, sf := range w.Surfaces {
		if _, isRegion := out[sf.Name]; isRegion {
			continue
		}
		for _, r := range w.Regions {
			if r.Surface == si {
				out[sf.Name] = out[r.Name]
				break
			}
		}
	}
	return out
}

// perceivedProps lists the symbols the type and region of a perceived
// designator (perceived) may hold: an object's type is one of the
// world's types; its region, when it has one, one of the world's
// regions, and it has none only on a surface that some region does not
// cover wholly ("nil").
func perceivedProps(w *World) map[string][]string {
	n := namesOf(w)
	regions := slices.Clone(n.regions)
	for si := range w.Surfaces {
		fu := &w.Furniture[w.Surfaces[si].Furniture]
		covered := false
		for _, r := range w.Regions {
			if r.Surface == si && r.U0 <= 0 && r.V0 <= 0 && r.U1 >= fu.Width && r.V1 >= fu.Depth {
				covered = true
			}
		}
		if !covered {
			regions = append(regions, "nil")
			break
		}
	}
	return map[string][]string{"type": slices.Clone(n.types), "region": regions}
}

// maxGrid is the largest number of columns and of rows of w's regions.
func maxGrid(w *World) [2]int {
	var g [2]int
	for _, r := range w.Regions {
		g[0], g[1] = max(g[0], r.Cols), max(g[1], r.Rows)
	}
	return g
}

// perceivedRows maps each region to the number of its rows a detected
// object may lie in: perceived gives a cell exactly with a region, and
// visible hides an object whose v lies beyond its surface's depth less
// the hidden back strip, so the rows past the cell CellAt gives there
// are never seen.
func perceivedRows(w *World) map[string]int {
	out := map[string]int{}
	for ri := range w.Regions {
		r := &w.Regions[ri]
		rows := r.Rows
		if sf := &w.Surfaces[r.Surface]; sf.HiddenBack > 0 {
			fu := &w.Furniture[sf.Furniture]
			_, j, _ := r.CellAt(r.U0, fu.Depth-sf.HiddenBack)
			rows = j + 1
		}
		out[r.Name] = rows
	}
	return out
}

// seenRegions maps each location to the regions an object detected from
// it may be in ("nil" for an object on a surface outside every region):
// a region whose area on its surface (where an object's centre stays)
// the camera's range and field of view cannot reach from the location's
// pose is left out. The test is conservative: a quadrilateral is out of
// sight only when it lies beyond the range or wholly outside one edge of
// the field of view (a field of 180° or more sees every side).
func seenRegions(w *World) map[string][]string {
	out := map[string][]string{}
	for _, l := range w.Locations {
		var seen []string
		nilSeen := false
		for si := range w.Surfaces {
			sf := &w.Surfaces[si]
			fu := &w.Furniture[sf.Furniture]
			covered := false
			for _, r := range w.Regions {
				if r.Surface != si {
					continue
				}
				u0, v0, u1, v1 := max(r.U0, 0), max(r.V0, 0), min(r.U1, fu.Width), min(r.V1, fu.Depth)
				if u0 > u1 || v0 > v1 {
					continue
				}
				if r.U0 <= 0 && r.V0 <= 0 && r.U1 >= fu.Width && r.V1 >= fu.Depth {
					covered = true
				}
				if w.maySee(&l, fu, u0, v0, u1, v1) && !slices.Contains(seen, r.Name) {
					seen = append(seen, r.Name)
				}
			}
			if !covered && w.maySee(&l, fu, 0, 0, fu.Width, fu.Depth) {
				nilSeen = true
			}
		}
		if nilSeen {
			seen = append(seen, "nil")
		}
		out[l.Name] = seen
	}
	return out
}

// maySee reports whether a robot at l may see a point of the rectangle
// [u0, u1] x [v0, v1] of furniture fu's surface frame (false only when
// the whole rectangle is out of range or outside an edge of the view).
func (w *World) maySee(l *Location, fu *Furniture, u0, v0, u1, v1 float64) bool {
	const margin = 1e-6
	var xs, ys [4]float64
	for i, uv := range [4][2]float64{{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}} {
		xs[i], ys[i] = fu.local(uv[0], uv[1])
		xs[i], ys[i] = xs[i]-l.X, ys[i]-l.Y
	}
	// Range: the distance from the robot to the quadrilateral.
	if d := distToQuad(xs, ys); d > w.Robot.ViewRange+margin {
		return false
	}
	half := w.Robot.FOV / 2
	if half >= 90 {
		return true
	}
	for _, side := range []float64{-1, 1} {
		// The edge of the view at yaw + side*half; inside is toward the
		// heading.
		a := (l.Yaw + side*half) * math.Pi / 180
		ex, ey := math.Cos(a), math.Sin(a)
		// Normal of the edge pointing into the view.
		nx, ny := side*ey, -side*ex
		outside := true
		for i := range xs {
			if xs[i]*nx+ys[i]*ny >= -margin {
				outside = false
			}
		}
		if outside {
			return false
		}
	}
	return true
}

// distToQuad is the distance from the origin to the convex quadrilateral
// with corners (xs[i], ys[i]) in order (0 inside it).
func distToQuad(xs, ys [4]float64) float64 {
	inside, sign := true, 0.0
	d := math.Inf(1)
	for i := range xs {
		j := (i + 1) % 4
		ax, ay, bx, by := xs[i], ys[i], xs[j], ys[j]
		cross := ax*by - ay*bx
		if sign == 0 {
			sign = cross
		} else if cross*sign < 0 {
			inside = false
		}
		dx, dy := bx-ax, by-ay
		t := 0.0
		if n := dx*dx + dy*dy; n > 0 {
			t = min(max(-(ax*dx+ay*dy)/n, 0), 1)
		}
		d = min(d, math.Hypot(ax+t*dx, ay+t*dy))
	}
	if inside {
		return 0
	}
	return d
}

// mayNameObject reports whether a name could be an object's: objects are
// named TYPE-K after their type (World.ObjectName), compared exactly;
// the test ignores case and the suffix, to be safe.
func mayNameObject(w *World) func(string) bool {
	var prefixes []string
	for _, t := range w.Types {
		prefixes = append(prefixes, strings.ToLower(t.Name)+"-")
	}
	return func(name string) bool {
		name = strings.ToLower(name)
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
}

// distinctCells reports whether two objects of an environment, at their
// start cells, are never perceived in one cell of one region: each
// surface holds at most one region (so an object is perceived in the
// region and cell it starts in) and every object type takes some room
// (two centred on one point overlap).
func distinctCells(w *World) bool {
	per := map[int]int{}
	for _, r := range w.Regions {
		per[r.Surface]++
		if per[r.Surface] > 1 {
			return false
		}
	}
	for t := range w.Types {
		for o := range w.Orientations {
			if hu, hv := w.half(t, o); hu <= overlapEps || hv <= overlapEps {
				return false
			}
		}
	}
	return true
}

// spotsOf is LabelSignals' Spots: for a placing's target name (a region,
// or a surface, whose first region placeTarget takes) and cell, the
// points each type and orientation drifts to (World.drift) that stay on
// the furniture and in a region. Nil when some object has no extent
// along an axis: then two objects could stand at one point.
func spotsOf(w *World) func(name string, col, row int) []domain.Spot {
	for t := range w.Types {
		for o := range w.Orientations {
			if hu, hv := w.half(t, o); hu <= overlapEps || hv <= overlapEps {
				return nil
			}
		}
	}
	return func(name string, col, row int) []domain.Spot {
		ri := w.RegionIndex(name)
		if ri < 0 {
			if sf := w.SurfaceIndex(name); sf >= 0 {
				for r := range w.Regions {
					if w.Regions[r].Surface == sf {
						ri = r
						break
					}
				}
			}
		}
		if ri < 0 {
			return nil
		}
		r := &w.Regions[ri]
		if col < 0 || col >= r.Cols || row < 0 || row >= r.Rows {
			return nil
		}
		sf := r.Surface
		fu := &w.Furniture[w.Surfaces[sf].Furniture]
		u0, v0 := r.Cell(col, row)
		var out []domain.Spot
		for ty := range w.Types {
			for o := range w.Orientations {
				u, v := w.drift(&objState{typ: ty, orient: o}, sf, u0, v0)
				if u < 0 || u > fu.Width || v < 0 || v > fu.Depth {
					continue
				}
				if at := w.regionAt(sf, u, v); at >= 0 {
					sp := domain.Spot{Region: w.Regions[at].Name, At: [2]float64{u, v}}
					if !slices.Contains(out, sp) {
						out = append(out, sp)
					}
				}
			}
		}
		return out
	}
}
