package engine

import (
	"context"
	"errors"

	"github.com/labelcov/labelcov/labels/srcpos"
)

// mazeTarget is a synthetic plan: nested byte comparisons, laid out like the
// VM's counters (per comparison one counter for "true", one for "false"),
// plus a loop whose body counter counts the 'x' bytes of the input. Random
// sampling practically never passes the maze; coverage guidance does.
type mazeTarget struct {
	magic    []byte
	xs       int // a "many-x" finding when at least this many 'x' (0: off)
	counters []uint8
	runs     int
}

func newMaze(magic string, xs int) *mazeTarget {
	return &mazeTarget{magic: []byte(magic), xs: xs, counters: make([]uint8, 2*len(magic)+2)}
}

func (m *mazeTarget) Run(ctx context.Context, in []byte) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	m.runs++
	clear(m.counters)
	var out Outcome
	depth := 0
	for i, want := range m.magic {
		if i < len(in) && in[i] == want {
			m.counters[2*i]++
			depth++
			continue
		}
		m.counters[2*i+1]++
		break
	}
	if depth == len(m.magic) {
		out.Findings = append(out.Findings, Finding{Category: "maze", Detail: "all magic bytes matched"})
	}
	if m.xs > 0 {
		loop := &m.counters[2*len(m.magic)]
		n := 0
		for _, b := range in {
			if b == 'x' {
				n++
				if *loop < 255 {
					*loop++
				}
			}
		}
		if n >= m.xs {
			out.Findings = append(out.Findings, Finding{Category: "many-x", Pos: srcpos.Pos{File: "synth.plan", Line: 3, Col: 7}})
		}
	}
	return out, nil
}

func (m *mazeTarget) Counters() []uint8 { return m.counters }

// constTarget covers one counter and never finds anything: the engine's own
// overhead per exec.
type constTarget struct{ counters []uint8 }

func (c *constTarget) Run(context.Context, []byte) (Outcome, error) {
	c.counters[0] = 1
	return Outcome{}, nil
}
func (c *constTarget) Counters() []uint8 { return c.counters }

// brokenTarget fails as an infrastructure error would.
type brokenTarget struct{ constTarget }

var errBroken = errors.New("simulator exploded")

func (b *brokenTarget) Run(context.Context, []byte) (Outcome, error) { return Outcome{}, errBroken }
