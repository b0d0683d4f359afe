package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// testSignals declares a small world as sim.LabelSignals would: two
// locations, two torso levels, parking and navigating.
func testSignals() *domain.Signals {
	parent := map[string]string{"failure": "", "error": "failure", "type-error": "error", "plan-failure": "failure",
		"navigation-failure": "plan-failure", "manipulation-failure": "plan-failure", "object-unreachable": "manipulation-failure"}
	always := domain.Cause{Kind: domain.Always, Why: "whatever its arguments"}
	return &domain.Signals{
		Actions: map[string][]domain.Signal{
			"navigating": {
				{Kind: "type-error", Cause: always},
				{Kind: "navigation-failure", Cause: domain.Cause{Kind: domain.ArgNotIn, Keys: []string{"location", "target"}, Sub: "name",
					Names: []string{"door", "desk"}, AbsentOK: true, Why: "an unknown location"}},
				{Kind: "navigation-failure", Cause: domain.Cause{Kind: domain.ArmNotParked, Why: "an arm not parked"}},
			},
			"moving-torso": {{Kind: "torso-failure", Cause: domain.Cause{Kind: domain.ArgNotIn, Keys: []string{"height"},
				Names: []string{"low", "high"}, Range: &domain.Range{Lo: 0, Hi: 0.4}, AbsentOK: true, Why: "an unknown level"}}},
			"parking-arms": {{Kind: "manipulation-failure", Cause: domain.Cause{Kind: domain.ArgNotIn, Keys: []string{"arm"},
				Names: []string{"left", "right"}, AbsentOK: true, Why: "an unknown arm"}}},
			"picking-up": {{Kind: "object-unreachable", Cause: always}},
		},
		Queries:   map[string][]domain.Signal{"object-type": {{Kind: "object-not-found", Cause: always}}},
		Unknown:   []domain.Signal{{Kind: "type-error", Cause: always}},
		ParksArms: "parking-arms",
		Parent: func(k string) string {
			if p, ok := parent[k]; ok {
				return p
			}
			return "plan-failure"
		},
		Why: "the test world",
	}
}

// TestHandlerVerdicts: a navigation-failure handler around a navigation
// to a known location right after parking is never entered, and its
// labels are infeasible with the reason; it may be entered (its labels
// stay active) when a call passes an unknown location, when nothing
// parks the arms first, when a called function signals the kind, when a
// function is called through a value, or when a policy performs actions.
func TestHandlerVerdicts(t *testing.T) {
	const goTo = `(defun park () (perform (an action (type parking-arms))))
(defun go-to (?loc)
  (let ((tries 0))
    (with-failure-handling ((navigation-failure (e)
                              (incf tries)
                              (when (< tries 2) (park) (retry))))
      BODY)))
(defun level-for (x) (case x (1 'low) (otherwise 'high)))
(defun set-torso (?level)
  (with-failure-handling ((torso-failure (e) (when (eq ?level 'low) (retry))))
    (perform (an action (type moving-torso) (height ?level)))))
`
	const parked = `(park) (perform (an action (type navigating) (location (a location (name ?loc)))))`
	const main = `(def-plan main () (dolist (s '(door desk)) (go-to s)) (go-to 'door) (set-torso (level-for 2)))
`
	no := normalize.Options{HoistCalls: true}
	// The label in the navigation handler: (< tries 2), line 6; in the
	// torso handler: (eq ?level 'low), line 10.
	label := func(got map[string]string, line string) string {
		for k, g := range got {
			if strings.HasPrefix(k, "t.plan:"+line+":") && strings.HasSuffix(k, " true") {
				return g
			}
		}
		t.Fatalf("no cc true label on line %s: %v", line, got)
		return ""
	}
	o := Options{Signals: testSignals()}
	got := enumerated(t, strings.Replace(goTo, "BODY", parked, 1)+main, "cc", no, o)
	nav := label(got, "6")
	for _, want := range []string{"infeasible the navigation-failure handler", "is never entered",
		"only for an unknown location, and ?loc (over the 2 call(s) of go-to) is one of desk, door",
		"(park) t.plan:7:7 parks every arm just before"} {
		if !strings.Contains(nav, want) {
			t.Errorf("navigation handler: %q lacks %q", nav, want)
		}
	}
	if g := label(got, "10"); !strings.HasPrefix(g, "infeasible the torso-failure handler") || !strings.Contains(g, "is one of high") {
		t.Errorf("torso handler: %q", g)
	}
	if g := label(enumerated(t, strings.Replace(goTo, "BODY", parked, 1)+main, "cc", no, Options{}), "6"); g != "active " {
		t.Errorf("without Signals: %q", g)
	}
	for name, src := range map[string]string{
		"an unknown location": strings.Replace(goTo, "BODY", parked, 1) + main + "(def-check c () (go-to 'roof))\n",
		"no parking first":    strings.Replace(goTo, "BODY", `(perform (an action (type navigating) (location (a location (name ?loc)))))`, 1) + main,
		"parking one arm":     strings.Replace(goTo, "BODY", `(perform (an action (type parking-arms) (arm left))) (perform (an action (type navigating) (location (a location (name ?loc)))))`, 1) + main,
		"a called fail":       strings.Replace(goTo, "BODY", parked+" (helper)", 1) + main + "(defun helper () (fail 'navigation-failure \"no\"))\n",
		"a computed fail":     strings.Replace(goTo, "BODY", parked+" (fail (first '(navigation-failure)))", 1) + main,
		"a function value":    strings.Replace(goTo, "BODY", parked+" (funcall (first (list #'park)))", 1) + main,
		"a performing policy": strings.Replace(goTo, "BODY", parked, 1) + main + "(def-policy p () (perform (an action (type picking-up))) nil)\n",
		"a child kind":        strings.Replace(goTo, "BODY", parked+" (fail 'road-blocked)", 1) + main + "(defun unused () (with-failure-handling ((road-blocked (e) nil)) nil))\n",
	} {
		if name == "a child kind" {
			// road-blocked descends from plan-failure, not from
			// navigation-failure: the handler stays unreachable.
			if g := label(enumerated(t, src, "cc", no, o), "6"); !strings.HasPrefix(g, "infeasible") {
				t.Errorf("%s: %q, want infeasible", name, g)
			}
			continue
		}
		if g := label(enumerated(t, src, "cc", no, o), "6"); g != "active " {
			t.Errorf("%s: the navigation handler's label is %q, want active", name, g)
		}
	}
	// A failure an inner handler catches does not escape; one it signals
	// does.
	inner := strings.Replace(goTo, "BODY", parked+` (with-failure-handling ((navigation-failure (e) nil)) (fail 'navigation-failure "x"))`, 1) + main
	if g := label(enumerated(t, inner, "cc", no, o), "6"); !strings.HasPrefix(g, "infeasible") {
		t.Errorf("caught inside: %q, want infeasible", g)
	}
	rethrow := strings.Replace(goTo, "BODY", parked+` (with-failure-handling ((plan-failure (e) (fail 'navigation-failure "x"))) (park))`, 1) + main
	if g := label(enumerated(t, rethrow, "cc", no, o), "6"); g != "active " {
		t.Errorf("signalled by an inner handler: %q, want active", g)
	}
}

