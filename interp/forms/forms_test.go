package forms

import (
	"fmt"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

func TestName(t *testing.T) {
	for in, want := range map[string]string{
		"par": "par", "cpl:par": "par", "CPL:PAR": "par", "desig:an": "an", "cl:list": "list",
		"cram-language::pursue": "pursue", "roslisp:ros-info": "ros-info", "NIL": "nil",
		"btr:object": "btr:object", "my-pkg::when": "my-pkg:when",
	} {
		f, err := syntax.Parse("t", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := Name(f.Forms[0].(*syntax.Symbol)); got != want {
			t.Errorf("Name(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestSlots(t *testing.T) {
	for src, want := range map[string]string{
		"(f a (g b))":                       "[[1] [2]]",
		"(if a b c)":                        "[[1]T [2] [3]]",
		"(cpl:when a b)":                    "[[1]T [2]]",
		"(let ((x 1) y) x)":                 "[[1 0 1] [2]]",
		"(setf (car x) 1 y 2)":              "[[1 1] [2] [4]]",
		"(push (f) (nth i l))":              "[[1] [2 1] [2 2]]",
		"(incf (gethash k h) 2)":            "[[1 1] [1 2] [2]]",
		"(defun f (a &optional (b (g))) b)": "[[2 2 1] [3]]",
		"(flet ((f (x) (g x))) (f 1))":      "[[1 0 2] [2]]",
		"(a motion (type going) (target ?p) (desig:when c (speed (s))))": "[[3 1]D [4 1]T [4 2 1]D]",
		"(an action (object (an object (name ?n))) (effort (if a 1 2)))": "[[2 1] [3 1]D]",
		"(loop for x in l collect x)":                                    "[]",
		"(quote (f x))":                                                  "[]",
		"(ros-info (plan) \"x ~a\" y)":                                   "[[2] [3]]",
		"(case k (1 a) (t b))":                                           "[[1] [2 1] [3 1]]",
	} {
		f, err := syntax.Parse("t", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range Slots(f.Forms[0].(*syntax.List)) {
			x := fmt.Sprint(s.Path)
			if s.Test {
				x += "T"
			}
			if s.Data {
				x += "D"
			}
			got = append(got, x)
		}
		if g := fmt.Sprint(got); g != want {
			t.Errorf("Slots(%s) = %s, want %s", src, g, want)
		}
	}
}

func TestTableNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range All() {
		if seen[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		seen[f.Name] = true
	}
}

// TestTempsDeclared: the declaration normalize writes reads back, guarded
// by labelcov's feature as written now and unguarded as older versions
// wrote it; a guard any other way (#-labelcov, #+sbcl) is not it.
func TestTempsDeclared(t *testing.T) {
	for src, want := range map[string]string{
		TempsDeclaration("%lc"):                                "%lc",
		`#+labelcov (declaim (labelcov-temporaries "%lc"))`:    "%lc",
		`#+:labelcov (declaim (labelcov-temporaries "%t"))`:    "%t",
		`(declaim (labelcov-temporaries "%lc"))`:               "%lc",
		`#-labelcov (declaim (labelcov-temporaries "%lc"))`:    "",
		`#+sbcl (declaim (labelcov-temporaries "%lc"))`:        "",
		`#+(or labelcov) (declaim (labelcov-temporaries "x"))`: "",
		`(declaim (labelcov-temporaries ""))`:                  "",
		`(declaim (optimize speed))`:                           "",
	} {
		f, err := syntax.Parse("t", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := TempsDeclared(f.Forms[0])
		if got != want || ok != (want != "") {
			t.Errorf("TempsDeclared(%s) = %q, %v; want %q", src, got, ok, want)
		}
	}
}
