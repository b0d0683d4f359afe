package grid

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/experiments/compare"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/internal/testenv"
)

// TestResolveGridLabelPkgs: a grid over two modules, each requiring its
// own dependency, labels in each module the --label-pkgs patterns its
// build resolves; a pattern neither resolves is an error, and in a grid
// of one module every pattern must resolve there.
func TestResolveGridLabelPkgs(t *testing.T) {
	testenv.NeedGo(t)
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []string{"a", "b"} {
		write("dep"+m+"/go.mod", "module example.com/dep"+m+"\n\ngo 1.22\n")
		write("dep"+m+"/dep.go", "package dep"+m+"\n\nfunc F() int { return 1 }\n")
		write(m+"/go.mod", "module example.com/"+m+"\n\ngo 1.22\n\nrequire example.com/dep"+m+" v0.0.0\n\nreplace example.com/dep"+m+" => ../dep"+m+"\n")
		write(m+"/x.go", "package "+m+"\n\nimport \"example.com/dep"+m+"\"\n\nvar _ = dep"+m+".F\n")
	}
	bench := func(m string) *compare.GoBench {
		return &compare.GoBench{Target: gofuzz.Target{Module: filepath.Join(root, m), Package: "example.com/" + m}}
	}
	ctx := context.Background()
	a, b := bench("a"), bench("b")
	if err := resolveGridLabelPkgs(ctx, []*compare.GoBench{a, b}, []string{"example.com/depa", "example.com/depb"}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com/depa"}; !reflect.DeepEqual(a.Target.LabelPkgs, want) || !reflect.DeepEqual(a.Info.LabelPkgs, want) {
		t.Errorf("module a labels %v (info %v), want %v", a.Target.LabelPkgs, a.Info.LabelPkgs, want)
	}
	if want := []string{"example.com/depb"}; !reflect.DeepEqual(b.Target.LabelPkgs, want) {
		t.Errorf("module b labels %v, want %v", b.Target.LabelPkgs, want)
	}
	err := resolveGridLabelPkgs(ctx, []*compare.GoBench{bench("a"), bench("b")}, []string{"example.com/depa", "example.com/depb", "example.com/nowhere"})
	if err == nil || !strings.Contains(err.Error(), "example.com/nowhere") {
		t.Errorf("a pattern no module resolves: err = %v", err)
	}
	if err := resolveGridLabelPkgs(ctx, []*compare.GoBench{bench("a")}, []string{"example.com/depa", "example.com/depb"}); err == nil {
		t.Error("one module and a pattern it does not resolve: no error")
	}
}
