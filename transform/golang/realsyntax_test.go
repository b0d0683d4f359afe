package golang

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

// TestRealModulesAnnotateWhole annotates the packages of real modules in
// which annotation once left functions unlabelled because their annotated
// form did not type-check — gjson and protobuf (go.mod older than Go 1.13:
// hexadecimal float bounds), gomarkdown (NewSmartypantsRenderer: a grouped
// var declaration) — with every criterion and dist, and expects none left
// so. Opt-in (testenv.NetworkVar): it downloads the modules.
func TestRealModulesAnnotateWhole(t *testing.T) {
	testenv.Network(t)
	needGo(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/real\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mods := []string{
		"github.com/tidwall/gjson@v1.14.4",
		"google.golang.org/protobuf@v1.29.0",
		"github.com/gomarkdown/markdown@v0.0.0-20230922112808-5421fefb8386",
	}
	pkgs := []string{
		"github.com/tidwall/gjson",
		"google.golang.org/protobuf/reflect/protoreflect",
		"google.golang.org/protobuf/encoding/prototext",
		"github.com/gomarkdown/markdown/html",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append([]string{"get"}, mods...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go get: %v\n%s", err, out)
	}
	for _, c := range []string{"all,dist", "mcdc"} {
		for _, p := range pkgs {
			res, err := Annotate(ctx, []string{p}, Options{Criteria: crit(t, c), Dir: dir})
			if err != nil {
				t.Fatalf("%s %s: %v", c, p, err)
			}
			if res.Active() == 0 {
				t.Errorf("%s %s: no labels", c, p)
			}
			for _, pk := range res.Packages {
				for _, s := range pk.Skipped {
					if strings.Contains(s, "did not type-check") {
						t.Errorf("%s: %s", c, s)
					}
				}
			}
		}
	}
}
