package sim

import (
	"slices"
	"strings"

	"github.com/labelcov/labelcov/labels/domain"
)

// LabelDomains lists what w guarantees about the numbers and symbols its
// queries return, for feasible.Options.Domains: a cell (COL ROW) lies
// inside a region's grid, a grid is one of the world's grids, an
// orientation is one of the world's orientations, a region, location,
// object type, surface or arm is one the world names (or nil where the
// query says so). Labels that ask for anything else (ABS
// (< col 0) on a cell column) are listed as infeasible instead of
// injected.
func LabelDomains(w *World) map[string]domain.Domain {
	if w == nil || len(w.Regions) == 0 {
		return nil
	}
	minC, maxC := w.Regions[0].Cols, w.Regions[0].Cols
	minR, maxR := w.Regions[0].Rows, w.Regions[0].Rows
	for _, r := range w.Regions[1:] {
		minC, maxC = min(minC, r.Cols), max(maxC, r.Cols)
		minR, maxR = min(minR, r.Rows), max(maxR, r.Rows)
	}
	cell := domain.Domain{
		Elems: []domain.Range{{Lo: 0, Hi: float64(maxC - 1)}, {Lo: 0, Hi: float64(maxR - 1)}},
		Why:   "cells lie inside the world's region grids",
	}
	out := map[string]domain.Domain{
		"object-cell":  cell,
		"initial-cell": cell,
		"region-grid": {
			Elems: []domain.Range{{Lo: float64(minC), Hi: float64(maxC)}, {Lo: float64(minR), Hi: float64(maxR)}},
			Why:   "the world's region grids",
		},
	}
	n := namesOf(w)
	types, regions, surfaces, arms, locs := n.types, n.regions, n.surfaces, n.arms, n.locs
	orNil := func(names []string) []string { return append(slices.Clone(names), "nil") }
	for _, q := range []struct {
		name, why string
		syms      []string
	}{
		{"object-type", "the world's object types", types},
		{"object-region", "the world's regions, or nil", orNil(regions)},
		{"initial-region", "the world's regions, or nil", orNil(regions)},
		{"object-surface", "the world's surfaces, or nil", orNil(surfaces)},
		{"region-surface", "the world's surfaces", surfaces},
		{"object-held-by", "the robot's arms, or nil", orNil(arms)},
		{"robot-location", "the world's locations, or nil", orNil(locs)},
		{"object-on-floor-p", "t or nil", []string{"t", "nil"}},
	} {
		if len(q.syms) > 0 {
			out[q.name] = domain.Domain{Symbols: q.syms, Why: q.why}
		}
	}
	if len(w.Orientations) > 0 {
		lo, hi := slices.Min(w.Orientations), slices.Max(w.Orientations)
		out["object-orientation"] = domain.Domain{
			Value: &domain.Range{Lo: float64(lo), Hi: float64(hi)},
			Why:   "the world's orientations",
		}
	}
	// The object queries resolve their argument to an object: nil is
	// none, a failure.
	for _, q := range Queries() {
		if objectQuery(q) {
			d := out[q.Name]
			d.FailsOnNil = true
			out[q.Name] = d
		}
	}
	return out
}

// objectQuery reports whether q resolves its argument to an object
// (qObject): nil, or anything that names no object, is a failure.
func objectQuery(q Query) bool {
	return q.MinArgs == 1 && (strings.HasPrefix(q.Name, "object-") || strings.HasPrefix(q.Name, "initial-")) && q.Name != "initial-objects-in-region"
}

// worldNames are the names a world declares, by kind.
type worldNames struct {
	types, regions, surfaces, arms, locs, levels, furniture []string
}

func namesOf(w *World) worldNames {
	var n worldNames
	for _, t := range w.Types {
		n.types = append(n.types, t.Name)
	}
	for _, r := range w.Regions {
		n.regions = append(n.regions, r.Name)
	}
	for _, sf := range w.Surfaces {
		n.surfaces = append(n.surfaces, sf.Name)
	}
	for _, a := range w.Robot.Arms {
		n.arms = append(n.arms, a.Name)
	}
	for _, l := range w.Locations {
		n.locs = append(n.locs, l.Name)
	}
	for _, l := range w.Robot.TorsoLevels {
		n.levels = append(n.levels, l.Name)
	}
	for _, f := range w.Furniture {
		n.furniture = append(n.furniture, f.Name)
	}
	return n
}
