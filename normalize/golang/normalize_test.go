package golang_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/dave/dst/decorator/resolver/gopackages"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
	"golang.org/x/tools/go/packages"
)

const mode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedTypes |
	packages.NeedTypesInfo | packages.NeedSyntax | packages.NeedModule

// normalizeDir loads the package in dir, normalizes it (every decision
// gets a slot) and returns the printed files by path.
func normalizeDir(t *testing.T, dir string, statements bool) (map[string][]byte, *gonorm.Result) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	pkgs, err := decorator.Load(&packages.Config{Mode: mode, Dir: dir}, ".")
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("load: %v %v", err, pkgs)
	}
	p := pkgs[0]
	ty := gonorm.NewTypes(p.TypesInfo, p.Fset, p.Types, p.Decorator)
	res, err := gonorm.Package(context.Background(), p.Syntax, ty, gonorm.Options{
		Statements: statements,
		Slot:       func(dst.Stmt) bool { return true },
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range p.Syntax {
		var b bytes.Buffer
		r := decorator.NewRestorerWithImports(p.PkgPath, gopackages.New(dir))
		if err := r.Fprint(&b, f); err != nil {
			t.Fatal(err)
		}
		out[p.Decorator.Filenames[f]] = b.Bytes()
	}
	return out, res
}

func sample(t *testing.T) string {
	d, err := filepath.Abs("../../testdata/go/sample")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNormalizationAlonePreservesBehaviour: the normalized sample (calls
// hoisted, else-if chains nested, loop tests moved into the body) passes
// the sample's tests, which count how often conditions' calls run.
func TestNormalizationAlonePreservesBehaviour(t *testing.T) {
	dir := sample(t)
	for _, statements := range []bool{false, true} {
		files, res := normalizeDir(t, dir, statements)
		if res.Temps == 0 || len(res.ForBreaks) == 0 || len(res.Scaffold) == 0 {
			t.Fatalf("nothing normalized: %+v", res)
		}
		passesTests(t, dir, files)
	}
}

func TestNormalizedShapes(t *testing.T) {
	files, _ := normalizeDir(t, sample(t), true)
	var src string
	for name, b := range files {
		if strings.HasSuffix(name, "sample.go") {
			src = string(b)
		}
	}
	for _, want := range []string{
		// conditional extraction under ||: the second Inc runs only when x
		// is odd; its atom's temporary is declared in the if's scope
		"lc2 := x%2 == 0\n\t\tvar lc4 bool\n\t\tif !lc2 {\n\t\t\tlc3 := c.Inc()\n\t\t\tlc4 = lc3 > limit*2\n\t\t}\n\t\tif lc2 || lc4 {",
		// the loop test runs before every iteration
		"for {\n\t\tlc1 := c.Inc()\n\t\tif !(lc1 < limit && steps < 100) {\n\t\t\tbreak\n\t\t}",
		// else-if chains become nested blocks
		"} else {\n\t\tif t > hi && hi-lo > 10 {",
		// interface comparisons are hoisted (they can panic)
		"lc7 := a == b",
		// comments survive
		"// comments survive annotation",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("normalized sample lacks\n%s\n--- got:\n%s", want, src)
		}
	}
}

// TestNormalizeConditions: one bool temporary per atom behind a call (lazy
// ones false unless evaluated), and in a function with goto the hoisted
// code goes into a block with its statement; the result passes the
// package's tests.
func TestNormalizeConditions(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/go/conditions")
	if err != nil {
		t.Fatal(err)
	}
	files, res := normalizeDir(t, dir, true)
	var src string
	for name, b := range files {
		if strings.HasSuffix(name, "conditions.go") {
			src = string(b)
		}
	}
	for _, want := range []string{
		// three atoms, three temporaries in the if's scope
		"lc2 := lc1 == 0\n\tvar lc4 bool\n\tif lc2 {\n\t\tlc3 := id(b)\n\t\tlc4 = lc3 == 0\n\t}\n\tvar lc6 bool\n\tif lc2 && lc4 {\n\t\tlc5 := id(c)\n\t\tlc6 = lc5 == 0\n\t}\n\tif lc2 && lc4 && lc6 {",
		// goto: nothing declared where goto could jump over it
		"\t{\n\t\tlc",
		// goto to a statement with hoisted code runs that code again
		"again:\n\t{\n\t\tlc",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("normalized conditions lack\n%s\n--- got:\n%s", want, src)
		}
	}
	if len(res.Lazy) == 0 || res.Lazy["lc4"] || res.Lazy["lc6"] {
		t.Errorf("lazy temporaries: %v", res.Lazy)
	}
	if _, ok := res.Lazy["lc2"]; ok {
		t.Error("the first atom is always evaluated")
	}
	passesTests(t, dir, files)
}

// passesTests runs the tests of the package in dir with files (by path)
// in place of its own, through an overlay.
func passesTests(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	tmp := t.TempDir()
	replace := map[string]string{}
	for name, src := range files {
		p := filepath.Join(tmp, filepath.Base(name))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[name] = p
	}
	ov, _ := json.Marshal(map[string]any{"Replace": replace})
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-overlay", ovPath, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("normalized package fails its tests: %v\n%s", err, out)
	}
}
