package main

// Hostile inputs from issue 11, each through the CLI verbs a user runs them
// with. Sizes are the smallest that still prove the limit: a regression (a
// recursive printer, a builtin charged one step whatever the list length, a
// nesting check that skips quotes, an unbounded output buffer) crashes the
// test binary, hits a wall-clock guard or fails an assertion here, while a
// passing run takes well under a second or two each.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noCrash fails when a verb's output carries the marks of a Go crash rather
// than a labelcov error or outcome.
func noCrash(t *testing.T, what, stderr string) {
	t.Helper()
	for _, mark := range []string{"goroutine ", "panic:", "fatal error", "runtime."} {
		if strings.Contains(stderr, mark) {
			t.Errorf("%s: output looks like a Go crash (%q):\n%.2000s", what, mark, stderr)
		}
	}
}

// runPlanJSON is run --json with args, read as the doc examples read it
// (exit 1 exactly when the plan did not return).
func runPlanJSON(t *testing.T, plan string, args ...string) docRunReport {
	t.Helper()
	code, out, errs := execLabelcov(append([]string{"run", plan, "--json"}, args...)...)
	noCrash(t, "run --json", errs)
	var r docRunReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("run --json: exit %d, bad JSON: %v\n%.500s%s", code, err, out, errs)
	}
	if want := map[bool]int{true: exitOK, false: exitFound}[r.Outcome == "ok"]; code != want {
		t.Fatalf("run --json: exit %d with outcome %s, want %d", code, r.Outcome, want)
	}
	return r
}

// A million quotes nest a million forms: every verb refuses the plan with a
// positioned error at the 1001st level instead of overflowing the Go stack
// (the nesting check once counted only parentheses).
func TestHostileQuotes(t *testing.T) {
	const quotes = 1_000_000
	p := tempPlan(t, "(def-plan main () "+strings.Repeat("'", quotes)+"x)\n")
	for _, verb := range []string{"run", "fmt", "labels", "annotate"} {
		code, out, errs := execLabelcov(verb, p)
		noCrash(t, verb, errs)
		if code != exitUsage || out != "" {
			t.Errorf("%s: exit %d, %d bytes out; want exit 1 and nothing", verb, code, len(out))
		}
		if !strings.Contains(errs, p+":1:") || !strings.Contains(errs, "nested deeper than 1000") || !strings.Contains(errs, "^") {
			t.Errorf("%s: want file:line:col, the depth limit and a caret, got\n%.600s", verb, errs)
		}
		// The snippet is cut to the neighbourhood of the column, not the
		// megabyte-long source line.
		if len(errs) > 4096 {
			t.Errorf("%s: %d bytes of error for one position", verb, len(errs))
		}
	}
}

// deepListPlan builds a list nested depth levels deep, then prints it
// prints times.
func deepListPlan(t *testing.T, depth, prints int) string {
	return tempPlan(t, fmt.Sprintf("(def-plan main ()\n  (let ((x nil))\n    (dotimes (i %d) (setq x (list x)))\n    (dotimes (i %d) (print x))\n    1))\n", depth, prints))
}

// Printing a deeply nested value is iterative: with the goroutine stack
// capped at 16 MB, a recursive printer overflows at this depth and kills
// the test binary (value/print.go once did, at 1.9M levels, in every verb).
func TestHostileDeepPrint(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	const depth = 200_000
	p := deepListPlan(t, depth, 1)
	code, out, errs := execLabelcov("run", p)
	noCrash(t, "run", errs)
	want := strings.Repeat("(", depth) + "nil" + strings.Repeat(")", depth)
	if code != exitOK || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "=> 1\n") {
		t.Errorf("run: exit %d, %d bytes out (want the %d-deep list then => 1)\n%s", code, len(out), depth, errs)
	}
	r := runPlanJSON(t, p)
	if r.Outcome != "ok" || !strings.HasPrefix(r.Output, want) {
		t.Errorf("run --json: outcome %s, %d bytes of output", r.Outcome, len(r.Output))
	}

	// In a campaign: printing it 50 times exceeds the output cap, a finding
	// the campaign saves while it keeps running; a resume loads it again.
	// --timeout is generous so that a loaded machine does not turn the same
	// input into a hang instead.
	p = deepListPlan(t, 50_000, 50)
	dir := filepath.Join(t.TempDir(), "campaign")
	args := []string{p, "--max-steps", "50000000", "--timeout", "60s", "--workers", "1", "--out", dir}
	for session := range 2 {
		s, errs := fuzzJSON(t, append(args, "--runs", "2")...)
		noCrash(t, "fuzz", errs)
		if s.Stop != "runs" || s.Execs < 2 || len(s.Findings) != 1 {
			t.Fatalf("session %d: stop %s, %d execs, findings %+v; want 2 runs and the output-limit finding", session, s.Stop, s.Execs, s.Findings)
		}
		f := s.Findings[0]
		if !strings.HasPrefix(f.Key, "output-limit@"+p+":4:") {
			t.Errorf("session %d: finding %s, want output-limit at the print", session, f.Key)
		}
		if _, err := os.Stat(f.Input); err != nil {
			t.Errorf("session %d: finding's input not saved: %v", session, err)
		}
		if f.New != (session == 0) {
			t.Errorf("session %d: finding new = %v", session, f.New)
		}
	}
}

