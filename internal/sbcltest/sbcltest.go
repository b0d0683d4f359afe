// Package sbcltest runs SBCL for the tests that opt in to it
// (testenv.SBCL): it starts a fresh image per script, with no init files,
// and gives the tests one Lisp definition of "compile a file and list
// every warning it signals", so that they compare like with like.
package sbcltest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Timeout bounds one SBCL run. It is a backstop against a hung SBCL, not a
// measure: most scripts take a second or two, but compiling a plan
// annotated with every criterion (dist ladders make functions of
// thousands of forms) took over two minutes with the machine's two cores
// shared with a dozen other processes, and a test must not fail on load.
const Timeout = 15 * time.Minute

// Run writes script into dir and runs it in a fresh SBCL (sbcl is its
// path), in dir, with no init files; it returns what SBCL printed on
// standard output and fails t when SBCL exits non-zero or runs past
// Timeout. An error in the script ends SBCL with a backtrace on stderr,
// which the failure shows.
func Run(t testing.TB, sbcl, dir, script string) string {
	t.Helper()
	path := filepath.Join(dir, "labelcov-test-script.lisp")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	// The default heap (1 GB in Debian's SBCL) runs out compiling the
	// largest annotated functions (mcc,cc,wm,dist on a benchmark).
	cmd := exec.CommandContext(ctx, sbcl, "--dynamic-space-size", "4096", "--noinform", "--non-interactive",
		"--no-sysinit", "--no-userinit", "--disable-debugger", "--load", path)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("sbcl --load %s: %v\nstdout:\n%s\nstderr:\n%s", path, err, tail(out.String()), tail(errb.String()))
	}
	return out.String()
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// Compile is Lisp source defining (labelcov-compile FILE FASL): it
// compile-files FILE into FASL in a compilation unit of its own and
// prints, between the lines "=== FILE" and "=== end", one line per
// distinct warning signalled ("WARNING message" or "STYLE-WARNING
// message", message on one line), sorted; a file that SBCL cannot compile
// at all (a read error) prints "ERROR type" for it.
const Compile = `
(defun labelcov-oneline (c)
  (substitute #\Space #\Newline (princ-to-string c)))
(defun labelcov-compile (file fasl)
  (let ((seen '()))
    (handler-case
        (handler-bind ((warning
                         (lambda (c)
                           (push (format nil "~:[WARNING~;STYLE-WARNING~] ~a"
                                         (typep c 'style-warning) (labelcov-oneline c))
                                 seen)
                           (muffle-warning c))))
          (with-compilation-unit () (compile-file file :output-file fasl)))
      (error (e) (push (format nil "ERROR ~s" (type-of e)) seen)))
    (format t "~&=== ~a~%~{~a~%~}=== end~%" file
            (sort (remove-duplicates seen :test #'string=) #'string<))))
`

// moreUses matches SBCL's summary of further uses of an undefined
// variable, function or type ("3 more uses of undefined variable X"),
// which follows the warning of its first use ("undefined variable: X"):
// the summary counts uses, it warns of nothing the first does not.
var moreUses = regexp.MustCompile(`^(WARNING|STYLE-WARNING) [0-9]+ more uses? of `)

// Conditions parses what labelcov-compile printed for one file: its
// lines between "=== " and "=== end", without the summaries of further
// uses of an undefined name (moreUses): an annotated plan may use a name
// more often than the original (a label reads the variable again), and
// the warning of its first use is kept.
func Conditions(out string) []string {
	var lines []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case l == "=== end":
			in = false
		case strings.HasPrefix(l, "=== "):
			in = true
		case in && l != "" && !moreUses.MatchString(l):
			lines = append(lines, l)
		}
	}
	return lines
}
