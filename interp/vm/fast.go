package vm

import (
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// regs are the dispatch loop's registers, handed to and back from fast.
type regs struct {
	pc, sp, fp   int
	steps, check int64
	fr           *frame
}

// fast runs instructions for loop as long as each one is simple enough to
// need no function call: local and global variables, constants, jumps,
// integer arithmetic and comparisons, car/cdr, eq on immediates and names,
// and calls of and returns to plan functions that need no growing. It stops
// before the first instruction it does not run (a builtin call, an
// allocation, anything that may fail, the step-budget poll, growth of the
// stack or the frames, the return that ends the exec), leaving it to
// loop's general switch. Each instruction it runs has exactly loop's
// effect, coverage counters and step count included.
//
// Being free of calls lets the compiler keep the registers in machine
// registers instead of spilling them around the whole loop on every
// instruction. The stack is not resized.
func (m *Machine) fast(r *regs) {
	var (
		code   = m.code
		icnt   = m.counters[:len(code)] // instruction counters
		stack  = m.stack
		fr     = r.fr
		pc     = r.pc
		sp     = r.sp
		fp     = r.fp
		check  = r.check
		left   = r.check - r.steps // instructions until the poll: steps is check-left
		probes = m.prog.Probes
	)
	for left > 0 && uint(pc) < uint(len(code)) {
		in := code[pc]
		switch in.op {
		case compile.NOP:
		case compile.NIL:
			stack[sp] = value.Nil
			sp++
		case compile.T:
			stack[sp] = value.T
			sp++
		case compile.CONST:
			stack[sp] = m.prog.Consts[in.a]
			sp++
		case compile.INT:
			stack[sp] = value.Int(int64(in.a))
			sp++
		case compile.POP:
			sp--
		case compile.DUP:
			stack[sp] = stack[sp-1]
			sp++
		case compile.DROP:
			sp -= int(in.a)
		case compile.LOAD:
			stack[sp] = stack[fp+int(in.a)]
			sp++
		case compile.STORE:
			stack[fp+int(in.a)] = stack[sp-1]
		case compile.SET:
			sp--
			stack[fp+int(in.a)] = stack[sp]
		case compile.LOADV:
			stack[sp] = fr.cl.vals[in.a]
			sp++
		case compile.GETVALUE:
			if !m.gset[in.a] {
				goto out // unbound-variable
			}
			stack[sp] = m.globals[in.a]
			sp++
		case compile.SETVALUE:
			m.globals[in.a] = stack[sp-1]
			m.gset[in.a] = true

		case compile.JMP:
			count(icnt, pc)
			left--
			pc = int(in.a)
			continue
		case compile.JMPIF, compile.JMPIFNOT:
			sp--
			bc := 2 * int(in.b)
			next := pc + 1
			if stack[sp].Truthy() {
				count(m.counters, m.nInstr+bc)
				if in.op == compile.JMPIF {
					next = int(in.a)
				}
			} else {
				count(m.counters, m.nInstr+bc+1)
				if in.op == compile.JMPIFNOT {
					next = int(in.a)
				}
			}
			count(icnt, pc)
			left--
			pc = next
			continue
		case compile.JMPIFK:
			bc := 2 * int(in.b)
			next := pc + 1
			if stack[sp-1].Truthy() {
				count(m.counters, m.nInstr+bc)
				next = int(in.a)
			} else {
				count(m.counters, m.nInstr+bc+1)
				sp--
			}
			count(icnt, pc)
			left--
			pc = next
			continue
		case compile.JMPIFNOTK:
			bc := 2 * int(in.b)
			next := pc + 1
			if stack[sp-1].Truthy() {
				count(m.counters, m.nInstr+bc)
				sp--
			} else {
				count(m.counters, m.nInstr+bc+1)
				next = int(in.a)
			}
			count(icnt, pc)
			left--
			pc = next
			continue
		case compile.JMPNIL:
			sp--
			next := pc + 1
			if !stack[sp].Truthy() {
				next = int(in.a)
			}
			count(icnt, pc)
			left--
			pc = next
			continue
		case compile.SKIPJMP:
			x := stack[sp-1]
			sp -= int(in.b)
			stack[sp-1] = x
			count(icnt, pc)
			left--
			pc = int(in.a)
			continue
		case compile.DOLOOP:
			c, l := stack[fp+int(in.b)], stack[fp+int(in.b)+1]
			if c.Kind() != value.KInt {
				goto out // type-error
			}
			next := pc + 1
			if c.Int() < l.Int() {
				next = int(in.a)
			}
			count(icnt, pc)
			left--
			pc = next
			continue
		case compile.INCLOCAL:
			v := &stack[fp+int(in.a)]
			if v.Kind() != value.KInt {
				goto out
			}
			*v = value.Int(v.Int() + 1)
		case compile.CHECKINT:
			if stack[sp-1].Kind() != value.KInt {
				goto out
			}

		case compile.CALL:
			callee := m.prog.Funcs[in.a]
			frames := m.frames
			if len(frames) >= cap(frames) || len(frames) >= m.cfg.MaxDepth {
				goto out // frames must grow, or stack-overflow
			}
			nfp := sp - int(in.b)
			if nfp+callee.NumLocals+callee.MaxStack+1 > len(stack) {
				goto out // the stack must grow
			}
			frames = frames[:len(frames)+1]
			m.frames = frames
			fr = &frames[len(frames)-1]
			*fr = frame{fp: nfp, ret: nfp, retpc: pc + 1}
			fp = nfp
			sp = nfp + callee.NumLocals
			count(icnt, pc)
			left--
			pc = callee.Entry
			continue
		case compile.RET:
			retpc := fr.retpc
			frames := m.frames
			if retpc < 0 || len(frames) < 2 {
				goto out // the exec ends
			}
			x := stack[sp-1]
			stack[fr.ret] = x
			sp = fr.ret + 1
			frames[len(frames)-1] = frame{} // drop the closure reference
			frames = frames[:len(frames)-1]
			m.frames = frames
			fr = &frames[len(frames)-1]
			fp = fr.fp
			count(icnt, pc)
			left--
			pc = retpc
			continue

		case compile.ADD, compile.SUB, compile.MUL:
			x, y := &stack[sp-2], &stack[sp-1]
			if x.Kind() != value.KInt || y.Kind() != value.KInt {
				goto out
			}
			switch in.op {
			case compile.ADD:
				*x = value.Int(x.Int() + y.Int())
			case compile.SUB:
				*x = value.Int(x.Int() - y.Int())
			default:
				*x = value.Int(x.Int() * y.Int())
			}
			sp--
		case compile.LT, compile.LE, compile.GT, compile.GE, compile.NUMEQ:
			x, y := &stack[sp-2], &stack[sp-1]
			if x.Kind() != value.KInt || y.Kind() != value.KInt {
				goto out
			}
			a, b := x.Int(), y.Int()
			var r bool
			switch in.op {
			case compile.LT:
				r = a < b
			case compile.LE:
				r = a <= b
			case compile.GT:
				r = a > b
			case compile.GE:
				r = a >= b
			default:
				r = a == b
			}
			*x = value.Bool(r)
			sp--
		case compile.ADDI, compile.SUBI:
			x := &stack[sp-1]
			if x.Kind() != value.KInt {
				goto out
			}
			k := int64(in.a)
			if in.op == compile.SUBI {
				k = -k
			}
			*x = value.Int(x.Int() + k)
		case compile.LTI, compile.LEI, compile.GTI, compile.GEI, compile.NUMEQI:
			x := &stack[sp-1]
			if x.Kind() != value.KInt {
				goto out
			}
			a, b := x.Int(), int64(in.a)
			var r bool
			switch in.op {
			case compile.LTI:
				r = a < b
			case compile.LEI:
				r = a <= b
			case compile.GTI:
				r = a > b
			case compile.GEI:
				r = a >= b
			default:
				r = a == b
			}
			*x = value.Bool(r)
		case compile.ADD1, compile.SUB1:
			x := &stack[sp-1]
			if x.Kind() != value.KInt {
				goto out
			}
			if in.op == compile.SUB1 {
				*x = value.Int(x.Int() - 1)
			} else {
				*x = value.Int(x.Int() + 1)
			}
		case compile.NOT:
			stack[sp-1] = value.Bool(!stack[sp-1].Truthy())
		case compile.CAR, compile.CDR:
			x := &stack[sp-1]
			switch x.Kind() {
			case value.KCons:
				c := x.Cons()
				if in.op == compile.CAR {
					*x = c.Car
				} else {
					*x = c.Cdr
				}
			case value.KNil:
			default:
				goto out // type-error
			}
		case compile.EQ:
			// value.Eq for the kinds decidable without a call: names are
			// compared byte by byte (== on strings calls the runtime).
			a, b := &stack[sp-2], &stack[sp-1]
			ka := a.Kind()
			eq := false
			if ka == b.Kind() {
				switch ka {
				case value.KNil, value.KT:
					eq = true
				case value.KInt:
					eq = a.Int() == b.Int()
				case value.KCons:
					eq = a.Cons() == b.Cons()
				case value.KDesignator:
					eq = a.Designator() == b.Designator()
				case value.KSymbol, value.KKeyword:
					x, y := a.Str(), b.Str()
					if len(x) == len(y) {
						eq = true
						for i := 0; i < len(x); i++ {
							if x[i] != y[i] {
								eq = false
								break
							}
						}
					}
				default:
					goto out
				}
			}
			*a = value.Bool(eq)
			sp--
		case compile.MEMBEQ:
			// Case keys: eql against symbols, integers, names.
			x := stack[sp-1]
			kx := x.Kind()
			found := false
			for l := m.prog.Consts[in.a]; l.Kind() == value.KCons && !found; l = l.Cons().Cdr {
				c := l.Cons().Car
				if c.Kind() != kx {
					continue
				}
				switch kx {
				case value.KNil, value.KT:
					found = true
				case value.KInt:
					found = c.Int() == x.Int()
				case value.KSymbol, value.KKeyword, value.KString:
					a, b := c.Str(), x.Str()
					if len(a) == len(b) {
						found = true
						for i := 0; i < len(a); i++ {
							if a[i] != b[i] {
								found = false
								break
							}
						}
					}
				default:
					goto out
				}
			}
			stack[sp-1] = value.Bool(found)
		case compile.CALLB:
			if int(in.a) >= len(m.fastB) {
				goto out
			}
			fb := m.fastB[in.a]
			if fb == fbNone {
				goto out
			}
			n := int(in.b)
			v, ok := fastBuiltin(fb, stack[sp-n:sp])
			if !ok {
				goto out
			}
			sp -= n
			stack[sp] = v
			sp++
		case compile.HANDLER:
			h := m.handlers
			if len(h) == cap(h) {
				goto out // must grow
			}
			h = h[:len(h)+1]
			h[len(h)-1] = handlerRec{frames: len(m.frames), sp: sp, site: in.a}
			m.handlers = h
		case compile.UNHANDLE:
			m.handlers = m.handlers[:len(m.handlers)-1]
		case compile.PROBE:
			// enterProbe, without growing.
			h := m.handlers
			if len(h) == cap(h) {
				goto out
			}
			steps := check - left
			h = h[:len(h)+1]
			h[len(h)-1] = handlerRec{frames: len(m.frames), sp: sp, site: in.a, probe: true, steps: steps, allocs: m.allocs}
			m.handlers = h
			if m.probeDepth == 0 {
				m.probeBase = steps
				m.maxSteps = steps + m.cfg.MaxLabelSteps - m.labelSteps
				if check > m.maxSteps {
					left -= check - m.maxSteps
					check = m.maxSteps
				}
			}
			m.probeDepth++
		case compile.PROBEOK:
			// leaveProbe: the steps since the PROBE, this one included,
			// go to the label budget.
			h := &m.handlers[len(m.handlers)-1]
			d := check - left + 1 - h.steps
			if m.labelSteps+d > m.cfg.MaxLabelSteps {
				goto out
			}
			sp--
			bc := 2 * int(in.b)
			if stack[sp].Truthy() {
				count(m.counters, m.nInstr+bc)
			} else {
				count(m.counters, m.nInstr+bc+1)
			}
			count(icnt, pc)
			m.labelSteps += d
			m.allocs = h.allocs
			if m.probeDepth--; m.probeDepth == 0 {
				m.maxSteps = m.cfg.MaxSteps
			} else {
				m.maxSteps -= d
			}
			if check > m.maxSteps {
				check = m.maxSteps
			}
			left = check - h.steps
			m.handlers = m.handlers[:len(m.handlers)-1]
			pc = int(in.a)
			continue
		case compile.PROBECMP:
			// probeCompare on integers and names; its step is the label
			// budget's (loop reports an exhausted budget).
			if m.labelSteps >= m.cfg.MaxLabelSteps {
				goto out
			}
			pr := &probes[in.a]
			x := &stack[fp+int(pr.Slot)]
			kx := x.Kind()
			k := &pr.K
			if pr.YLocal {
				k = &stack[fp+int(pr.Y)]
			}
			var r bool
			if pr.Cmp == 't' {
				r = x.Truthy()
			} else if pr.Cmp == 'e' {
				if kx != k.Kind() {
					r = false
				} else {
					switch kx {
					case value.KNil, value.KT:
						r = true
					case value.KInt:
						r = x.Int() == k.Int()
					case value.KSymbol, value.KKeyword:
						a, b := x.Str(), k.Str()
						r = len(a) == len(b)
						for i := 0; r && i < len(a); i++ {
							r = a[i] == b[i]
						}
					default:
						goto out
					}
				}
			} else {
				if kx != value.KInt || k.Kind() != value.KInt {
					goto out
				}
				a, b := x.Int(), k.Int()
				switch pr.Cmp {
				case '<':
					r = a < b
				case 'l':
					r = a <= b
				case '>':
					r = a > b
				case 'g':
					r = a >= b
				case '=':
					r = a == b
				default:
					r = a != b
				}
			}
			bc := m.nInstr + 2*int(in.b)
			if r == pr.Not {
				bc++
			}
			count(m.counters, bc)
			count(icnt, pc)
			m.labelSteps++
			if m.probeDepth > 0 {
				// Inside a probe: its limit in steps moves down too.
				m.maxSteps--
				if check > m.maxSteps {
					left -= check - m.maxSteps
					check = m.maxSteps
				}
			}
			pc++
			continue
		case compile.PROBEFAIL:
			// The failure path (see loop's trap handling for its step).
			count(m.counters, m.nInstr+2*int(in.b)+1)
		default:
			goto out
		}
		count(icnt, pc)
		left--
		pc++
	}
out:
	r.pc, r.sp, r.fp, r.steps, r.check, r.fr = pc, sp, fp, check-left, check, fr
}

// count increments counter i, saturating at 255.
func count(cnt []uint8, i int) {
	if c := cnt[i]; c != 255 {
		cnt[i] = c + 1
	}
}

// Core builtins that fast runs itself, when their arguments need no
// failure: see Machine.fastB.
const (
	fbNone uint8 = iota
	fbDesigProp
	fbNumNE
	fbAbs
	fbLength
	fbCar    // car, first
	fbCdr    // cdr, rest
	fbSecond // second
	fbThird  // third
	fbNth
	fbMember
	fbAssoc
)

// fbSkip is how many conses the list accessors skip first.
var fbSkip = [...]int{fbCar: 0, fbCdr: 0, fbSecond: 1, fbThird: 2}

var fastBuiltins = map[string]uint8{
	"desig-prop": fbDesigProp, "/=": fbNumNE, "abs": fbAbs, "length": fbLength,
	"car": fbCar, "first": fbCar, "cdr": fbCdr, "rest": fbCdr, "second": fbSecond, "third": fbThird,
	"nth": fbNth, "member": fbMember, "assoc": fbAssoc,
}

// fastBuiltinTable maps core builtin ids to what fast does for them.
func fastBuiltinTable() []uint8 {
	t := make([]uint8, len(compile.CoreBuiltins()))
	for name, fb := range fastBuiltins {
		if id, ok := compile.CoreBuiltin(name); ok {
			t[id] = fb
		}
	}
	return t
}

// fastBuiltin runs the core builtin fb on args when it cannot fail; ok is
// false when loop must run it.
//
//go:noinline
func fastBuiltin(fb uint8, args []value.Value) (v value.Value, ok bool) {
	a0 := args[0]
	switch fb {
	case fbDesigProp:
		// desig-prop: a property of a designator, nil if absent.
		d, key := a0.Designator(), args[len(args)-1]
		if d == nil || key.Kind() != value.KSymbol && key.Kind() != value.KKeyword {
			return value.Nil, false // type-error
		}
		k := key.Str()
		for i := range d.Props {
			pk := d.Props[i].Key
			if len(pk) != len(k) {
				continue
			}
			same := true
			for j := 0; j < len(k); j++ {
				if pk[j] != k[j] {
					same = false
					break
				}
			}
			if same {
				v = d.Props[i].Val
				break
			}
		}
	case fbNumNE:
		// /= on integers: t when no two are equal.
		for i := range args {
			if args[i].Kind() != value.KInt {
				return value.Nil, false
			}
		}
		v = value.T
		for i := 0; i < len(args) && v.Truthy(); i++ {
			for j := i + 1; j < len(args); j++ {
				if args[i].Int() == args[j].Int() {
					v = value.Nil
					break
				}
			}
		}
	case fbAbs:
		if a0.Kind() != value.KInt {
			return value.Nil, false
		}
		v = a0
		if a0.Int() < 0 {
			v = value.Int(-a0.Int())
		}
	case fbLength:
		if a0.Kind() == value.KString {
			v = value.Int(int64(len(a0.Str())))
			break
		}
		k := 0
		l := a0
		for l.Kind() == value.KCons {
			k++
			l = l.Cons().Cdr
		}
		if l.Kind() != value.KNil {
			return value.Nil, false // type-error
		}
		v = value.Int(int64(k))
	case fbCar, fbCdr, fbSecond, fbThird:
		// car/first/rest/cdr/second/third: skip conses, then car or
		// cdr.
		l := a0
		for i := fbSkip[fb]; i > 0 && l.Kind() == value.KCons; i-- {
			l = l.Cons().Cdr
		}
		switch l.Kind() {
		case value.KCons:
			if fb == fbCdr {
				v = l.Cons().Cdr
			} else {
				v = l.Cons().Car
			}
		case value.KNil:
		default:
			return value.Nil, false // type-error
		}
	case fbNth:
		if a0.Kind() != value.KInt || a0.Int() < 0 {
			return value.Nil, false
		}
		l := args[len(args)-1]
		for i := a0.Int(); i > 0 && l.Kind() == value.KCons; i-- {
			l = l.Cons().Cdr
		}
		switch l.Kind() {
		case value.KCons:
			v = l.Cons().Car
		case value.KNil:
		default:
			return value.Nil, false
		}
	case fbMember, fbAssoc:
		// member returns the tail whose car is eql to a0, assoc
		// the first pair whose car is.
		kx := a0.Kind()
		l := args[len(args)-1]
		for l.Kind() == value.KCons {
			c := l.Cons()
			y := c.Car
			if fb == fbAssoc {
				if y.Kind() != value.KCons {
					l = c.Cdr
					continue
				}
				y = y.Cons().Car
			}
			eq := false
			if y.Kind() == kx {
				switch kx {
				case value.KNil, value.KT:
					eq = true
				case value.KInt:
					eq = y.Int() == a0.Int()
				case value.KFloat:
					eq = y.Float() == a0.Float()
				case value.KCons:
					eq = y.Cons() == a0.Cons()
				case value.KDesignator:
					eq = y.Designator() == a0.Designator()
				case value.KSymbol, value.KKeyword, value.KString:
					p, q := y.Str(), a0.Str()
					if len(p) == len(q) {
						eq = true
						for i := 0; i < len(p); i++ {
							if p[i] != q[i] {
								eq = false
								break
							}
						}
					}
				default:
					return value.Nil, false
				}
			}
			if eq {
				if fb == fbAssoc {
					v = c.Car
				} else {
					v = l
				}
				break
			}
			l = c.Cdr
		}
		if v.Kind() == value.KNil && l.Kind() != value.KNil && l.Kind() != value.KCons {
			return value.Nil, false // type-error: not a proper list
		}
	default:
		return value.Nil, false
	}
	return v, true
}
