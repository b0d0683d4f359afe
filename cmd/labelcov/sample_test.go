package main

import (
	"testing"
)

type sampleOut struct {
	Version    int `json:"version"`
	N          int `json:"n"`
	Clean      int `json:"clean"`
	Categories []struct {
		Category string `json:"category"`
		Inputs   int    `json:"inputs"`
		First    int    `json:"first"`
	} `json:"categories"`
}

func sampleJSON(t *testing.T, args ...string) sampleOut {
	t.Helper()
	r, _ := cliJSON[sampleOut](t, append([]string{"sample"}, args...)...)
	return r
}

// sample is deterministic for a seed whatever the number of workers, and
// its counts add up: every input is clean or triggers at least one
// category, and a category's first input lies in range.
func TestSampleDeterministicAcrossWorkers(t *testing.T) {
	const plan = "../../testdata/bench/temperature/temperature.plan"
	one := sampleJSON(t, plan, "--n", "3000", "--seed", "3", "--workers", "1", "--json")
	three := sampleJSON(t, plan, "--n", "3000", "--seed", "3", "--workers", "3", "--json")
	if one.Version != 1 || one.N != 3000 {
		t.Fatalf("report header %+v", one)
	}
	if len(one.Categories) == 0 {
		t.Fatal("3000 random inputs should trigger the temperature plan's easiest category")
	}
	if len(one.Categories) != len(three.Categories) || one.Clean != three.Clean {
		t.Fatalf("1 worker %+v, 3 workers %+v", one, three)
	}
	sum := one.Clean
	for i, c := range one.Categories {
		if c != three.Categories[i] {
			t.Errorf("category %d: 1 worker %+v, 3 workers %+v", i, c, three.Categories[i])
		}
		if c.Inputs <= 0 || c.First < 0 || c.First >= one.N {
			t.Errorf("implausible category %+v", c)
		}
		sum += c.Inputs
	}
	if sum < one.N {
		t.Errorf("clean %d + triggered %d < n %d", one.Clean, sum-one.Clean, one.N)
	}
	other := sampleJSON(t, plan, "--n", "3000", "--seed", "4", "--workers", "1", "--json")
	if other.Clean == one.Clean && len(other.Categories) > 0 && other.Categories[0] == one.Categories[0] {
		t.Error("a different seed gave the very same sample")
	}
}

func TestSampleInWorld(t *testing.T) {
	r := sampleJSON(t, "../../testdata/bench/warehouse-sort/warehouse-sort.plan",
		"--world", warehouseWorld, "--n", "300", "--seed", "1", "--workers", "1", "--json")
	found := map[string]bool{}
	for _, c := range r.Categories {
		found[c.Category] = true
	}
	// The two most frequent warehouse categories show up in a few hundred
	// random environments (about 18% and 29% of inputs).
	for _, want := range []string{"left-on-shelf", "missed-at-shelf-back"} {
		if !found[want] {
			t.Errorf("300 random environments did not trigger %s: %+v", want, r.Categories)
		}
	}
}
