package compare

import (
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// A campaign's stats.json of version 1 (positions as text) still loads:
// comparisons read findings' keys and times; version 2 keeps positions.
func TestReadStatsVersions(t *testing.T) {
	var st engine.StatsFile
	old := `{"version": 1, "samples": [{"elapsed_s": 1, "execs": 5}], "findings": [{"key": "fail@p.plan:3:7", "category": "fail", "pos": "p.plan:3:7", "time_s": 0.5, "execs": 3}]}`
	if err := readStats([]byte(old), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Samples) != 1 || len(st.Findings) != 1 || st.Findings[0].Key != "fail@p.plan:3:7" || st.Findings[0].TimeS != 0.5 || st.Findings[0].Pos.IsValid() {
		t.Errorf("version 1: %+v", st)
	}
	cur := `{"version": 2, "findings": [{"key": "fail@p.plan:3:7", "category": "fail", "pos": {"file": "p.plan", "line": 3, "col": 7}, "time_s": 0.5}]}`
	if err := readStats([]byte(cur), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Findings) != 1 || st.Findings[0].Pos != (srcpos.Pos{File: "p.plan", Line: 3, Col: 7}) {
		t.Errorf("version 2: %+v", st)
	}
}
