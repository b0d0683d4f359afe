package sample

import (
	"context"
	"reflect"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

func sampleProgram(t *testing.T, src string) *compile.Program {
	t.Helper()
	f, err := syntax.Parse("s.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Categories counts the same for any number of workers: a plan that
// fails on negative numbers and flags large ones through a check.
func TestCategoriesWorkers(t *testing.T) {
	p := sampleProgram(t, `(defparameter *x* 0)
(def-plan main (x) (setq *x* x) (when (< x 0) (/ 1 0)) x)
(def-check big () (when (> *x* 1000) 'big))
`)
	o := Options{Program: p, N: 2000, Seed: 9, Workers: 1}
	one, err := Categories(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Workers = 4
	four, err := Categories(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if one.LenMin != 8 || one.LenMax != 8 || !reflect.DeepEqual(one.Categories, four.Categories) || one.Clean != four.Clean {
		t.Fatalf("1 worker %+v\n4 workers %+v", one, four)
	}
	got := map[string]int{}
	for _, c := range one.Categories {
		got[c.Category] = c.Inputs
		if in := Input(o.Seed, c.First, one.LenMin, one.LenMax, nil); len(in) != 8 {
			t.Errorf("first input of %s: %d bytes", c.Category, len(in))
		}
	}
	// Random int64s: about half negative, nearly all the others above 1000.
	if got["big"] < 800 || got["failure:division-by-zero"]+got["big"]+one.Clean != o.N {
		t.Errorf("categories %+v, clean %d", one.Categories, one.Clean)
	}
	if _, err := Categories(context.Background(), Options{Program: p, N: 0}); err == nil {
		t.Error("n = 0 accepted")
	}
}
