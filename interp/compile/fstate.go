package compile

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// fstate is the compiler's state for one function being compiled. Its code
// is relative (pc 0 is the function's entry) until link relocates it.
type fstate struct {
	c      *compiler
	parent *fstate // enclosing function, for lambdas
	fn     *Func

	code []Op
	a, b []int32
	pos  []syntax.Pos

	scope    []*binding // innermost last
	free     []*freeVar // captured variables of a lambda
	nfreeVal int        // counts of free values and free cells
	nfreeCel int

	slots, maxSlots int // local slots in use and the high-water mark
	depth, maxDepth int // operand temporaries (statically known)

	loops    []*loopCtx
	handlers int // with-failure-handling bodies open here
	// cleanups holds, by handler level, the cleanup forms of an
	// unwind-protect whose body is open: an exit across it runs them.
	cleanups map[int][]syntax.Node
	retries  []*retryCtx // handler clauses open here

	labelAt   int // pc that is a jump target (blocks peephole merging)
	branchIdx []int
	siteIdx   []int
	children  []*fstate
}

type binding struct {
	name string
	node *syntax.Symbol // declaring node; nil for hidden temporaries
	slot int
	cell bool
	temp bool // one of normalize's temporaries (compiler.isTemp)
	// guard is, for a temporary whose value is a guarded and/or operand
	// (fstate.tempGuard), the slot of the temporary whose guard was
	// charged; -1 otherwise.
	guard int
}

type freeVar struct {
	b     *binding
	index int // in the closure's values or cells
}

// loopCtx is a block that return or return-from leaves: a loop (named
// nil), a block, or the handlers of a with-failure-handling (nil).
type loopCtx struct {
	name     string
	depth    int   // stack depth at loop entry; the loop's value lands here
	handlers int   // open handler bodies at loop entry
	exits    []int // SKIPJMPs to patch to the loop's exit
}

type retryCtx struct {
	sitePC   int // the HANDLER instruction
	depth    int
	handlers int
}

// varRef says how to reach a variable from the current function.
type varRef int

const (
	refLocal varRef = iota
	refFree
	refGlobal
)

func (fs *fstate) emit(op Op, a, b int32, pos syntax.Pos) int {
	n := len(fs.code)
	if op == POP && n > 0 && fs.labelAt != n && fs.code[n-1] == STORE {
		// STORE s; POP is SET s: assignments for effect are common.
		fs.code[n-1] = SET
		fs.depth--
		return n - 1
	}
	if n > 0 && fs.labelAt != n && fs.code[n-1] == INT {
		// INT k; ADD is ADDI k: arithmetic and comparisons with a small
		// constant are the commonest operations in plans.
		if iop, ok := immediateOp(op); ok {
			fs.code[n-1] = iop
			fs.pos[n-1] = pos
			fs.depth--
			return n - 1
		}
	}
	fs.code = append(fs.code, op)
	fs.a = append(fs.a, a)
	fs.b = append(fs.b, b)
	fs.pos = append(fs.pos, pos)
	fs.depth += stackEffect(op, a, b)
	if fs.depth > fs.maxDepth {
		fs.maxDepth = fs.depth
	}
	return n
}

// here marks the next pc as a jump target and returns it.
func (fs *fstate) here() int {
	fs.labelAt = len(fs.code)
	return len(fs.code)
}

// patch points the jump at pc j to the next instruction.
func (fs *fstate) patch(j int) { fs.a[j] = int32(fs.here()) }

// branch emits a counted conditional jump for the test node of form.
func (fs *fstate) branch(op Op, head string, form, test syntax.Node) int {
	p := fs.c.prog
	bi := len(p.branches)
	pc := len(fs.code)
	node := form
	if l, ok := form.(*syntax.List); ok && fs.c.copiedFrom[l] != nil {
		node = fs.c.copiedFrom[l] // the caller's node, not expandConditionals' copy
	}
	p.branches = append(p.branches, BranchInfo{Form: startOf(form), Test: startOf(test), Node: node, PC: pc, Head: head})
	fs.branchIdx = append(fs.branchIdx, bi)
	return fs.emit(op, 0, int32(bi), startOf(test))
}

func (fs *fstate) allocSlot() int {
	s := fs.slots
	fs.slots++
	if fs.slots > fs.maxSlots {
		fs.maxSlots = fs.slots
	}
	return s
}

// bind declares variable s in a fresh slot (the caller initialises it).
func (fs *fstate) bind(s *syntax.Symbol) *binding {
	b := &binding{name: s.Name, node: s, slot: fs.allocSlot(), cell: fs.c.captured[s] && fs.c.assigned[s]}
	fs.scope = append(fs.scope, b)
	return b
}

// bindTemp is bind for a let/let* variable, marking normalize's temporaries.
func (fs *fstate) bindTemp(s *syntax.Symbol) *binding {
	b := fs.bind(s)
	b.temp = fs.c.isTemp(s.Name)
	b.guard = -1
	return b
}