// Builtins that walk a list or string charge steps in proportion to it, so
// the step budget bounds time: each loop below ends on the step budget (or,
// building results, the allocation budget) in a fraction of a second. Charged one step each (as once), the loops would
// walk a 100k list some hundred thousand times; the --timeout guard then
// ends the run as a wall-clock timeout, which fails the message check.
func TestHostileLinearBuiltins(t *testing.T) {
	const n = 100_000
	for _, body := range []string{
		"(setq r (length l))",
		"(setq r (equal l c))",
		"(setq r (member -1 l))",
		"(setq r (reverse l))",
		"(setq r (append l nil))",
		"(setq r (remove -1 l))",
		"(setq r (assoc -1 a))",
		`(setq r (format nil "~a" l))`,
		"(setq r (nth 99999 l))",
	} {
		p := tempPlan(t, fmt.Sprintf(`(def-plan main ()
  (let ((l nil) (a nil) (r nil))
    (dotimes (i %d) (push i l) (push (list i) a))
    (let ((c (append l nil)))
      (while t %s))))
`, n, body))
		r := runPlanJSON(t, p, "--max-steps", "5000000", "--timeout", "20s")
		// The builtins that build a result may run out of allocations first:
		// as good a bound, and never the wall-clock guard.
		budget := r.Outcome == "timeout" && r.Failure != nil && strings.Contains(r.Failure.Message, "step budget")
		allocs := r.Outcome == "failure" && r.Failure != nil && r.Failure.Kind == "allocation-limit"
		if !budget && !allocs {
			t.Errorf("%s: outcome %s, failure %+v; want the step or allocation budget to end the loop", body, r.Outcome, r.Failure)
		}
	}

	// The same loop in a campaign is a timeout finding at the loop, saved,
	// and the campaign goes on.
	p := tempPlan(t, fmt.Sprintf("(def-plan main ()\n  (let ((l nil) (n 0))\n    (dotimes (i %d) (push i l))\n    (while t (setq n (length l)))))\n", n))
	s, errs := fuzzJSON(t, p, "--max-steps", "3000000", "--timeout", "60s", "--workers", "1", "--runs", "3",
		"--out", filepath.Join(t.TempDir(), "campaign"))
	noCrash(t, "fuzz", errs)
	if s.Stop != "runs" || s.Execs < 3 || len(s.Findings) != 1 || !strings.HasPrefix(s.Findings[0].Key, "timeout@"+p+":4:") {
		t.Errorf("fuzz: stop %s, %d execs, findings %+v; want one timeout finding in the while loop", s.Stop, s.Execs, s.Findings)
	}
}

