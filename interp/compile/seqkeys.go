package compile

import (
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
)

// seqSearches are the sequence functions of Common Lisp that take the
// keyword arguments :test, :test-not and :key, compiled inline by
// seqSearch. remove, member and assoc are also core builtins; a call of
// them with two arguments stays a builtin call.
var seqSearches = map[string]bool{"remove": true, "member": true, "assoc": true, "find": true, "position": true,
	"remove-if": true, "remove-if-not": true, "member-if": true, "member-if-not": true,
	"find-if": true, "find-if-not": true, "position-if": true, "position-if-not": true}

// seqSearch compiles (NAME ITEM LIST [:test F] [:test-not F] [:key F])
// for the names of seqSearches as a loop over LIST, as Common Lisp defines
// them: an element x satisfies the test when (F ITEM (KEY x)) is true
// (eql without :test; negated by :test-not); assoc looks at the car of
// each non-nil element. member returns the first tail whose car
// satisfies, find the element, assoc the pair, position its index (or
// nil); remove returns a fresh list without the elements that satisfy.
// The -if and -if-not variants take a predicate instead of ITEM (and only
// :key): x satisfies when (PRED (KEY x)) is true, or false.
// Arguments are evaluated left to right, as written. The loop's jumps are
// uncounted plumbing (JMPNIL), like dolist's: the call is one expression
// for the coverage counters. Other keywords (:count, :start, :from-end,
// ...) are refused.
func (fs *fstate) seqSearch(name string, l *syntax.List) error {
	c := fs.c
	args := l.Elems[1:]
	what := name
	pred, predNot := strings.HasSuffix(name, "-if"), strings.HasSuffix(name, "-if-not")
	name = strings.TrimSuffix(strings.TrimSuffix(name, "-not"), "-if")
	if len(args) < 2 || len(args)%2 != 0 {
		if pred || predNot {
			return c.errf(l, "%s: expected (%s PREDICATE LIST [:key F])", what, what)
		}
		return c.errf(l, "%s: expected (%s ITEM LIST [:test F] [:test-not F] [:key F])", name, name)
	}
	saved := fs.slots
	defer func() { fs.slots = saved }()
	slot := func(n syntax.Node) (int, error) {
		if err := fs.expr(n); err != nil {
			return 0, err
		}
		s := fs.allocSlot()
		fs.emit(SET, int32(s), 0, startOf(n))
		return s, nil
	}
	item, err := slot(args[0])
	if err != nil {
		return err
	}
	rest, err := slot(args[1])
	if err != nil {
		return err
	}
	test, key, negate := -1, -1, false
	for i := 2; i < len(args); i += 2 {
		k, ok := args[i].(*syntax.Keyword)
		if !ok {
			return c.errf(args[i], "%s: expected a keyword (:test, :test-not or :key), found %s", name, describe(args[i]))
		}
		kw := strings.ToLower(k.Name)
		s, err := slot(args[i+1])
		if err != nil {
			return err
		}
		switch {
		case (pred || predNot) && kw != "key":
			return c.errf(args[i], "%s: keyword :%s is not supported (supported: :key)", what, k.Name)
		case kw == "key" && key < 0:
			key = s
		case (kw == "test" || kw == "test-not") && test < 0:
			test, negate = s, kw == "test-not"
		case kw == "key" || kw == "test" || kw == "test-not":
			return c.errf(args[i], "%s: :test and :test-not go together only once, and :key once", name)
		default:
			return c.errf(args[i], "%s: keyword :%s is not supported (supported: :test, :test-not, :key)", name, k.Name)
		}
	}
	pos := l.Open
	acc := -1 // remove: the kept elements, reversed; position: the index
	switch name {
	case "remove":
		acc = fs.allocSlot()
		fs.emit(NIL, 0, 0, pos)
		fs.emit(SET, int32(acc), 0, pos)
	case "position":
		acc = fs.allocSlot()
		fs.emit(INT, 0, 0, pos)
		fs.emit(SET, int32(acc), 0, pos)
	}
	elem := func() {
		fs.emit(LOAD, int32(rest), 0, pos)
		fs.emit(CAR, 0, 0, pos)
	}
	d := fs.depth
	top := fs.here()
	fs.emit(LOAD, int32(rest), 0, pos)
	jEnd := fs.emit(JMPNIL, 0, 0, pos)
	jSkip := -1
	if name == "assoc" { // nil elements of an alist are ignored
		elem()
		jSkip = fs.emit(JMPNIL, 0, 0, pos)
	}
	// The test: (TEST ITEM (KEY x)), x the element or, for assoc, its car;
	// (PRED (KEY x)) for the -if variants.
	if pred || predNot {
		test, negate = item, predNot
	}
	if test >= 0 {
		fs.emit(LOAD, int32(test), 0, pos)
	}
	if !pred && !predNot {
		fs.emit(LOAD, int32(item), 0, pos)
	}
	if key >= 0 {
		fs.emit(LOAD, int32(key), 0, pos)
	}
	elem()
	if name == "assoc" {
		fs.emit(CAR, 0, 0, pos)
	}
	if key >= 0 {
		fs.emit(FUNCALL, 1, 0, pos)
	}
	switch {
	case pred || predNot:
		fs.emit(FUNCALL, 1, 0, pos)
	case test >= 0:
		fs.emit(FUNCALL, 2, 0, pos)
	default:
		fs.emit(EQL, 0, 0, pos)
	}
	if negate {
		fs.emit(NOT, 0, 0, pos)
	}
	jNo := fs.emit(JMPNIL, 0, 0, pos)
	jDone := -1
	switch name {
	case "member":
		fs.emit(LOAD, int32(rest), 0, pos)
		jDone = fs.emit(JMP, 0, 0, pos)
	case "find", "assoc":
		elem()
		jDone = fs.emit(JMP, 0, 0, pos)
	case "position":
		fs.emit(LOAD, int32(acc), 0, pos)
		jDone = fs.emit(JMP, 0, 0, pos)
	case "remove":
		jDone = fs.emit(JMP, 0, 0, pos) // satisfied: dropped; the jump goes to next
	}
	fs.depth = d
	fs.patch(jNo)
	if name == "remove" {
		elem()
		fs.emit(LOAD, int32(acc), 0, pos)
		fs.emit(CONS, 0, 0, pos)
		fs.emit(SET, int32(acc), 0, pos)
		fs.patch(jDone)
	}
	if jSkip >= 0 {
		fs.patch(jSkip)
	}
	if name == "position" {
		fs.emit(LOAD, int32(acc), 0, pos)
		fs.emit(ADD1, 0, 0, pos)
		fs.emit(SET, int32(acc), 0, pos)
	}
	fs.emit(LOAD, int32(rest), 0, pos)
	fs.emit(CDR, 0, 0, pos)
	fs.emit(SET, int32(rest), 0, pos)
	fs.emit(JMP, int32(top), 0, pos)
	fs.patch(jEnd)
	if name == "remove" {
		fs.emit(LOAD, int32(acc), 0, pos)
		fs.callBuiltin("reverse", 1, pos)
		return nil
	}
	fs.emit(NIL, 0, 0, pos)
	fs.patch(jDone)
	return nil
}

