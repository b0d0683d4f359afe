package sim

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

func TestNeedsWorld(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "truth.json"), []byte(`{"world": "../w.world"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(dir, "p.plan")
	for _, tc := range []struct {
		src, want string
	}{
		{"(def-plan main (x) (if (> x 0) 1 2))", ""},
		{"(def-plan main () '(perform x) 1)", ""}, // quoted: data
		{"(def-plan main ()\n  (perform (an action (type pick))))", "p.plan:2:3: this plan performs actions, which needs a world: give --world (the benchmark's truth.json names " + filepath.Join(dir, "../w.world") + ")"},
		{"(defun f () (object-type 'a))\n(def-plan main () (f))", "p.plan:1:13: this plan calls object-type"},
	} {
		f, err := syntax.Parse(plan, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		err = NeedsWorld(f)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.src, err)
			}
			continue
		}
		var se *syntax.Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want *syntax.Error with %q", tc.src, err, tc.want)
		}
	}
	if w, err := WorldBeside(filepath.Join(t.TempDir(), "x.plan")); w != "" || err != nil {
		t.Errorf("no truth.json: %q, %v", w, err)
	}
}

func TestOpenWorld(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plan := write("b.plan", "(def-plan main () nil)")
	// Neither --world nor truth.json: no world.
	if p, w, err := OpenWorld(plan, ""); p != "" || w != nil || err != nil {
		t.Fatalf("no world: %q, %v, %v", p, w, err)
	}
	beside := write("beside.world", minimal)
	other := write("other.world", minimal)
	write("truth.json", `{"world": "beside.world"}`)
	// The benchmark's truth.json names it.
	if p, w, err := OpenWorld(plan, ""); p != beside || w == nil || err != nil {
		t.Errorf("truth.json: %q, %v, %v", p, w, err)
	}
	// A given world wins; standard input has no folder to look in.
	if p, w, err := OpenWorld(plan, other); p != other || w == nil || err != nil {
		t.Errorf("given: %q, %v, %v", p, w, err)
	}
	if p, w, err := OpenWorld("-", ""); p != "" || w != nil || err != nil {
		t.Errorf("stdin: %q, %v, %v", p, w, err)
	}
	// A broken world or truth.json is an error naming the file.
	write("truth.json", `{"world": `)
	if _, _, err := OpenWorld(plan, ""); err == nil || !strings.Contains(err.Error(), "truth.json") {
		t.Errorf("broken truth.json: %v", err)
	}
	bad := write("bad.world", "(robot (start")
	if _, _, err := OpenWorld(plan, bad); err == nil || !strings.Contains(err.Error(), "bad.world") {
		t.Errorf("broken world: %v", err)
	}
}
