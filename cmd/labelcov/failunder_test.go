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
