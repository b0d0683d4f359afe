package main

import (
	"strings"
	"testing"
)

// --fail-under exits 1 exactly when a threshold is missed, 2 for a bad or
// unmeasured gate, 0 otherwise; the report is printed either way. The
// thermostat suite covers mcc 5/6 (83.3%) and mcdc 2/2; inside.args alone
// mcdc 0/2.
func TestFailUnder(t *testing.T) {
	plan := thermo + "/thermostat.plan"
	for _, c := range []struct {
		tests, gates string
		code         int
		msg          string
	}{
		{thermo, "mcdc=100,mcc=83", exitOK, ""},
		{thermo, "mcdc=100,mcc=83.4", exitFound, "mcc 5/6 (83.3%) < 83.4%"},
		{thermo, "mcdc=80,mcc=90,all=10", exitFound, "mcc 5/6 (83.3%) < 90%"},
		{thermo + "/inside.args", "mcdc=80", exitFound, "mcdc 0/2 (0.0%) < 80%"},
		{thermo + "/inside.args", "mcdc=0,instructions=10", exitOK, ""},
		{thermo, "wm=70", exitUsage, "threshold wm: not measured"},
		{thermo, "mcdc=eighty", exitUsage, "want a percentage"},
		{thermo, "mcdc", exitUsage, "want KEY=PERCENT"},
		{thermo, "mcdc=NaN", exitUsage, "want a percentage"},
		{thermo, "mcc=nan%", exitUsage, "want a percentage"},
		{thermo, "mcc=+Inf", exitUsage, "want a percentage"},
		{thermo, "statements=10", exitUsage, "threshold statements: not measured"},
	} {
		code, out, errs := runCLI("cover", plan, "--criteria", "mcc,mcdc", "--tests", c.tests, "--fail-under", c.gates)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("--fail-under %s on %s: exit %d, stderr %q; want %d and %q", c.gates, c.tests, code, errs, c.code, c.msg)
		}
		if c.code != exitUsage && !strings.Contains(out, "MC/DC:") {
			t.Errorf("--fail-under %s: the report was not printed:\n%s", c.gates, out)
		}
	}
}

// TestFailUnderSBCL: recorded coverage measures labels only: gates on
// instructions or branches and --criteria other than the manifest's are
// usage errors (exit 2), not silently passed or ignored; the manifest's
// own criteria and all are gated as usual.
func TestFailUnderSBCL(t *testing.T) {
	f := newGuardFixture(t)
	sbcl := []string{"cover", "--from-sbcl", f.cov, "--manifest", f.man}
	for _, c := range []struct {
		more []string
		code int
		msg  string
	}{
		{[]string{"--fail-under", "instructions=50"}, exitUsage, "threshold instructions: not measured"},
		{[]string{"--fail-under", "branches=0"}, exitUsage, "threshold branches: not measured"},
		{[]string{"--fail-under", "cc=NaN"}, exitUsage, "want a percentage"},
		{[]string{"--criteria", "mcc"}, exitUsage, "--criteria mcc: cover --from-sbcl reports the criteria of the manifest's labels (cc)"},
		{[]string{"--mcc-max-atoms", "3"}, exitUsage, "--mcc-max-atoms does not go with --from-sbcl"},
		{[]string{"--criteria", "cc", "--fail-under", "cc=50,all=50"}, exitOK, ""},
		{[]string{"--fail-under", "cc=51"}, exitFound, "cc 1/2 (50.0%) < 51%"},
	} {
		args := append(append([]string(nil), sbcl...), c.more...)
		code, _, errs := runCLI(args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("labelcov %s: exit %d, stderr %q; want %d and %q", strings.Join(c.more, " "), code, errs, c.code, c.msg)
		}
	}
	// Go reports statements and blocks, not instructions: refused before
	// any go test runs.
	code, _, errs := runCLI("cover", "./...", "-C", f.mod, "--criteria", "cc", "--fail-under", "instructions=5")
	if code != exitUsage || !strings.Contains(errs, "threshold instructions: not measured here (measured: all, blocks, cc, statements") {
		t.Errorf("Go --fail-under instructions=5: exit %d, stderr %q", code, errs)
	}
}
