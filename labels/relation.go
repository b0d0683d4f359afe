package labels

// Relation is a relational operator as the set of outcomes of comparing
// its two operands that it accepts: Less, Equal, Greater. Every front end
// spells the operators its own way (a plan's = and /=, Go's == and !=)
// but reasons about them — mutants, negations, bounds — with Relation.
type Relation uint8

// The outcomes, and the relations made of them.
const (
	Less    Relation = 1
	Equal   Relation = 2
	Greater Relation = 4

	Never        Relation = 0
	LessEqual             = Less | Equal
	GreaterEqual          = Greater | Equal
	NotEqual              = Less | Greater
	Always                = Less | Equal | Greater
)

// Relations lists the six relational operators in the order of their
// wm:ror mutants.
func Relations() []Relation {
	return []Relation{Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual}
}

// RelationOf returns the relation of a plan's operator (<, <=, >, >=, =,
// /=).
func RelationOf(op string) (Relation, bool) {
	switch op {
	case "<":
		return Less, true
	case "<=":
		return LessEqual, true
	case ">":
		return Greater, true
	case ">=":
		return GreaterEqual, true
	case "=":
		return Equal, true
	case "/=":
		return NotEqual, true
	}
	return Never, false
}

// String is the plan's operator of r ("" for Never and Always).
func (r Relation) String() string {
	switch r {
	case Less:
		return "<"
	case LessEqual:
		return "<="
	case Greater:
		return ">"
	case GreaterEqual:
		return ">="
	case Equal:
		return "="
	case NotEqual:
		return "/="
	}
	return ""
}

// Holds reports whether r accepts the outcome c of comparing its
// operands: -1 less, 0 equal, 1 greater.
func (r Relation) Holds(c int) bool { return r&(1<<(c+1)) != 0 }

// Not is the negation of r (on ordered operands).
func (r Relation) Not() Relation { return Always &^ r }

// Swap is r with its operands exchanged: a r b is b r.Swap() a.
func (r Relation) Swap() Relation { return (r&Less)<<2 | r&Equal | (r&Greater)>>2 }

// Mutant is the relation that holds exactly when a r b and its wm:ror
// mutant a m b differ: Always or Never when the mutant always or never
// differs.
func (r Relation) Mutant(m Relation) Relation { return r ^ m }
