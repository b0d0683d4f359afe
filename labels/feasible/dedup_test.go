package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// dedupPlan surveys the kitchen from every stand once, keeping each
// object seen from the stand in front of it, once by name (line 20: an
// object in front of this stand was never kept before), with two
// look-alikes the rule must keep: stands visited twice (line 27) and two
// detections per stand (line 35), where an object kept is seen again.
const dedupPlan = `
(defun obj-name (d) (desig-prop d 'name))
(defun obj-region (d) (desig-prop d 'region))
(defun obj-col (d) (first (desig-prop d 'cell)))
(defun obj-row (d) (second (desig-prop d 'cell)))
(defun stand-for (region col row)
  (case region
    (counter (if (< col 4) 'counter-left 'counter-right))
    (dining-table (cond ((>= row 5) 'dining-far) ((< col 4) 'dining-left) (t 'dining-right)))
    (otherwise 'side-table-front)))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun names-of (ds) (let ((out nil)) (dolist (d ds (reverse out)) (push (obj-name d) out))))
(def-plan main ()
  (let ((found nil))
    (dolist (stand '(counter-left counter-right dining-left dining-right dining-far side-table-front))
      (go-to stand)
      (dolist (d (perform (an action (type detecting))))
        (when (and (eq (stand-for (obj-region d) (obj-col d) (obj-row d)) stand)
                   (not (member (obj-name d) (names-of found))))
          (push d found)))))
  (let ((found nil))
    (dolist (stand '(counter-left dining-left counter-left dining-left))
      (go-to stand)
      (dolist (d (perform (an action (type detecting))))
        (when (and (eq (stand-for (obj-region d) (obj-col d) (obj-row d)) stand)
                   (not (member (obj-name d) (names-of found))))
          (push d found)))))
  (let ((found nil))
    (dolist (stand '(counter-left dining-left))
      (go-to stand)
      (dotimes (i 2)
        (dolist (d (perform (an action (type detecting))))
          (when (and (eq (stand-for (obj-region d) (obj-col d) (obj-row d)) stand)
                     (not (member (obj-name d) (names-of found))))
            (push d found)))))))
`

// TestDedupVerdicts: the survey's TF is ruled out with the reason, no
// look-alike's is, and random environments of the kitchen world never
// cover a label ruled out while they cover the look-alikes' TF.
func TestDedupVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "kitchen", strings.TrimPrefix(dedupPlan, "\n"), "mcc,cc,mcdc")
	ruled := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "are never both true") {
			ruled[l.Pos.String()+" "+string(l.Criterion)+" "+l.Operator] = l.Reason
		}
	}
	for _, k := range []string{"t.plan:20:15 mcc TF", "t.plan:20:15 mcdc TF"} {
		if r := ruled[k]; !strings.Contains(r, "stand takes each of '(counter-left counter-right") || !strings.Contains(r, "objects do not move") {
			t.Errorf("%s: reason %q (have %v)", k, r, ruled)
		}
	}
	for k := range ruled {
		if !strings.HasPrefix(k, "t.plan:20:") {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runWorld(t, p, world, 200)
	checkVerdicts(t, "dedup", p, verdicts, hits, "random kitchen environments")
	lookAlikesHold(t, p, hits, "TF", "t.plan:27:15", "t.plan:35:17")
	lookAlikesHold(t, p, hits, "TT", "t.plan:20:15")
}
