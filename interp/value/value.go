package value

import (
	"math"
)

// Kind is the type of a Value.
type Kind uint8

const (
	KNil Kind = iota
	KT
	KInt
	KFloat
	KString
	KSymbol
	KKeyword
	KCons
	KDesignator
	KFunc
	KObject
)

var kindNames = [...]string{
	KNil: "null", KT: "boolean", KInt: "integer", KFloat: "float", KString: "string",
	KSymbol: "symbol", KKeyword: "keyword", KCons: "cons", KDesignator: "designator",
	KFunc: "function", KObject: "object",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Value is a plan value. The zero Value is nil.
//
// Immediate kinds (nil, t, int, float, object handles) keep their payload in
// bits; the others keep it in ref: string for strings, symbols and keywords
// (and object names), *Cons, *Designator, or a Func.
type Value struct {
	kind Kind
	bits uint64
	ref  any
}

// Cons is a pair; lists are chains of conses ending in nil.
type Cons struct {
	Car, Cdr Value
}

// Func is implemented by callable values (closures, builtins). The VM owns
// the concrete types; this package only needs their names for printing.
type Func interface {
	FuncName() string
}

var (
	Nil = Value{}
	T   = Value{kind: KT}
)

func Int(i int64) Value     { return Value{kind: KInt, bits: uint64(i)} }
func Float(f float64) Value { return Value{kind: KFloat, bits: math.Float64bits(f)} }
func String(s string) Value { return Value{kind: KString, ref: s} }
func Symbol(name string) Value {
	switch name {
	case "nil":
		return Nil
	case "t":
		return T
	}
	return Value{kind: KSymbol, ref: name}
}
func Keyword(name string) Value          { return Value{kind: KKeyword, ref: name} }
func NewCons(car, cdr Value) Value       { return Value{kind: KCons, ref: &Cons{Car: car, Cdr: cdr}} }
func FromCons(c *Cons) Value             { return Value{kind: KCons, ref: c} }
func FromDesignator(d *Designator) Value { return Value{kind: KDesignator, ref: d} }
func FromFunc(f Func) Value              { return Value{kind: KFunc, ref: f} }

// Object is a handle to a world object: id indexes the simulator's object
// table and name is what plans print.
func Object(id int, name string) Value { return Value{kind: KObject, bits: uint64(id), ref: name} }

// Bool is t for true and nil for false.
func Bool(b bool) Value {
	if b {
		return T
	}
	return Nil
}

// List builds a proper list of vs (its conses in one allocation).
func List(vs ...Value) Value { return ListTail(vs, Nil) }

// ListTail builds the list of vs ending in tail instead of nil: fresh
// conses, all made in one allocation.
func ListTail(vs []Value, tail Value) Value {
	if len(vs) == 0 {
		return tail
	}
	cs := make([]Cons, len(vs))
	return linkConses(cs, vs, tail)
}

// linkConses fills cs (len(cs) == len(vs) > 0) with vs, chains it and ends
// it in tail.
func linkConses(cs []Cons, vs []Value, tail Value) Value {
	last := len(cs) - 1
	for i := 0; i < last; i++ {
		cs[i] = Cons{Car: vs[i], Cdr: Value{kind: KCons, ref: &cs[i+1]}}
	}
	cs[last] = Cons{Car: vs[last], Cdr: tail}
	return Value{kind: KCons, ref: &cs[0]}
}

// Conses returns a list of n fresh conses (all made in one allocation)
// whose cars are nil and whose last cdr is tail, for builders that fill in
// the cars (through Cons) before anyone else sees the list. n <= 0 returns
// tail.
func Conses(n int, tail Value) Value {
	if n <= 0 {
		return tail
	}
	cs := make([]Cons, n)
	for i := 0; i < n-1; i++ {
		cs[i].Cdr = Value{kind: KCons, ref: &cs[i+1]}
	}
	cs[n-1].Cdr = tail
	return Value{kind: KCons, ref: &cs[0]}
}

func (v Value) Kind() Kind     { return v.kind }
func (v Value) IsNil() bool    { return v.kind == KNil }
func (v Value) Truthy() bool   { return v.kind != KNil }
func (v Value) IsNumber() bool { return v.kind == KInt || v.kind == KFloat }

// IsList reports whether v is nil or a cons.
func (v Value) IsList() bool { return v.kind == KNil || v.kind == KCons }

// Int returns the integer payload; only meaningful when Kind is KInt.
func (v Value) Int() int64 { return int64(v.bits) }

// Float returns the float payload; only meaningful when Kind is KFloat.
func (v Value) Float() float64 { return math.Float64frombits(v.bits) }

// Number returns v as a float64 for mixed arithmetic.
func (v Value) Number() float64 {
	if v.kind == KInt {
		return float64(int64(v.bits))
	}
	return math.Float64frombits(v.bits)
}

// Str returns the text of a string, the name of a symbol or keyword, or the
// name of an object handle; "" otherwise.
func (v Value) Str() string {
	switch v.kind {
	case KString, KSymbol, KKeyword, KObject:
		return v.ref.(string)
	case KT:
		return "t"
	case KNil:
		return "nil"
	}
	return ""
}

// SymbolName is Str for symbols (including t and nil), "" for other kinds.
func (v Value) SymbolName() string {
	switch v.kind {
	case KSymbol, KT, KNil:
		return v.Str()
	}
	return ""
}

// Cons returns the pair of a cons value, or nil.
func (v Value) Cons() *Cons {
	if v.kind == KCons {
		return v.ref.(*Cons)
	}
	return nil
}

// Designator returns the designator of v, or nil.
func (v Value) Designator() *Designator {
	if v.kind == KDesignator {
		return v.ref.(*Designator)
	}
	return nil
}

// Func returns the callable of v, or nil.
func (v Value) Func() Func {
	if v.kind == KFunc {
		return v.ref.(Func)
	}
	return nil
}

// ObjectID returns the id of an object handle.
func (v Value) ObjectID() int { return int(v.bits) }

// Car and Cdr follow Lisp: both are nil on nil.
func (v Value) Car() Value {
	if c := v.Cons(); c != nil {
		return c.Car
	}
	return Nil
}

func (v Value) Cdr() Value {
	if c := v.Cons(); c != nil {
		return c.Cdr
	}
	return Nil
}

// Slice returns the elements of a proper list (ignoring a dotted tail) and
// whether v was a proper list.
func (v Value) Slice() ([]Value, bool) {
	var out []Value
	for v.kind == KCons {
		c := v.ref.(*Cons)
		out = append(out, c.Car)
		v = c.Cdr
	}
	return out, v.kind == KNil
}

// ProperLen returns the number of conses of v and whether v is a proper
// list (nil or conses ending in nil), as len and ok of Slice, without
// building the slice.
func (v Value) ProperLen() (int, bool) {
	n := 0
	for v.kind == KCons {
		n++
		v = v.ref.(*Cons).Cdr
	}
	return n, v.kind == KNil
}

// Len returns the length of a list, counting conses.
func (v Value) Len() int {
	n := 0
	for v.kind == KCons {
		n++
		v = v.ref.(*Cons).Cdr
	}
	return n
}

// Eq is identity: same immediate value, same name for symbols and keywords,
// same object for references. Numbers of equal value and type are eq too (as
// most Lisps make small integers).
func Eq(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KNil, KT:
		return true
	case KInt, KFloat, KObject:
		return a.bits == b.bits
	case KSymbol, KKeyword:
		return a.ref.(string) == b.ref.(string)
	case KString:
		// Strings are immutable and their identity is not observable, so
		// eq compares contents: results never depend on constant sharing.
		return a.ref.(string) == b.ref.(string)
	case KCons:
		return a.ref.(*Cons) == b.ref.(*Cons)
	case KDesignator:
		return a.ref.(*Designator) == b.ref.(*Designator)
	case KFunc:
		return a.ref == b.ref
	}
	return false
}

