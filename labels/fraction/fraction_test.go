package fraction_test

import (
	"encoding/json"
	"testing"

	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/fraction"
)

func TestFraction(t *testing.T) {
	var f fraction.Fraction
	if f.Ratio() != 1 || f.String() != "0/0" {
		t.Errorf("empty fraction: %v %s", f.Ratio(), f)
	}
	f.Add(true)
	f.Add(false)
	if f != (fraction.Fraction{Covered: 1, Total: 2}) || f.Ratio() != 0.5 || f.String() != "1/2" {
		t.Errorf("after one covered, one not: %+v", f)
	}
	// Types embedding it keep covered and total at the top of their JSON.
	data, err := json.Marshal(labels.KeyCoverage{Fraction: f})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m["covered"] != 1.0 || m["total"] != 2.0 || m["diversity"] == nil {
		t.Errorf("KeyCoverage JSON %s", data)
	}
}
