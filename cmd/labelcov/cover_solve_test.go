package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// oddPlan has a decision whose both-true combination no integer argument
// reaches ((* a 3) = 7 needs an odd a: 3 is invertible modulo 2^64 and 7
// is odd) but which the static analysis does not rule out, beside one
// whose combinations all can hold.
const oddPlan = `(def-plan main (a b)
  (cond ((and (evenp a) (= (* a 3) 7)) 'never)
        ((and (> b 5) (< a b)) 'below)
        (t 'other)))
`

// coverJSON is the part of cover --json the resolution tests read.
type coverJSON struct {
	Criteria map[string]struct {
		Covered    int `json:"covered"`
		Total      int `json:"total"`
		Resolution struct {
			Covered    int `json:"covered"`
			Infeasible int `json:"infeasible"`
			Unresolved int `json:"unresolved"`
		} `json:"resolution"`
	} `json:"criteria"`
	Labels []struct {
		ID       int    `json:"id"`
		Operator string `json:"operator"`
		Pos      string `json:"pos"`
		Status   string `json:"status"`
		Reason   string `json:"reason"`
		Covered  bool   `json:"covered"`
	} `json:"labels"`
	Infeasible []struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
	} `json:"infeasible"`
}

func oddSuite(t *testing.T) (plan, test string) {
	dir := t.TempDir()
	plan, test = filepath.Join(dir, "odd.plan"), filepath.Join(dir, "t1.args")
	if err := os.WriteFile(plan, []byte(oddPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(test, []byte("1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return plan, test
}

// checkResolution: every label has one of the three statuses, those not
// covered a reason, and each criterion's resolution adds up to its total.
// coverResolution runs cover --json with args, which must exit 0, and
// checks the resolution of what it reports (checkResolution).
func coverResolution(t *testing.T, args ...string) *coverJSON {
	t.Helper()
	code, out, errs := runCLI(append(append([]string{"cover"}, args...), "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r coverJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	checkResolution(t, &r)
	return &r
}

func checkResolution(t *testing.T, r *coverJSON) {
	t.Helper()
	for _, l := range r.Labels {
		switch {
		case l.Status == "covered" && l.Covered:
		case (l.Status == "infeasible" || l.Status == "unresolved") && !l.Covered && l.Reason != "":
		default:
			t.Errorf("label %d: status %q, covered %v, reason %q", l.ID, l.Status, l.Covered, l.Reason)
		}
	}
	for k, c := range r.Criteria {
		rs := c.Resolution
		if rs.Covered != c.Covered || rs.Covered+rs.Infeasible+rs.Unresolved != c.Total {
			t.Errorf("%s: resolution %+v against covered %d of %d", k, rs, c.Covered, c.Total)
		}
	}
	for _, l := range r.Infeasible {
		if l.Status != "infeasible" || !strings.HasPrefix(l.Reason, "static analysis: ") {
			t.Errorf("statically infeasible label: %+v", l)
		}
	}
}

// Without --solve, cover resolves every label as covered or unresolved
// (the static analysis's infeasible labels are listed apart, with their
// reasons); --fail-under-justified needs --fail-under.
func TestCoverResolutionWithoutSolver(t *testing.T) {
	r := coverResolution(t, "../../testdata/bench/docking/docking.plan", "--tests", "../../testdata/bench/docking/reproducers", "--criteria", "all,mcdc")
	if len(r.Infeasible) == 0 {
		t.Error("docking has labels the static analysis proves infeasible; the report lists none")
	}
	for _, l := range r.Labels {
		if l.Status == "infeasible" {
			t.Errorf("label %d infeasible without a solver", l.ID)
		}
	}
	code, _, errs := runCLI("cover", "../../testdata/bench/docking/docking.plan", "--tests", "../../testdata/bench/docking/reproducers", "--fail-under-justified")
	if code != exitUsage || !strings.Contains(errs, "give --fail-under too") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

// cover --solve proves the impossible combination infeasible with a
// reason, leaves the others unresolved naming arguments that reach them,
// and --fail-under-justified counts the infeasible ones: a gate at the
// justified share passes with it and fails without.
func TestCoverSolveJustified(t *testing.T) {
	testenv.SMT(t)
	plan, test := oddSuite(t)
	r := coverResolution(t, plan, "--tests", test, "--criteria", "mcc,mcdc", "--solve")
	infeasible := map[string]bool{}
	for _, l := range r.Labels {
		switch {
		case l.Status == "infeasible":
			infeasible[l.Operator+" "+l.Pos] = true
			if !strings.Contains(l.Reason, "cannot hold for integer arguments") {
				t.Errorf("label %d: reason %q", l.ID, l.Reason)
			}
		case l.Status == "unresolved" && !strings.Contains(l.Reason, "the solver found arguments"):
			t.Errorf("label %d: a feasible label unresolved for %q", l.ID, l.Reason)
		}
	}
	// The both-true vector of the first decision, as mcc and mcdc label.
	want := map[string]bool{"TT " + plan + ":2:10": true}
	if len(infeasible) != 1 || !infeasible["TT "+plan+":2:10"] {
		t.Errorf("infeasible labels %v, want %v", infeasible, want)
	}
	// mcdc: both conditions of the first decision can never be shown.
	mc := r.Criteria["mcdc"]
	if mc.Resolution.Infeasible != 2 || mc.Resolution.Covered != 0 || mc.Total != 4 {
		t.Fatalf("mcdc resolution %+v of %d", mc.Resolution, mc.Total)
	}
	// The HTML report marks them and gives the reason.
	page := filepath.Join(t.TempDir(), "cover.html")
	if code, _, errs := runCLI("cover", plan, "--tests", test, "--criteria", "mcc,mcdc", "--solve", "--html", page); code != exitOK {
		t.Fatalf("--html: exit %d: %s", code, errs)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(html), `<tr class="infeasible"`); n != 2 || !strings.Contains(string(html), "cannot hold for integer arguments") {
		t.Errorf("the page marks %d labels infeasible, want 2 with their reason", n)
	}
	gate := fmt.Sprintf("mcdc=%d", 100*(mc.Resolution.Covered+mc.Resolution.Infeasible)/mc.Total)
	code, _, errs := runCLI("cover", plan, "--tests", test, "--criteria", "mcc,mcdc", "--solve", "--fail-under", gate, "--fail-under-justified")
	if code != exitOK {
		t.Errorf("--fail-under %s --fail-under-justified: exit %d: %s", gate, code, errs)
	}
	code, _, errs = runCLI("cover", plan, "--tests", test, "--criteria", "mcc,mcdc", "--solve", "--fail-under", gate)
	if code != exitFound || !strings.Contains(errs, "mcdc 0/4") {
		t.Errorf("--fail-under %s: exit %d: %s", gate, code, errs)
	}
}
