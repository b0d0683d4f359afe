package golang

import (
	"context"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
)

func needGo(t testing.TB) { t.Helper(); testenv.NeedGo(t) }

// writeModule writes a module example.com/m with files into a temporary
// directory.
func writeModule(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func crit(t testing.TB, s string) labels.Criteria {
	t.Helper()
	c, err := labels.ParseCriteria(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func annotate(t testing.TB, dir, criteria string) *Result {
	t.Helper()
	res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, criteria), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// annotateWhole annotates like annotate and fails t when a function was
// left unlabelled.
func annotateWhole(t testing.TB, dir, criteria string) *Result {
	t.Helper()
	res := annotate(t, dir, criteria)
	for _, p := range res.Packages {
		if len(p.Skipped) > 0 {
			t.Errorf("skipped: %v", p.Skipped)
		}
	}
	return res
}

// goTest runs go test in dir with args and fails t when the tests fail.
func goTest(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return testenv.GoTest(t, dir, args...)
}

// runGoTest runs go test -count=1 in dir with args.
func runGoTest(dir string, args ...string) (string, error) { return testenv.RunGoTest(dir, args...) }

func sampleDir(t testing.TB) string {
	d, err := filepath.Abs("../../testdata/go/sample")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// byOp maps "criterion operator" to "predicate|status" for the labels at
// line (several labels of one operator: joined by " ; ").
func byOp(res *Result, line int) map[string]string {
	out := map[string]string{}
	for _, l := range res.Labels {
		if l.Pos.Line == line {
			k := string(l.Criterion) + " " + l.Operator
			v := l.Predicate + "|" + string(l.Status)
			if out[k] != "" {
				v = out[k] + " ; " + v
			}
			out[k] = v
		}
	}
	return out
}

func TestSampleOverlayPassesTestsEveryCriterion(t *testing.T) {
	needGo(t)
	dir := sampleDir(t)
	// "all" and "dist" between them inject every kind of label; each
	// criterion alone, a go test run each, is the long run's (.ci/run).
	crits := []string{"all", "dist"}
	if testenv.IsLong() {
		crits = append(crits, "mcc", "cc", "wm:abs", "wm:aor", "wm:cor", "wm:ror")
	}
	for _, c := range crits {
		t.Run(c, func(t *testing.T) {
			res := annotate(t, dir, c)
			if res.Active() == 0 {
				t.Fatal("no labels")
			}
			ov, err := res.WriteOverlay(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			goTest(t, dir, "-overlay", ov, "./...")
			for _, p := range res.Packages {
				if len(p.Skipped) > 0 {
					t.Errorf("skipped: %v", p.Skipped)
				}
			}
		})
	}
}

func TestGoLabelDefinitions(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

const K = 3

func F(a, b int, u uint, s, r string, x, y float64, p, q bool) (bool, string, int) {
	c1 := a < b
	c2 := s < r
	c3 := x < y
	c4 := p == q
	t := s + r
	n := a + b
	m := u * 2
	k := K * 2
	return c1 && c2 || c3 && c4, t, n + int(m) + k
}
`})
	res := annotate(t, dir, "all")
	ror := byOp(res, 6)
	want := map[string]string{
		"wm-ror < -> <=": "a == b|active", "wm-ror < -> >": "a != b|active", "wm-ror < -> >=": "true|trivial",
		"wm-ror < -> ==": "a <= b|active", "wm-ror < -> !=": "a > b|active",
		"wm-abs x -> abs(x)": "a < 0|active ; b < 0|active", "wm-abs x -> -abs(x)": "a > 0|active ; b > 0|active",
		"wm-abs x -> 0": "a == 0|active ; b == 0|active",
	}
	for k, v := range want {
		if ror[k] != v {
			t.Errorf("line 6 %s: got %q, want %q (all: %v)", k, ror[k], v, ror)
		}
	}
	if got := byOp(res, 7)["wm-ror < -> <="]; got != "s == r|active" {
		t.Errorf("strings are ordered: %q", got)
	}
	if got := byOp(res, 8)["wm-ror < -> >="]; got != "(x < y) != (x >= y)|active" {
		t.Errorf("float ROR keeps the NaN-exact form: %q", got)
	}
	if l := byOp(res, 9); len(l) != 0 {
		t.Errorf("bool == has no ROR or ABS: %v", l)
	}
	if l := byOp(res, 10); len(l) != 0 {
		t.Errorf("string + has no AOR: %v", l)
	}
	if got := byOp(res, 11)["wm-aor + -> /"]; got != "b == 0 || (a + b) != (a / b)|active" {
		t.Errorf("integer AOR to / guards the divisor: %q", got)
	}
	l12 := byOp(res, 12)
	if l12["wm-aor * -> +"] != "(u * 2) != (u + 2)|active" || l12["wm-abs x -> 0"] != "" {
		t.Errorf("unsigned: AOR yes, ABS no: %v", l12)
	}
	if l := byOp(res, 13); len(l) != 0 {
		t.Errorf("constant expression labelled: %v", l)
	}
	l14 := byOp(res, 14)
	if l14["wm-cor && -> ||"] != "c1 != c2|active ; !(c1 && c2) && c3 != c4|active" || l14["wm-cor || -> &&"] != "(c1 && c2) != (c3 && c4)|active" {
		t.Errorf("COR: %v", l14)
	}
}

func TestMCCFallbackAndDecisions(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

func G(a, b, c int) int {
	if a > 0 && (b > 0 || c > 0) {
		return 1
	}
	switch a {
	case 1, 2:
		return 2
	}
	return 0
}
`})
	res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, "mcc,cc"), Dir: dir, MCCMaxAtoms: 2})
	if err != nil {
		t.Fatal(err)
	}
	l4 := byOp(res, 4)
	if l4["mcc cc fallback: true"] == "" || l4["mcc TT"] != "" || len(res.Warnings) != 1 {
		t.Errorf("fallback: %v %v", l4, res.Warnings)
	}
	if !strings.HasPrefix(l4["cc false"], "!(a > 0)|active ; ") {
		t.Errorf("cc: %v", l4)
	}
	l9 := byOp(res, 8)
	if l9["cc true"] != "a == 1|active ; !(a == 1) && a == 2|active" {
		t.Errorf("switch case: %v", l9)
	}
	found := false
	for _, l := range res.Labels {
		if l.Predicate == "!(a == 1) && a == 2" {
			found = true
		}
	}
	if !found {
		t.Error("second case expression is not guarded by the first")
	}
}

