package labels

import (
	"fmt"
	"strings"
)

// Key names one criterion, or one weak-mutation operator, in flags,
// summaries and manifests.
type Key string

// The criterion keys, in the order reports list them.
const (
	MCC   Key = "mcc"
	CC    Key = "cc"
	WMABS Key = "wm-abs"
	WMAOR Key = "wm-aor"
	WMCOR Key = "wm-cor"
	WMROR Key = "wm-ror"
	// DIST is the stepping-stone criterion: for each numeric relation, a
	// ladder of labels |a-b| < 2^k (see DistRungs) that lets a branch
	// coverage fuzzer approach the exact relation step by step. It is a
	// search aid, not a test objective, so "all" does not select it.
	DIST Key = "dist"
	// MCDC is modified condition/decision coverage as clang's llvm-cov
	// measures it: its labels are the test vectors of each decision of
	// two or more conditions (mcdc.go), and its coverage counts the
	// conditions shown to affect their decision's outcome on their own.
	// Opt-in, as dist: "all" does not select it.
	MCDC Key = "mcdc"
)

// AllKeys returns every criterion key in report order.
func AllKeys() []Key { return []Key{MCC, CC, WMABS, WMAOR, WMCOR, WMROR, DIST, MCDC} }

// WM is the group of the four weak-mutation operators (wm-abs, wm-aor,
// wm-cor, wm-ror), as the flags name it and as fuzzing figures sum it.
const WM Key = "wm"

// Group folds a criterion key into the keys the flags name: a
// weak-mutation operator into WM, every other key into itself. It is the
// one place that says which keys sum into wm.
func Group(k Key) Key {
	switch k {
	case WMABS, WMAOR, WMCOR, WMROR:
		return WM
	}
	return k
}

// FigureName is the name of criterion group g's label coverage among a
// campaign's figures (stats.json, compare): "labels:mcc", "labels:wm", ...
func FigureName(g Key) string { return "labels:" + string(Group(g)) }

// criteriaWant lists what ParseCriteria accepts, for its errors.
const criteriaWant = "want mcc, mcdc, cc, wm, wm:abs, wm:aor, wm:cor, wm:ror, dist or all"

// Criteria is a set of criterion keys.
type Criteria uint8

func bit(k Key) Criteria {
	for i, a := range AllKeys() {
		if a == k {
			return 1 << i
		}
	}
	return 0
}

// Has reports whether k is selected.
func (c Criteria) Has(k Key) bool { return c&bit(k) != 0 }

// Keys lists the selected keys in report order.
func (c Criteria) Keys() []Key {
	var out []Key
	for _, k := range AllKeys() {
		if c.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

func (c Criteria) String() string {
	var s []string
	for _, k := range c.Keys() {
		s = append(s, string(k))
	}
	return strings.Join(s, ",")
}

// ParseCriteria reads a comma-separated list such as "mcc,cc,wm,wm:ror":
// mcc, cc, wm (all four mutation operators), all (mcc, cc and wm), dist, mcdc,
// and single operators as wm:abs or wm-abs (likewise aor, cor, ror).
func ParseCriteria(s string) (Criteria, error) {
	var c Criteria
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		switch f {
		case "":
			continue
		case "all":
			for _, k := range AllKeys() {
				if k != DIST && k != MCDC {
					c |= bit(k)
				}
			}
		case "wm":
			c |= bit(WMABS) | bit(WMAOR) | bit(WMCOR) | bit(WMROR)
		default:
			k := Key(strings.Replace(f, ":", "-", 1))
			if bit(k) == 0 {
				return 0, fmt.Errorf("unknown criterion %q (%s)", f, criteriaWant)
			}
			c |= bit(k)
		}
	}
	if c == 0 {
		return 0, fmt.Errorf("no criterion selected (%s)", criteriaWant)
	}
	return c, nil
}
