package sim

import (
	"bytes"
	"fmt"
	"os"
	"strconv"

	"github.com/labelcov/labelcov/interp/syntax"
)

// DefaultMaxObjects caps how many object slots a byte string may fill.
const DefaultMaxObjects = 16

// Env is an initial environment: the dynamic objects of a world, in order.
// Object k of type t is named after its rank among the objects of type t
// (milk-1, milk-2, ...), so names are stable for a given Env.
type Env struct {
	Objects []EnvObject
}

// EnvObject is one object of an environment, as indices into its World.
// Cell numbers columns (Col, along the front edge, 0 = left end seen from
// the front) and rows (Row, 0 = nearest the front edge).
type EnvObject struct {
	Type, Region, Col, Row, Orientation int
}

// Names returns the object names of env in order.
func (w *World) Names(env *Env) []string {
	out := make([]string, len(env.Objects))
	var count [64]int // no allocation for worlds of up to 64 types
	var counts []int
	if len(w.Types) <= len(count) {
		counts = count[:len(w.Types)]
	} else {
		counts = make([]int, len(w.Types))
	}
	for i, o := range env.Objects {
		if !w.valid(o) {
			out[i] = "invalid-" + strconv.Itoa(i+1)
			continue
		}
		out[i] = w.ObjectName(o.Type, counts[o.Type])
		counts[o.Type]++
	}
	return out
}

// footprint returns the surface and the (u0, v0, u1, v1) box of o.
func (w *World) footprint(o EnvObject) (surface int, box Rect) {
	r := &w.Regions[o.Region]
	u, v := r.Cell(o.Col, o.Row)
	hu, hv := w.half(o.Type, o.Orientation)
	return r.Surface, Rect{u - hu, v - hv, u + hu, v + hv}
}

// overlapEps lets objects that merely touch stand side by side.
const overlapEps = 1e-9

func (a Rect) overlaps(b Rect) bool {
	return a.X0 < b.X1-overlapEps && b.X0 < a.X1-overlapEps && a.Y0 < b.Y1-overlapEps && b.Y0 < a.Y1-overlapEps
}

// overlapsAny reports the index of the first of objs that o would overlap,
// or -1.
func (w *World) overlapsAny(objs []EnvObject, o EnvObject) int {
	s, box := w.footprint(o)
	for i, q := range objs {
		if qs, qbox := w.footprint(q); qs == s && box.overlaps(qbox) {
			return i
		}
	}
	return -1
}

// DecodeEnv turns fuzzer bytes into an environment (see docs/environment.md):
// the input is cut into objects of BytesPerObject bytes each, at most
// maxObjects of them (maxObjects <= 0 means DefaultMaxObjects); a trailing
// incomplete object is ignored. Each object is a big-endian unsigned integer
// v, reduced modulo t·r·p·o and read in mixed radix, orientation least
// significant:
//
//	v = ((type·r + region)·p + row·cols + col)·o + orientation
//
// An object that overlaps one already placed on the same surface is dropped.
// Every byte string decodes; none is rejected.
func (w *World) DecodeEnv(data []byte, maxObjects int) *Env {
	env := &Env{}
	w.DecodeEnvInto(env, data, maxObjects)
	return env
}

// DecodeEnvInto is DecodeEnv reusing env's storage: it does not allocate
// once env.Objects has grown to capacity, which is what fuzzing loops want.
func (w *World) DecodeEnvInto(env *Env, data []byte, maxObjects int) {
	if maxObjects <= 0 {
		maxObjects = DefaultMaxObjects
	}
	env.Objects = env.Objects[:0]
	b := w.bytesPerObject
	n := min(len(data)/b, maxObjects)
	for k := range n {
		var v uint64
		for _, c := range data[k*b : k*b+b] {
			v = v<<8 | uint64(c)
		}
		o := w.unpack(v % w.objectSpace)
		if w.overlapsAny(env.Objects, o) < 0 {
			env.Objects = append(env.Objects, o)
		}
	}
}

func (w *World) unpack(v uint64) EnvObject {
	no := uint64(len(w.Orientations))
	np := uint64(w.Grid)
	nr := uint64(len(w.Regions))
	var o EnvObject
	o.Orientation = int(v % no)
	v /= no
	cell := int(v % np)
	v /= np
	o.Region = int(v % nr)
	o.Type = int(v / nr)
	cols := w.Regions[o.Region].Cols
	o.Col, o.Row = cell%cols, cell/cols
	return o
}

// valid reports whether o's indices lie within w (the fast form of check).
func (w *World) valid(o EnvObject) bool {
	if o.Type < 0 || o.Type >= len(w.Types) || o.Region < 0 || o.Region >= len(w.Regions) ||
		o.Orientation < 0 || o.Orientation >= len(w.Orientations) {
		return false
	}
	r := &w.Regions[o.Region]
	return o.Col >= 0 && o.Col < r.Cols && o.Row >= 0 && o.Row < r.Rows
}