// TestLabelsNeverPanic: the labels re-evaluate operands that could panic
// (nil pointers, out-of-range indexes, zero divisors) only behind checks.
func TestLabelsNeverPanic(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{
		"m.go": `package m

type T struct{ X int; Next *T }

func H(p *T, s []int, i, d int, m map[string]int, a *[4]int) int {
	if p == nil || p.Next == nil || p.Next.X > 0 {
		return 1
	}
	if i >= len(s) || s[i] == 0 || s[i]/d > 2 || s[i]%d == 1 {
		return 2
	}
	if m["k"] > 0 && a != nil && a[i&3] > 0 {
		return 3
	}
	if x := *p; x.X<<uint(d) > 0 && x.X<<d > 0 {
		return 4
	}
	return 0
}

type Op uint8

func Name(op Op, names []string) string {
	if op > 0 && names[op] != "" {
		return names[op]
	}
	return "?"
}
`,
		"m_test.go": `package m

import "testing"

func TestH(t *testing.T) {
	cases := []struct {
		p    *T
		s    []int
		i, d int
		want int
	}{
		{nil, nil, 0, 0, 1},
		{&T{}, nil, 0, 0, 1},
		{&T{Next: &T{X: 1}}, nil, 0, 0, 1},
		{&T{Next: &T{X: -1}}, nil, 5, 0, 2},
		{&T{Next: &T{X: -1}}, []int{0}, 0, 0, 2},
		{&T{Next: &T{X: -1}}, []int{9}, 0, 3, 2},
		{&T{Next: &T{X: -1}}, []int{9}, 0, 4, 2},
		{&T{X: 1, Next: &T{X: -1}}, []int{2}, 0, 5, 4},
		{&T{X: 1, Next: &T{X: -1}}, []int{2}, 0, -5, 0},
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	if Name(0, nil) != "?" || Name(1, []string{"a", "b"}) != "b" {
		t.Fatal("Name")
	}
	for i, c := range cases {
		func() {
			defer func() { recover() }() // d < 0 makes the original panic in the shift
			if got := H(c.p, c.s, c.i, c.d, nil, nil); got != c.want {
				t.Errorf("case %d: got %d, want %d", i, got, c.want)
			}
		}()
	}
}
`})
	goTest(t, dir, "./...")
	res := annotate(t, dir, "all")
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, "./...")
	guards := map[string]bool{}
	for _, l := range res.Labels {
		guards[l.Guard] = true
	}
	for _, g := range []string{"p != nil && p.Next != nil", "0 <= i && i < len(s) && d != 0", "uint64(op) < uint64(len(names))"} {
		if !guards[g] {
			t.Errorf("no label guarded by %q", g)
		}
	}
}