// Eql is Eq: numbers compare by type and value, so (eql 1 1.0) is nil.
func Eql(a, b Value) bool {
	if a.kind == KFloat && b.kind == KFloat {
		return a.Float() == b.Float()
	}
	return Eq(a, b)
}

// Equal is structural: lists and designators element by element, strings by
// content, numbers as Eql. It keeps its own stack of the pairs still to
// compare (one per level of nesting), so values nested a million deep
// compare without deep recursion.
func Equal(a, b Value) bool {
	eq, _ := EqualSteps(a, b)
	return eq
}

// EqualSteps is Equal, also returning how many pairs of values it compared
// (the work done, for the VM's step budget).
func EqualSteps(a, b Value) (bool, int) {
	var todo []Value // pairs still to compare, two by two
	n := 0
	for {
		n++
		if a.kind != b.kind {
			return false, n
		}
		switch a.kind {
		case KString:
			if a.ref.(string) != b.ref.(string) {
				return false, n
			}
		case KCons:
			ca, cb := a.ref.(*Cons), b.ref.(*Cons)
			if ca != cb {
				todo = append(todo, ca.Cdr, cb.Cdr)
				a, b = ca.Car, cb.Car
				continue
			}
		case KDesignator:
			da, db := a.ref.(*Designator), b.ref.(*Designator)
			if da != db {
				if da.Class != db.Class || len(da.Props) != len(db.Props) {
					return false, n
				}
				for i, p := range da.Props {
					q := db.Props[i]
					if p.Key != q.Key {
						return false, n
					}
					todo = append(todo, p.Val, q.Val)
				}
			}
		default:
			if !Eql(a, b) {
				return false, n
			}
		}
		if len(todo) == 0 {
			return true, n
		}
		a, b = todo[len(todo)-2], todo[len(todo)-1]
		todo = todo[:len(todo)-2]
	}
}
