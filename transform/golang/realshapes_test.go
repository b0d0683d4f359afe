package golang

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
)

// TestFloatPow2Exact: the decimal form of every float rung beyond 2^63 is
// accepted by Go 1.12 and denotes exactly the float64 the hexadecimal form
// does, 2^k.
func TestFloatPow2Exact(t *testing.T) {
	ks := map[int]bool{}
	for _, bits := range []int{32, 64} {
		for _, k := range labels.DistRungs(labels.DistType{Bits: bits, Float: true}) {
			if k > 63 {
				ks[k] = true
			}
		}
	}
	if len(ks) == 0 {
		t.Fatal("no float rung beyond 2^63")
	}
	for k := range ks {
		dec, hex := floatPow2(k, false), floatPow2(k, true)
		if strings.ContainsAny(dec, "xXpP_") {
			t.Errorf("2^%d: %s is not a decimal literal", k, dec)
		}
		src := "package p\n\nconst c float64 = " + dec + "\n\nvar v = c\n"
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		conf := types.Config{GoVersion: "go1.12"}
		if _, err := conf.Check("p", fset, []*ast.File{f}, info); err != nil {
			t.Fatalf("2^%d as %s under go1.12: %v", k, dec, err)
		}
		var got constant.Value
		for id, obj := range info.Defs {
			if c, ok := obj.(*types.Const); ok && id.Name == "c" {
				got = c.Val()
			}
		}
		want := constant.MakeFromLiteral(hex, token.FLOAT, 0)
		if got == nil || want.Kind() == constant.Unknown || !constant.Compare(got, token.EQL, want) {
			t.Errorf("2^%d: %s is %v, want %s", k, dec, got, hex)
		}
		if f, exact := constant.Float64Val(got); !exact || f != math.Ldexp(1, k) {
			t.Errorf("2^%d: float64(%s) = %g (exact %v), want %g", k, dec, f, exact, math.Ldexp(1, k))
		}
		// And the literal rounds to 2^k when Go parses it at run time too.
		if f, err := strconv.ParseFloat(dec, 64); err != nil || f != math.Ldexp(1, k) {
			t.Errorf("2^%d: ParseFloat(%s) = %g, %v", k, dec, f, err)
		}
	}
}

// TestRealShapesAnnotateWhole: testdata/go/realshapes (go 1.12: no
// hexadecimal floats; a grouped var declaration whose later specs call
// methods of an earlier one, as gomarkdown's NewSmartypantsRenderer; a
// long switch under MC/DC alone) annotates with no function left
// unlabelled under every criterion, its dist predicates write no
// hexadecimal float, and its tests pass through the overlay.
func TestRealShapesAnnotateWhole(t *testing.T) {
	needGo(t)
	dir, err := filepath.Abs("../../testdata/go/realshapes")
	if err != nil {
		t.Fatal(err)
	}
	annotateWhole(t, dir, "mcdc")
	res := annotateWhole(t, dir, "all,dist")
	inRenderer, decimal := 0, 0
	two512 := floatPow2(512, false)
	for _, l := range res.Labels {
		if strings.Contains(l.Predicate, "0x") {
			t.Errorf("label %d writes a hexadecimal literal: %s", l.ID, l.Predicate)
		}
		if strings.Contains(l.Predicate, two512) {
			decimal++
		}
		if strings.HasSuffix(l.Pos.File, "vargroup.go") && l.Pos.Line >= 35 && l.Pos.Line <= 55 && l.Status == labels.Active {
			inRenderer++
		}
	}
	if inRenderer == 0 {
		t.Error("NewRenderer has no active label")
	}
	if decimal == 0 {
		t.Error("no float rung of 2^512 written in decimal")
	}
	if !testenv.IsLong() {
		return // the overlay's tests: in the long run
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
}