// TestEmptyIfGetsFuzzCounter: Go's fuzzing instrumentation (the compiler's
// -d=libfuzzer, what go test -fuzz uses) gives each injected `if P {}` its
// own 8-bit counters: the annotated package has at least one more counter
// per active label.
func TestEmptyIfGetsFuzzCounter(t *testing.T) {
	needGo(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads the ELF section of the counters")
	}
	dir := sampleDir(t)
	counters := func(t *testing.T, overlay string) uint64 {
		bin := filepath.Join(t.TempDir(), "s.test")
		args := []string{"test", "-c", "-o", bin, "-gcflags=-d=libfuzzer"}
		if overlay != "" {
			args = append(args, "-overlay", overlay)
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := f.Section(".go.fuzzcntrs")
		if s == nil {
			t.Fatal("no .go.fuzzcntrs section")
		}
		return s.Size
	}
	orig := counters(t, "")
	// dist labels are the rungs a fuzzer climbs: each must be a counter.
	// Every criterion injects the same empty if; cc is the long run's.
	crits := []string{"dist"}
	if testenv.IsLong() {
		crits = append(crits, "cc")
	}
	for _, c := range crits {
		t.Run(c, func(t *testing.T) {
			res := annotate(t, dir, c)
			ov, err := res.WriteOverlay(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			ann := counters(t, ov)
			t.Logf("fuzz counters: original %d, annotated %d, %d active labels", orig, ann, res.Active())
			if ann < orig+uint64(res.Active()) {
				t.Fatalf("annotated has %d counters, want at least %d + %d labels", ann, orig, res.Active())
			}
		})
	}
}

func TestBadInputIsAnError(t *testing.T) {
	needGo(t)
	broken := writeModule(t, map[string]string{"m.go": "package m\n\nfunc F() int { return undefined }\n"})
	for name, c := range map[string]struct {
		dir      string
		patterns []string
		crit     string
	}{
		"type error":      {broken, []string{"./..."}, "all"},
		"no such package": {broken, []string{"./nope"}, "all"},
		"no directory":    {filepath.Join(broken, "missing"), []string{"."}, "all"},
	} {
		_, err := Annotate(context.Background(), c.patterns, Options{Criteria: crit(t, c.crit), Dir: c.dir})
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Annotate(context.Background(), []string{"."}, Options{Dir: broken}); err == nil {
		t.Error("no criteria: no error")
	}
	// Annotating annotated code is refused.
	res := annotate(t, sampleDir(t), "cc")
	again := writeModule(t, map[string]string{})
	for _, f := range res.Packages[0].Files {
		src := f.Source
		if src == nil {
			src, _ = os.ReadFile(f.Path)
		}
		if err := os.WriteFile(filepath.Join(again, filepath.Base(f.Path)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Annotate(context.Background(), []string{"."}, Options{Criteria: crit(t, "cc"), Dir: again}); err == nil ||
		!strings.Contains(err.Error(), "already annotated") {
		t.Errorf("annotating annotated code: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Annotate(ctx, []string{"."}, Options{Criteria: crit(t, "cc"), Dir: sampleDir(t)}); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestFallbackWhenAnnotationDoesNotTypeCheck: a function whose annotated
// form does not type-check (here conditional extraction needs a
// conversion to bool, and bool is shadowed) is left unlabelled, the rest
// of the package keeps its labels, and the overlay still builds.
func TestFallbackWhenAnnotationDoesNotTypeCheck(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

type MyBool bool

func F(bool int, g func() MyBool) int {
	if true && g() {
		return bool
	}
	return 0
}

func G(a, b int) bool { return a < b }
`, "m_test.go": `package m

import "testing"

func TestF(t *testing.T) {
	if F(3, func() MyBool { return true }) != 3 || F(3, func() MyBool { return false }) != 0 || !G(1, 2) {
		t.Fatal()
	}
}
`})
	res := annotate(t, dir, "all")
	var skipped []string
	for _, p := range res.Packages {
		skipped = append(skipped, p.Skipped...)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], ":F: annotated form did not type-check") {
		t.Fatalf("skipped: %q", skipped)
	}
	inG := 0
	for _, l := range res.Labels {
		if l.Pos.Line == 12 && l.Status == labels.Active {
			inG++
		}
		if l.Pos.Line == 6 {
			t.Errorf("label in F kept: %+v", l)
		}
	}
	if inG == 0 {
		t.Error("G lost its labels")
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
	// The manifest is readable by the shared reader.
	f, err := os.Open(filepath.Join(filepath.Dir(ov), "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := labels.ReadManifest(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Active()) != res.Active() {
		t.Errorf("manifest has %d active labels, want %d", len(m.Active()), res.Active())
	}
	// Each label's annotated position is in the overlay file as written
	// (not where its line directives point): just inside the { of the
	// empty body whose } the next line's label comment follows.
	ovDir := filepath.Dir(ov)
	for _, l := range m.Active() {
		if l.Annotated == nil || l.Annotated.File == "" || l.Annotated.Line == 0 {
			t.Errorf("label %d has no annotated position", l.ID)
			continue
		}
		if !strings.HasPrefix(l.Annotated.File, ovDir) {
			t.Errorf("label %d: annotated position %s is not in the overlay", l.ID, l.Annotated)
			continue
		}
		src, err := os.ReadFile(l.Annotated.File)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		if l.Annotated.Line >= len(lines) {
			t.Errorf("label %d: line %d past the end of %s", l.ID, l.Annotated.Line, l.Annotated.File)
			continue
		}
		line, next := lines[l.Annotated.Line-1], lines[l.Annotated.Line]
		if c := l.Annotated.Col; c < 2 || c-2 >= len(line) || line[c-2] != '{' || !strings.Contains(next, fmt.Sprintf("} // label %d ", l.ID)) {
			t.Errorf("label %d: annotated position %s is not inside its empty body:\n%s\n%s", l.ID, l.Annotated, line, next)
		}
	}
}
