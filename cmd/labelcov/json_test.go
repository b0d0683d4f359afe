package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// TestJSONOutputsVersioned: every JSON output is an object with
// "version", and "criteria" lists criterion keys wherever it is a list of
// criteria (the manifest's shape).
func TestJSONOutputsVersioned(t *testing.T) {
	const temp = "../../testdata/bench/temperature/temperature.plan"
	out := filepath.Join(t.TempDir(), "c")
	for _, c := range []struct {
		args     []string
		criteria []string // want "criteria" to be this list; nil: not checked
	}{
		{[]string{"fuzz", temp, "--criteria", "mcc,wm:ror", "--runs", "100", "--workers", "1", "--progress", "0", "--allow-findings", "--out", out, "--json"}, []string{"mcc", "wm-ror"}},
		{[]string{"labels", temp, "--criteria", "mcc,wm:ror", "--json"}, []string{"mcc", "wm-ror"}},
		{[]string{"replay", temp, "../../testdata/bench/temperature/reproducers/heating-while-warm.args", "--json"}, nil},
		{[]string{"run", "../../testdata/plans/fib.plan", "--arg", "5", "--json"}, nil},
		{[]string{"cover", temp, "--tests", "../../testdata/bench/temperature/reproducers", "--json"}, nil},
	} {
		_, stdout, errs := execLabelcov(c.args...)
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
			t.Errorf("labelcov %s: not a JSON object: %v\n%.300s%s", strings.Join(c.args, " "), err, stdout, errs)
			continue
		}
		want := "1"
		switch c.args[0] {
		case "labels":
			want = strconv.Itoa(labels.ManifestVersion) // labels --json prints a manifest
		case "cover":
			want = "2" // the one report schema of every front end (docs/report-schema.md)
		}
		if string(obj["version"]) != want {
			t.Errorf("labelcov %s: version %s, want %s", strings.Join(c.args, " "), obj["version"], want)
		}
		if c.criteria != nil {
			var got []string
			if err := json.Unmarshal(obj["criteria"], &got); err != nil || strings.Join(got, ",") != strings.Join(c.criteria, ",") {
				t.Errorf("labelcov %s: criteria %s, want %q", strings.Join(c.args, " "), obj["criteria"], c.criteria)
			}
		}
	}
}
