package value

// Designator is a CPL designator: (an action (type picking-up) (arm left)).
// Class is "action", "location" or "object". Props keep source order;
// designators are immutable once built.
type Designator struct {
	Class string
	Props []Prop
}

// NewDesignator returns a designator of class with n properties, keys and
// values zero, for the caller to fill in before anyone else sees it. Up to
// eight properties share one allocation with the designator.
func NewDesignator(class string, n int) *Designator {
	switch {
	case n <= 0:
		return &Designator{Class: class}
	case n == 1:
		b := &struct {
			d Designator
			p [1]Prop
		}{}
		b.d = Designator{Class: class, Props: b.p[:]}
		return &b.d
	case n == 2:
		b := &struct {
			d Designator
			p [2]Prop
		}{}
		b.d = Designator{Class: class, Props: b.p[:]}
		return &b.d
	case n == 3:
		b := &struct {
			d Designator
			p [3]Prop
		}{}
		b.d = Designator{Class: class, Props: b.p[:]}
		return &b.d
	case n == 4:
		b := &struct {
			d Designator
			p [4]Prop
		}{}
		b.d = Designator{Class: class, Props: b.p[:]}
		return &b.d
	case n <= 8:
		b := &struct {
			d Designator
			p [8]Prop
		}{}
		b.d = Designator{Class: class, Props: b.p[:n:n]}
		return &b.d
	}
	return &Designator{Class: class, Props: make([]Prop, n)}
}

// Prop is one (key value) pair of a designator.
type Prop struct {
	Key string
	Val Value
}

// Get returns the value of the first property named key, and whether it was
// present.
func (d *Designator) Get(key string) (Value, bool) {
	for _, p := range d.Props {
		if p.Key == key {
			return p.Val, true
		}
	}
	return Nil, false
}

// Type is the value of the type property as a symbol name ("" if absent).
func (d *Designator) Type() string {
	v, _ := d.Get("type")
	return v.SymbolName()
}

// Equal compares class and properties in order (see value.Equal).
func (d *Designator) Equal(o *Designator) bool {
	return Equal(FromDesignator(d), FromDesignator(o))
}
