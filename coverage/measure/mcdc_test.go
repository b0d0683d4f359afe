package measure

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// MC/DC of thermostat's (and (< lo temp) (< temp hi)): test vectors F-
// (cold.bin), TF (above, far-above, narrow), TT (inside).
func TestThermostatMCDC(t *testing.T) {
	run := func(files ...string) *Report {
		m := newMeasurer(t, filepath.Join(suite, "thermostat.plan"), "mcc,mcdc", Options{})
		var paths []string
		for _, f := range files {
			paths = append(paths, filepath.Join(suite, f))
		}
		tests, err := m.LoadTests(paths...)
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Run(context.Background(), tests)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run("above.args", "cold.bin", "far-above.args", "inside.args", "narrow.args")
	mc := r.MCDC
	if mc == nil || len(mc.Decisions) != 1 || mc.Covered != 2 || mc.Total != 2 {
		t.Fatalf("mcdc = %+v", mc)
	}
	if k := r.Criteria[labels.MCDC]; k.Covered != 2 || k.Total != 2 || k.Operators != nil {
		t.Errorf("criteria.mcdc = %+v, want the conditions 2/2", k)
	}
	d := mc.Decisions[0]
	var got []string
	for _, v := range d.Executed {
		got = append(got, v.Values+" "+base(v.Tests))
	}
	want := []string{"F- cold.bin", "TF above.args far-above.args narrow.args", "TT inside.args"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("executed %q, want %q", got, want)
	}
	if c := d.Conditions; !reflect.DeepEqual(c[0].Pair, []int{1, 3}) || !reflect.DeepEqual(c[1].Pair, []int{2, 3}) ||
		c[0].Source != "(< lo temp)" || c[1].Pos != filepath.Join(suite, "thermostat.plan")+":9:29" {
		t.Errorf("conditions %+v %+v", c[0], c[1])
	}

	// Without cold.bin, (< lo temp) is not shown to matter: a test
	// executing F- (lo >= temp) would complete its pair with TT.
	r = run("inside.args", "narrow.args")
	d = r.MCDC.Decisions[0]
	c := d.Conditions[0]
	if c.Covered || c.Pair != nil || len(c.Suggest) != 1 || c.Suggest[0].Values != "F-" || c.Suggest[0].Outcome {
		t.Errorf("(< lo temp) without cold.bin: %+v", c)
	}
	if !d.Conditions[1].Covered || r.MCDC.Covered != 1 || *r.MCDC.Percent != 50 {
		t.Errorf("mcdc without cold.bin: %+v", r.MCDC)
	}
}
