package grid

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// compare --bench NAME works from any directory inside the repository, and
// says what to do outside it.
func TestBenchFolder(t *testing.T) {
	t.Chdir("../../docs")
	dir, err := benchFolder("temperature", DefaultBenchDir, false)
	if err != nil || filepath.Clean(dir) != filepath.Join("..", "testdata", "bench", "temperature") {
		t.Errorf("from docs/: %q %v", dir, err)
	}
	if _, err := benchFolder("temperature", "nowhere", true); err == nil || !strings.Contains(err.Error(), "--bench-dir nowhere") {
		t.Errorf("explicit missing --bench-dir: %v", err)
	}
	t.Chdir(t.TempDir())
	if _, err := benchFolder("temperature", DefaultBenchDir, false); err == nil || !strings.Contains(err.Error(), "give --bench-dir DIR") {
		t.Errorf("outside the repository: %v", err)
	}
	if dir, err := benchFolder("some/path", DefaultBenchDir, false); err != nil || dir != "some/path" {
		t.Errorf("a path: %q %v", dir, err)
	}
}

func TestSlurmTime(t *testing.T) {
	for _, c := range []struct {
		rounds int
		budget time.Duration
		want   string
	}{
		{1, time.Second, "0-00:07:00"},     // 1s + 0.1s + 1m, + 5m, rounded up
		{2, 5 * time.Minute, "0-00:18:00"}, // 2 × 6.5m + 5m
		{10, 5 * time.Hour, "2-07:15:00"},  // 10 × 5.5h+1m + 5m
	} {
		if got := slurmTime(time.Duration(c.rounds) * campaignLimit(c.budget)); got != c.want {
			t.Errorf("%d × %s: %s, want %s", c.rounds, c.budget, got, c.want)
		}
	}
}
