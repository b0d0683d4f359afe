package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// largePlan returns a plan of about n lines in the style of the bundled
// examples: definitions with comments, lets, conditionals and designators.
func largePlan(n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, `;; fetch-%[1]d brings object %[1]d to the table
(defun fetch-%[1]d (obj &optional (arm :left))
  (let ((loc (find-location obj)) ; where it is
        (tries %[1]d))
    (when (null loc)
      (fail 'object-not-found "no location for ~a" obj))
    #| navigate, then grasp |#
    (with-failure-handling ((navigation-failure (e) (incf tries) (retry)))
      (perform (an action (type navigating) (target loc)))
      (perform (an action (type picking-up) (object obj) (arm arm) (effort 1.50))))))

`, i)
	}
	return []byte(b.String())
}

// BenchmarkParse measures the reader on plans of growing size: the time
// per line should stay flat (no super-linear behaviour in the grammar).
func BenchmarkParse(b *testing.B) {
	for _, lines := range []int{1000, 10000} {
		src := largePlan(lines)
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("large.plan", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFormat10kLines(b *testing.B) {
	src := largePlan(10000)
	f, err := Parse("large.plan", src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Format(f)
	}
}
