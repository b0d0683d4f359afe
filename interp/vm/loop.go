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
	if r.Failure != nil && pd == 0 && IsLimit(r.Failure.Kind) {
		m.limited = true // the run is cut by a limit: it covers no label
	}
	if m.probeDepth != pd {
		// The run ended inside a probe of this exec.
		m.probeDepth = 0
		m.maxSteps = m.cfg.MaxSteps
	}
	m.frames = m.frames[:fb]
	m.handlers = m.handlers[:hb]
	return r
}

// loop is the dispatch loop of exec, the only one: every instruction runs
// through its switch. The new frame starts at stack slot base; hb is the
// first handler record that belongs to this exec.
//
// Speed comes from two places. The registers (pc, sp, fp, the frame, the
// step count and the next check, the code and counter slices) live in
// locals, written back to m only where something else needs them, and the
// set of locals is kept small so that they stay in machine registers.
// And the code is the machine's fused copy (see fuse.go): a superinstruction
// does the work of a short sequence of instructions in one dispatch, with
// exactly their counters and steps.
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
		return m.funcFailure(fn, KindStackOverflow, "call depth exceeds %d", m.cfg.MaxDepth)
	}
	if need := base + fn.NumLocals + fn.MaxStack + 1; need > len(m.stack) {
		m.grow(need)
	}
	copy(m.stack[base:], args)
	m.frames = append(m.frames, frame{cl: cl, fp: base, ret: base, retpc: -1})

	cnt := m.counters
	if m.probeDepth > 0 {
		cnt = m.sink // a Call from a builtin inside a probe's predicate
	}
	var (
		stack       = m.stack
		fr          = &m.frames[len(m.frames)-1]
		fp          = base
		sp          = base + fn.NumLocals
		pc          = int(m.entry[fn.Index])
		steps       = m.steps
		check, code = m.nextCheck(steps)
		in          instr
		f           *Failure
	)
	for {
		// The hot loop: the instructions, and the cases of instructions,
		// that need no function call run here without leaving it, so that
		// its registers stay in machine registers (the compiler spills
		// them only on the way out to the cold switch below). Every other
		// instruction, or case of one, leaves it with in set and pc past
		// it; so does the step-budget poll, with in.op == opPoll.
		for {
			if steps >= check {
				in.op = opPoll
				break
			}
			steps++
			count(cnt, pc)
			in = code[pc]
			pc++
		hot:
			switch in.op {
			case compile.NOP:
				continue
			case compile.NIL:
				stack[sp] = value.Nil
				sp++
				continue
			case compile.T:
				stack[sp] = value.T
				sp++
				continue
			case compile.CONST:
				stack[sp] = p.Consts[in.a]
				sp++
				continue
			case compile.INT:
				stack[sp] = value.Int(int64(in.a))
				sp++
				continue
			case compile.POP:
				sp--
				continue
			case compile.DUP:
				stack[sp] = stack[sp-1]
				sp++
				continue
			case compile.DROP:
				sp -= int(in.a)
				continue

			case compile.LOAD:
				stack[sp] = stack[fp+int(in.a)]
				sp++
				continue
			case compile.STORE:
				stack[fp+int(in.a)] = stack[sp-1]
				continue
			case compile.SET:
				sp--
				stack[fp+int(in.a)] = stack[sp]
				continue
			case compile.SETT:
				// A temporary's binding is free (compile/opcode.go):
				// the step just taken is given back. It never jumps,
				// so a loop always holds a charged instruction.
				steps--
				sp--
				stack[fp+int(in.a)] = stack[sp]
				continue
			case compile.LOADT:
				steps-- // free, as SETT
				stack[sp] = stack[fp+int(in.a)]
				sp++
				continue
			case compile.SKIPT, compile.SKIPNILT, compile.SKIPTF:
				// A guard of a temporary (compile/opcode.go): free
				// when it jumps (SKIPTF always). Its jump is forward
				// only (the compiler never emits it backwards), so it
				// makes no loop.
				if stack[fp+int(in.b)].Truthy() == (in.op != compile.SKIPNILT) {
					steps--
					stack[sp] = value.Nil
					sp++
					pc = int(in.a)
					continue
				}
				if in.op == compile.SKIPTF {
					steps--
				}
				continue
			case compile.JMPIFKF, compile.JMPIFNOTKF:
				// JMPIFK, JMPIFNOTK, free when they fall through (a
				// temporary's guard took that step; compile/opcode.go).
				t := stack[sp-1].Truthy()
				countBranch(cnt, m.nInstr, in.b, t)
				if t == (in.op == compile.JMPIFKF) {
					pc = int(in.a)
				} else {
					steps--
					sp--
				}
				continue
			case compile.LOADC:
				stack[sp] = m.cells[fp+int(in.a)].v
				sp++
				continue
			case compile.STOREC:
				m.cells[fp+int(in.a)].v = stack[sp-1]
				continue
			case compile.LOADV:
				stack[sp] = fr.cl.vals[in.a]
				sp++
				continue
			case compile.LOADVC:
				stack[sp] = fr.cl.cells[in.a].v
				sp++
				continue
			case compile.STOREVC:
				fr.cl.cells[in.a].v = stack[sp-1]
				continue
			case compile.GETVALUE:
				if m.gset[in.a] {
					stack[sp] = m.globals[in.a]
					sp++
					continue
				}
			case compile.SETVALUE:
				m.globals[in.a] = stack[sp-1]
				m.gset[in.a] = true
				continue

			case compile.JMP:
				pc = int(in.a)
				continue
			case compile.JMPIF, compile.JMPIFNOT:
				sp--
				t := stack[sp].Truthy()
				countBranch(cnt, m.nInstr, in.b, t)
				if t == (in.op == compile.JMPIF) {
					pc = int(in.a)
				}
				continue
			case compile.JMPIFK:
				t := stack[sp-1].Truthy()
				countBranch(cnt, m.nInstr, in.b, t)
				if t {
					pc = int(in.a)
				} else {
					sp--
				}
				continue
			case compile.JMPIFNOTK:
				t := stack[sp-1].Truthy()
				countBranch(cnt, m.nInstr, in.b, t)
				if t {
					sp--
				} else {
					pc = int(in.a)
				}
				continue
			case compile.JMPNIL:
				sp--
				if !stack[sp].Truthy() {
					pc = int(in.a)
				}
				continue
			case compile.SKIPJMP:
				x := stack[sp-1]
				sp -= int(in.b)
				stack[sp-1] = x
				pc = int(in.a)
				continue
			case compile.DOLOOP:
				if c := stack[fp+int(in.b)]; c.Kind() == value.KInt {
					if c.Int() < stack[fp+int(in.b)+1].Int() {
						pc = int(in.a)
					}
					continue
				}
			case compile.INCLOCAL:
				if v := &stack[fp+int(in.a)]; v.Kind() == value.KInt {
					*v = value.Int(v.Int() + 1)
					continue
				}
			case compile.CHECKINT:
				if stack[sp-1].Kind() == value.KInt {
					continue
				}

			case compile.CALL:
				callee := p.Funcs[in.a]
				nfp := sp - int(in.b)
				if len(m.frames) < cap(m.frames) && len(m.frames) < m.cfg.MaxDepth &&
					nfp+callee.NumLocals+callee.MaxStack+1 <= len(stack) {
					m.frames = m.frames[:len(m.frames)+1]
					fr = &m.frames[len(m.frames)-1]
					*fr = frame{fp: nfp, ret: nfp, retpc: pc}
					fp = nfp
					sp = nfp + callee.NumLocals
					pc = int(m.entry[in.a])
					continue
				}
			case compile.RET:
				if fr.retpc >= 0 {
					stack[fr.ret] = stack[sp-1]
					sp = fr.ret + 1
					pc = fr.retpc
					fr.cl = nil // drop the closure reference
					m.frames = m.frames[:len(m.frames)-1]
					fr = &m.frames[len(m.frames)-1]
					fp = fr.fp
					continue
				}

			case compile.ADD, compile.SUB, compile.MUL:
				x, y := &stack[sp-2], &stack[sp-1]
				if x.Kind() == value.KInt && y.Kind() == value.KInt {
					switch in.op {
					case compile.ADD:
						*x = value.Int(x.Int() + y.Int())
					case compile.SUB:
						*x = value.Int(x.Int() - y.Int())
					default:
						*x = value.Int(x.Int() * y.Int())
					}
					sp--
					continue
				}
			case compile.LT, compile.LE, compile.GT, compile.GE, compile.NUMEQ:
				x, y := &stack[sp-2], &stack[sp-1]
				if x.Kind() == value.KInt && y.Kind() == value.KInt {
					*x = value.Bool(compareOrdered(cmpOp(in.op), x.Int(), y.Int()))
					sp--
					continue
				}
			case compile.ADDI, compile.SUBI:
				if x := &stack[sp-1]; x.Kind() == value.KInt {
					k := int64(in.a)
					if in.op == compile.SUBI {
						k = -k
					}
					*x = value.Int(x.Int() + k)
					continue
				}
			case compile.LTI, compile.LEI, compile.GTI, compile.GEI, compile.NUMEQI:
				if x := &stack[sp-1]; x.Kind() == value.KInt {
					*x = value.Bool(compareOrdered(immCmpOp(in.op), x.Int(), int64(in.a)))
					continue
				}
			case compile.MOD:
				x, y := &stack[sp-2], &stack[sp-1]
				if x.Kind() == value.KInt && y.Kind() == value.KInt && y.Int() > 0 {
					*x = value.Int(floorMod(x.Int(), y.Int()))
					sp--
					continue
				}
			case compile.ADD1, compile.SUB1:
				if x := &stack[sp-1]; x.Kind() == value.KInt {
					if in.op == compile.SUB1 {
						*x = value.Int(x.Int() - 1)
					} else {
						*x = value.Int(x.Int() + 1)
					}
					continue
				}
			case compile.NOT:
				stack[sp-1] = value.Bool(!stack[sp-1].Truthy())
				continue
			case compile.CAR, compile.CDR:
				x := &stack[sp-1]
				switch x.Kind() {
				case value.KCons:
					if in.op == compile.CAR {
						*x = x.Car()
					} else {
						*x = x.Cdr()
					}
					continue
				case value.KNil:
					continue
				}
			case compile.EQ:
				stack[sp-2] = value.Bool(value.Eq(stack[sp-2], stack[sp-1]))
				sp--
				continue
			case compile.EQL:
				stack[sp-2] = value.Bool(value.Eql(stack[sp-2], stack[sp-1]))
				sp--
				continue
			case compile.MEMBEQ:
				x := stack[sp-1]
				r := value.Nil
				for l := p.Consts[in.a]; l.Kind() == value.KCons; l = l.Cdr() {
					if value.Eql(l.Car(), x) {
						r = value.T
						break
					}
				}
				stack[sp-1] = r
				continue

			// Label probes, in the cases that need no call (the cold
			// switch has the rest: a full handler stack, a label budget
			// running out, comparisons of other kinds).
			case compile.PROBE:
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				if m.probeDepth > 0 {
					// Probes do not nest: inside another probe's
					// predicate this one is skipped, its predicate
					// unevaluated (B is the pc after the probe).
					pc = int(in.b)
					continue
				}
				// enterProbe, inline.
				if lim := steps - 1 + m.cfg.MaxLabelSteps - m.labelSteps; len(m.handlers) < cap(m.handlers) && lim-fuseSlack >= check {
					m.handlers = m.handlers[:len(m.handlers)+1]
					m.handlers[len(m.handlers)-1] = handlerRec{frames: len(m.frames), sp: sp, site: in.a, probe: true, steps: steps - 1, allocs: m.allocs}
					m.probeBase, m.maxSteps, m.probeDepth = steps-1, lim, 1
					cnt = m.sink
					continue
				}
			case compile.PROBEOK:
				// leaveProbe, inline, when the label budget lasts and
				// check suits the plan's budget again.
				h := &m.handlers[len(m.handlers)-1]
				if d := steps - h.steps; m.labelSteps+d <= m.cfg.MaxLabelSteps && check <= m.cfg.MaxSteps-fuseSlack {
					sp--
					t := stack[sp].Truthy()
					m.labelSteps += d
					m.allocs = h.allocs
					m.probeDepth = 0
					m.maxSteps = m.cfg.MaxSteps
					steps = h.steps
					m.handlers = m.handlers[:len(m.handlers)-1]
					cnt = m.counters
					m.setBranch(cnt, in.b, t)
					pc = int(in.a)
					continue
				}
			case compile.PROBECMP:
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				if m.probeDepth > 0 {
					continue // nested: does nothing
				}
				// probeCompare on integers, names and truth, inline; its
				// step is the label budget's.
				if m.labelSteps < m.cfg.MaxLabelSteps {
					if t, ok := m.probeFast(&p.Probes[in.a], stack, fp); ok {
						steps--
						m.labelSteps++
						m.setBranch(cnt, in.b, t)
						continue
					}
				}
			case compile.PROBEGUARD:
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				pr := &p.Probes[in.a]
				if m.probeDepth > 0 {
					// Nested: the probe is skipped, as PROBE would be.
					pc = int(pr.Skip)
					continue
				}
				// The guard of a PROBE block (a conjunction's first
				// conjunct), inline as PROBECMP; false, the probe is
				// false and its block skipped. Its step is the label
				// budget's.
				if m.labelSteps < m.cfg.MaxLabelSteps {
					if t, ok := m.probeFast(pr, stack, fp); ok {
						steps--
						m.labelSteps++
						if !t {
							m.setBranch(cnt, in.b, false)
							pc = int(pr.Skip)
						}
						continue
					}
				}
			case opDead:
				// A silently retired label (dead.go): free and
				// invisible, as if it were not there. The fused code
				// has one only where something it could not retarget
				// reaches a run of them, and jumps over the whole run.
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				steps--
				pc = int(in.a)
				continue
			case opThenSkip:
				// The instruction before a run of dead probes, in the
				// fused code (dead.go): its work, with pc past the run.
				in.op = m.plain[pc-1].op
				pc = int(m.deadEnd[pc])
				goto hot
			case opLoadLoadSkip:
				// LOAD a; dead probes; LOAD b (dead.go thenSkip).
				stack[sp] = stack[fp+int(in.a)]
				stack[sp+1] = stack[fp+int(in.b)]
				sp += 2
				steps++
				pc = int(m.deadEnd[pc])
				count(cnt, pc)
				pc++
				continue
			case opLoadSkip:
				stack[sp] = stack[fp+int(in.a)]
				sp++
				pc = int(m.deadEnd[pc])
				continue
			case opSetTLoadT:
				// SETT a; LOADT a: both free.
				steps--
				stack[fp+int(in.a)] = stack[sp-1]
				count(cnt, pc)
				pc++
				continue
			case opSetTKeep:
				// SETT a; dead probes; LOADT a: both free. The
				// next instruction (most often the jump on the
				// temporary) is dispatched from here: the steps are
				// what they were before the SETT, which passed the
				// budget's check, so the loop's check would pass too.
				stack[fp+int(in.a)] = stack[sp-1]
				pc = int(m.deadEnd[pc])
				count(cnt, pc)
				pc++
				count(cnt, pc)
				in = code[pc]
				pc++
				goto hot
			case opJmpIfNotKSkip:
				t := stack[sp-1].Truthy()
				countBranch(cnt, m.nInstr, in.b, t)
				if t {
					sp--
					pc = int(m.deadEnd[pc])
				} else {
					pc = int(in.a)
				}
				continue
			case opRetired:
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				// A retired label (Config.Labels.Retire): write what its
				// branch counters read when it retired, skip the
				// predicate. Its step is the label budget's, as
				// PROBECMP's.
				if m.probeDepth == 0 {
					steps--
					m.labelSteps++
					writeRetired(cnt, m.counter(in.b), in.sub)
				}
				pc = int(in.a)
				continue

			case opProbeGroup:
				cnt[pc-1] = 0 // a probe counts no instruction (doc.go)
				// A chain of one-instruction label probes (group.go).
				if m.probeDepth == 0 {
					g := &m.groups[in.a]
					if n := int64(len(g.members)); len(g.tests) == 0 && (g.ran || len(g.ones) == 0) && m.labelSteps+n <= m.cfg.MaxLabelSteps {
						// Every member retired, and their counters
						// are due after the run already: the label
						// steps are all there is to do.
						// The steps are what they were before
						// the group (see opSetTKeep): its end is
						// dispatched from here.
						m.labelSteps += n
						count(cnt, g.end)
						in = code[g.end]
						pc = g.end + 1
						goto hot
					}
					var next int
					if g.single {
						// One live label comparing two integers, the
						// commonest group once most labels retired.
						next = m.runSingle(g, stack, fp, cnt)
					} else if g.ladder {
						// One dist ladder on integer code, the
						// commonest group of a dist campaign.
						next = m.runLadder(in.a, stack, fp, cnt)
					} else {
						next = m.runGroup(in.a, stack, fp, cnt)
					}
					if next != pc-1 {
						// The first member's step is the label
						// budget's: the steps are what they were
						// before the group, and next is dispatched
						// from here (see opSetTKeep).
						count(cnt, next)
						in = code[next]
						pc = next + 1
						goto hot
					}
				} else if g := &m.groups[in.a]; steps+int64(len(g.members)-1) <= check {
					// Nested in a probe's predicate, each member is
					// skipped for one step (counted into the sink): the
					// whole chain at once, when no poll falls inside it.
					steps += int64(len(g.members) - 1)
					pc = g.end
					continue
				}
				in = m.plain[pc-1]
				goto hot

			// Superinstructions (fuse.go). Each does the work of the
			// instructions at pc-1, pc, ... exactly (counters and steps
			// included) when its operands are integers; otherwise it
			// runs as the first of them, whose original is in m.plain.
			case opLoadLoad:
				stack[sp] = stack[fp+int(in.a)]
				stack[sp+1] = stack[fp+int(in.b)]
				sp += 2
				steps++
				count(cnt, pc)
				pc++
				continue
			case opLoadAddI:
				if x := stack[fp+int(in.a)]; x.Kind() == value.KInt {
					stack[sp] = value.Int(x.Int() + int64(in.b))
					sp++
					steps++
					count(cnt, pc)
					pc++
					continue
				}
				in = m.plain[pc-1]
				goto hot
			case opLoadCmpIJmp:
				if x := stack[fp+int(in.a)]; x.Kind() == value.KInt {
					j := code[pc+1]
					steps += 2
					count(cnt, pc)
					count(cnt, pc+1)
					t := compareOrdered(in.sub&^jumpOnTrue, x.Int(), int64(in.b))
					countBranch(cnt, m.nInstr, j.b, t)
					if t == (in.sub&jumpOnTrue != 0) {
						pc = int(j.a)
					} else {
						pc += 2
					}
					continue
				}
				in = m.plain[pc-1]
				goto hot
			case opModI:
				if x := &stack[sp-1]; x.Kind() == value.KInt {
					*x = value.Int(floorMod(x.Int(), int64(in.a)))
					steps++
					count(cnt, pc)
					pc++
					continue
				}
				in = m.plain[pc-1]
				goto hot
			case opIncLoop:
				v := &stack[fp+int(in.a)]
				j := code[pc]
				if c := &stack[fp+int(j.b)]; v.Kind() == value.KInt && (c == v || c.Kind() == value.KInt) {
					*v = value.Int(v.Int() + 1)
					steps++
					count(cnt, pc)
					pc++
					if c.Int() < stack[fp+int(j.b)+1].Int() {
						pc = int(j.a)
					}
					continue
				}
				in = m.plain[pc-1]
				goto hot
			}
			break
		}

		// The cold switch: the instructions and cases the hot loop left.
		switch in.op {
		case opPoll:
			// The loop stands at pc, which is past any dead probes
			// in the fused code: report the same pc from the plain
			// code (dead.go).
			if steps >= m.maxSteps {
				if m.probeDepth > 0 {
					return m.labelTimeout(steps, m.pastDead(pc))
				}
				m.steps = steps
				f = m.fill(Fail(KindTimeout, "step budget of %d instructions exhausted", m.maxSteps), m.pastDead(pc))
				return Result{Outcome: OutcomeTimeout, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
			}
			if err := m.ctx.Err(); err != nil {
				m.steps = steps
				f = m.fill(Fail(KindCanceled, "run cancelled: %v", err), m.pastDead(pc))
				return Result{Outcome: OutcomeTimeout, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
			}
			check, code = m.nextCheck(steps)
			continue

		case compile.MAKECELL:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			m.cells[fp+int(in.a)] = &cell{v: stack[fp+int(in.a)]}
		case compile.GETVALUE: // unbound
			f = Fail("unbound-variable", "%s is unbound (its defparameter has not run yet)", p.Globals[in.a])
			goto fail
		case compile.DOLOOP, compile.INCLOCAL: // not an integer
			x := stack[fp+int(in.b)]
			if in.op == compile.INCLOCAL {
				x = stack[fp+int(in.a)]
			}
			f = typeError("dotimes", "an integer counter", x)
			goto fail
		case compile.CHECKINT: // not an integer
			f = typeError("dotimes", "an integer count", stack[sp-1])
			goto fail

		case compile.CALL: // the frames or the stack must grow, or too deep
			callee := p.Funcs[in.a]
			if len(m.frames) >= m.cfg.MaxDepth {
				f = Fail(KindStackOverflow, "call depth exceeds %d", m.cfg.MaxDepth)
				goto fail
			}
			nfp := sp - int(in.b)
			if need := nfp + callee.NumLocals + callee.MaxStack + 1; need > len(stack) {
				stack, _ = m.grow(need)
			}
			m.frames = append(m.frames, frame{fp: nfp, ret: nfp, retpc: pc})
			fr = &m.frames[len(m.frames)-1]
			fp = nfp
			sp = nfp + callee.NumLocals
			pc = int(m.entry[in.a])
		case compile.RET: // the return that ends this exec
			x := stack[sp-1]
			stack[fr.ret] = x
			m.frames[len(m.frames)-1].cl = nil
			m.frames = m.frames[:len(m.frames)-1]
			m.steps = steps
			return Result{Outcome: OutcomeOK, Value: x, Steps: steps, LabelSteps: m.labelSteps}
		case compile.CALLB:
			n := int(in.b)
			m.sp, m.steps = sp, steps
			v, err := m.core[in.a](m, stack[sp-n:sp])
			// Builtins charge the steps of their work (m.steps; the
			// next poll sees a budget they exhausted), and perform runs
			// the host, which may Call plan code.
			stack, fr = m.stack, &m.frames[len(m.frames)-1]
			steps = m.steps
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
			stack, fr = m.stack, &m.frames[len(m.frames)-1]
			steps = m.steps
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
				stack, fr = m.stack, &m.frames[len(m.frames)-1]
				steps = m.steps
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
			if len(m.frames) >= m.cfg.MaxDepth {
				f = Fail(KindStackOverflow, "call depth exceeds %d", m.cfg.MaxDepth)
				goto fail
			}
			nfp := sp - n
			if need := nfp + callee.NumLocals + callee.MaxStack + 1; need > len(stack) {
				stack, _ = m.grow(need)
			}
			m.frames = append(m.frames, frame{cl: ccl, fp: nfp, ret: nfp - 1, retpc: pc})
			fr = &m.frames[len(m.frames)-1]
			fp = nfp
			sp = nfp + callee.NumLocals
			pc = int(m.entry[callee.Index])
		case compile.FUNCTION:
			stack[sp] = value.FromFunc(p.Funcs[in.a])
			sp++
		case compile.CLOSURE:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			stack[sp] = value.FromFunc(m.makeClosure(p.Funcs[in.a], fr, fp))
			sp++

		case compile.ADD, compile.SUB, compile.MUL: // not both integers
			v, ff := arith(arithOp(in.op), stack[sp-2], stack[sp-1])
			if ff != nil {
				f = ff
				goto fail
			}
			sp--
			stack[sp-1] = v
		case compile.LT, compile.LE, compile.GT, compile.GE, compile.NUMEQ: // not both integers
			r, ff := numCompare(cmpOp(in.op), stack[sp-2], stack[sp-1])
			if ff != nil {
				f = ff
				goto fail
			}
			sp--
			stack[sp-1] = value.Bool(r)
		case compile.ADDI, compile.SUBI: // not an integer
			op := byte('+')
			if in.op == compile.SUBI {
				op = '-'
			}
			v, ff := arith(op, stack[sp-1], value.Int(int64(in.a)))
			if ff != nil {
				f = ff
				goto fail
			}
			stack[sp-1] = v
		case compile.LTI, compile.LEI, compile.GTI, compile.GEI, compile.NUMEQI: // not an integer
			r, ff := numCompare(immCmpOp(in.op), stack[sp-1], value.Int(int64(in.a)))
			if ff != nil {
				f = ff
				goto fail
			}
			stack[sp-1] = value.Bool(r)
		case compile.MOD: // not both integers, or a divisor <= 0
			v, ff := modRem("mod", stack[sp-2], stack[sp-1], true)
			if ff != nil {
				f = ff
				goto fail
			}
			sp--
			stack[sp-1] = v
		case compile.ADD1, compile.SUB1: // not an integer
			d := int64(1)
			if in.op == compile.SUB1 {
				d = -1
			}
			v, ff := arith('+', stack[sp-1], value.Int(d))
			if ff != nil {
				f = ff
				goto fail
			}
			stack[sp-1] = v
		case compile.CAR, compile.CDR: // not a list
			name := "car"
			if in.op == compile.CDR {
				name = "cdr"
			}
			f = typeError(name, "a list", stack[sp-1])
			goto fail
		case compile.CONS:
			if f = m.alloc(1); f != nil {
				goto fail
			}
			stack[sp-2] = value.NewCons(stack[sp-2], stack[sp-1])
			sp--

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
			// In the machine's code B is the pc after the probe. Probes
			// do not nest: inside another probe's predicate this one is
			// skipped, its predicate unevaluated.
			if m.probeDepth > 0 {
				pc = int(in.b)
				continue
			}
			m.enterProbe(in.a, sp, steps-1)
			cnt = m.sink
			check, code = m.nextCheck(steps)
		case compile.PROBEOK:
			sp--
			t := stack[sp].Truthy()
			restored, ok := m.leaveProbe(steps)
			cnt = m.counters
			m.setBranch(cnt, in.b, t)
			steps = restored
			if !ok {
				return m.labelTimeout(steps, pc-1)
			}
			check, code = m.nextCheck(steps)
			pc = int(in.a)
		case opAtomSet:
			m.globals[in.a] = stack[sp-1]
			m.gset[in.a] = true
			if m.atomSet(in, stack, fp, sp) {
				// No live reader can be true: end the probe as if its
				// predicate returned nil, now.
				stack[sp-1] = value.Nil
				pc = m.atomSites[in.b].okPC
			}
		case compile.PROBEFAIL:
			// Reached from a probe's trap, which restored the counts,
			// charged this instruction to the label budget and left the
			// counters invisible for it.
			cnt = m.counters
			m.setBranch(cnt, in.b, false)
		case compile.PROBEGUARD:
			// As the hot case, in the cases probeFast cannot do and
			// when the label budget runs out.
			pr, at := &p.Probes[in.a], pc-1
			steps--
			m.labelSteps++
			if !m.probeEval(pr, stack, fp) {
				m.setBranch(cnt, in.b, false)
				pc = int(pr.Skip)
			}
			if m.labelSteps > m.cfg.MaxLabelSteps {
				return m.labelTimeout(steps, at)
			}
		case compile.PROBECMP:
			// A one-instruction probe: its step is the label budget's.
			// Nested in another probe's predicate it does nothing.
			if m.probeDepth > 0 {
				continue
			}
			steps--
			m.labelSteps++
			m.setBranch(cnt, in.b, m.probeEval(&p.Probes[in.a], stack, fp))
			if m.labelSteps > m.cfg.MaxLabelSteps {
				return m.labelTimeout(steps, pc-1)
			}
		default:
			f = Fail("error", "invalid opcode %d", in.op)
			goto fail
		}
		continue

	fail:
		// A failure: find the newest handler whose clause kinds match,
		// unwind to it and run the clause with the failure value pushed.
		m.fill(f, m.ranAt(pc-1))
		if m.probeDepth == 0 && IsLimit(f.Kind) {
			// A limit hit by the plan, caught or not: the run covers
			// no label (Counters). Inside a probe it is the probe's.
			m.limited = true
		}
		if !Catchable(f.Kind) {
			// A budget or cancellation reported by a nested Call through
			// a host, or the output limit: it ends this run.
			m.steps = steps
			out := OutcomeTimeout
			if f.Kind == KindOutputLimit {
				out = OutcomeFailure
			}
			return Result{Outcome: out, Failure: f, Steps: steps, LabelSteps: m.labelSteps}
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
					// the steps to one less, which its step brings back;
					// its instruction counter stays invisible (the sink),
					// PROBEFAIL switches back.
					restored, ok := m.leaveProbe(steps + 1)
					if !ok {
						return m.labelTimeout(restored, m.ranAt(pc-1))
					}
					steps = restored - 1
					check, code = m.nextCheck(steps)
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

// nextCheck returns the step count at which loop next polls the context
// and the budget, and the code to run until then: the fused code, or the
// plain code when fewer than fuseSlack steps are left before the budget,
// so that a superinstruction never runs past it.
func (m *Machine) nextCheck(steps int64) (int64, []instr) {
	lim := m.maxSteps - fuseSlack
	if steps >= lim {
		return m.maxSteps, m.plain
	}
	c := steps + pollEvery
	if c > lim {
		c = lim
	}
	return c, m.fused
}

// count increments instruction or branch counter i, saturating at 255.
func count(cnt []uint8, i int) {
	if c := cnt[i]; c != 255 {
		cnt[i] = c + 1
	}
}

// countBranch counts outcome t of branch b (n is the number of
// instructions: branch counters follow the instruction counters).
func countBranch(cnt []uint8, n int, b int32, t bool) {
	i := n + 2*int(b)
	if !t {
		i++
	}
	count(cnt, i)
}

// setBranch records outcome t of a label's branch b: label counters are
// bits (covered or not), never hit counts; with Labels.FiredOnly a false
// outcome is not recorded. A label true since the last ResetCounters may
// retire (fired).
func (m *Machine) setBranch(cnt []uint8, b int32, t bool) {
	i := m.nInstr + 2*int(b)
	if !t {
		if m.cfg.Labels.FiredOnly {
			return
		}
		i++
	} else {
		m.fired = true
	}
	cnt[i] = 1
}

// floorMod is (mod a b) for b > 0.
func floorMod(a, b int64) int64 {
	r := a % b
	if r < 0 {
		r += b
	}
	return r
}

// makeClosure makes a closure of lf in the frame fr (locals at fp),
// capturing per lf.Captures.
func (m *Machine) makeClosure(lf *compile.Func, fr *frame, fp int) *closure {
	c := &closure{fn: lf}
	for _, cp := range lf.Captures {
		switch {
		case cp.Cell && cp.From == compile.FromLocal:
			c.cells = append(c.cells, m.cells[fp+cp.Index])
		case cp.Cell:
			c.cells = append(c.cells, fr.cl.cells[cp.Index])
		case cp.From == compile.FromLocal:
			c.vals = append(c.vals, m.stack[fp+cp.Index])
		default:
			c.vals = append(c.vals, fr.cl.vals[cp.Index])
		}
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

// probeOperands returns the operands of compare probe pr in the frame at
// fp; bound is false when a global operand is unbound (the predicate
// fails: false).
func (m *Machine) probeOperands(pr *compile.ProbeCmp, stack []value.Value, fp int) (x, k value.Value, bound bool) {
	if pr.XGlobal {
		x = m.globals[pr.Slot]
		if !m.gset[pr.Slot] {
			return x, k, false
		}
	} else {
		x = stack[fp+int(pr.Slot)]
	}
	switch {
	case pr.YLocal:
		k = stack[fp+int(pr.Y)]
	case pr.YGlobal:
		k = m.globals[pr.Y]
		if !m.gset[pr.Y] {
			return x, k, false
		}
	default:
		k = pr.K
	}
	return x, k, true
}

// probeEval evaluates the compare probe pr in the frame at fp in every
// case, the cold switch's way (probeFast does the common ones inline):
// false when an operand is unbound.
func (m *Machine) probeEval(pr *compile.ProbeCmp, stack []value.Value, fp int) bool {
	if pr.Cmp == '&' {
		return m.probeAll(pr, stack, fp)
	}
	if pr.Cmp == 'x' {
		return m.probeExpr(pr.Ops, stack, fp)
	}
	if pr.Cmp == 'd' {
		x, y, ok := m.distOperands(pr.Ops, stack, fp)
		return ok && distHolds(x, y, pr.Bound)
	}
	x, k, bound := m.probeOperands(pr, stack, fp)
	return bound && probeCompare(pr, x, k)
}

// probeAll evaluates the conjunction probe pr (Cmp '&') in the frame at
// fp: (and T1 ... Tn), negated when pr.Not; false when it fails (an
// unbound global among the terms it evaluates).
func (m *Machine) probeAll(pr *compile.ProbeCmp, stack []value.Value, fp int) bool {
	for i := range pr.Terms {
		t := &pr.Terms[i]
		var v value.Value
		if !t.Global {
			v = stack[fp+int(t.Slot)]
		} else if v = m.globals[t.Slot]; !m.gset[t.Slot] {
			return false
		}
		if v.Truthy() == t.Not {
			return pr.Not
		}
	}
	return !pr.Not
}

// probeCompare evaluates the predicate of a compare probe on x: false
// when it fails (x not a number for a numeric comparison).
func probeCompare(pr *compile.ProbeCmp, x, k value.Value) bool {
	var r bool
	switch pr.Cmp {
	case 't':
		r = x.Truthy()
	case 'm':
		r = isMember(x, k)
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
