package compile

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Disasm writes a readable listing of the program: each function headed by
// its kind and name, then one instruction a line with its pc, source
// position (line:col), opcode and operands, and a comment that resolves
// operands to names (constants, variables, callees, branch numbers).
func (p *Program) Disasm(w io.Writer) error {
	bw := bufio.NewWriter(w)
	// Branches as run --json and cover count them: two outcomes per
	// conditional jump.
	fmt.Fprintf(bw, "; labelcov bytecode v%d  %s  %d instructions, %d conditional jumps (%d branches), %d constants\n",
		Version, p.File, len(p.Code), len(p.branches), 2*len(p.branches), len(p.Consts))
	funcs := make([]*Func, len(p.Funcs))
	copy(funcs, p.Funcs)
	// List in code order: the flat array is what the counters index.
	for i := 1; i < len(funcs); i++ {
		for j := i; j > 0 && funcs[j].Entry < funcs[j-1].Entry; j-- {
			funcs[j], funcs[j-1] = funcs[j-1], funcs[j]
		}
	}
	for _, f := range funcs {
		fmt.Fprintf(bw, "\n%s %s (%s)  ; %s:%s  locals %d, stack %d\n",
			f.Kind, f.Name, strings.Join(f.Params, " "), p.File, f.Pos, f.NumLocals, f.MaxStack)
		for _, c := range f.Captures {
			kind := "value"
			if c.Cell {
				kind = "cell"
			}
			from := "local"
			if c.From == FromFree {
				from = "free"
			}
			fmt.Fprintf(bw, "  ; captures %s (%s, from %s %d)\n", c.Name, kind, from, c.Index)
		}
		for pc := f.Entry; pc < f.End; pc++ {
			p.disasmInstr(bw, f, pc)
		}
	}
	return bw.Flush()
}

var cmpNames = map[byte]string{'<': "<", 'l': "<=", '>': ">", 'g': ">=", '=': "=", '!': "/=", 'e': "eq", 'm': "member"}

func (p *Program) disasmInstr(w io.Writer, f *Func, pc int) {
	op, a, b := p.Code[pc], p.A[pc], p.B[pc]
	var operands, note string
	switch op {
	case CONST:
		operands = fmt.Sprint(a)
		note = p.Consts[a].String()
	case INT, ADDI, SUBI, LTI, LEI, GTI, GEI, NUMEQI, DROP:
		operands = fmt.Sprint(a)
	case LOAD, STORE, SET, MAKECELL, LOADC, STOREC, INCLOCAL, LOADT, SETT:
		operands = fmt.Sprint(a)
		if int(a) < len(f.Params) {
			note = f.Params[a]
		}
	case LOADV, LOADVC, STOREVC:
		operands = fmt.Sprint(a)
		for _, c := range f.Captures {
			if c.Cell == (op != LOADV) {
				if a == 0 {
					note = c.Name
					break
				}
				a--
			}
		}
	case GETVALUE, SETVALUE:
		operands = fmt.Sprint(a)
		note = p.Globals[a]
	case JMP, JMPNIL:
		operands = fmt.Sprint(a)
	case SKIPT, SKIPNILT, SKIPTF:
		operands = fmt.Sprintf("%d %d", a, b)
	case JMPIF, JMPIFNOT, JMPIFK, JMPIFNOTK, PROBEOK, JMPIFKF, JMPIFNOTKF:
		operands = fmt.Sprintf("%d %d", a, b)
		br := p.branches[b]
		note = fmt.Sprintf("branch %d: %s test at %s", b, br.Head, br.Test)
	case PROBECMP, PROBEGUARD:
		operands = fmt.Sprintf("%d %d", a, b)
		pr := p.Probes[a]
		neg := ""
		if pr.Not {
			neg = "not "
		}
		x := fmt.Sprintf("local-%d", pr.Slot)
		if pr.XGlobal {
			x = p.Globals[pr.Slot]
		}
		y := pr.K.String()
		switch {
		case pr.YLocal:
			y = fmt.Sprintf("local-%d", pr.Y)
		case pr.YGlobal:
			y = p.Globals[pr.Y]
		}
		switch pr.Cmp {
		case 't':
			note = fmt.Sprintf("branch %d: %s%s", b, neg, x)
		case 'd':
			note = fmt.Sprintf("branch %d: dist |%s| < %d", b, strings.Join(probeString(p, pr.Ops), " - "), pr.Bound)
		case 'x':
			note = fmt.Sprintf("branch %d: %s", b, strings.Join(probeString(p, pr.Ops), " "))
		case '&':
			var terms strings.Builder
			for _, t := range pr.Terms {
				v := fmt.Sprintf("local-%d", t.Slot)
				if t.Global {
					v = p.Globals[t.Slot]
				}
				if t.Not {
					v = "(not " + v + ")"
				}
				terms.WriteString(" " + v)
			}
			note = fmt.Sprintf("branch %d: %s(and%s)", b, neg, terms.String())
		default:
			note = fmt.Sprintf("branch %d: %s(%s %s %s)", b, neg, cmpNames[pr.Cmp], x, y)
		}
		if op == PROBEGUARD {
			note += fmt.Sprintf(", guard: false->%d", pr.Skip)
		}
	case PROBEFAIL:
		operands = fmt.Sprint(b)
		note = fmt.Sprintf("branch %d false", b)
	case PROBE:
		operands = fmt.Sprint(a)
		for _, c := range p.Handlers[a].Clauses {
			note = fmt.Sprintf("probe, %s->%d", c.Kind, c.PC)
		}
	case SKIPJMP:
		operands = fmt.Sprintf("%d %d", a, b)
	case DOLOOP:
		operands = fmt.Sprintf("%d %d", a, b)
	case CALL:
		operands = fmt.Sprintf("%d %d", a, b)
		note = p.Funcs[a].Name
	case CALLB:
		operands = fmt.Sprintf("%d %d", a, b)
		note = coreBuiltins[a].Name
	case CALLX:
		operands = fmt.Sprintf("%d %d", a, b)
		note = p.Externals[a] + " (external)"
	case FUNCALL:
		operands = fmt.Sprint(a)
	case FUNCTION, CLOSURE:
		operands = fmt.Sprint(a)
		note = fmt.Sprintf("%s at %s", p.Funcs[a].Name, p.Funcs[a].Pos)
	case MEMBEQ:
		operands = fmt.Sprint(a)
		note = p.Consts[a].String()
	case MAKEDESIG:
		operands = fmt.Sprintf("%d %d", a, b)
		d := p.Desigs[a]
		note = d.Class + " " + strings.Join(d.Keys, " ")
	case HANDLER:
		operands = fmt.Sprint(a)
		var ks []string
		for _, c := range p.Handlers[a].Clauses {
			ks = append(ks, fmt.Sprintf("%s->%d", c.Kind, c.PC))
		}
		note = strings.Join(ks, " ")
	}
	line := fmt.Sprintf("  %04d  %-7s %-10s %s", pc, p.Pos[pc], op, operands)
	if note != "" {
		line = fmt.Sprintf("%-40s ; %s", line, note)
	}
	fmt.Fprintln(w, strings.TrimRight(line, " "))
}

