package gofuzz

import (
	"bytes"
	"context"
	"fmt"
	"go/constant"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// TestCorpusEntryRoundTrip: entries read back as written, in go test's
// corpus format (byte and rune as characters, strings and []byte quoted).
func TestCorpusEntryRoundTrip(t *testing.T) {
	src := "go test fuzz v1\n[]byte(\"\\x02\\x10\\\"\")\nstring(\"unit=C\")\nint64(-250000)\nuint32(4096)\nbyte('~')\nrune('é')\nint32(-5)\nbool(true)\nfloat64(1.5)\n"
	args, err := ParseEntry([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != 9 {
		t.Fatalf("%d args: %v", len(args), args)
	}
	if string(args[0].Bytes) != "\x02\x10\"" || string(args[1].Bytes) != "unit=C" {
		t.Errorf("bytes: %q %q", args[0].Bytes, args[1].Bytes)
	}
	if args[2].Int.ExactString() != "-250000" || args[4].Int.ExactString() != "126" || args[6].Type != "rune" || args[6].Int.ExactString() != "-5" {
		t.Errorf("ints: %v %v %v", args[2].Int, args[4].Int, args[6].Int)
	}
	if got := string(MarshalEntry(args)); got != src {
		t.Errorf("round trip:\n%s\nwant\n%s", got, src)
	}
	if _, err := ParseEntry([]byte("go test fuzz v2\nint(1)\n")); err == nil {
		t.Error("a v2 file reads")
	}
}

// TestEvalArg: f.Add arguments as tests write them.
func TestEvalArg(t *testing.T) {
	for _, c := range []struct{ typ, text, want string }{
		{"uint32", "uint32(4096)", "uint32(4096)"},
		{"int64", "int64(250_000)", "int64(250000)"},
		{"[]byte", "[]byte{0x02, 0x10, 0x01, 0x2C, 0x02 + 0x10 + 0x01 + 0x2C}", `[]byte("\x02\x10\x01,?")`},
		{"[]byte", `[]byte("ab")`, `[]byte("ab")`},
		{"string", `"unit=C;probe=2"`, `string("unit=C;probe=2")`},
		{"uint8", "200", `byte('È')`},
	} {
		a, ok := evalArg(c.typ, c.text)
		if !ok || a.String() != c.want {
			t.Errorf("%s %s: %v %q, want %q", c.typ, c.text, ok, a.String(), c.want)
		}
	}
	for _, bad := range []struct{ typ, text string }{{"uint8", "300"}, {"int", "MaxSlots"}, {"[]byte", "make([]byte, 3)"}} {
		if _, ok := evalArg(bad.typ, bad.text); ok {
			t.Errorf("%s %s reads", bad.typ, bad.text)
		}
	}
}

// TestDirectedRows: candidates come from the constants (each and its
// neighbours, in the argument's range; byte strings spliced into the
// base), are the same on every call, leave the base rows out and stop at
// max.
func TestDirectedRows(t *testing.T) {
	base := [][]Arg{{{Type: "uint32", Int: constant.MakeInt64(4096)}, {Type: "string", Bytes: []byte("a=b")}}}
	cs := []gotransform.Const{
		{Value: constant.MakeInt64(3_000_000), Bits: 32},
		{Value: constant.MakeInt64('"'), Bits: 8},
		{Value: constant.MakeInt64(0), Bits: 32},
		{Value: constant.MakeString("go")},
	}
	rows := DirectedRows(base, cs, 10000)
	again := DirectedRows(base, cs, 10000)
	var texts []string
	for i, r := range rows {
		if !bytes.Equal(MarshalEntry(r), MarshalEntry(again[i])) {
			t.Fatalf("row %d differs between calls", i)
		}
		texts = append(texts, strings.ReplaceAll(string(MarshalEntry(r))[len("go test fuzz v1\n"):], "\n", " "))
	}
	has := func(s string) bool {
		for _, x := range texts {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, want := range []string{
		`uint32(2999999) string("a=b") `, `uint32(3000000) string("a=b") `, `uint32(3000001) string("a=b") `,
		`uint32(0) string("a=b") `, `uint32(1) string("a=b") `,
		`uint32(4096) string("a=\"b") `, `uint32(4096) string("a=b\"") `, `uint32(4096) string("a=!") `,
		`uint32(4096) string("go") `, `uint32(4096) string("go 0") `, `uint32(4096) string("go -1") `, `uint32(4096) string("a=bgo 3000001") `,
	} {
		if !has(want) {
			t.Errorf("no row %s among %d", want, len(texts))
		}
	}
	for _, x := range texts {
		if strings.HasPrefix(x, "uint32(-1)") || x == `uint32(4096) string("a=b") ` {
			t.Errorf("row %s: out of range or the base", x)
		}
	}
	if n := len(DirectedRows(base, cs, 7)); n != 7 {
		t.Errorf("max 7: %d rows", n)
	}
}

// TestRecoveringTests: the fuzz function recovers, on the same line.
func TestRecoveringTests(t *testing.T) {
	x := gobench(t)["easy.FuzzFields"]
	m, err := recoveringTests(x)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(x.Dir, "easy_test.go")
	orig, _ := os.ReadFile(path)
	got := string(m[path])
	if !strings.Contains(got, "f.Fuzz(func(t *testing.T, s string) { defer func() { _ = recover() }();\n") ||
		strings.Count(got, "\n") != strings.Count(string(orig), "\n") {
		t.Errorf("rewritten:\n%s", got)
	}
}

// TestInfeasibleNeverCoveredGo: the labels Go's static analysis calls
// infeasible (ranges and guards, short-circuit, equivalent mutants),
// injected as active ones (KeepInfeasible), are never covered by seeded
// random and edge inputs, nor by the directed candidates, on every target
// of testdata/gobench and of testdata/goguards (built to trip the guard
// analysis: shadowing, reassignment, address taken, fields, loops); and
// the runs cover labels (the check is not vacuous).
func TestInfeasibleNeverCoveredGo(t *testing.T) {
	testenv.Long(t) // builds a coverage binary per target
	ts := gobench(t)
	guards, err := filepath.Abs("../../testdata/goguards")
	if err != nil {
		t.Fatal(err)
	}
	more, err := Discover(context.Background(), guards, nil, "./...")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range more {
		ts[x.BenchName()] = x
	}
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	crit, err := labels.ParseCriteria("all,mcdc")
	if err != nil {
		t.Fatal(err)
	}
	claimedAll := 0
	for _, n := range names {
		x := ts[n]
		t.Run(n, func(t *testing.T) {
			ctx := context.Background()
			res, err := gotransform.Annotate(ctx, x.Labelled(), gotransform.Options{Criteria: crit, Dir: x.Module, KeepInfeasible: true, Consts: true})
			if err != nil {
				t.Fatal(err)
			}
			claimed := map[int]*labels.Label{}
			for _, l := range res.Labels {
				if l.Status == labels.Active && l.Reason != "" {
					claimed[l.ID] = l
				}
			}
			claimedAll += len(claimed)
			y := &Yardstick{Target: x, Annotation: res}
			bin, err := y.buildScreen(ctx, t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, base, err := SeedRows(x)
			if err != nil || len(base) == 0 {
				t.Fatalf("seed rows: %v %v", base, err)
			}
			var cs []gotransform.Const
			for _, p := range res.Packages {
				cs = append(cs, p.Consts...)
			}
			rows := append(DirectedRows(base, cs, 1500), randomRows(base[0], cs, 1500, 7)...)
			dir := t.TempDir()
			var entries []CorpusEntry
			for i, r := range rows {
				p := filepath.Join(dir, fmt.Sprintf("in-%05d", i))
				if err := os.WriteFile(p, MarshalEntry(r), 0o644); err != nil {
					t.Fatal(err)
				}
				entries = append(entries, CorpusEntry{Name: filepath.Base(p), Path: p})
			}
			run, err := y.corpusDir(entries, filepath.Join(t.TempDir(), "run"), false)
			if err != nil {
				t.Fatal(err)
			}
			prof := filepath.Join(run, "cover.out")
			if _, err := gotest.RunCorpus(ctx, bin, run, nil, x.Name, prof, nil); err != nil {
				t.Fatal(err)
			}
			items, err := y.profileItems(prof, true)
			if err != nil {
				t.Fatal(err)
			}
			covered := 0
			for _, it := range items {
				var id int
				if _, err := fmt.Sscanf(it, ItemLabel+"%d", &id); err != nil {
					continue
				}
				covered++
				if l := claimed[id]; l != nil {
					t.Errorf("label %d (%s %s, %s) was called infeasible (%s) and %d inputs cover it", id, l.Criterion, l.Operator, l.Pos, l.Reason, len(rows))
				}
			}
			if covered == 0 {
				t.Errorf("%d inputs cover no label", len(rows))
			}
			t.Logf("%d inputs, %d labels covered, %d claimed infeasible", len(rows), covered, len(claimed))
		})
	}
	if claimedAll < 20 {
		t.Errorf("%d labels called infeasible in all: the check proves little", claimedAll)
	}
}

// randomRows are n rows like base with random values from seed: integers
// near 0, near the constants, at their type's edges or anywhere; byte
// strings of up to 24 bytes drawn from the constants' tokens, edge bytes
// and random ones.
func randomRows(base []Arg, cs []gotransform.Const, n int, seed uint64) [][]Arg {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	toks := tokens(cs)
	var out [][]Arg
	for len(out) < n {
		r := make([]Arg, len(base))
		for i, a := range base {
			r[i] = a
			switch {
			case isIntType(a.Type):
				vals := intValues(a.Type, cs)
				for _, e := range []int64{0, 1, -1, 2, 127, 128, 255, 256, -128, 1 << 31, -(1 << 31), 1<<31 - 1, 1<<63 - 1, -1 << 63} {
					vals = append(vals, constant.MakeInt64(e))
				}
				vals = append(vals, constant.MakeUint64(1<<64-1), constant.MakeUint64(rng.Uint64()), constant.MakeInt64(rng.Int64N(2000)-1000))
				var v constant.Value
				for v == nil || !inRange(a.Type, v) {
					v = vals[rng.IntN(len(vals))]
				}
				r[i] = Arg{Type: a.Type, Int: v}
			case isBytes(a.Type):
				var b []byte
				for k := rng.IntN(6); k > 0; k-- {
					switch rng.IntN(3) {
					case 0:
						if len(toks) > 0 {
							b = append(b, toks[rng.IntN(len(toks))]...)
						}
					case 1:
						b = append(b, []byte{0, 1, 0x7f, 0x80, 0xff, '\n', ' ', '=', ';'}[rng.IntN(9)])
					default:
						for j := rng.IntN(5); j > 0; j-- {
							b = append(b, byte(rng.IntN(256)))
						}
					}
				}
				if rng.IntN(4) == 0 && len(a.Bytes) > 0 {
					b = append(append([]byte{}, a.Bytes...), b...)
				}
				r[i] = Arg{Type: a.Type, Bytes: b}
			}
		}
		out = append(out, r)
	}
	return out
}
