package solve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// conj is the SMT-LIB conjunction of cs.
func conj(cs []cond) string {
	switch len(cs) {
	case 0:
		return "true"
	case 1:
		return cs[0].smt
	}
	var b strings.Builder
	b.WriteString("(and")
	for _, c := range cs {
		b.WriteByte(' ')
		b.WriteString(c.smt)
	}
	b.WriteByte(')')
	return b.String()
}

// predHolds is the disjunction of the ways a predicate holds on a path.
func predHolds(preds [][]cond) string {
	switch len(preds) {
	case 0:
		return "false"
	case 1:
		return conj(preds[0])
	}
	parts := make([]string, len(preds))
	for i, p := range preds {
		parts[i] = conj(p)
	}
	return "(or " + strings.Join(parts, " ") + ")"
}

// Reach is the SMT-LIB formula over arg0, arg1, ... (each a (_ BitVec
// 64), two's complement as the VM's int64) that holds exactly for the
// integer arguments whose run reaches label id's point with its predicate
// true (when Exact(id); otherwise an approximation to be replayed).
func (a *Analysis) Reach(id int) string {
	g := a.goals[id]
	if g == nil {
		return "false"
	}
	var parts []string
	for _, r := range g.reaches {
		if len(r.preds) == 0 {
			continue
		}
		parts = append(parts, "(and "+conj(r.pc)+" "+predHolds(r.preds)+")")
	}
	switch len(parts) {
	case 0:
		return "false"
	case 1:
		return parts[0]
	}
	return "(or " + strings.Join(parts, "\n  ") + ")"
}

// Script is the SMT-LIB 2 script that asks for arguments covering label
// id: the declarations, the reach condition, check-sat and get-value.
func (a *Analysis) Script(id int) string {
	var b strings.Builder
	a.declare(&b)
	fmt.Fprintf(&b, "(assert %s)\n(check-sat)\n", a.Reach(id))
	if len(a.Params) > 0 {
		b.WriteString("(get-value (")
		for i := range a.Params {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "arg%d", i)
		}
		b.WriteString("))\n")
	}
	return b.String()
}

func (a *Analysis) declare(b *strings.Builder) {
	for i := range a.Params {
		fmt.Fprintf(b, "(declare-const arg%d (_ BitVec 64))\n", i)
	}
}

// Z3 is one z3 process answering SMT-LIB 2 on its standard input.
type Z3 struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	done chan struct{}
}

// StartZ3 starts path (z3) as `z3 -in -smt2`; ctx's end kills it.
func StartZ3(ctx context.Context, path string) (*Z3, error) {
	cmd := exec.CommandContext(ctx, path, "-in", "-smt2")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("z3: %w", err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("z3: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("z3: %w", err)
	}
	z := &Z3{cmd: cmd, in: in, out: bufio.NewReader(outp)}
	// No :produce-unsat-cores: with it z3's bit-vector tactic runs tens of
	// times slower (battery's conditions: from a third of a second to
	// beyond ten); explain finds its cores by deletion instead.
	if err := z.send("(set-option :print-success false)\n"); err != nil {
		z.Close()
		return nil, err
	}
	return z, nil
}

// Close ends the process.
func (z *Z3) Close() error {
	z.in.Close()
	return z.cmd.Wait()
}

func (z *Z3) send(s string) error {
	if _, err := io.WriteString(z.in, s); err != nil {
		return fmt.Errorf("z3: %w", err)
	}
	return nil
}

// readSexp reads one answer: an atom on a line, or a parenthesised form
// over lines.
func (z *Z3) readSexp() (string, error) {
	var b strings.Builder
	depth := 0
	for {
		line, err := z.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("z3: %w", err)
		}
		b.WriteString(line)
		inStr := false
		for _, r := range line {
			switch {
			case r == '"':
				inStr = !inStr
			case inStr:
			case r == '(':
				depth++
			case r == ')':
				depth--
			}
		}
		if depth <= 0 && strings.TrimSpace(b.String()) != "" {
			s := strings.TrimSpace(b.String())
			if strings.HasPrefix(s, "(error") {
				return "", fmt.Errorf("z3: %s", s)
			}
			return s, nil
		}
	}
}

// rlimitPerSecond converts a time limit into z3's resource limit
// (:rlimit, the count of its basic steps): about what z3 4.8 counts in a
// second of CPU time on the benchmark plans' conditions (40 million in
// 16 s for battery's). The resource limit binds, not the clock, so that
// z3's answers do not depend on the machine's load: the same condition
// gets the same answer on a loaded machine as on an idle one.
const rlimitPerSecond = 2_500_000

// wallFactor bounds a check's wall-clock time to this many times its
// time limit, should the resource limit not stop it first.
const wallFactor = 10

