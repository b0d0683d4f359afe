package sim

import (
	"testing"
)

// TestLabelDomains: the table follows the world's grids and orientations.
func TestLabelDomains(t *testing.T) {
	w := &World{Regions: []Region{{Cols: 4, Rows: 2}, {Cols: 6, Rows: 3}}, Orientations: []int{0, 90, 270}}
	d := LabelDomains(w)
	c := d["object-cell"]
	if len(c.Elems) != 2 || c.Elems[0].Lo != 0 || c.Elems[0].Hi != 5 || c.Elems[1].Hi != 2 {
		t.Errorf("object-cell: %+v", c)
	}
	if g := d["region-grid"]; g.Elems[0].Lo != 4 || g.Elems[0].Hi != 6 || g.Elems[1].Lo != 2 || g.Elems[1].Hi != 3 {
		t.Errorf("region-grid: %+v", g)
	}
	if o := d["object-orientation"].Value; o == nil || o.Lo != 0 || o.Hi != 270 {
		t.Errorf("object-orientation: %+v", o)
	}
	for _, q := range []string{"object-cell", "initial-cell", "region-grid", "object-orientation"} {
		found := false
		for _, n := range QueryNames() {
			found = found || n == q
		}
		if !found {
			t.Errorf("%s is not a query", q)
		}
	}
	if LabelDomains(nil) != nil {
		t.Error("no world: want no domains")
	}
}
