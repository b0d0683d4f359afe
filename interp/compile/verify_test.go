package compile

import (
	"fmt"
	"testing"
)

// verifyStack walks every function's control flow and checks that the
// operand depth is the same on every path into an instruction, never
// negative, at most MaxStack, and exactly 1 at each RET. It is how tests
// and the fuzzer check the compiler's static depth bookkeeping, which the
// VM trusts when it sizes frames.
func verifyStack(p *Program) error {
	for _, fn := range p.Funcs {
		depth := map[int]int{}
		work := []int{fn.Entry}
		depth[fn.Entry] = 0
		flow := func(from, to, d int) error {
			if to < fn.Entry || to >= fn.End {
				return fmt.Errorf("%s: pc %d flows to %d outside the function", fn.Name, from, to)
			}
			if d < 0 {
				return fmt.Errorf("%s: stack underflow into pc %d", fn.Name, to)
			}
			if d > fn.MaxStack {
				return fmt.Errorf("%s: depth %d at pc %d exceeds MaxStack %d", fn.Name, d, to, fn.MaxStack)
			}
			if old, seen := depth[to]; seen {
				if old != d {
					return fmt.Errorf("%s: pc %d reached with depths %d and %d", fn.Name, to, old, d)
				}
				return nil
			}
			depth[to] = d
			work = append(work, to)
			return nil
		}
		for len(work) > 0 {
			pc := work[len(work)-1]
			work = work[:len(work)-1]
			d := depth[pc]
			op, a, b := p.Code[pc], int(p.A[pc]), int(p.B[pc])
			after := d + stackEffect(op, int32(a), int32(b))
			var err error
			switch op {
			case RET:
				if d != 1 {
					err = fmt.Errorf("%s: RET at pc %d with depth %d", fn.Name, pc, d)
				}
			case JMP:
				err = flow(pc, a, d)
			case SKIPJMP:
				err = flow(pc, a, after)
			case JMPIF, JMPIFNOT, JMPNIL:
				if err = flow(pc, a, after); err == nil {
					err = flow(pc, pc+1, after)
				}
			case JMPIFK, JMPIFNOTK:
				if err = flow(pc, a, d); err == nil {
					err = flow(pc, pc+1, after)
				}
			case DOLOOP:
				if err = flow(pc, a, d); err == nil {
					err = flow(pc, pc+1, d)
				}
			case PROBE:
				// A failure unwinds to the PROBE's depth; nothing is pushed.
				for _, c := range p.Handlers[a].Clauses {
					if err = flow(pc, c.PC, d); err != nil {
						break
					}
				}
				if err == nil {
					err = flow(pc, pc+1, d)
				}
			case PROBEOK:
				err = flow(pc, a, after)
			case HANDLER:
				for _, c := range p.Handlers[a].Clauses {
					if err = flow(pc, c.PC, d+1); err != nil {
						break
					}
				}
				if err == nil {
					err = flow(pc, pc+1, d)
				}
			default:
				if after < 0 {
					err = fmt.Errorf("%s: %s at pc %d underflows", fn.Name, op, pc)
				} else {
					err = flow(pc, pc+1, after)
				}
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func TestVerifyStackOnExamples(t *testing.T) {
	p, err := compileString(t, `(defparameter *g* (list 1 2))
(defun f (a b)
  (list (if a 1 2) (and a b) (or a b) (cond (a 1) (b)) (let ((x 1) (y 2)) (+ x y))
        (dolist (x '(1 2) 'r) (when x (return x))) (dotimes (i 3 i) (list 1 (return i)))
        (with-failure-handling ((failure (e) (list 1 2 (retry)))) (list 1 (fail 'x)))
        (ignore-errors 3) (while a (return 1)) (progn (when (ignore-errors (< a b))) (when (ignore-errors (car a))) 1)
        (case a (1 2) (t 3)) (an action (k a)) (funcall (lambda (z) (setq a z)) 1)
        (let ((n 0)) (push n *g*) (pop *g*) (incf n) (decf n 2))))`)
	if err != nil {
		t.Fatal(err)
	}
	if err := verifyStack(p); err != nil {
		t.Fatal(err)
	}
	// The verifier itself must notice a broken program.
	p.Code[p.Func("f").End-2] = POP
	if err := verifyStack(p); err == nil {
		t.Error("verifier accepted a corrupted program")
	}
}
