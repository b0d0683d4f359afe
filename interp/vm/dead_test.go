package vm

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// deadPlan has chains of labels after every kind of instruction that
// precedes them in annotated plans: a function's entry, a SET, a loop
// body's start (DOLOOP's target), both arms of an if (a conditional
// jump's fall-through and its target), a call's return, a LOAD, and
// guarded and PROBE-block probes among compare probes.
const deadPlan = `(defparameter *k* 2)
(defun f (x)
  (when (ignore-errors (> x 3)))
  (when (ignore-errors (= x 5)))
  (+ x 1))
(def-plan main (x)
  (let ((s 0) (l (list 1 2)))
    (setq s (+ s x))
    (when (ignore-errors (< x 2)))
    (when (ignore-errors (> x 7)))
    (dotimes (i 3)
      (when (ignore-errors (= i x)))
      (when (ignore-errors (< i 1)))
      (setq s (+ s (f i))))
    (if (> x 4)
        (progn (when (ignore-errors (= x 6))) (when (ignore-errors (> x 8))) (setq s (+ s 1)))
        (progn (when (ignore-errors (= x 1))) (when (ignore-errors (and (> x 0) (car l)))) (setq s (- s 1))))
    (setq s (+ s (f x)))
    (when (ignore-errors (= (car l) x)))
    (when (ignore-errors (< s *k*)))
    (list s x (+ (car l) (progn (when (ignore-errors (= s 6))) (when (ignore-errors (> s 20))) x)))))`

// labelCounters marks the branch counters of p's labels (probes).
func labelCounters(p *compile.Program) []bool {
	out := make([]bool, p.NumCounters())
	for b := range p.NumBranches() {
		switch p.Code[p.Branch(b).PC] {
		case compile.PROBECMP, compile.PROBEGUARD, compile.PROBE, compile.PROBEOK:
			out[p.BranchCounter(b, true)], out[p.BranchCounter(b, false)] = true, true
		}
	}
	return out
}

// TestSilentRetire: with the built-in engine's labels (fired only,
// silent retirement), a label writes its true counter when it holds and
// nothing else, ever; once it fired it writes nothing and costs no label
// step, fused or plain, and the fused code runs exactly as the plain code
// (result, steps, label steps, failure positions, counters). Once every
// label has retired, a run costs no label step at all and the fused code
// never meets a dead probe (TestDeadProbesNotDispatched).
func TestSilentRetire(t *testing.T) {
	p := compileSrc(t, deadPlan)
	labels := labelCounters(p)
	cfg := Config{Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}}
	fused, plain := fusedAndPlain(t, p, cfg)
	fresh, err := New(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	fired := map[int]bool{} // true counters seen
	inputs := []int64{0, 0, 3, 5, 5, 1, 6, 9, 2, 4, 8, 7, 1, 0, 3, 20, 2, 5, -1, 3}
	for i, x := range inputs {
		res, cnt := runPair(p, [2]*Machine{fused, plain}, value.Int(x))
		if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
			t.Fatalf("x=%d: fused %s, plain %s, counters equal %v", x, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
		}
		fresh.ResetCounters()
		fresh.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
		want := fresh.Counters()
		for c, v := range cnt[0] {
			isFalse := (c-p.NumInstructions())%2 == 1
			switch {
			case !labels[c] && v != want[c]:
				t.Errorf("x=%d: plan counter %d reads %d, %d without fuzzing labels", x, c, v, want[c])
			case !labels[c]:
			case isFalse && v != 0:
				t.Errorf("x=%d: label false counter %d written", x, c)
			case isFalse:
			case v != 0 && fired[c]:
				t.Errorf("x=%d (run %d): retired label's true counter %d written", x, i, c)
			case v != want[c] && !fired[c]:
				t.Errorf("x=%d: live label's true counter %d reads %d, %d without fuzzing labels", x, c, v, want[c])
			}
			if labels[c] && v != 0 {
				fired[c] = true
			}
		}
	}
	if len(fired) < 12 {
		t.Fatalf("only %d labels fired: the test proves little", len(fired))
	}
	// Retire the rest: every label is made to hold by some input.
	for x := int64(-60); x <= 60; x++ {
		fused.ResetCounters()
		fused.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
	}
	fused.ResetCounters()
	r := fused.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(4)})
	if r.Outcome != OutcomeOK {
		t.Fatal(resultString(r))
	}
	if len(fused.live) != 0 {
		t.Fatalf("%d labels still live", len(fused.live))
	}
	if r.LabelSteps != 0 {
		t.Errorf("%d label steps with every label retired", r.LabelSteps)
	}
	for c, v := range fused.Counters() {
		if labels[c] && v != 0 {
			t.Errorf("label counter %d written with every label retired", c)
		}
	}
}

