package route

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	r, err := Parse("0,0; 3,4@0.5; #9,9; 3,0")
	if err != nil {
		t.Fatal(err)
	}
	if len(r) != 3 || r[1].Speed != 0.5 || r[2].Speed != DefaultSpeed {
		t.Fatalf("unexpected route %+v", r)
	}
	if got := Length(r); got != 9 {
		t.Fatalf("Length = %v, want 9", got)
	}
	if _, err := Parse("1,2;3"); !errors.Is(err, ErrSyntax) {
		t.Fatalf("expected ErrSyntax, got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("0,0;12.5,3@0.8;20,7")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Parse(s)
		if err != nil {
			return
		}
		for _, wp := range r {
			if wp.Speed <= 0 {
				t.Fatalf("waypoint %+v has non-positive speed", wp)
			}
		}
	})
}