// limits are the z3 options that bound one check to timeout's budget.
func limits(timeout time.Duration) (opts string, wallMS int64) {
	r := max(1, int64(timeout.Seconds()*rlimitPerSecond))
	wallMS = max(1, wallFactor*timeout.Milliseconds())
	return fmt.Sprintf("(set-option :rlimit %d)\n(set-option :timeout %d)\n", r, wallMS), wallMS
}

// checkBV runs (check-sat) on what is asserted with z3's bit-vector
// tactic (simplification, then bit-blasting to SAT): between push and pop
// z3 otherwise uses its incremental core, several times slower on these
// conditions. It answers "sat", "unsat" or "unknown".
func (z *Z3) checkBV(timeout time.Duration) (string, error) {
	opts, ms := limits(timeout)
	return z.checkSat(fmt.Sprintf("%s(check-sat-using (try-for qfbv %d))\n", opts, ms))
}

// endMarker closes every check's answer: z3 echoes it after whatever the
// check printed, so the stream stays in step whether z3 answered with
// one word, an error, or an error and a word.
const endMarker = "labelcov-check-end"

// checkSat sends cmds, whose last command is a check, and reads up to
// the end marker. A check that ran out of time answers "unknown", even
// when z3 words it as an error ("tactic failed: canceled", which a
// try-for tactic prints when its timer fires mid-tactic under load).
func (z *Z3) checkSat(cmds string) (string, error) {
	if err := z.send(cmds + "(echo \"" + endMarker + "\")\n"); err != nil {
		return "", err
	}
	res, failure := "", ""
	for {
		line, err := z.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("z3: %w", err)
		}
		s := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(s, endMarker):
			switch {
			case res != "":
				return res, nil
			case failure != "" && timedOut(failure):
				return "unknown", nil
			case failure != "":
				return "", fmt.Errorf("z3: %s", failure)
			}
			return "", fmt.Errorf("z3: no answer to (check-sat)")
		case s == "sat" || s == "unsat" || s == "unknown":
			res = s
		case strings.HasPrefix(s, "(error") && failure == "":
			failure = s
		}
	}
}

// timedOut reports whether z3's error message says a check was stopped
// by its time limit rather than refused.
func timedOut(msg string) bool {
	return strings.Contains(msg, "canceled") || strings.Contains(msg, "timeout") || strings.Contains(msg, "resource limit")
}

// Verdict is what the solver says of one label.
type Verdict struct {
	// Status is Solved (Args cover the label, to be replayed), Infeasible
	// (Reason says why no integer arguments reach it) or Unresolved
	// (Reason says what was tried).
	Status Status
	Args   []int64
	Reason string
}

// Status of a label after solving.
type Status string

const (
	Solved     Status = "solved"
	Infeasible Status = "infeasible"
	Unresolved Status = "unresolved"
)

// Solve asks z for arguments that cover label id within timeout: a
// budget of z3's resource limit (rlimitPerSecond per second, about that
// much CPU time), with ten times it of wall clock as a backstop, so that
// the answer does not depend on the machine's load.
func (a *Analysis) Solve(z *Z3, id int, timeout time.Duration) (Verdict, error) {
	g := a.goals[id]
	if g == nil {
		return Verdict{Status: Unresolved, Reason: "no label point found in the annotated plan"}, nil
	}
	var b strings.Builder
	b.WriteString("(push 1)\n")
	a.declare(&b)
	fmt.Fprintf(&b, "(assert %s)\n", a.Reach(id))
	if err := z.send(b.String()); err != nil {
		return Verdict{}, err
	}
	// The whole budget to the bit-blasting tactic: on the small plans of
	// the tests it answers more labels with it than with half of it and
	// half for z3's incremental core, in less time.
	res, err := z.checkBV(timeout)
	if err != nil {
		return Verdict{}, err
	}
	switch res {
	case "sat":
		if len(a.Params) == 0 {
			return Verdict{Status: Solved}, z.send("(pop 1)\n")
		}
		var q strings.Builder
		q.WriteString("(get-value (")
		for i := range a.Params {
			fmt.Fprintf(&q, " arg%d", i)
		}
		q.WriteString("))\n")
		if err := z.send(q.String()); err != nil {
			return Verdict{}, err
		}
		ans, err := z.readSexp()
		if err != nil {
			return Verdict{}, err
		}
		if err := z.send("(pop 1)\n"); err != nil {
			return Verdict{}, err
		}
		args, err := parseModel(ans, len(a.Params))
		if err != nil {
			return Verdict{}, err
		}
		return Verdict{Status: Solved, Args: args}, nil
	case "unsat":
		if err := z.send("(pop 1)\n"); err != nil {
			return Verdict{}, err
		}
		if !a.Exact(id) {
			return Verdict{Status: Unresolved, Reason: "the solver found no input for an approximate condition: " + a.whyNotExact(id)}, nil
		}
		why, err := a.explain(z, id, timeout)
		if err != nil {
			return Verdict{}, err
		}
		return Verdict{Status: Infeasible, Reason: why}, nil
	}
	if err := z.send("(pop 1)\n"); err != nil {
		return Verdict{}, err
	}
	why := fmt.Sprintf("the solver answered %s within its budget of %s (z3's resource limit, about that much CPU time)", res, timeout)
	if !a.Exact(id) {
		why += "; " + a.whyNotExact(id)
	}
	return Verdict{Status: Unresolved, Reason: why}, nil
}