// TestDeadProbesNotDispatched: once labels retired silently, nothing in
// the fused code leads into a run of dead probes but what cannot be
// retargeted: every jump target, function entry, and nested skip lies
// outside the runs, and every instruction that falls into a run does
// its work and continues after it (opThenSkip, or one of its
// one-dispatch forms).
func TestDeadProbesNotDispatched(t *testing.T) {
	runs, skips := 0, 0
	for _, src := range []string{deadPlan, groupPlan} {
		p := compileSrc(t, src)
		m, err := New(p, Config{Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
		if err != nil {
			t.Fatal(err)
		}
		for x := int64(-60); x <= 60; x++ {
			m.ResetCounters()
			m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
		}
		m.ResetCounters()
		for pc, in := range m.fused {
			if m.deadEnd[pc] != 0 {
				if pc == 0 || m.deadEnd[pc-1] == 0 {
					runs++
				}
				continue
			}
			var target int32 = -1
			switch in.op {
			case compile.JMP, compile.JMPIF, compile.JMPIFNOT, compile.JMPIFK, compile.JMPIFNOTK,
				compile.JMPNIL, compile.SKIPJMP, compile.DOLOOP, compile.PROBEOK:
				target = in.a
			case compile.PROBE:
				target = in.b
			case opProbeGroup:
				target = int32(m.groups[in.a].end)
			}
			if target >= 0 && m.deadEnd[target] != 0 {
				t.Errorf("%s at %d jumps into dead probes at %d", in.op, pc, target)
			}
			if pc+1 < len(m.fused) && m.deadEnd[pc+1] != 0 && fallsThrough(m.plain[pc].op) {
				switch in.op {
				case opThenSkip, opLoadLoadSkip, opLoadSkip, opSetTKeep, opJmpIfNotKSkip:
				default:
					t.Errorf("%s at %d falls into dead probes", in.op, pc)
				}
				skips++
			}
		}
		for i, e := range m.entry {
			if m.deadEnd[e] != 0 {
				t.Errorf("function %s enters at dead probes", p.Funcs[i].Name)
			}
		}
	}
	if runs < 8 || skips < 4 {
		t.Errorf("%d runs of dead probes, %d skipped into: the test proves little", runs, skips)
	}
}

// TestFiredOnlyStable: with the AFL++ worker's labels (fired only,
// retirement writing the true counter), no label false counter is ever
// written, one input gives one map run after run, and a retired label
// reads true wherever it is reached.
func TestFiredOnlyStable(t *testing.T) {
	p := compileSrc(t, deadPlan)
	labels := labelCounters(p)
	m, err := New(p, Config{Labels: LabelMode{Retire: true, FiredOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(x int64) []uint8 {
		m.ResetCounters()
		if r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)}); r.Outcome != OutcomeOK {
			t.Fatal(resultString(r))
		}
		return append([]uint8(nil), m.Counters()...)
	}
	for _, x := range []int64{0, 3, 5, 1, 6, 9, 2, 4, 8, 7, -1} {
		a, b := run(x), run(x)
		if !bytes.Equal(a, b) {
			t.Errorf("x=%d: one input, two maps", x)
		}
		for c, v := range a {
			if labels[c] && (c-p.NumInstructions())%2 == 1 && v != 0 {
				t.Errorf("x=%d: label false counter %d written", x, c)
			}
		}
	}
	// (< x 2) fired for x=0: it reads true for x=9 now.
	b := -1
	for i := range p.NumBranches() {
		if pc := p.Branch(i).PC; p.Code[pc] == compile.PROBECMP && p.Probes[p.A[pc]].Cmp == '<' && p.Branch(i).Test.Line == 9 {
			b = i
		}
	}
	if b < 0 {
		t.Fatal("no (< x 2) label")
	}
	if c := run(9); c[p.BranchCounter(b, true)] != 1 {
		t.Errorf("retired (< x 2) reads %d for x=9", c[p.BranchCounter(b, true)])
	}
}

// TestDeadProbePositions: a failure of the instruction the fused code
// runs as opThenSkip (the 1+ before the labels), and timeouts at every
// step around a run of dead probes (one a jump of a superinstruction
// skips), report the same positions fused and plain, and the failure is
// the 1+'s.
func TestDeadProbePositions(t *testing.T) {
	// The labels retire in runs that reach them (n = 0); later runs
	// burn the budget in the loop first, so that it runs out at every
	// step around the skipped labels.
	jumped := compileSrc(t, `(def-plan main (x n)
  (dotimes (i n) nil)
  (if (< x 3) x (progn (when (ignore-errors (= x 5))) (when (ignore-errors (> x 0))) (list x))))`)
	for steps := int64(17); steps <= 32; steps++ {
		cfg := Config{MaxSteps: steps, Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}}
		fused, plain := fusedAndPlain(t, jumped, cfg)
		for _, in := range [][2]int64{{5, 0}, {5, 0}, {7, 0}, {7, 1}, {7, 2}, {7, 3}, {7, 4}, {1, 3}} {
			res, _ := runPair(jumped, [2]*Machine{fused, plain}, value.Int(in[0]), value.Int(in[1]))
			if res[0] != res[1] {
				t.Errorf("MaxSteps %d, x, n=%v: fused %s, plain %s", steps, in, res[0], res[1])
			}
		}
		if fused.deadEnd == nil {
			t.Fatalf("MaxSteps %d: the labels did not retire", steps)
		}
	}
	p := compileSrc(t, `(def-plan main (x)
  (list (1+ x) (progn (when (ignore-errors (= x 5))) (when (ignore-errors (> x 0))) x)))`)
	for steps := int64(0); steps <= 12; steps++ {
		cfg := Config{MaxSteps: steps, Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}}
		fused, plain := fusedAndPlain(t, p, cfg)
		for _, x := range []value.Value{value.Int(5), value.Int(5), value.Symbol("a"), value.Int(3)} {
			res, _ := runPair(p, [2]*Machine{fused, plain}, x)
			if steps == 0 && x.Kind() == value.KSymbol && !strings.Contains(res[0], " test.plan:2:9 ") {
				t.Errorf("(1+ 'a) fails elsewhere than test.plan:2:9: %s", res[0])
			}
			if res[0] != res[1] {
				t.Errorf("MaxSteps %d, x=%s: fused %s, plain %s", steps, x, res[0], res[1])
			}
		}
		add1 := -1
		for pc, op := range p.Code {
			if op == compile.ADD1 {
				add1 = pc
			}
		}
		if steps == 0 && fused.fused[add1].op != opThenSkip {
			t.Errorf("the 1+ is %s in the fused code, want opThenSkip", fused.fused[add1].op)
		}
	}
}

// TestCancelledRunRetiresNothing: a fuzzer drops the counters of a run
// its context cut short, so a label that fired in it stays live; it
// retires after a run that ends normally.
func TestCancelledRunRetiresNothing(t *testing.T) {
	p := compileSrc(t, `(def-plan main (x)
  (when (ignore-errors (> x 0)))
  (when (> x 5) (while t nil))
  x)`)
	m, err := New(p, Config{MaxSteps: 1 << 40, Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.ResetCounters()
	if r := m.Run(ctx, p.Plan("main"), []value.Value{value.Int(9)}); r.Failure == nil || r.Failure.Kind != KindCanceled {
		t.Fatalf("x=9: %s, want cancelled", resultString(r))
	}
	if !m.fired {
		t.Fatal("the label did not fire before the loop")
	}
	m.ResetCounters()
	if len(m.live) != 1 {
		t.Fatalf("a label retired after a cancelled run (%d live)", len(m.live))
	}
	for range 2 {
		m.ResetCounters()
		if r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(1)}); r.Outcome != OutcomeOK {
			t.Fatal(resultString(r))
		}
	}
	if len(m.live) != 0 {
		t.Errorf("the label did not retire after a run that ended normally")
	}
}
