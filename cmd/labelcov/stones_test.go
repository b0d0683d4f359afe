package main

import (
	"strings"
	"testing"
)

// TestFuzzFindsStringTokenWithPrefixStones: testdata/plans/command.plan
// fails only for the ten-character command "calibrate!" (one character
// per 8-byte parameter) with a count above 3. Guided by dist, whose prefix
// stones reward every right character, the built-in engine finds it
// within a fixed number of runs (seed 2 found it after 63,898 runs when
// this test was written); fuzzing the original plan with the same seed and
// runs finds nothing — a random guess of ten bytes.
func TestFuzzFindsStringTokenWithPrefixStones(t *testing.T) {
	if testing.Short() {
		t.Skip("two campaigns of 150,000 runs")
	}
	const plan = "../../testdata/plans/command.plan"
	args := []string{plan, "--runs", "150000", "--budget", "0", "--seed", "2", "--workers", "1", "--measure", "none"}
	guided, _ := fuzzJSON(t, append(args, "--criteria", "dist")...)
	found := false
	for _, f := range guided.Findings {
		if strings.HasPrefix(f.Key, "calibration-overrun@") {
			found = true
			t.Logf("dist: %s after %d runs", f.Key, f.Execs)
		}
	}
	if !found {
		t.Errorf("dist: no calibration-overrun in %d runs; findings %+v", guided.Execs, guided.Findings)
	}
	plain, _ := fuzzJSON(t, append(args, "--criteria", "none")...)
	if len(plain.Findings) != 0 {
		t.Errorf("the original plan's campaign found %+v: the token is no longer hard to guess, so the test shows nothing", plain.Findings)
	}
}
