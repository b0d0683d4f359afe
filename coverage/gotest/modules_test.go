package gotest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gotransform "github.com/labelcov/labelcov/transform/golang"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
)

// realModules are small, well-tested pure-Go modules nobody here wrote,
// without dependencies (so their tests build from the module alone).
var realModules = []string{
	"github.com/dustin/go-humanize@v1.0.1",
	"github.com/google/go-cmp@v0.6.0",
	"github.com/spf13/pflag@v1.0.9",
	"github.com/cespare/xxhash/v2@v2.3.0",
	"github.com/google/btree@v1.1.3",
	"github.com/google/uuid@v1.6.0",
	"github.com/hashicorp/golang-lru/v2@v2.0.7",
	"github.com/BurntSushi/toml@v1.4.0",
}

// timedPackages lists, per module, the packages whose tests are run when
// some race timers against sleeps (they fail on the unannotated module
// under load too): golang-lru's expirable cache is built on a cleanup
// goroutine's timer, so its tests are left out of both runs.
var timedPackages = map[string][]string{
	"github.com/hashicorp/golang-lru/v2@v2.0.7": {".", "./simplelru", "./internal"},
}

// measured modules also get their label coverage measured (Measure).
var measured = map[string]bool{"github.com/dustin/go-humanize@v1.0.1": true, "github.com/google/btree@v1.1.3": true}

// fetchModule downloads mod@version through the module proxy and copies
// it into a writable temporary module; it skips t when the proxy is
// unreachable.
func fetchModule(t *testing.T, modVersion string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", modVersion)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		t.Skipf("module proxy unreachable or %s unavailable: %v %s", modVersion, err, info.Error)
	}
	dst := t.TempDir()
	if err := gotransform.CopyModule(info.Dir, dst); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
		path := modVersion[:strings.Index(modVersion, "@")]
		if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+path+"\n\ngo 1.16\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestRealModulesPassOnOverlay annotates real modules with every criterion
// (dist too) and runs their own test suites on the overlay (and on the original
// first: a suite that fails there says nothing, so the module is skipped).
// Opt-in (testenv.NetworkVar): it needs the module proxy.
func TestRealModulesPassOnOverlay(t *testing.T) {
	testenv.Network(t)
	if testing.Short() {
		t.Skip("downloads modules and runs their tests")
	}
	needGo(t)
	for _, mv := range realModules {
		t.Run(strings.ReplaceAll(mv, "/", "_"), func(t *testing.T) {
			dir := fetchModule(t, mv)
			pkgs := []string{"./..."}
			if p := timedPackages[mv]; p != nil {
				pkgs = p
			}
			if out, err := runGoTest(dir, append([]string{"-short"}, pkgs...)...); err != nil {
				t.Skipf("the unannotated module's own tests fail here (%v), so the annotated run would say nothing:\n%s", err, tail(out))
			}
			start := time.Now()
			res := annotate(t, dir, "all,dist")
			took := time.Since(start)
			ov, err := res.WriteOverlay(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			goTest(t, dir, append([]string{"-short", "-overlay", ov}, pkgs...)...)
			sum := map[string]int{}
			skipped := 0
			for _, l := range res.Labels {
				if l.Status == "active" {
					sum[string(l.Criterion)]++
				}
			}
			for _, p := range res.Packages {
				skipped += len(p.Skipped)
			}
			t.Logf("%s: %d packages, %d active labels (mcc %d, cc %d, abs %d, aor %d, cor %d, ror %d, dist %d), %d skipped, annotated in %v",
				mv, len(res.Packages), res.Active(), sum["mcc"], sum["cc"], sum["wm-abs"], sum["wm-aor"], sum["wm-cor"], sum["wm-ror"], sum["dist"],
				skipped, took.Round(time.Millisecond))
			if !measured[mv] {
				return
			}
			// What the module's own tests cover, per criterion.
			work := t.TempDir()
			m, err := Measure(context.Background(), res, Options{Dir: dir, Work: work, TestFlags: []string{"-short"}})
			if err != nil {
				t.Fatal(err)
			}
			cov, err := labels.Figures(res.Labels, res.Decisions, m.Hits)
			if err != nil {
				t.Fatal(err)
			}
			var parts []string
			for _, k := range res.Criteria.Keys() {
				if c := cov[k]; c != nil {
					parts = append(parts, fmt.Sprintf("%s %d/%d", k, c.Covered, c.Total))
				}
			}
			t.Logf("%s: own tests cover %s; statements %d/%d", mv, strings.Join(parts, ", "), m.StatementsCovered, m.Statements)
		})
	}
}

// TestNetHTMLDistOverlay: golang.org/x/net/html, the largest parser of the
// real-bug set, annotates with dist with no function left unlabelled, its
// comparisons with atom.Atom constants (long switches of them too) get
// neither ladders nor stones (skipped, with the reason), the annotated
// parse.go stays small (11.6 MB before, 0.3 MB now), and the
// package's own tests pass on the overlay. Opt-in (testenv.NetworkVar):
// it needs the module proxy.
func TestNetHTMLDistOverlay(t *testing.T) {
	testenv.Network(t)
	if testing.Short() {
		t.Skip("downloads golang.org/x/net and runs its html tests")
	}
	needGo(t)
	dir := fetchModule(t, "golang.org/x/net@v0.35.0")
	c, err := labels.ParseCriteria("dist")
	if err != nil {
		t.Fatal(err)
	}
	res, err := gotransform.Annotate(context.Background(), []string{"./html"}, gotransform.Options{Criteria: c, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Packages {
		if len(p.Skipped) > 0 {
			t.Errorf("%s: functions left unlabelled: %v", p.Path, p.Skipped)
		}
	}
	var active, enum int
	for _, l := range res.Labels {
		switch {
		case l.Status == labels.Active:
			active++
		case l.Status == labels.Skipped && (strings.Contains(l.Reason, "case of a switch") || strings.Contains(l.Reason, "enumeration Atom")):
			enum++
		}
	}
	// 21,994 active labels before rungs were left out; each case of the
	// long atom switches and each comparison with an atom had 21 rungs.
	if active == 0 || active > 4000 || enum == 0 {
		t.Errorf("%d active labels, %d rungs on atom.Atom skipped", active, enum)
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(filepath.Dir(ov), "golang.org", "x", "net", "html", "parse.go")); err != nil || fi.Size() > 1<<20 {
		t.Errorf("annotated parse.go: %v, %d bytes", err, sizeOf(fi))
	}
	goTest(t, dir, "-short", "-overlay", ov, "./html")
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return 0
	}
	return fi.Size()
}
