package vm

import (
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// exec calls fn with args and runs until it returns or an unhandled
// failure, timeout or cancellation ends the run. It may be entered again
// from a builtin or host (nested Call): it then works on the frames,
// handlers and stack above the caller's, and leaves them as it found them.
func (m *Machine) exec(fn *compile.Func, cl *closure, args []value.Value) Result {
	fb, hb := len(m.frames), len(m.handlers)
	base := 0
	if m.nesting > 0 {
		base = m.sp // above the caller's operands
	}
	m.nesting++
	pd := m.probeDepth
	r := m.loop(fn, cl, args, base, hb)
	m.nesting--
	if m.probeDepth != pd {
		// The run ended inside a probe of this exec.
		m.probeDepth = pd
		if pd == 0 {
			m.maxSteps = m.cfg.MaxSteps
		}
	}
	m.frames = m.frames[:fb]
	m.handlers = m.handlers[:hb]
	return r
}

// loop is the dispatch loop of exec. The new frame starts at stack slot
// base; hb is the first handler record that belongs to this exec.
func (m *Machine) loop(fn *compile.Func, cl *closure, args []value.Value, base, hb int) Result {
	p := m.prog
	if fn == nil || fn.Index < 0 || fn.Index >= len(p.Funcs) || p.Funcs[fn.Index] != fn {
		return m.funcFailure(nil, "undefined-function", "the function is not part of this program")
	}
	if fn.Kind == compile.KindLambda && cl == nil {
		return m.funcFailure(fn, "undefined-function", "a lambda can only be called through its closure")
	}
	if len(args) != fn.NumParams() {
		return m.funcFailure(fn, "arity-error", "%s takes %d argument%s, called with %d", fn.Name, fn.NumParams(), plural(fn.NumParams()), len(args))
	}
	if len(m.frames) >= m.cfg.MaxDepth {
		return m.funcFailure(fn, "stack-overflow", "call depth exceeds %d", m.cfg.MaxDepth)
	}
	if need := base + fn.NumLocals + fn.MaxStack + 1; need > len(m.stack) {
		m.grow(need)
	}
	copy(m.stack[base:], args)
	m.frames = append(m.frames, frame{cl: cl, fp: base, ret: base, retpc: -1})

	// Registers, kept in locals for speed and written back to m only
	// where something else needs them.
	var (
		code     = m.code
		cnt      = m.counters
		nI       = m.nInstr
		consts   = p.Consts
		funcs    = p.Funcs
		stack    = m.stack
		cells    = m.cells
		fr       = &m.frames[len(m.frames)-1]
		fp       = base
		sp       = base + fn.NumLocals
		pc       = fn.Entry
		steps    = m.steps
		check    = m.nextCheck(steps)
		maxDepth = m.cfg.MaxDepth
		f        *Failure
	)
	for {
		if steps < check && !m.noFast {
			// Run what needs no calls in fast, then the instruction it
			// stopped at here.
			rg := regs{pc: pc, sp: sp, fp: fp, steps: steps, check: check, fr: fr}
			m.fast(&rg)
			pc, sp, fp, steps, check, fr = rg.pc, rg.sp, rg.fp, rg.steps, rg.check, rg.fr
		}
		if steps >= check {
			if steps >= m.maxSteps {
				if m.probeDepth > 0 {
					return m.labelTimeout(steps, pc)
				}
				m.steps = steps
				f = m.fill(Fail(KindTimeout, "step budget of %d instructions exhausted", m.maxSteps), pc)
				return Result{Outcome: OutcomeTimeout, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
			}
			if err := m.ctx.Err(); err != nil {
				m.steps = steps
				f = m.fill(Fail(KindCanceled, "run cancelled: %v", err), pc)
				return Result{Outcome: OutcomeTimeout, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
			}
			check = m.nextCheck(steps)
		}
		steps++
		if c := cnt[pc]; c != 255 {
			cnt[pc] = c + 1
		}
		in := code[pc]
		pc++
		switch in.op {
		case compile.NOP:
		case compile.NIL:
			stack[sp] = value.Nil
			sp++
		case compile.T:
			stack[sp] = value.T
			sp++
		case compile.CONST:
			stack[sp] = consts[in.a]
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
		case compile.MAKECELL:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			cells[fp+int(in.a)] = &cell{v: stack[fp+int(in.a)]}
		case compile.LOADC:
			stack[sp] = cells[fp+int(in.a)].v
			sp++
		case compile.STOREC:
			cells[fp+int(in.a)].v = stack[sp-1]
		case compile.LOADV:
			stack[sp] = fr.cl.vals[in.a]
			sp++
		case compile.LOADVC:
			stack[sp] = fr.cl.cells[in.a].v
			sp++
		case compile.STOREVC:
			fr.cl.cells[in.a].v = stack[sp-1]
		case compile.GETVALUE:
			if !m.gset[in.a] {
				f = Fail("unbound-variable", "%s is unbound (its defparameter has not run yet)", p.Globals[in.a])
				goto fail
			}
			stack[sp] = m.globals[in.a]
			sp++
		case compile.SETVALUE:
			m.globals[in.a] = stack[sp-1]
			m.gset[in.a] = true

		case compile.JMP:
			pc = int(in.a)
		case compile.JMPIF, compile.JMPIFNOT:
			sp--
			bc := nI + 2*int(in.b)
			if stack[sp].Truthy() {
				if c := cnt[bc]; c != 255 {
					cnt[bc] = c + 1
				}
				if in.op == compile.JMPIF {
					pc = int(in.a)
				}
			} else {
				if c := cnt[bc+1]; c != 255 {
					cnt[bc+1] = c + 1
				}
				if in.op == compile.JMPIFNOT {
					pc = int(in.a)
				}
			}
		case compile.JMPIFK:
			bc := nI + 2*int(in.b)
			if stack[sp-1].Truthy() {
				if c := cnt[bc]; c != 255 {
					cnt[bc] = c + 1
				}
				pc = int(in.a)
			} else {
				if c := cnt[bc+1]; c != 255 {
					cnt[bc+1] = c + 1
				}
				sp--
			}
		case compile.JMPIFNOTK:
			bc := nI + 2*int(in.b)
			if stack[sp-1].Truthy() {
				if c := cnt[bc]; c != 255 {
					cnt[bc] = c + 1
				}
				sp--
			} else {
				if c := cnt[bc+1]; c != 255 {
					cnt[bc+1] = c + 1
				}
				pc = int(in.a)
			}
		case compile.JMPNIL:
			sp--
			if !stack[sp].Truthy() {
				pc = int(in.a)
			}
		case compile.SKIPJMP:
			x := stack[sp-1]
			sp -= int(in.b)
			stack[sp-1] = x
			pc = int(in.a)
		case compile.DOLOOP:
			c, l := stack[fp+int(in.b)], stack[fp+int(in.b)+1]
			if c.Kind() != value.KInt {
				f = typeError("dotimes", "an integer counter", c)
				goto fail
			}
			if c.Int() < l.Int() {
				pc = int(in.a)
			}
		case compile.INCLOCAL:
			v := &stack[fp+int(in.a)]
			if v.Kind() != value.KInt {
				f = typeError("dotimes", "an integer counter", *v)
				goto fail
			}
			*v = value.Int(v.Int() + 1)
		case compile.CHECKINT:
			if stack[sp-1].Kind() != value.KInt {
				f = typeError("dotimes", "an integer count", stack[sp-1])
				goto fail
			}

		case compile.CALL:
			callee := funcs[in.a]
			if len(m.frames) >= maxDepth {
				f = Fail("stack-overflow", "call depth exceeds %d", maxDepth)
				goto fail
			}
			nfp := sp - int(in.b)
			if need := nfp + callee.NumLocals + callee.MaxStack + 1; need > len(stack) {
				stack, cells = m.grow(need)
			}
			m.frames = append(m.frames, frame{fp: nfp, ret: nfp, retpc: pc})
			fr = &m.frames[len(m.frames)-1]
			fp = nfp
			sp = nfp + callee.NumLocals
			pc = callee.Entry
		case compile.CALLB:
			n := int(in.b)
			m.sp, m.steps = sp, steps
			v, err := m.core[in.a](m, stack[sp-n:sp])
			if in.a == m.performID {
				// perform runs the host, which may Call plan code.
				stack, cells, fr = m.stack, m.cells, &m.frames[len(m.frames)-1]
				steps, check = m.steps, m.nextCheck(m.steps)
			}
			if err != nil {
				f = asFailure(err)
				goto fail
			}
			sp -= n
			stack[sp] = v
			sp++
		case compile.CALLX:
			n := int(in.b)
			b := m.ext[in.a]
			if b == nil {
				f = Fail("undefined-function", "%s is not defined (no defun, core builtin or linked builtin has this name)", p.Externals[in.a])
				goto fail
			}
			if n < b.MinArgs || (b.MaxArgs >= 0 && n > b.MaxArgs) {
				f = arityFailure(b.Name, b.MinArgs, b.MaxArgs, n)
				goto fail
			}
			m.sp, m.steps = sp, steps
			v, err := b.Fn(m, stack[sp-n:sp])
			// The builtin may have run plan code (a nested Call), which
			// can grow the stack and the frame array and take steps.
			stack, cells, fr = m.stack, m.cells, &m.frames[len(m.frames)-1]
			steps, check = m.steps, m.nextCheck(m.steps)
			if err != nil {
				f = asFailure(err)
				goto fail
			}
			sp -= n
			stack[sp] = v
			sp++
		case compile.FUNCALL:
			n := int(in.a)
			fv := stack[sp-n-1]
			var callee *compile.Func
			var ccl *closure
			switch x := fv.Func().(type) {
			case *closure:
				callee, ccl = x.fn, x
			case *compile.Func:
				callee = x
			default:
				if fv.Kind() != value.KSymbol {
					f = typeError("funcall", "a function", fv)
					goto fail
				}
				name := fv.Str()
				if uf := p.Func(name); uf != nil {
					callee = uf
					break
				}
				m.sp, m.steps = sp, steps
				v, ff := m.callNamed(name, stack[sp-n:sp])
				stack, cells, fr = m.stack, m.cells, &m.frames[len(m.frames)-1]
				steps, check = m.steps, m.nextCheck(m.steps)
				if ff != nil {
					f = ff
					goto fail
				}
				sp -= n + 1
				stack[sp] = v
				sp++
				continue
			}
			if n != callee.NumParams() {
				f = arityFailure(callee.Name, callee.NumParams(), callee.NumParams(), n)
				goto fail
			}
			if len(m.frames) >= maxDepth {
				f = Fail("stack-overflow", "call depth exceeds %d", maxDepth)
				goto fail
			}
			nfp := sp - n
			if need := nfp + callee.NumLocals + callee.MaxStack + 1; need > len(stack) {
				stack, cells = m.grow(need)
			}
			m.frames = append(m.frames, frame{cl: ccl, fp: nfp, ret: nfp - 1, retpc: pc})
			fr = &m.frames[len(m.frames)-1]
			fp = nfp
			sp = nfp + callee.NumLocals
			pc = callee.Entry
		case compile.FUNCTION:
			stack[sp] = value.FromFunc(funcs[in.a])
			sp++
		case compile.CLOSURE:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			lf := funcs[in.a]
			c := &closure{fn: lf}
			for _, cp := range lf.Captures {
				switch {
				case cp.Cell && cp.From == compile.FromLocal:
					c.cells = append(c.cells, cells[fp+cp.Index])
				case cp.Cell:
					c.cells = append(c.cells, fr.cl.cells[cp.Index])
				case cp.From == compile.FromLocal:
					c.vals = append(c.vals, stack[fp+cp.Index])
				default:
					c.vals = append(c.vals, fr.cl.vals[cp.Index])
				}
			}
			stack[sp] = value.FromFunc(c)
			sp++
		case compile.RET:
			x := stack[sp-1]
			stack[fr.ret] = x
			sp = fr.ret + 1
			retpc := fr.retpc
			m.frames = m.frames[:len(m.frames)-1]
			if retpc < 0 {
				m.steps = steps
				return Result{Outcome: OutcomeOK, Value: x, Steps: steps, LabelSteps: m.labelSteps}
			}
			fr = &m.frames[len(m.frames)-1]
			fp = fr.fp
			pc = retpc

		case compile.ADD, compile.SUB, compile.MUL:
			x, y := &stack[sp-2], &stack[sp-1]
			if x.Kind() == value.KInt && y.Kind() == value.KInt {
				switch in.op {
				case compile.ADD:
					stack[sp-2] = value.Int(x.Int() + y.Int())
				case compile.SUB:
					stack[sp-2] = value.Int(x.Int() - y.Int())
				default:
					stack[sp-2] = value.Int(x.Int() * y.Int())
				}
			} else {
				v, ff := arith(arithOp(in.op), *x, *y)
				if ff != nil {
					f = ff
					goto fail
				}
				stack[sp-2] = v
			}
			sp--
		case compile.LT, compile.LE, compile.GT, compile.GE, compile.NUMEQ:
			x, y := &stack[sp-2], &stack[sp-1]
			var r bool
			if x.Kind() == value.KInt && y.Kind() == value.KInt {
				a, b := x.Int(), y.Int()
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
			} else {
				rr, ff := numCompare(cmpOp(in.op), *x, *y)
				if ff != nil {
					f = ff
					goto fail
				}
				r = rr
			}
			if r {
				stack[sp-2] = value.T
			} else {
				stack[sp-2] = value.Nil
			}
			sp--
		case compile.ADDI, compile.SUBI:
			x := &stack[sp-1]
			k := int64(in.a)
			if in.op == compile.SUBI {
				k = -k
			}
			if x.Kind() == value.KInt {
				*x = value.Int(x.Int() + k)
			} else {
				op := byte('+')
				if in.op == compile.SUBI {
					op = '-'
				}
				v, ff := arith(op, *x, value.Int(int64(in.a)))
				if ff != nil {
					f = ff
					goto fail
				}
				*x = v
			}
		case compile.LTI, compile.LEI, compile.GTI, compile.GEI, compile.NUMEQI:
			x := &stack[sp-1]
			var r bool
			if x.Kind() == value.KInt {
				a, b := x.Int(), int64(in.a)
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
			} else {
				rr, ff := numCompare(immCmpOp(in.op), *x, value.Int(int64(in.a)))
				if ff != nil {
					f = ff
					goto fail
				}
				r = rr
			}
			if r {
				*x = value.T
			} else {
				*x = value.Nil
			}
		case compile.MOD:
			x, y := &stack[sp-2], &stack[sp-1]
			if x.Kind() == value.KInt && y.Kind() == value.KInt && y.Int() > 0 {
				r := x.Int() % y.Int()
				if r < 0 {
					r += y.Int()
				}
				*x = value.Int(r)
			} else {
				v, ff := modRem("mod", *x, *y, true)
				if ff != nil {
					f = ff
					goto fail
				}
				*x = v
			}
			sp--
		case compile.ADD1, compile.SUB1:
			x := stack[sp-1]
			d := int64(1)
			if in.op == compile.SUB1 {
				d = -1
			}
			if x.Kind() == value.KInt {
				stack[sp-1] = value.Int(x.Int() + d)
			} else {
				v, ff := arith('+', x, value.Int(d))
				if ff != nil {
					f = ff
					goto fail
				}
				stack[sp-1] = v
			}
		case compile.NOT:
			stack[sp-1] = value.Bool(!stack[sp-1].Truthy())
		case compile.CAR, compile.CDR:
			x := stack[sp-1]
			switch x.Kind() {
			case value.KCons:
				if in.op == compile.CAR {
					stack[sp-1] = x.Car()
				} else {
					stack[sp-1] = x.Cdr()
				}
			case value.KNil:
			default:
				name := "car"
				if in.op == compile.CDR {
					name = "cdr"
				}
				f = typeError(name, "a list", x)
				goto fail
			}
		case compile.CONS:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			stack[sp-2] = value.NewCons(stack[sp-2], stack[sp-1])
			sp--
		case compile.EQ:
			stack[sp-2] = value.Bool(value.Eq(stack[sp-2], stack[sp-1]))
			sp--
		case compile.EQL:
			stack[sp-2] = value.Bool(value.Eql(stack[sp-2], stack[sp-1]))
			sp--
		case compile.MEMBEQ:
			x := stack[sp-1]
			r := value.Nil
			for l := consts[in.a]; l.Kind() == value.KCons; l = l.Cdr() {
				if value.Eql(l.Car(), x) {
					r = value.T
					break
				}
			}
			stack[sp-1] = r

		case compile.MAKEDESIG:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			shape := &p.Desigs[in.a]
			n := int(in.b)
			d := value.NewDesignator(shape.Class, n)
			for i := 0; i < n; i++ {
				d.Props[i] = value.Prop{Key: shape.Keys[i], Val: stack[sp-n+i]}
			}
			sp -= n
			stack[sp] = value.FromDesignator(d)
			sp++
		case opMakeDesigPerform:
			// As MAKEDESIG (same budget charge), into storage reused
			// because only the perform that follows sees the designator.
			if f = m.alloc(1); f != nil {
				goto fail
			}
			d := m.scratchDesig(int(in.a), &p.Desigs[in.a])
			n := int(in.b)
			for i := 0; i < n; i++ {
				d.Props[i].Val = stack[sp-n+i]
			}
			sp -= n
			stack[sp] = value.FromDesignator(d)
			sp++
		case compile.HANDLER:
			m.handlers = append(m.handlers, handlerRec{frames: len(m.frames), sp: sp, site: in.a})
		case compile.UNHANDLE:
			m.handlers = m.handlers[:len(m.handlers)-1]
		case compile.PROBE:
			m.enterProbe(in.a, sp, steps-1)
			if check > m.maxSteps {
				check = m.maxSteps
			}
		case compile.PROBEOK:
			sp--
			bc := nI + 2*int(in.b)
			if stack[sp].Truthy() {
				if c := cnt[bc]; c != 255 {
					cnt[bc] = c + 1
				}
			} else {
				if c := cnt[bc+1]; c != 255 {
					cnt[bc+1] = c + 1
				}
			}
			restored, ok := m.leaveProbe(steps)
			steps = restored
			if !ok {
				return m.labelTimeout(steps, pc-1)
			}
			check = m.nextCheck(steps)
			pc = int(in.a)
		case compile.PROBECMP:
			// A one-instruction probe: its step is the label budget's.
			steps--
			m.labelSteps++
			if m.probeDepth > 0 {
				m.maxSteps--
			}
			pr := &p.Probes[in.a]
			bc := nI + 2*int(in.b)
			k := pr.K
			if pr.YLocal {
				k = stack[fp+int(pr.Y)]
			}
			if !probeCompare(pr, stack[fp+int(pr.Slot)], k) {
				bc++
			}
			if c := cnt[bc]; c != 255 {
				cnt[bc] = c + 1
			}
			if m.labelSteps > m.cfg.MaxLabelSteps {
				return m.labelTimeout(steps, pc-1)
			}
		case compile.PROBEFAIL:
			// Reached from a probe's trap, which restored the counts
			// and charged this instruction to the label budget.
			if c := cnt[nI+2*int(in.b)+1]; c != 255 {
				cnt[nI+2*int(in.b)+1] = c + 1
			}
		default:
			f = Fail("error", "invalid opcode %d", in.op)
			goto fail
		}
		continue

	fail:
		// A failure: find the newest handler whose clause kinds match,
		// unwind to it and run the clause with the failure value pushed.
		m.fill(f, pc-1)
		if !Catchable(f.Kind) {
			// A budget or cancellation reported by a nested Call through
			// a host: it ends this run the same way.
			m.steps = steps
			return Result{Outcome: OutcomeTimeout, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
		}
		{
			handled := false
			for !handled && len(m.handlers) > hb {
				h := m.handlers[len(m.handlers)-1]
				if h.probe {
					// A probe's trap catches every failure; nothing
					// is pushed, and the probe's counts are restored.
					// PROBEFAIL, which runs next, is the probe's too:
					// charge it to the label budget now, and restore
					// the steps to one less, which its step brings back.
					restored, ok := m.leaveProbe(steps + 1)
					if !ok {
						return m.labelTimeout(restored, pc-1)
					}
					steps = restored - 1
					check = m.nextCheck(steps)
					m.frames = m.frames[:h.frames]
					fr = &m.frames[len(m.frames)-1]
					fp = fr.fp
					sp = h.sp
					pc = p.Handlers[h.site].Clauses[0].PC
					handled = true
					break
				}
				m.handlers = m.handlers[:len(m.handlers)-1]
				for _, c := range p.Handlers[h.site].Clauses {
					if IsKind(f.Kind, c.Kind) {
						m.frames = m.frames[:h.frames]
						fr = &m.frames[len(m.frames)-1]
						fp = fr.fp
						sp = h.sp
						stack[sp] = failureValue(f)
						sp++
						pc = c.PC
						handled = true
						break
					}
				}
			}
			if !handled {
				m.steps = steps
				return Result{Outcome: OutcomeFailure, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
			}
			f = nil
		}
	}
}

func (m *Machine) nextCheck(steps int64) int64 {
	c := steps + pollEvery
	if c > m.maxSteps {
		c = m.maxSteps
	}
	return c
}

// grow enlarges the operand stack (and the parallel cell array) to hold at
// least need slots.
func (m *Machine) grow(need int) ([]value.Value, []*cell) {
	n := 2 * len(m.stack)
	if n < need {
		n = need + 256
	}
	s := make([]value.Value, n)
	copy(s, m.stack)
	c := make([]*cell, n)
	copy(c, m.cells)
	m.stack, m.cells = s, c
	return s, c
}

// callNamed calls a builtin (core or linked) through its name, for funcall
// of a symbol.
func (m *Machine) callNamed(name string, args []value.Value) (value.Value, *Failure) {
	var fn builtinFn
	if id, ok := compile.CoreBuiltin(name); ok {
		sig := compile.CoreBuiltins()[id]
		if len(args) < sig.Min || (sig.Max >= 0 && len(args) > sig.Max) {
			return value.Nil, arityFailure(name, sig.Min, sig.Max, len(args))
		}
		fn = m.core[id]
	} else if b := m.extBy[name]; b != nil {
		if len(args) < b.MinArgs || (b.MaxArgs >= 0 && len(args) > b.MaxArgs) {
			return value.Nil, arityFailure(name, b.MinArgs, b.MaxArgs, len(args))
		}
		fn = b.Fn
	} else {
		return value.Nil, Fail("undefined-function", "%s is not defined", name)
	}
	v, err := fn(m, args)
	if err != nil {
		return value.Nil, asFailure(err)
	}
	return v, nil
}

func arityFailure(name string, min, max, n int) *Failure {
	var want string
	switch {
	case max < 0:
		want = itoa(min) + " or more arguments"
	case min == max:
		want = itoa(min) + " argument" + plural(min)
	default:
		want = itoa(min) + " to " + itoa(max) + " arguments"
	}
	return Fail("arity-error", "%s takes %s, called with %d", name, want, n)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func itoa(i int) string { return value.Int(int64(i)).String() }

// probeCompare evaluates the predicate of a compare probe on x: false
// when it fails (x not a number for a numeric comparison).
func probeCompare(pr *compile.ProbeCmp, x, k value.Value) bool {
	var r bool
	switch pr.Cmp {
	case 't':
		r = x.Truthy()
	case 'e':
		r = value.Eq(x, k)
	default:
		if !x.IsNumber() || !k.IsNumber() {
			return false
		}
		op := pr.Cmp
		if op == '!' {
			op = '='
		}
		eq, f := numCompare(op, x, k)
		if f != nil {
			return false
		}
		r = eq != (pr.Cmp == '!')
	}
	return r != pr.Not
}
