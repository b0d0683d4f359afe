// Package route parses the waypoint lists the dispatcher sends to robots.
//
// A route is a semicolon-separated list of waypoints "x,y" in metres, each
// optionally followed by "@speed" in metres per second. A waypoint starting
// with '#' is disabled and skipped:
//
//	0,0; 12.5,3@0.8; #14,9; 20,7
package route

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultSpeed is used for waypoints without an explicit speed.
const DefaultSpeed = 1.0

// ErrSyntax is wrapped by every parse error.
var ErrSyntax = errors.New("route: syntax error")

// Waypoint is a single target position.
type Waypoint struct {
	X, Y  float64
	Speed float64
}

// Parse parses a route description.
func Parse(s string) ([]Waypoint, error) {
	var route []Waypoint
	for i, field := range strings.Split(s, ";") {
		field = strings.TrimSpace(field)
		if field[0] == '#' {
			continue
		}
		wp, err := parseWaypoint(field)
		if err != nil {
			return nil, fmt.Errorf("waypoint %d: %w", i, err)
		}
		route = append(route, wp)
	}
	return route, nil
}

func parseWaypoint(field string) (Waypoint, error) {
	wp := Waypoint{Speed: DefaultSpeed}
	coords, speed, hasSpeed := strings.Cut(field, "@")
	xs, ys, ok := strings.Cut(coords, ",")
	if !ok {
		return wp, fmt.Errorf("%w: %q: want x,y", ErrSyntax, field)
	}
	var err error
	if wp.X, err = parseFinite(xs); err != nil {
		return wp, err
	}
	if wp.Y, err = parseFinite(ys); err != nil {
		return wp, err
	}
	if hasSpeed {
		if wp.Speed, err = parseFinite(speed); err != nil {
			return wp, err
		}
		if wp.Speed <= 0 {
			return wp, fmt.Errorf("%w: speed %v must be positive", ErrSyntax, wp.Speed)
		}
	}
	return wp, nil
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: bad number %q", ErrSyntax, s)
	}
	return v, nil
}

// Length returns the total path length of a route in metres.
func Length(route []Waypoint) float64 {
	var d float64
	for i := 1; i < len(route); i++ {
		d += math.Hypot(route[i].X-route[i-1].X, route[i].Y-route[i-1].Y)
	}
	return d
}
