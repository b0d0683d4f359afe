package sim

import (
	"strconv"
	"strings"
)

// Snapshot renders the dynamic state — every object's place and pose, the
// robot's pose, torso height and what each arm holds — as text with exact
// float digits, so that tests and tools can compare final worlds exactly
// (e.g. an annotated plan against its original).
func (s *State) Snapshot() string {
	var b strings.Builder
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i, o := range s.objs {
		b.WriteString(s.names[i])
		switch {
		case o.held >= 0:
			b.WriteString(" held-by " + s.w.Robot.Arms[o.held].Name)
		case o.surface >= 0:
			b.WriteString(" on " + s.w.Surfaces[o.surface].Name + " at " + f(o.u) + " " + f(o.v))
		default:
			b.WriteString(" on-floor")
		}
		b.WriteString(" orientation " + strconv.Itoa(o.orient) + "\n")
	}
	b.WriteString("robot at " + f(s.x) + " " + f(s.y) + " yaw " + f(s.yaw) + " torso " + f(s.torso))
	if s.loc >= 0 {
		b.WriteString(" location " + s.w.Locations[s.loc].Name)
	}
	for a, h := range s.holding {
		b.WriteString("\n" + s.w.Robot.Arms[a].Name)
		if h >= 0 {
			b.WriteString(" holds " + s.names[h])
		} else {
			b.WriteString(" empty")
		}
		if s.parked[a] {
			b.WriteString(" parked")
		}
	}
	b.WriteByte('\n')
	return b.String()
}