// An output loop is cut at the per-run cap, in the human and the JSON
// report alike: the JSON's output field holds at most the cap, not
// everything the loop would print.
func TestHostileOutputLoop(t *testing.T) {
	const limit = 4 << 20 // vm.DefaultMaxOutput, as a user sees it
	// A 1 MB string, printed forever.
	p := tempPlan(t, "(def-plan main ()\n  (let ((s \"xxxx\"))\n    (dotimes (i 18) (setq s (format nil \"~a~a\" s s)))\n    (while t (print s))))\n")
	code, out, errs := execLabelcov("run", p)
	noCrash(t, "run", errs)
	if code != exitFound || len(out) > limit+4096 || !strings.Contains(out, "!! output-limit at "+p+":4:14") {
		t.Errorf("run: exit %d, %d bytes out, tail %q", code, len(out), out[max(0, len(out)-200):])
	}
	r := runPlanJSON(t, p)
	if r.Outcome != "failure" || r.Failure == nil || r.Failure.Kind != "output-limit" || len(r.Output) > limit {
		t.Errorf("run --json: outcome %s, failure %+v, %d bytes of output (cap %d)", r.Outcome, r.Failure, len(r.Output), limit)
	}
}

// A plan of a few megabytes goes through fmt and run; fmt keeps every
// comment and its output reads back unchanged.
func TestHostileBigPlan(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 2_300_000; i++ {
		fmt.Fprintf(&b, "(defun f%d (x) ; comment %d\n  (if (< x %d) (+ x 1) (cond ((= x 2) 'two) (t (list x \"s%d\")))))\n\n", i, i, i, i)
	}
	b.WriteString("(def-plan main () (f1 3))\n")
	p := tempPlan(t, b.String())
	code, out, errs := execLabelcov("fmt", p)
	noCrash(t, "fmt", errs)
	if code != exitOK || strings.Count(out, "; comment ") != strings.Count(b.String(), "; comment ") {
		t.Fatalf("fmt: exit %d, %d bytes out\n%.500s", code, len(out), errs)
	}
	formatted := tempPlan(t, out)
	if code, again, errs := execLabelcov("fmt", formatted); code != exitOK || again != out {
		t.Errorf("fmt of fmt's output: exit %d, changed: %v\n%.500s", code, again != out, errs)
	}
	if code, out, errs := execLabelcov("run", p); code != exitOK || out != "=> (3 \"s1\")\n" {
		t.Errorf("run: exit %d out %q\n%.500s", code, out, errs)
	}
}

// A legal plan nesting (+ 1 …) 500 deep: annotate --criteria wm:aor writes
// output linear in the input that reads back and runs like the original,
// and a campaign guided by those labels runs (it once failed with "reading
// the annotated plan (a labelcov bug)").
func TestHostileDeepAnnotate(t *testing.T) {
	const depth = 500
	src := "(def-plan main ()\n  " + strings.Repeat("(+ 1 ", depth) + "0" + strings.Repeat(")", depth) + ")\n"
	p := tempPlan(t, src)
	ann := filepath.Join(t.TempDir(), "deep.annotated.plan")
	code, _, errs := execLabelcov("annotate", p, "--criteria", "wm:aor", "-o", ann)
	noCrash(t, "annotate", errs)
	if code != exitOK {
		t.Fatalf("annotate: exit %d\n%.600s", code, errs)
	}
	st, err := os.Stat(ann)
	if err != nil {
		t.Fatal(err)
	}
	// Linear: about 80 bytes of labels per operator (four mutants, each a
	// comment and a small when); a quadratic copy of subtrees is megabytes.
	if st.Size() > int64(200*len(src)) {
		t.Errorf("annotated plan is %d bytes for a %d-byte plan", st.Size(), len(src))
	}
	if code, out, errs := execLabelcov("run", ann); code != exitOK || out != fmt.Sprintf("=> %d\n", depth) {
		t.Errorf("run of the annotated plan: exit %d out %q\n%.600s", code, out, errs)
	}
	s, errs := fuzzJSON(t, p, "--criteria", "wm:aor", "--workers", "1", "--runs", "50", "--out", filepath.Join(t.TempDir(), "campaign"))
	noCrash(t, "fuzz", errs)
	if s.Stop != "runs" || s.Execs < 50 || len(s.Findings) != 0 || s.ByCriterion["wm"].Total == 0 {
		t.Errorf("fuzz: stop %s, %d execs, findings %+v, labels %+v", s.Stop, s.Execs, s.Findings, s.ByCriterion)
	}
}

