package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

const aflMazeC = `#include <stdlib.h>
#include <unistd.h>
int main(void) {
  unsigned char b[64];
  ssize_t n = read(0, b, sizeof b);
  const char *m = "SYNCMAZE";
  for (int i = 0; i < 8; i++)
    if (i >= n || b[i] != (unsigned char)m[i]) return 0;
  abort();
}
`

// The campaign directory is AFL++'s: a stock afl-fuzz secondary imports the
// built-in main's queue, and the built-in engine imports afl-fuzz's queue.
// Needs afl-cc and afl-fuzz (Debian afl++): opt-in through
// LABELCOV_AFL_TESTS=1 (internal/testenv); skipped with -short.
func TestSyncWithRealAFL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for a few seconds")
	}
	progs := testenv.AFL(t, "afl-fuzz", "afl-cc")
	aflFuzz, aflCC := progs[0], progs[1]
	tmp := t.TempDir()
	src, bin := filepath.Join(tmp, "maze.c"), filepath.Join(tmp, "maze")
	if err := os.WriteFile(src, []byte(aflMazeC), 0o644); err != nil {
		t.Fatal(err)
	}
	cc := exec.Command(aflCC, "-O1", "-o", bin, src)
	cc.Env = append(os.Environ(), "AFL_QUIET=1")
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("afl-cc cannot build a target here: %v\n%s", err, out)
	}
	seeds := filepath.Join(tmp, "seeds")
	if err := os.MkdirAll(seeds, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seeds, "a"), []byte("A"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")

	c := mazeCampaign("SYNCMAZE", 0, 1, 30_000)
	c.Out, c.Main = out, true
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ours := queueNames(t, filepath.Join(out, DefaultInstance))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	afl := exec.CommandContext(ctx, aflFuzz, "-S", "sec", "-i", seeds, "-o", out, "-V", "3", "--", bin)
	// AFL_IMPORT_FIRST: the secondary syncs before it fuzzes its own
	// seed. Otherwise it first syncs at the end of its first queue cycle,
	// which a slow or loaded machine does not reach within -V 3 (afl-fuzz
	// then imports nothing, and the test would hang on load).
	afl.Env = append(os.Environ(), "AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_NO_AFFINITY=1",
		"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1", "AFL_SKIP_BIN_CHECK=1", "AFL_IMPORT_FIRST=1")
	if log, err := afl.CombinedOutput(); err != nil {
		t.Fatalf("afl-fuzz did not run here: %v\n%s", err, tail(string(log), 800))
	}
	theirs := queueNames(t, filepath.Join(out, "sec"))
	imported := 0
	for _, n := range theirs {
		if strings.Contains(n, ",sync:"+DefaultInstance+",") {
			imported++
		}
	}
	// Every non-empty entry of ours past the seed is new coverage for AFL.
	if imported == 0 || imported > len(ours)-1 {
		t.Fatalf("afl-fuzz imported %d of our %d entries; its queue: %v", imported, len(ours), theirs)
	}

	// Back: the built-in engine reads afl's queue and remembers how far.
	c.Runs = 1
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := (&store{dir: filepath.Join(out, DefaultInstance)}).synced("sec"); int(got) != len(theirs) {
		t.Fatalf(".synced/sec = %d, afl's queue has %d entries", got, len(theirs))
	}
	t.Logf("afl-fuzz imported %d entries; we read %d of afl's", imported, len(theirs))
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
