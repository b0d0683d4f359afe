package compile

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden disassembly files in testdata/golden/disasm")

const (
	plansDir  = "../../testdata/plans"
	goldenDir = "../../testdata/golden/disasm"
)

// TestDisasmGolden compiles every example plan and compares Disasm with
// testdata/golden/disasm/NAME.disasm (go test -run Disasm -update rewrites
// them after a deliberate change; review the diff).
func TestDisasmGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(plansDir, "*.plan"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example plans in %s: %v", plansDir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".plan")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := syntax.Parse("testdata/plans/"+name+".plan", src)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Compile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := verifyStack(p); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := p.Disasm(&got); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join(goldenDir, name+".disasm")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./interp/compile -run Disasm -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("disassembly of %s differs from %s:\n%s", file, golden, firstDiff(got.String(), string(want)))
			}
		})
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + itoa(i+1) + ":\n got: " + gl + "\nwant: " + wl
		}
	}
	return ""
}
