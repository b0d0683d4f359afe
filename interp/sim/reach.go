package sim

import (
	"slices"

	"github.com/labelcov/labelcov/labels/domain"
)

// reachOf declares, for domain.Signals.Reach, the cells of each region
// (and of each surface that names no region) a placing reaches from each
// world location at each torso level with each arm, for every object
// type: place signals object-unreachable for a target cell only when the
// distance from the arm's shoulder to the cell's centre, at the height
// of the held object's centre, exceeds the arm's reach, and computes
// that distance as this does. An arm property naming no arm fails with
// manipulation-failure before (State.arm), and moving the torso to a
// level by name sets the torso to that level's height (the last level of
// that name) or fails without moving it (moveTorso). TestLabelReach
// checks the declaration against Perform. Drops are the cells from which
// drift carries every object off its surface (place returns before it
// looks for room, its only placing-failure but a bad target's).
func reachOf(w *World) *domain.Reach {
	n := namesOf(w)
	r := &domain.Reach{
		Kind:       KindObjectUnreachable,
		ArmKey:     "arm",
		TorsoMoves: "moving-torso",
		TorsoKeys:  []string{"height", "level", "position"},
		Cells:      map[domain.ReachKey][][2]int{},
	}
	// The region a placing uses for each name, as placeTarget resolves
	// it: a region by name, else the first region of a surface by name.
	uses := map[string]int{}
	for _, name := range append(n.regions, n.surfaces...) {
		region := w.RegionIndex(name)
		if region < 0 {
			if sf := w.SurfaceIndex(name); sf >= 0 {
				for ri := range w.Regions {
					if w.Regions[ri].Surface == sf {
						region = ri
						break
					}
				}
			}
		}
		if region >= 0 {
			uses[name] = region
		}
	}
	r.DropKind, r.Drops = KindPlacingFailure, map[string][][2]int{}
	for name, ri := range uses {
		rg := &w.Regions[ri]
		sf := rg.Surface
		fu := &w.Furniture[w.Surfaces[sf].Furniture]
		var cells [][2]int
		for c := 0; c < rg.Cols; c++ {
			for j := 0; j < rg.Rows; j++ {
				u, v := rg.Cell(c, j)
				all := true
				for ty := range w.Types {
					for o := range w.Orientations {
						du, dv := w.drift(&objState{typ: ty, orient: o}, sf, u, v)
						if !(du < 0 || du > fu.Width || dv < 0 || dv > fu.Depth) {
							all = false
						}
					}
				}
				if all {
					cells = append(cells, [2]int{c, j})
				}
			}
		}
		if len(cells) > 0 {
			r.Drops[name] = cells
		}
	}
	s := NewState(w)
	for _, level := range n.levels {
		if !slices.Contains(r.Levels, level) {
			r.Levels = append(r.Levels, level)
		}
	}
	for li := range w.Locations {
		l := &w.Locations[li]
		if w.LocationIndex(l.Name) != li {
			continue // navigating by name goes to the first
		}
		s.x, s.y, s.yaw = l.X, l.Y, l.Yaw
		for _, level := range r.Levels {
			for _, tl := range w.Robot.TorsoLevels {
				if tl.Name == level {
					s.torso = tl.Height
				}
			}
			for a := range w.Robot.Arms {
				if w.ArmIndex(w.Robot.Arms[a].Name) != a {
					continue
				}
				reach := w.Robot.Arms[a].Reach
				for name, ri := range uses {
					rg := &w.Regions[ri]
					sf := rg.Surface
					fu := &w.Furniture[w.Surfaces[sf].Furniture]
					var cells [][2]int
					for c := 0; c < rg.Cols; c++ {
						for j := 0; j < rg.Rows; j++ {
							u, v := rg.Cell(c, j)
							x, y := fu.local(u, v)
							ok := true
							for ty := range w.Types {
								z := w.Surfaces[sf].Height + w.Types[ty].Height/2
								if s.reachDistance(a, x, y, z) > reach {
									ok = false
									break
								}
							}
							if ok {
								cells = append(cells, [2]int{c, j})
							}
						}
					}
					if len(cells) > 0 {
						r.Cells[domain.ReachKey{Loc: l.Name, Level: level, Arm: w.Robot.Arms[a].Name, Region: name}] = cells
					}
				}
			}
		}
	}
	return r
}