// parseModel reads ((arg0 #x...) (arg1 #x...) ...).
func parseModel(s string, n int) ([]int64, error) {
	args := make([]int64, n)
	seen := 0
	for _, f := range strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(s)) {
		var u uint64
		var err error
		switch {
		case strings.HasPrefix(f, "#x"):
			u, err = strconv.ParseUint(f[2:], 16, 64)
		case strings.HasPrefix(f, "#b"):
			u, err = strconv.ParseUint(f[2:], 2, 64)
		default:
			continue
		}
		if err != nil || seen >= n {
			return nil, fmt.Errorf("z3: a model I cannot read: %s", s)
		}
		args[seen] = int64(u)
		seen++
	}
	if seen != n {
		return nil, fmt.Errorf("z3: a model I cannot read: %s", s)
	}
	return args, nil
}

// maxExplained bounds the paths a reason spells out.
const maxExplained = 4

// explain says, in plan syntax, why label id cannot hold: for each path
// reaching its point, the conditions of the path that contradict its
// predicate (an unsatisfiable core).
func (a *Analysis) explain(z *Z3, id int, timeout time.Duration) (string, error) {
	l := a.labels[id]
	pred := l.Predicate
	if l.Expr != "" {
		pred = l.Expr
	}
	g := a.goals[id]
	if len(g.reaches) == 0 {
		return "no run with integer arguments reaches its point (symbolic run of every path)", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s cannot hold for integer arguments on any of the %d path(s) reaching it", pred, len(g.reaches))
	constant := 0
	for _, r := range g.reaches {
		if len(r.preds) == 0 {
			constant++
		}
	}
	switch {
	case constant == len(g.reaches):
		b.WriteString(": on each, the predicate is false or fails whatever the arguments (what it reads is fixed by the path)")
	case constant > 0:
		fmt.Fprintf(&b, "; on %d of them the predicate is false or fails whatever the arguments (what it reads is fixed by the path)", constant)
	}
	shown := 0
	for i, r := range g.reaches {
		if len(r.preds) == 0 {
			continue
		}
		if shown == maxExplained {
			fmt.Fprintf(&b, "; and %d more path(s)", len(g.reaches)-constant-shown)
			break
		}
		shown++
		core, err := a.core(z, r, timeout)
		if err != nil {
			return "", fmt.Errorf("label %d: %w", id, err)
		}
		var why []string
		for _, k := range core {
			why = append(why, r.pc[k].text)
		}
		if len(why) == 0 {
			fmt.Fprintf(&b, "; path %d: the predicate alone cannot hold", i+1)
		} else {
			fmt.Fprintf(&b, "; path %d: %s", i+1, strings.Join(why, ", "))
		}
	}
	return b.String(), nil
}

// core returns the indices of a subset of path r's conditions that
// contradicts its predicate, minimal as far as z3 answers within the time
// limit: starting from all of them (the path and predicate are known to
// be unsatisfiable together), each condition is dropped when the others
// still contradict the predicate (unsat with the bit-vector tactic); one
// whose drop z3 cannot decide in time stays. Every subset returned is
// thus proven contradictory.
func (a *Analysis) core(z *Z3, r reach, timeout time.Duration) ([]int, error) {
	keep := make([]bool, len(r.pc))
	for k := range keep {
		keep[k] = true
	}
	pred := predHolds(r.preds)
	for k := range r.pc {
		keep[k] = false
		var q strings.Builder
		q.WriteString("(push 1)\n")
		a.declare(&q)
		for j, c := range r.pc {
			if keep[j] {
				fmt.Fprintf(&q, "(assert %s)\n", c.smt)
			}
		}
		fmt.Fprintf(&q, "(assert %s)\n", pred)
		if err := z.send(q.String()); err != nil {
			return nil, err
		}
		res, err := z.checkBV(timeout)
		if err != nil {
			return nil, err
		}
		if err := z.send("(pop 1)\n"); err != nil {
			return nil, err
		}
		if res != "unsat" {
			keep[k] = true
		}
	}
	var out []int
	for k, ok := range keep {
		if ok {
			out = append(out, k)
		}
	}
	return out, nil
}

// ErrNoZ3 says z3 is not on PATH.
var ErrNoZ3 = errors.New("z3 is not on PATH (Debian: apt-get install z3)")

// LookZ3 finds z3 on PATH.
func LookZ3() (string, error) {
	p, err := exec.LookPath("z3")
	if err != nil {
		return "", ErrNoZ3
	}
	return p, nil
}