// check reports why o is not a valid object of w, or "".
func (w *World) check(o EnvObject) string {
	switch {
	case o.Type < 0 || o.Type >= len(w.Types):
		return fmt.Sprintf("type index %d out of range", o.Type)
	case o.Region < 0 || o.Region >= len(w.Regions):
		return fmt.Sprintf("region index %d out of range", o.Region)
	case o.Orientation < 0 || o.Orientation >= len(w.Orientations):
		return fmt.Sprintf("orientation index %d out of range", o.Orientation)
	}
	r := &w.Regions[o.Region]
	if o.Col < 0 || o.Col >= r.Cols || o.Row < 0 || o.Row >= r.Rows {
		return fmt.Sprintf("cell (%d %d) outside region %s's %dx%d grid", o.Col, o.Row, r.Name, r.Cols, r.Rows)
	}
	return ""
}

// EncodeEnv is the inverse of DecodeEnv: it writes each object as
// BytesPerObject big-endian bytes. It fails on objects outside the world
// and on overlapping objects (which DecodeEnv would drop), so that
// DecodeEnv(EncodeEnv(env)) always equals env.
func (w *World) EncodeEnv(env *Env) ([]byte, error) {
	b := w.bytesPerObject
	out := make([]byte, 0, b*len(env.Objects))
	for i, o := range env.Objects {
		if msg := w.check(o); msg != "" {
			return nil, fmt.Errorf("object %d: %s", i+1, msg)
		}
		if j := w.overlapsAny(env.Objects[:i], o); j >= 0 {
			return nil, fmt.Errorf("object %d overlaps object %d", i+1, j+1)
		}
		out = w.AppendObject(out, o)
	}
	return out, nil
}

// AppendObject appends o's BytesPerObject bytes (its value, big-endian) to
// dst, without EncodeEnv's checks: o must lie within w, and an object
// that overlaps one before it is dropped when the bytes are decoded.
// Searches that build environments object by object use it.
func (w *World) AppendObject(dst []byte, o EnvObject) []byte {
	r := &w.Regions[o.Region]
	v := ((uint64(o.Type)*uint64(len(w.Regions))+uint64(o.Region))*uint64(w.Grid)+uint64(o.Row*r.Cols+o.Col))*uint64(len(w.Orientations)) + uint64(o.Orientation)
	for k := w.bytesPerObject - 1; k >= 0; k-- {
		dst = append(dst, byte(v>>(8*uint(k))))
	}
	return dst
}

// ObjectOf is the object of value v (reduced modulo ObjectSpace), as
// DecodeEnv reads each chunk of bytes.
func (w *World) ObjectOf(v uint64) EnvObject { return w.unpack(v % w.objectSpace) }

// ReadEnv loads the start environment of a run from a .env file
// (envPath) or from fuzzer bytes (bytesPath, decoded with maxObjects); with
// neither it is the empty environment. It is what `labelcov run --env |
// --bytes` needs.
func (w *World) ReadEnv(envPath, bytesPath string, maxObjects int) (*Env, error) {
	switch {
	case envPath != "" && bytesPath != "":
		return nil, fmt.Errorf("give an environment either as a .env file or as bytes, not both")
	case envPath != "":
		return w.LoadEnv(envPath)
	case bytesPath != "":
		data, err := os.ReadFile(bytesPath)
		if err != nil {
			return nil, fmt.Errorf("reading environment bytes: %w", err)
		}
		return w.DecodeEnv(data, maxObjects), nil
	}
	return &Env{}, nil
}

// LoadEnv reads a .env file.
func (w *World) LoadEnv(path string) (*Env, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading environment: %w", err)
	}
	return w.ParseEnv(path, src)
}

// ParseEnv reads a .env file:
//
//	(environment
//	  (object milk (region board-2) (cell 3 14) (orientation 0))
//	  ...)
//
// Errors are *syntax.Error values naming file:line:col.
func (w *World) ParseEnv(filename string, src []byte) (*Env, error) {
	f, err := syntax.Parse(filename, src)
	if err != nil {
		return nil, err
	}
	if len(f.Forms) != 1 || syntax.Head(f.Forms[0]) != "environment" {
		if len(f.Forms) == 0 {
			return nil, syntax.Errorf(filename, src, syntax.Pos{Line: 1, Col: 1}, "expected (environment (object TYPE (region R) (cell COL ROW) (orientation DEG))...)")
		}
		n := f.Forms[0]
		if syntax.Head(n) == "environment" {
			n = f.Forms[1]
		}
		return nil, f.NodeErrorf(n, "expected a single (environment ...) form")
	}
	env := &Env{}
	for _, e := range f.Forms[0].(*syntax.List).Elems[1:] {
		o, err := w.envObject(f, e)
		if err != nil {
			return nil, err
		}
		if j := w.overlapsAny(env.Objects, o); j >= 0 {
			return nil, f.NodeErrorf(e, "object overlaps object %d (%s)", j+1, w.Names(env)[j])
		}
		env.Objects = append(env.Objects, o)
	}
	return env, nil
}

