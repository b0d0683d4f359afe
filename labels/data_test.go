package labels

import (
	"strings"
	"testing"
)

// TestNoLabelsWhereCPLReadsData: no label goes into a designator property
// value (CRAM's a/an read it as data), a backquote template, a
// #'(lambda ...) or a loop clause; each decision there is a note naming
// its position and the reason. The desig:when test, which CRAM
// evaluates, is labelled.
func TestNoLabelsWhereCPLReadsData(t *testing.T) {
	src := "(def-plan main (a b)\n" +
		"  (list (an action (type x) (effort (if (< a b) 1 2)) (object (an object (weight (+ a b))))\n" +
		"            (desig:when (> b 3) (speed (if (= a b) 'fast 'slow))))\n" +
		"        `(k ,(if (> a 2) 1 2))\n" +
		"        (mapcar #'(lambda (v) (if (> v 1) v 0)) (list a b))\n" +
		"        '(if a b)\n" +
		"        (loop for i from 0 below 3 when (> i a) collect i while (< i 5))))\n"
	s := enumerate(t, src, "all", 8)
	active := 0
	for _, l := range s.Labels {
		if l.Status != Active {
			continue
		}
		active++
		if l.Pos.Line != 3 || l.Pos.Col < 25 || l.Pos.Col > 31 {
			t.Errorf("label %d %s %s at %s: only the desig:when test (> b 3) at 3:25 may be labelled", l.ID, l.Criterion, l.Operator, l.Pos)
		}
	}
	if active == 0 {
		t.Errorf("the desig:when test got no labels")
	}
	want := []string{
		"2:37: note: decision (if (< a b) 1 2) is not labelled: it is in a designator property value",
		"3:40: note: decision (if (= a b) 'fast 'slow) is not labelled: it is in a designator property value",
		"4:14: note: decision (if (> a 2) 1 2) is not labelled: it is in a backquote template",
		"5:31: note: decision (if (> v 1) v 0) is not labelled: it is in a #'(lambda ...)",
		"7:41: note: decision when (> i a) is not labelled: it is in a loop clause",
		"7:65: note: decision while (< i 5) is not labelled: it is in a loop clause",
	}
	var notes []string
	for _, w := range s.Warnings {
		if strings.Contains(w.Error(), "note: decision") {
			notes = append(notes, w.Error())
		}
	}
	if len(notes) != len(want) {
		t.Fatalf("notes:\n%s\nwant %d", strings.Join(notes, "\n"), len(want))
	}
	for i, w := range want {
		if !strings.Contains(notes[i], w) {
			t.Errorf("note %d = %s\nwant it to contain %s", i, notes[i], w)
		}
	}
}
