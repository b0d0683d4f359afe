package campaign

import (
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// TestPlanDict: the dictionary of a plan holds the int64 words of its
// relations' integer literals and their neighbours and its compared
// strings (string= and equal, the sites of dist's prefix stones; UTF-8
// bytes), once each; only a dist-guided campaign gets it; its AFL++ form
// escapes what is not printable.
func TestPlanDict(t *testing.T) {
	f, err := syntax.Parse("d.plan", []byte(`(def-plan p (a b)
  (when (and (= a 123456789) (< 5 b) (> a 123456789))
    (if (string= b "tok\"") (+ a 77) (equal "calibré!" b))))`))
	if err != nil {
		t.Fatal(err)
	}
	d := PlanDict(f)
	var got []string
	for _, tok := range d {
		if len(tok) == 8 {
			got = append(got, "w"+strconv.FormatInt(int64(binary.LittleEndian.Uint64(tok)), 10))
		} else {
			got = append(got, string(tok))
		}
	}
	want := "w123456788 w123456789 w123456790 w4 w5 w6 tok\" calibré!"
	if strings.Join(got, " ") != want {
		t.Errorf("dictionary %q, want %q", strings.Join(got, " "), want)
	}
	for _, c := range []struct {
		crit string
		n    int
	}{{"mcc,wm", 0}, {"dist", len(d)}} {
		cr, err := labels.ParseCriteria(c.crit)
		if err != nil {
			t.Fatal(err)
		}
		if n := len((&Fuzzer{Setup: Setup{Plan: f, Criteria: cr}}).Dict()); n != c.n {
			t.Errorf("%s: %d tokens, want %d", c.crit, n, c.n)
		}
	}
	if got := string(afl.DictFile([][]byte{{0, 'a', '"', '\\'}, {}, []byte("ok!")})); got != "t0=\"\\x00a\\x22\\x5c\"\nt2=\"ok!\"\n" {
		t.Errorf("AFL++ dictionary %q", got)
	}
}
