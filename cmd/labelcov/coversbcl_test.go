package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCoverFromSBCL: annotate writes a plan and its manifest; given what
// sb-cover saved for the annotated plan (here in SBCL 2.6's form, as the
// file a real run writes: its paths are the source paths of the labels'
// tests), cover --from-sbcl reports per criterion, with the uncovered
// label, its reach and source expression, in text and JSON; without
// --manifest it is a usage error.
func TestCoverFromSBCL(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "u.lisp")
	src := "#-sbcl (defun ignored () 1)\n(in-package :cl-user)\n(defun f (x) (list 'q (if (> x 0) 'a 'b)))\n"
	if err := os.WriteFile(plan, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ann, man := filepath.Join(dir, "uann.lisp"), filepath.Join(dir, "u.json")
	if code, _, errs := runCLI("annotate", plan, "--criteria", "cc", "-o", ann, "--manifest", man); code != exitOK {
		t.Fatalf("annotate: %d %s", code, errs)
	}
	// Label 1 ((> x 0) true) ran its then branch, label 2 (false) its else.
	// Top-level form 1 (the #-sbcl form does not exist for SBCL), defun
	// element 3, list element 2 (the if), its test (the labels' progn),
	// the label's when, its test.
	saved := `(("` + ann + `" #((0) (1) (:THEN 1 1 1 2 3 1) (:ELSE 1 1 1 2 3 1) (:THEN 1 2 1 2 3 1) (:ELSE 1 2 1 2 3 1)) . #*111001))`
	cov := filepath.Join(dir, "coverage.sexp")
	if err := os.WriteFile(cov, []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI("cover", "--from-sbcl", cov, "--manifest", man, "--json")
	if code != exitOK {
		t.Fatalf("cover --from-sbcl: %d %s", code, errs)
	}
	var rep struct {
		Criteria  map[string]struct{ Covered, Total int }
		Uncovered []struct {
			ID      int
			Source  string
			Reached bool
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if c := rep.Criteria["cc"]; c.Covered != 1 || c.Total != 2 {
		t.Errorf("cc %+v, want 1/2", c)
	}
	if len(rep.Uncovered) != 1 || rep.Uncovered[0].ID != 2 || rep.Uncovered[0].Source != "(> x 0)" || !rep.Uncovered[0].Reached {
		t.Errorf("uncovered %+v, want label 2 on (> x 0), reached", rep.Uncovered)
	}
	code, out, errs = runCLI("cover", "--from-sbcl", cov, "--manifest", man)
	if code != exitOK || !strings.Contains(out, "uncovered labels (1") || !strings.Contains(out, "u.lisp:3:27") {
		t.Errorf("text: %d %s\n%s", code, errs, out)
	}
	if code, _, errs := runCLI("cover", "--from-sbcl", cov); code != exitUsage || !strings.Contains(errs, "--manifest") {
		t.Errorf("without --manifest: %d %s", code, errs)
	}
}