// testHostileBinary runs the hostile inputs that need a real process:
// TestAFLTargetStandalone calls it with the binary it builds, so that the
// suite builds labelcov once.
func testHostileBinary(t *testing.T, bin string) {
	// afl-target with --max-steps: the O(n) loop ends as a finding (SIGABRT)
	// on the step budget, not after the guard's minute.
	t.Run("afl-target-linear-builtins", func(t *testing.T) {
		p := tempPlan(t, "(def-plan main ()\n  (let ((l nil) (n 0))\n    (dotimes (i 100000) (push i l))\n    (while t (setq n (length l)))))\n")
		in := filepath.Join(t.TempDir(), "empty")
		if err := os.WriteFile(in, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "afl-target", p, "--max-steps", "3000000", in)
		cmd.Env = append(os.Environ(), "__AFL_SHM_ID=")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("afl-target: %v, want death by SIGABRT\n%s", err, out)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
			t.Errorf("afl-target: %v, want death by SIGABRT (a timeout finding)\n%s", err, out)
		}
		noCrash(t, "afl-target", string(out))
	})

	// SIGKILL during a campaign, then resume: the queue is intact, no
	// temporary file survives (one is planted, as a kill between create and
	// rename leaves it), and the resumed campaign runs.
	t.Run("sigkill-resume", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "campaign")
		cmd := exec.Command(bin, "fuzz", wsPlan, "--world", wsWorld, "--criteria", "mcc,wm", "--workers", "1",
			"--budget", "5m", "--progress", "0", "--out", dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		queue := filepath.Join(dir, "labelcov", "queue")
		var kept int
		// Up to 4 minutes (the campaign's budget is 5): a quiet machine keeps
		// 10 inputs within a second, one starved by other work (seen at load
		// 20) had kept none after a minute.
		for deadline := time.Now().Add(4 * time.Minute); kept < 10 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			entries, _ := os.ReadDir(queue)
			kept = len(entries)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if kept < 10 {
			t.Fatalf("the campaign kept %d inputs in 4 minutes", kept)
		}
		planted := filepath.Join(dir, "labelcov", ".tmp-4242")
		if err := os.WriteFile(planted, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		s, errs := fuzzJSON(t, wsPlan, "--world", wsWorld, "--criteria", "mcc,wm", "--workers", "1", "--runs", "50", "--out", dir)
		noCrash(t, "resume", errs)
		if s.Stop != "runs" || s.Corpus < kept {
			t.Errorf("resume: stop %s, corpus %d (the killed session kept %d)", s.Stop, s.Corpus, kept)
		}
		temps, _ := filepath.Glob(filepath.Join(dir, "labelcov", ".tmp-*"))
		if len(temps) > 0 {
			t.Errorf("resume left temporaries: %v", temps)
		}
	})
}

// The CLI bounds its heap softly: GOGC=400 alone let a campaign's RSS reach
// five times what its runs keep live. The environment still wins.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	tuneGC(func(string) string { return "" })
	if got := debug.SetMemoryLimit(math.MaxInt64); got != softMemoryLimit {
		t.Errorf("memory limit %d, want %d", got, softMemoryLimit)
	}
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("GOGC %d, want 400", got)
	}
	tuneGC(func(k string) string { return map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}[k] })
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: limit changed to %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: percent changed to %d", got)
	}
}

// Under AFL++, the O(n) loop of a plan without parameters is a finding for
// every input, seeds included: afl-fuzz (4.04c) gives up in its dry run,
// and labelcov says why in one sentence instead of pasting afl-fuzz's
// coloured log and reporting 0 findings.
func TestHostileAFLEverySeedAFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz")
	}
	useAFL(t)
	p := tempPlan(t, "(def-plan main ()\n  (let ((l nil) (n 0))\n    (dotimes (i 100000) (push i l))\n    (while t (setq n (length l)))))\n")
	code, _, errs := execLabelcov("fuzz", p, "--engine", "afl", "--budget", "10s", "--workers", "1", "--max-steps", "3000000",
		"--progress", "0", "--out", filepath.Join(t.TempDir(), "out"))
	noCrash(t, "fuzz --engine afl", errs)
	if code != exitUsage || !strings.Contains(errs, "gave up before fuzzing: every seed input is a finding or a hang") {
		t.Errorf("exit %d, want 1 and the dry-run explanation:\n%s", code, errs)
	}
	if strings.Contains(errs, "\x1b") {
		t.Errorf("terminal escapes in the error:\n%q", errs)
	}
}