// mapcar compiles (mapcar F LIST...), (mapc F LIST...), (some F LIST...)
// and (every F LIST...) as a loop that calls F on the first elements of
// the lists, then the second ones, ..., until one list ends: mapcar
// returns the values in a fresh list, mapc its first list; some returns
// the first true value (else nil), every nil at the first false value
// (else t). The loop's jumps are uncounted, as in seqSearch.
func (fs *fstate) mapcar(name string, l *syntax.List) error {
	c := fs.c
	args := l.Elems[1:]
	if len(args) < 2 {
		return c.errf(l, "%s: expected (%s FUNCTION LIST...)", name, name)
	}
	saved := fs.slots
	defer func() { fs.slots = saved }()
	pos := l.Open
	slots := make([]int, len(args))
	for i, a := range args {
		if err := fs.expr(a); err != nil {
			return err
		}
		slots[i] = fs.allocSlot()
		fs.emit(SET, int32(slots[i]), 0, startOf(a))
	}
	lists := slots[1:]
	first := -1 // mapc's value
	if name == "mapc" {
		first = fs.allocSlot()
		fs.emit(LOAD, int32(lists[0]), 0, pos)
		fs.emit(SET, int32(first), 0, pos)
	}
	acc := fs.allocSlot()
	fs.emit(NIL, 0, 0, pos)
	fs.emit(SET, int32(acc), 0, pos)
	top := fs.here()
	var ends []int
	for _, s := range lists {
		fs.emit(LOAD, int32(s), 0, pos)
		ends = append(ends, fs.emit(JMPNIL, 0, 0, pos))
	}
	fs.emit(LOAD, int32(slots[0]), 0, pos)
	for _, s := range lists {
		fs.emit(LOAD, int32(s), 0, pos)
		fs.emit(CAR, 0, 0, pos)
	}
	fs.emit(FUNCALL, int32(len(lists)), 0, pos)
	d := fs.depth
	var found []int // some, every: leave with the value on the stack
	switch name {
	case "mapc":
		fs.emit(POP, 0, 0, pos)
	case "some":
		fs.emit(DUP, 0, 0, pos)
		next := fs.emit(JMPNIL, 0, 0, pos)
		found = append(found, fs.emit(JMP, 0, 0, pos))
		fs.depth = d
		fs.patch(next)
		fs.emit(POP, 0, 0, pos)
	case "every":
		fs.emit(DUP, 0, 0, pos)
		no := fs.emit(JMPNIL, 0, 0, pos)
		fs.emit(POP, 0, 0, pos)
		next := fs.emit(JMP, 0, 0, pos)
		fs.depth = d
		fs.patch(no)
		found = append(found, fs.emit(JMP, 0, 0, pos))
		fs.depth = d - 1
		fs.patch(next)
	default:
		fs.emit(LOAD, int32(acc), 0, pos)
		fs.emit(CONS, 0, 0, pos)
		fs.emit(SET, int32(acc), 0, pos)
	}
	for _, s := range lists {
		fs.emit(LOAD, int32(s), 0, pos)
		fs.emit(CDR, 0, 0, pos)
		fs.emit(SET, int32(s), 0, pos)
	}
	fs.emit(JMP, int32(top), 0, pos)
	for _, j := range ends {
		fs.patch(j)
	}
	switch name {
	case "mapc":
		fs.emit(LOAD, int32(first), 0, pos)
		return nil
	case "some", "every":
		if name == "some" {
			fs.emit(NIL, 0, 0, pos)
		} else {
			fs.emit(T, 0, 0, pos)
		}
		for _, j := range found {
			fs.patch(j)
		}
		return nil
	}
	fs.emit(LOAD, int32(acc), 0, pos)
	fs.callBuiltin("reverse", 1, pos)
	return nil
}
