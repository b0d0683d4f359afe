package vm

import (
	"context"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// transientHost records each designator it performs, printed before and
// after it runs the plan function hook (which performs at the same site),
// and returns only strings: it keeps nothing of d.
type transientHost struct {
	transient bool
	log       []string
}

func (h *transientHost) TransientDesignators() bool { return h.transient }

func (h *transientHost) Perform(m *Machine, d *value.Designator) (value.Value, error) {
	before := value.FromDesignator(d).String()
	if v, _ := d.Get("x"); v.SymbolName() == "outer" {
		r := m.Call(context.Background(), m.Program().Func("hook"), nil)
		if r.Outcome != OutcomeOK {
			return value.Nil, r.Failure
		}
	}
	if d.Type() == "boom" {
		return value.Nil, Fail("grasping-failure", "cannot %s", value.FromDesignator(d))
	}
	h.log = append(h.log, before+" / "+value.FromDesignator(d).String())
	return value.String(before), nil
}

func TestTransientDesignatorsAgree(t *testing.T) {
	src := `(defun act (?x) (perform (an action (type go) (x ?x) (to (a location (name ?x) (at (a location (name inner))))))))
(defun hook () (act 'inner))
(defun keep (?x) (let ((d (an action (type go) (x ?x)))) (perform d) d))
(def-plan main ()
  (let ((r nil))
    (dotimes (i 3)
      (push (act i) r)
      (push (act 'outer) r)
      (push (keep i) r)
      (push (ignore-errors (perform (an action (type boom) (x (a location (n i)))))) r)
      (push (with-failure-handling ((grasping-failure (e) (desig-prop e 'message)))
              (perform (an action (type boom) (x (a location (n i)))))) r))
    (list r (eq (keep 1) (keep 1)) (equal (keep 1) (keep 1)))))`
	var got [2]string
	var logs [2][]string
	for i, transient := range []bool{false, true} {
		h := &transientHost{transient: transient}
		r, _, m := runMain(t, src, Config{Host: h})
		if r.Outcome != OutcomeOK {
			t.Fatalf("transient=%v: %s %+v", transient, r.Outcome, r.Failure)
		}
		got[i], logs[i] = r.Value.String(), h.log
		rewritten := 0
		for _, in := range m.plain {
			if in.op == opMakeDesigPerform {
				rewritten++
			}
		}
		// act's two nested designators and the action, and boom's two
		// sites with their locations; keep's designator escapes.
		if want := map[bool]int{false: 0, true: 7}[transient]; rewritten != want {
			t.Errorf("transient=%v: %d designators reused, want %d", transient, rewritten, want)
		}
	}
	if got[0] != got[1] || strings.Join(logs[0], "\n") != strings.Join(logs[1], "\n") {
		t.Errorf("results differ:\nfresh  %s\n%s\nreused %s\n%s", got[0], strings.Join(logs[0], "\n"), got[1], strings.Join(logs[1], "\n"))
	}
	if !strings.Contains(got[1], "(an action (type go) (x outer) (to (a location (name outer) (at (a location (name inner))))))") {
		t.Errorf("result: %s", got[1])
	}
}

func TestTransientDesignatorsKeepTheBudget(t *testing.T) {
	src := `(def-plan main () (dotimes (i 100) (perform (an action (type go) (to (a location (n i)))))))`
	for _, transient := range []bool{false, true} {
		r, _, _ := runMain(t, src, Config{Host: &transientHost{transient: transient}, MaxAlloc: 150})
		if r.Outcome != OutcomeFailure || r.Failure.Kind != "allocation-limit" {
			t.Errorf("transient=%v: %s %+v", transient, r.Outcome, r.Failure)
		}
	}
}

// The VM's own opcode must not collide with a compile opcode, and must
// follow the last one closely: a sparse opcode range turns the dispatch
// switch into a binary search instead of a jump table.
func TestDispatchOpcodesAreDense(t *testing.T) {
	if s := opMakeDesigPerform.String(); s != "OP?" {
		t.Errorf("opMakeDesigPerform is the compile opcode %s", s)
	}
	if s := (opMakeDesigPerform - 1).String(); s == "OP?" {
		t.Errorf("opMakeDesigPerform (%d) does not follow the last compile opcode", opMakeDesigPerform)
	}
}