// TestHandlerArguments: a parameter is read over its function's calls,
// each argument after the latest (setq VAR E) before the call when
// nothing in between may assign VAR, through a chain of functions.
func TestHandlerArguments(t *testing.T) {
	const src = `(defun park () (perform (an action (type parking-arms))))
(defun go-to (?loc)
  (with-failure-handling ((navigation-failure (e) (incf *n*) (when (< *n* 3) (retry))))
    (park)
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun visit (where) (go-to where))
(def-plan main () (let ((s nil)) MIDDLE (visit s)))
(defparameter *n* 0)
`
	no := normalize.Options{HoistCalls: true}
	o := Options{Signals: testSignals()}
	for middle, want := range map[string]string{
		"(setq s 'door)":                                      "infeasible",
		"(setq s 'door) (print s)":                            "infeasible",
		"(setq s 'door) (setq s nil)":                         "active",
		"(setq s 'door) (push 1 s)":                           "active",
		"(setq s 'roof)":                                      "active",
		"(setq s 'door) (funcall (lambda () (setq s 'roof)))": "active",
	} {
		got := enumerated(t, strings.Replace(src, "MIDDLE", middle, 1), "cc", no, o)
		g, n := "", 0
		for k, v := range got {
			if strings.HasPrefix(k, "t.plan:3:") && strings.HasSuffix(k, " true") {
				g, n = v, n+1
			}
		}
		if n != 1 {
			t.Fatalf("%d cc true labels on line 3: %v", n, got)
		}
		if !strings.HasPrefix(g, want) {
			t.Errorf("%s: %q, want %s", middle, g, want)
		}
	}
}

// TestDetectVerdicts: an object detected right after (go-to X), where a
// function that returns only with the robot at its parameter took it, is
// in a region seen from X's values; a label asking for another region is
// infeasible. It stays active when the region may be seen, when something
// may move the robot in between, or when go-to may return elsewhere.
func TestDetectVerdicts(t *testing.T) {
	const src = `(defun obj-region (d) (desig-prop d 'region))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type navigating) (location (a location (name ?loc)))))LAST))
(def-plan main ()
  (dolist (s '(door desk))
    (go-to s)
    MIDDLE
    (dolist (d (perform (an action (type detecting))))
      (when (eq (obj-region d) 'floor) (print d)))))
`
	no := normalize.Options{HoistCalls: true}
	sig := testSignals()
	sig.Moves, sig.MoveKeys, sig.MoveSub = "navigating", []string{"location", "target"}, "name"
	sig.Detects = "detecting"
	sig.Seen = map[string][]string{"door": {"hall"}, "desk": {"desk-top", "nil"}}
	o := Options{Signals: sig}
	get := func(s string) string {
		got := enumerated(t, s, "cc", no, o)
		for k, g := range got {
			if strings.HasPrefix(k, "t.plan:10:") && strings.HasSuffix(k, " true") {
				return g
			}
		}
		t.Fatalf("no cc true label on line 10: %v", got)
		return ""
	}
	plain := strings.NewReplacer("LAST", "", "MIDDLE", "(print 1)").Replace(src)
	if g := get(plain); !strings.HasPrefix(g, "infeasible (eq (obj-region d) 'floor) is never true:") || !strings.Contains(g, "detects from desk or door") {
		t.Errorf("plain: %q", g)
	}
	for name, s := range map[string]string{
		"a region seen":        strings.NewReplacer("LAST", "", "MIDDLE", "(print 1)", "'floor", "'hall").Replace(src),
		"a move in between":    strings.NewReplacer("LAST", "", "MIDDLE", "(perform (an action (type navigating) (target roof)))").Replace(src),
		"a call that moves":    strings.NewReplacer("LAST", "", "MIDDLE", "(go-to 'roof)").Replace(src),
		"go-to ends elsewhere": strings.NewReplacer("LAST", " (perform (an action (type navigating) (target roof)))", "MIDDLE", "(print 1)").Replace(src),
		"an unknown stand":     strings.NewReplacer("LAST", "", "MIDDLE", "(print 1)", "'(door desk)", "'(door roof)").Replace(src),
	} {
		if g := get(s); !strings.HasPrefix(g, "active") {
			t.Errorf("%s: %q, want active", name, g)
		}
	}
}
