package sim

import (
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
		Parent:    vm.ParentKind,
		Why:       "the simulator's actions in world " + w.Name,
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