// probeOpNames are the Lisp names of ProbeOp's operators.
var probeOpNames = map[byte]string{'+': "+", '-': "-", '*': "*", '/': "/", '%': "mod", '<': "<", '(': "<=", '>': ">", ')': ">=",
	'=': "=", '!': "/=", 'e': "eq", 'a': "abs", 'n': "not", '&': "and", '|': "or"}

// probeString writes the values a probe's postfix code (ProbeCmp.Ops)
// leaves, as expressions (an and or or as its operands' nest).
func probeString(p *Program, ops []ProbeOp) []string {
	var st []string
	// ends: for each open and/or, where its last operand ends.
	type open struct {
		op  byte
		end int32
		at  int // its first operand's index in st
	}
	var opens []open
	for i, o := range ops {
		for len(opens) > 0 && opens[len(opens)-1].end == int32(i) {
			ob := opens[len(opens)-1]
			opens = opens[:len(opens)-1]
			args := strings.Join(st[ob.at:], " ")
			st = append(st[:ob.at], "("+probeOpNames[ob.op]+" "+args+")")
		}
		switch o.Op {
		case 'L':
			st = append(st, fmt.Sprintf("local-%d", o.Slot))
		case 'G':
			st = append(st, p.Globals[o.Slot])
		case 'K':
			st = append(st, fmt.Sprint(o.K))
		case 'T':
			st = append(st, "t")
		case 'N':
			st = append(st, "nil")
		case 'C':
			st = append(st, o.V.String())
		case 'M':
			st[len(st)-1] = "(member " + st[len(st)-1] + " " + o.V.String() + ")"
		case 'a', 'n':
			st[len(st)-1] = "(" + probeOpNames[o.Op] + " " + st[len(st)-1] + ")"
		case '&', '|':
			if len(opens) == 0 || opens[len(opens)-1].end != o.Slot || opens[len(opens)-1].op != o.Op {
				opens = append(opens, open{op: o.Op, end: o.Slot, at: len(st) - 1})
			}
		default:
			n := len(st)
			st = append(st[:n-2], "("+probeOpNames[o.Op]+" "+st[n-2]+" "+st[n-1]+")")
		}
	}
	for len(opens) > 0 {
		ob := opens[len(opens)-1]
		opens = opens[:len(opens)-1]
		args := strings.Join(st[ob.at:], " ")
		st = append(st[:ob.at], "("+probeOpNames[ob.op]+" "+args+")")
	}
	return st
}
