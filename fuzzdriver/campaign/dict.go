package campaign

import (
	"encoding/binary"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// MaxDict bounds the tokens of a plan's dictionary.
const MaxDict = 128

// PlanDict is the dictionary of plan f: the literal operands of its
// relations (< <= > >= = /= eq eql equal string=), the constants the
// dist criterion labels, as the fuzzer reads them — an integer c as the
// little-endian int64 words of c-1, c and c+1 (a plan's parameters are
// such words, sim.DecodeArgs), a string as its bytes — in source order,
// without repeats, at most MaxDict.
func PlanDict(f *syntax.File) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	add := func(t []byte) {
		if len(out) < MaxDict && len(t) > 0 && !seen[string(t)] {
			seen[string(t)] = true
			out = append(out, t)
		}
	}
	for _, top := range f.Forms {
		syntax.Walk(top, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || len(l.Elems) != 3 {
				return true
			}
			switch h := syntax.Head(l); {
			case normalize.IsRelational(h), h == "eq", h == "eql", h == "equal", h == "string=":
			default:
				return true
			}
			for _, x := range l.Elems[1:] {
				switch x := x.(type) {
				case *syntax.Int:
					for _, d := range []int64{-1, 0, 1} {
						var w [8]byte
						binary.LittleEndian.PutUint64(w[:], uint64(x.Value+d))
						add(w[:])
					}
				case *syntax.String:
					add([]byte(x.Value))
				}
			}
			return true
		})
	}
	return out
}

// Dict is the campaign's dictionary: PlanDict of the plan when the
// campaign is guided by dist (the criterion that offers the constants of
// relations to the fuzzer), nil otherwise.
func (p *Fuzzer) Dict() [][]byte {
	if !p.Setup.Criteria.Has(labels.DIST) {
		return nil
	}
	return PlanDict(p.Setup.Plan)
}
