package sbcover

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/internal/sbcltest"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// parityInputs are the (x y) arguments both runs give the parity plan's
// main.
var parityInputs = [][2]int{{1, 2}, {3, 3}, {-9, 0}, {0, 20}, {6, 30}, {-2, -2}, {4, 12}, {-30, 5}}

// TestSBCoverParity: the parity plan, annotated and loaded into SBCL with
// sb-cover's instrumentation, run on the same inputs as labelcov cover
// runs it on: every active label is covered (its when's "then" branch
// ran) in sb-cover's record exactly when labelcov's VM covers it, and
// reached (either branch ran) exactly when the VM reaches it. Several
// criteria sets, so temporaries, shared-atom globals and dist ladders are
// all in play.
func TestSBCoverParity(t *testing.T) {
	sbcl := testenv.SBCL(t)
	src, err := os.ReadFile("testdata/parity.lisp")
	if err != nil {
		t.Fatal(err)
	}
	for _, crit := range []string{"mcc,wm", "mcc,cc,wm,dist"} {
		t.Run(crit, func(t *testing.T) {
			f, err := syntax.Parse("parity.lisp", src)
			if err != nil {
				t.Fatal(err)
			}
			c, err := labels.ParseCriteria(crit)
			if err != nil {
				t.Fatal(err)
			}
			lo := labels.Options{Criteria: c}

			// labelcov cover, in its VM.
			m, err := measure.New(f, measure.Options{Labels: lo})
			if err != nil {
				t.Fatal(err)
			}
			var tests []*measure.Test
			for i, in := range parityInputs {
				tt, err := m.ParseTest(fmt.Sprintf("t%d.args", i), fmt.Appendf(nil, "%d\n%d\n", in[0], in[1]))
				if err != nil {
					t.Fatal(err)
				}
				tests = append(tests, tt)
			}
			vmRep, err := m.Run(context.Background(), tests)
			if err != nil {
				t.Fatal(err)
			}

			// The same annotation, compiled by SBCL with sb-cover.
			r, err := transform.Plan(f, transform.Options{Labels: lo})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "parity.lisp"), r.Source, 0o644); err != nil {
				t.Fatal(err)
			}
			var calls strings.Builder
			for _, in := range parityInputs {
				fmt.Fprintf(&calls, "(print (main %d %d))\n", in[0], in[1])
			}
			sbcltest.Run(t, sbcl, dir, `(require :sb-cover)
(defmacro def-plan (name params &body body) `+"`"+`(defun ,name ,params ,@body))
(declaim (optimize sb-cover:store-coverage-data))
(load (compile-file "parity.lisp"))
`+calls.String()+`(sb-cover:save-coverage-in-file "coverage.sexp")
`)
			cf, err := os.Open(filepath.Join(dir, "coverage.sexp"))
			if err != nil {
				t.Fatal(err)
			}
			defer cf.Close()
			saved, err := Read("coverage.sexp", cf)
			if err != nil {
				t.Fatal(err)
			}
			ann, err := syntax.Parse(filepath.Join(dir, "parity.lisp"), r.Source)
			if err != nil {
				t.Fatal(err)
			}
			sbRep, err := Report(r.Manifest("parity.lisp"), f, ann, saved, "coverage.sexp", Options{})
			if err != nil {
				t.Fatal(err)
			}

			if len(sbRep.Labels) != len(vmRep.Labels) {
				t.Fatalf("sb-cover report has %d labels, labelcov's %d", len(sbRep.Labels), len(vmRep.Labels))
			}
			covered, agree := 0, 0
			for i, vl := range vmRep.Labels {
				sl := sbRep.Labels[i]
				if sl.ID != vl.ID {
					t.Fatalf("label %d vs %d", sl.ID, vl.ID)
				}
				if sl.Covered != vl.Covered || sl.Reached == nil || vl.Reached == nil || sl.WasReached() != vl.WasReached() {
					t.Errorf("label %d %s %s %s: sb-cover covered %v reached %v, labelcov covered %v reached %v",
						vl.ID, vl.Criterion, vl.Operator, vl.Pos, sl.Covered, sl.WasReached(), vl.Covered, vl.WasReached())
					continue
				}
				agree++
				if vl.Covered {
					covered++
				}
			}
			if covered == 0 || covered == len(vmRep.Labels) {
				t.Errorf("%d of %d labels covered: the inputs do not tell covered from uncovered", covered, len(vmRep.Labels))
			}
			for k, kr := range vmRep.Criteria {
				if sk := sbRep.Criteria[k]; sk == nil || sk.Covered != kr.Covered || sk.Total != kr.Total {
					t.Errorf("criterion %s: sb-cover %+v, labelcov %+v", k, sk, kr)
				}
			}
			t.Logf("%s: %d/%d labels agree, %d covered", crit, agree, len(vmRep.Labels), covered)
		})
	}
}
