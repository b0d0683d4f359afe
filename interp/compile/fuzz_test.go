package compile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

// FuzzCompile: for any source that parses, Compile returns a Program or a
// *syntax.Error, never panics, and the Program's tables are consistent.
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(plansDir, "*.plan"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("(defun f (x) (let ((y x)) (lambda () (setq y (+ y 1)))))"))
	f.Add([]byte("(defun f (x) (progn (when (ignore-errors (< (car x) 1))) (dolist (y x) (when (ignore-errors (f y)))) x))"))
	f.Add([]byte("(def-plan p () (with-failure-handling ((failure (e) (retry))) (dotimes (i 3) (return i))))"))
	// Reader macros (readermacros.go).
	f.Add([]byte("(defun f (x ys) `(a ,x ,@ys (b . ,x) ',x ,(+ x 1))) (def-plan p () (f 1 '(2)))"))
	f.Add([]byte("#+sbcl (defun g () (list #'car #\\a 1/2 #(1 2) #-(or a (not b)) 3)) #+nope (defun g () 1)"))
	f.Add([]byte("(def-plan p () `(,@1 . ,2) `#'(lambda () ,x) `(#+a ,b))"))
	scripts, _ := filepath.Glob(filepath.Join("testdata", "scripts", "*.plan"))
	for _, file := range scripts {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := syntax.Parse("fuzz.plan", src)
		if err != nil {
			return
		}
		p, err := Compile(file)
		if err != nil {
			var serr *syntax.Error
			if !errors.As(err, &serr) {
				t.Fatalf("error is not a *syntax.Error: %v", err)
			}
			return
		}
		checkProgram(t, p)
	})
}

// checkProgram verifies the invariants the VM relies on.
func checkProgram(t *testing.T, p *Program) {
	n := len(p.Code)
	if len(p.A) != n || len(p.B) != n || len(p.Pos) != n {
		t.Fatal("parallel arrays differ in length")
	}
	for _, fn := range p.Funcs {
		if fn.Entry < 0 || fn.End > n || fn.Entry >= fn.End || p.Code[fn.End-1] != RET {
			t.Fatalf("%s: bad code range [%d,%d)", fn.Name, fn.Entry, fn.End)
		}
		for pc := fn.Entry; pc < fn.End; pc++ {
			op, a, b := p.Code[pc], int(p.A[pc]), int(p.B[pc])
			if op >= numOps {
				t.Fatalf("pc %d: bad opcode %d", pc, op)
			}
			if op.IsJump() && (a < fn.Entry || a >= fn.End) {
				t.Fatalf("%s: pc %d jumps out of its function to %d", fn.Name, pc, a)
			}
			if op.IsBranch() && (b < 0 || b >= p.NumBranches() || p.Branch(b).PC != pc) {
				t.Fatalf("pc %d: branch %d does not point back", pc, b)
			}
			switch op {
			case LOAD, STORE, SET, MAKECELL, LOADC, STOREC, INCLOCAL:
				if a < 0 || a >= fn.NumLocals {
					t.Fatalf("%s: pc %d: slot %d outside %d locals", fn.Name, pc, a, fn.NumLocals)
				}
			case PROBECMP:
				if a < 0 || a >= len(p.Probes) || int(p.Probes[a].Slot) >= fn.NumLocals || int(p.Probes[a].Y) >= fn.NumLocals {
					t.Fatalf("pc %d: compare probe %d", pc, a)
				}
			case PROBEFAIL:
				if b < 0 || b >= p.NumBranches() || p.Code[p.Branch(b).PC] != PROBEOK || p.Branch(b).PC != pc-1 {
					t.Fatalf("pc %d: PROBEFAIL branch %d does not follow its PROBEOK", pc, b)
				}
			case PROBE:
				if a < 0 || a >= len(p.Handlers) || !p.Handlers[a].Probe || len(p.Handlers[a].Clauses) != 1 ||
					p.Code[p.Handlers[a].Clauses[0].PC] != PROBEFAIL {
					t.Fatalf("pc %d: PROBE site %d has no PROBEFAIL clause", pc, a)
				}
			case DOLOOP:
				if b < 0 || b+1 >= fn.NumLocals {
					t.Fatalf("%s: pc %d: DOLOOP slot %d", fn.Name, pc, b)
				}
			case CONST, MEMBEQ:
				if a < 0 || a >= len(p.Consts) {
					t.Fatalf("pc %d: constant %d", pc, a)
				}
			case CALL, FUNCTION, CLOSURE:
				if a < 0 || a >= len(p.Funcs) {
					t.Fatalf("pc %d: function %d", pc, a)
				}
			}
		}
	}
	if err := verifyStack(p); err != nil {
		t.Fatal(err)
	}
	for i, h := range p.Handlers {
		for _, c := range h.Clauses {
			if c.PC < 0 || c.PC >= n {
				t.Fatalf("handler %d: clause pc %d", i, c.PC)
			}
		}
	}
}