// bindAt declares s in an existing slot.
func (fs *fstate) bindAt(s *syntax.Symbol, slot int) *binding {
	b := &binding{name: s.Name, node: s, slot: slot, cell: fs.c.captured[s] && fs.c.assigned[s]}
	fs.scope = append(fs.scope, b)
	return b
}

// unbind ends the scope of the innermost n bindings and frees slots down to
// slots.
func (fs *fstate) unbind(n, slots int) {
	fs.scope = fs.scope[:len(fs.scope)-n]
	fs.slots = slots
}

// lookup resolves name: a binding of this function, a free variable
// captured from an enclosing one, or a global.
func (fs *fstate) lookup(name string) (ref varRef, index int, b *binding, ok bool) {
	for i := len(fs.scope) - 1; i >= 0; i-- {
		if b := fs.scope[i]; b.name == name {
			return refLocal, b.slot, b, true
		}
	}
	if fs.parent != nil {
		pref, pidx, pb, ok := fs.parent.lookup(name)
		if ok && pref != refGlobal {
			return refFree, fs.capture(pb, pref, pidx), pb, true
		}
	}
	if g, ok := fs.c.globals[name]; ok {
		return refGlobal, g, nil, true
	}
	return 0, 0, nil, false
}

// capture records that this lambda uses binding b of an enclosing function,
// reached there via (pref, pidx); it returns the closure index.
func (fs *fstate) capture(b *binding, pref varRef, pidx int) int {
	for _, f := range fs.free {
		if f.b == b {
			return f.index
		}
	}
	c := fs.c
	if b.node != nil {
		c.captured[b.node] = true
		if c.assigned[b.node] && !b.cell {
			c.redo = true
		}
	}
	fv := &freeVar{b: b}
	if b.cell {
		fv.index = fs.nfreeCel
		fs.nfreeCel++
	} else {
		fv.index = fs.nfreeVal
		fs.nfreeVal++
	}
	fs.free = append(fs.free, fv)
	from := FromLocal
	if pref == refFree {
		from = FromFree
	}
	fs.fn.Captures = append(fs.fn.Captures, Capture{Name: b.name, From: from, Index: pidx, Cell: b.cell})
	return fv.index
}

// load pushes the value of variable sym.
func (fs *fstate) load(sym *syntax.Symbol) error {
	ref, idx, b, ok := fs.lookup(sym.Name)
	if !ok {
		if forms.Name(sym) == "pi" {
			fs.constant(piValue, sym.Start)
			return nil
		}
		fs.emit(GETVALUE, int32(fs.c.freeGlobal(sym)), 0, sym.Start)
		return nil
	}
	switch {
	case ref == refGlobal:
		fs.emit(GETVALUE, int32(idx), 0, sym.Start)
	case ref == refLocal && b.cell:
		fs.emit(LOADC, int32(idx), 0, sym.Start)
	case ref == refLocal && b.temp:
		fs.emit(LOADT, int32(idx), 0, sym.Start)
	case ref == refLocal:
		fs.emit(LOAD, int32(idx), 0, sym.Start)
	case b.cell:
		fs.emit(LOADVC, int32(idx), 0, sym.Start)
	default:
		fs.emit(LOADV, int32(idx), 0, sym.Start)
	}
	return nil
}

// store assigns the value on top of the stack to sym, leaving it there.
func (fs *fstate) store(sym *syntax.Symbol, what string) error {
	if sym.Name == "t" || sym.Name == "nil" {
		return fs.c.errf(sym, "%s: %s is a constant and cannot be assigned", what, sym.Name)
	}
	ref, idx, b, ok := fs.lookup(sym.Name)
	if !ok {
		ref, idx = refGlobal, fs.c.freeGlobal(sym)
	}
	if b != nil && b.node != nil {
		fs.c.assigned[b.node] = true
		if fs.c.captured[b.node] && !b.cell {
			fs.c.redo = true
		}
	}
	switch {
	case ref == refGlobal:
		fs.emit(SETVALUE, int32(idx), 0, sym.Start)
	case ref == refLocal && b.cell:
		fs.emit(STOREC, int32(idx), 0, sym.Start)
	case ref == refLocal:
		fs.emit(STORE, int32(idx), 0, sym.Start)
	case b.cell:
		fs.emit(STOREVC, int32(idx), 0, sym.Start)
	default:
		// Unreachable once redo has recompiled with b as a cell; the
		// first pass emits something well-formed and is discarded.
		fs.emit(NOP, 0, 0, sym.Start)
	}
	return nil
}

// initBinding pops the value on top of the stack into binding b's slot.
func (fs *fstate) initBinding(b *binding, pos syntax.Pos) {
	if b.temp && !b.cell {
		fs.emit(SETT, int32(b.slot), 0, pos)
		return
	}
	fs.emit(SET, int32(b.slot), 0, pos)
	if b.cell {
		fs.emit(MAKECELL, int32(b.slot), 0, pos)
	}
}
