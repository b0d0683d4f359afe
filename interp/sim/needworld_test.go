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
