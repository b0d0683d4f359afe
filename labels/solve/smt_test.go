package solve

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fakeZ3 writes a shell script that speaks just enough of z3's protocol:
// each (check-sat-using …) gets answer, each (check-sat) gets "unsat", each
// (echo …) its string.
func fakeZ3(t *testing.T, answer string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "z3")
	script := `#!/bin/sh
while IFS= read -r line; do
  case "$line" in
    "(check-sat-using"*) printf '%s\n' '` + answer + `' ;;
    "(check-sat)"*) echo unsat ;;
    "(echo "*) echo "$line" | sed 's/^(echo "\(.*\)")$/\1/' ;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// A try-for tactic whose timer fires mid-tactic makes z3 print an error
// instead of "unknown"; that is a time-out, and must read as one, while a
// real error stays an error and the stream stays in step either way.
func TestCheckSatReadsCancelAsUnknown(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	cases := []struct {
		answer string
		want   string
		err    bool
	}{
		{`sat`, "sat", false},
		{`(error "tactic failed: canceled")`, "unknown", false},
		{`(error "tactic failed: canceled")
unknown`, "unknown", false},
		{`(error "line 3 column 9: unknown constant x")`, "", true},
	}
	for _, c := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		z, err := StartZ3(ctx, fakeZ3(t, c.answer))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		got, err := z.checkBV(time.Second)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("answer %q: got %q, %v; want %q (error %v)", c.answer, got, err, c.want, c.err)
		}
		// The next check reads its own answer, not a leftover line.
		if next, err := z.checkSat("(check-sat)\n"); err != nil || next != "unsat" {
			t.Errorf("after %q: next check %q, %v; want unsat", c.answer, next, err)
		}
		z.Close()
		cancel()
	}
}
