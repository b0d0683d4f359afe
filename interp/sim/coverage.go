package sim

import (
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
)

// Action types the simulator executes, by their CPL names.
const (
	ActNavigating = iota
	ActMovingTorso
	ActParkingArms
	ActDetecting
	ActPickingUp
	ActPlacing
	numActions
)

// ActionNames lists the action types in the order of the Act constants.
var actionNames = [numActions]string{"navigating", "moving-torso", "parking-arms", "detecting", "picking-up", "placing"}

// ActionNames returns the CPL names of the actions perform understands.
func ActionNames() []string { return append([]string(nil), actionNames[:]...) }

func actionIndex(name string) int {
	for i, n := range actionNames {
		if n == name {
			return i
		}
	}
	return -1
}

// Feature is a property of a performed action whose value combinations form
// action-coverage buckets.
type Feature int

const (
	FeatLocation    Feature = iota // where the robot stands (navigating: the target)
	FeatHolding                    // how many objects the robot holds before the action
	FeatTorso                      // torso level nearest the height (moving-torso: the goal)
	FeatArm                        // the arm used
	FeatType                       // type of the object acted on (detecting: the type asked for)
	FeatRegion                     // region of the object (placing: the target region)
	FeatOrientation                // orientation of the object acted on
	FeatOutcome                    // ok or failed
	numFeatures
)

var featureNames = [numFeatures]string{"location", "holding", "torso", "arm", "type", "region", "orientation", "outcome"}

func (f Feature) String() string {
	if f >= 0 && f < numFeatures {
		return featureNames[f]
	}
	return "feature(" + strconv.Itoa(int(f)) + ")"
}

// featureValid says which features each action defines.
var featureValid = [numActions][numFeatures]bool{
	ActNavigating:  {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatOutcome: true},
	ActMovingTorso: {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatOutcome: true},
	ActParkingArms: {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatArm: true, FeatOutcome: true},
	ActDetecting:   {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatType: true, FeatOutcome: true},
	ActPickingUp:   {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatArm: true, FeatType: true, FeatRegion: true, FeatOrientation: true, FeatOutcome: true},
	ActPlacing:     {FeatLocation: true, FeatHolding: true, FeatTorso: true, FeatArm: true, FeatType: true, FeatRegion: true, FeatOrientation: true, FeatOutcome: true},
}

// BucketSpec declares the buckets of one action type: one bucket per
// combination of the values of Features (a single bucket when empty).
type BucketSpec struct {
	Action   string
	Features []Feature
	action   int
}

// domain returns the number of values feature f can take in world w.
func (w *World) domain(f Feature) int {
	switch f {
	case FeatLocation:
		return len(w.Locations)
	case FeatHolding:
		return len(w.Robot.Arms) + 1
	case FeatTorso:
		return len(w.Robot.TorsoLevels)
	case FeatArm:
		return len(w.Robot.Arms)
	case FeatType:
		return len(w.Types)
	case FeatRegion:
		return len(w.Regions)
	case FeatOrientation:
		return len(w.Orientations)
	case FeatOutcome:
		return 2
	}
	return 0
}

func (w *World) featureValue(f Feature, i int) string {
	switch f {
	case FeatLocation:
		return w.Locations[i].Name
	case FeatHolding:
		return strconv.Itoa(i)
	case FeatTorso:
		return w.Robot.TorsoLevels[i].Name
	case FeatArm:
		return w.Robot.Arms[i].Name
	case FeatType:
		return w.Types[i].Name
	case FeatRegion:
		return w.Regions[i].Name
	case FeatOrientation:
		return strconv.Itoa(w.Orientations[i])
	case FeatOutcome:
		if i == 0 {
			return "ok"
		}
		return "failed"
	}
	return "?"
}

func (b *BucketSpec) size(w *World) int {
	n := 1
	for _, f := range b.Features {
		n *= w.domain(f)
	}
	return n
}

// NumBuckets is the total number of action-coverage buckets.
func (w *World) NumBuckets() int { return w.totalBucket }

// BucketName describes bucket i, e.g. "picking-up arm=left type=milk region=table".
func (w *World) BucketName(i int) string {
	for k := len(w.Buckets) - 1; k >= 0; k-- {
		if i < w.bucketBase[k] {
			continue
		}
		b := &w.Buckets[k]
		rest := i - w.bucketBase[k]
		vals := make([]string, len(b.Features))
		for j := len(b.Features) - 1; j >= 0; j-- {
			d := w.domain(b.Features[j])
			vals[j] = b.Features[j].String() + "=" + w.featureValue(b.Features[j], rest%d)
			rest /= d
		}
		return strings.TrimSpace(b.Action + " " + strings.Join(vals, " "))
	}
	return "?"
}

// bucket returns the bucket index for action a with feature values vals
// (indexed by Feature; -1 = undefined), or -1 when the action has no
// buckets or one of the declared features is undefined for this action.
func (w *World) bucket(a int, vals *[numFeatures]int) int {
	k := w.actionSpec[a]
	if k < 0 {
		return -1
	}
	b := &w.Buckets[k]
	idx := 0
	for _, f := range b.Features {
		v := vals[f]
		if v < 0 {
			return -1
		}
		idx = idx*w.domain(f) + v
	}
	return w.bucketBase[k] + idx
}

// buckets parses (buckets (ACTION FEATURE...)...).
func (p *worldParser) buckets(l *syntax.List) error {
	w := p.w
	for _, e := range l.Elems[1:] {
		el, ok := e.(*syntax.List)
		name := syntax.Head(e)
		if !ok || name == "" {
			return p.errf(e, "expected (ACTION FEATURE...), e.g. (picking-up arm type region)")
		}
		a := actionIndex(name)
		if a < 0 {
			return p.errf(el.Elems[0], "unknown action %q (expected one of %s)", name, strings.Join(actionNames[:], ", "))
		}
		if w.actionSpec[a] >= 0 {
			return p.errf(el.Elems[0], "duplicate buckets for %s", name)
		}
		spec := BucketSpec{Action: name, action: a}
		for _, fe := range el.Elems[1:] {
			s, ok := fe.(*syntax.Symbol)
			f := Feature(-1)
			if ok {
				for i, n := range featureNames {
					if n == s.Name {
						f = Feature(i)
					}
				}
			}
			if f < 0 {
				return p.errf(fe, "unknown feature (expected one of %s)", strings.Join(featureNames[:], ", "))
			}
			if !featureValid[a][f] {
				return p.errf(fe, "action %s has no feature %s", name, f)
			}
			for _, g := range spec.Features {
				if g == f {
					return p.errf(fe, "duplicate feature %s", f)
				}
			}
			if w.domain(f) == 0 {
				return p.errf(fe, "feature %s has no values in this world (declare torso levels or locations)", f)
			}
			spec.Features = append(spec.Features, f)
		}
		w.actionSpec[a] = len(w.Buckets)
		w.Buckets = append(w.Buckets, spec)
	}
	return nil
}