func (w *World) envObject(f *syntax.File, e syntax.Node) (EnvObject, error) {
	l, ok := e.(*syntax.List)
	if !ok || syntax.Head(e) != "object" || len(l.Elems) < 2 {
		return EnvObject{}, f.NodeErrorf(e, "expected (object TYPE (region R) (cell COL ROW) (orientation DEG))")
	}
	o := EnvObject{Type: -1, Region: -1, Col: -1, Orientation: -1}
	ts, ok := l.Elems[1].(*syntax.Symbol)
	if ok {
		o.Type = w.TypeIndex(ts.Name)
	}
	if o.Type < 0 {
		return o, f.NodeErrorf(l.Elems[1], "unknown object type (world %s has %s)", w.Name, w.typeList())
	}
	var cellNode syntax.Node
	for _, pe := range l.Elems[2:] {
		pl, ok := pe.(*syntax.List)
		key := syntax.Head(pe)
		if !ok || key == "" {
			return o, f.NodeErrorf(pe, "expected (region R), (cell COL ROW) or (orientation DEG)")
		}
		switch key {
		case "region":
			if len(pl.Elems) == 2 {
				if s, ok := pl.Elems[1].(*syntax.Symbol); ok {
					o.Region = w.RegionIndex(s.Name)
				}
			}
			if o.Region < 0 {
				return o, f.NodeErrorf(pe, "expected (region NAME) naming a region of world %s", w.Name)
			}
		case "cell":
			if len(pl.Elems) != 3 {
				return o, f.NodeErrorf(pe, "expected (cell COL ROW)")
			}
			c, ok1 := pl.Elems[1].(*syntax.Int)
			r, ok2 := pl.Elems[2].(*syntax.Int)
			if !ok1 || !ok2 {
				return o, f.NodeErrorf(pe, "expected (cell COL ROW) with two integers")
			}
			if c.Value < 0 || c.Value > 1<<20 || r.Value < 0 || r.Value > 1<<20 {
				return o, f.NodeErrorf(pe, "cell out of range")
			}
			o.Col, o.Row = int(c.Value), int(r.Value)
			cellNode = pe
		case "orientation":
			if len(pl.Elems) == 2 {
				if d, ok := pl.Elems[1].(*syntax.Int); ok && d.Value >= -3600 && d.Value <= 3600 {
					o.Orientation = w.OrientationIndex(int(d.Value))
				}
			}
			if o.Orientation < 0 {
				return o, f.NodeErrorf(pe, "expected (orientation DEG) with one of %v", w.Orientations)
			}
		default:
			return o, f.NodeErrorf(pl.Elems[0], "unknown object property %q (expected region, cell or orientation)", key)
		}
	}
	if o.Region < 0 || o.Col < 0 || o.Orientation < 0 {
		return o, f.NodeErrorf(e, "object needs (region R), (cell COL ROW) and (orientation DEG)")
	}
	if r := &w.Regions[o.Region]; o.Col >= r.Cols || o.Row >= r.Rows {
		return o, f.NodeErrorf(cellNode, "cell (%d %d) is outside region %s's %dx%d grid", o.Col, o.Row, r.Name, r.Cols, r.Rows)
	}
	return o, nil
}

func (w *World) typeList() string {
	var b bytes.Buffer
	for i, t := range w.Types {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Name)
	}
	return b.String()
}

// FormatEnv prints env as a .env file, one object a line with its name in
// a comment. ParseEnv(FormatEnv(env)) equals env.
func (w *World) FormatEnv(env *Env) []byte {
	var b bytes.Buffer
	b.WriteString("(environment")
	names := w.Names(env)
	for i, o := range env.Objects {
		if msg := w.check(o); msg != "" {
			fmt.Fprintf(&b, "\n  ; object %d invalid: %s", i+1, msg)
			continue
		}
		fmt.Fprintf(&b, "\n  (object %s (region %s) (cell %d %d) (orientation %d)) ; %s",
			w.Types[o.Type].Name, w.Regions[o.Region].Name, o.Col, o.Row, w.Orientations[o.Orientation], names[i])
	}
	if len(env.Objects) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(")\n")
	return b.Bytes()
}
