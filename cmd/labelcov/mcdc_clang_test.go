package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// The MC/DC cross-check: testdata/mcdc holds the same 17 decisions as C
// (decisions.c), as a plan (decisions.plan) and in Go (go/), and three
// test suites of inputs (suites/*.txt, "a b c d" per line). Under each
// suite, labelcov's MC/DC of the plan and of the Go package must agree
// with clang-19's llvm-cov on the C version, condition by condition:
// covered or not, and by the same independence pair.

const mcdcDir = "../../testdata/mcdc"

// mcdcCond is one condition's verdict: its pair ("1,3"), or "" when not
// covered.
type mcdcDecision struct {
	line, col int
	pairs     []string
}

func readSuite(t *testing.T, name string) [][4]int {
	t.Helper()
	f, err := os.Open(filepath.Join(mcdcDir, "suites", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][4]int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var in [4]int
		if n, err := fmt.Sscan(line, &in[0], &in[1], &in[2], &in[3]); n != 4 || err != nil {
			t.Fatalf("suite %s: bad line %q", name, line)
		}
		out = append(out, in)
	}
	return out
}

var (
	llvmDecision = regexp.MustCompile(`MC/DC Decision Region \((\d+):(\d+)\)`)
	llvmPair     = regexp.MustCompile(`C(\d+)-Pair: (?:covered: \((\d+),(\d+)\)|not covered)`)
)

// clangMCDC measures decisions.c under suite with clang-19 and parses
// llvm-cov show --show-mcdc.
func clangMCDC(t *testing.T, tools []string, suite [][4]int) []mcdcDecision {
	t.Helper()
	clang, profdata, cov := tools[0], tools[1], tools[2]
	dir := t.TempDir()
	bin := filepath.Join(dir, "decisions")
	src, err := filepath.Abs(filepath.Join(mcdcDir, "decisions.c"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(env []string, name string, args ...string) string {
		t.Helper()
		c := exec.Command(name, args...)
		c.Dir, c.Env = dir, append(os.Environ(), env...)
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(nil, clang, "-fprofile-instr-generate", "-fcoverage-mapping", "-fcoverage-mcdc", "-O0", "-o", bin, src)
	var raws []string
	for i, in := range suite {
		raw := filepath.Join(dir, fmt.Sprintf("t%d.profraw", i))
		raws = append(raws, raw)
		run([]string{"LLVM_PROFILE_FILE=" + raw}, bin, strconv.Itoa(in[0]), strconv.Itoa(in[1]), strconv.Itoa(in[2]), strconv.Itoa(in[3]))
	}
	prof := filepath.Join(dir, "merged.profdata")
	run(nil, profdata, append([]string{"merge", "-o", prof}, raws...)...)
	out := run(nil, cov, "show", bin, "-instr-profile="+prof, "--show-mcdc")
	var ds []mcdcDecision
	for _, line := range strings.Split(out, "\n") {
		if m := llvmDecision.FindStringSubmatch(line); m != nil {
			l, _ := strconv.Atoi(m[1])
			c, _ := strconv.Atoi(m[2])
			ds = append(ds, mcdcDecision{line: l, col: c})
		} else if m := llvmPair.FindStringSubmatch(line); m != nil && len(ds) > 0 {
			p := ""
			if m[2] != "" {
				p = m[2] + "," + m[3]
			}
			ds[len(ds)-1].pairs = append(ds[len(ds)-1].pairs, p)
		}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].line != ds[j].line {
			return ds[i].line < ds[j].line
		}
		return ds[i].col < ds[j].col
	})
	return ds
}

// mcdcJSON is the part of cover --json (plan or Go) compared here.
type mcdcJSON struct {
	MCDC struct {
		Decisions []struct {
			Pos        string `json:"pos"`
			Conditions []struct {
				Covered bool  `json:"covered"`
				Pair    []int `json:"pair"`
			} `json:"conditions"`
		} `json:"decisions"`
	} `json:"mcdc"`
}

func (j *mcdcJSON) decisions() []mcdcDecision {
	var ds []mcdcDecision
	for _, d := range j.MCDC.Decisions {
		md := mcdcDecision{}
		for _, c := range d.Conditions {
			p := ""
			if c.Covered {
				p = fmt.Sprintf("%d,%d", c.Pair[0], c.Pair[1])
			}
			md.pairs = append(md.pairs, p)
		}
		ds = append(ds, md)
	}
	return ds
}

func planMCDC(t *testing.T, suite [][4]int) []mcdcDecision {
	t.Helper()
	dir := t.TempDir()
	for i, in := range suite {
		body := fmt.Sprintf("%d\n%d\n%d\n%d\n", in[0], in[1], in[2], in[3])
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("t%02d.args", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, err := execCover(filepath.Join(mcdcDir, "decisions.plan"), "--criteria", "mcdc", "--tests", dir, "--json")
	if err != nil {
		t.Fatalf("cover: %v\n%s", err, errs)
	}
	var j mcdcJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	return j.decisions()
}

func goMCDC(t *testing.T, suite [][4]int) []mcdcDecision {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "decisions.go"} {
		b, err := os.ReadFile(filepath.Join(mcdcDir, "go", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	b.WriteString("package decisions\n\nimport \"testing\"\n\nfunc TestSuite(t *testing.T) {\n")
	for _, in := range suite {
		fmt.Fprintf(&b, "\tRun(%d, %d, %d, %d)\n", in[0], in[1], in[2], in[3])
	}
	b.WriteString("}\n")
	if err := os.WriteFile(filepath.Join(dir, "suite_test.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, err := runGoCmd(t, "cover", ".", "-C", dir, "--criteria", "mcdc", "--json")
	if err != nil {
		t.Fatalf("cover: %v\n%s", err, errs)
	}
	var j mcdcJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	return j.decisions()
}

func TestMCDCAgreesWithLLVMCov(t *testing.T) {
	tools := testenv.Clang(t, "clang-19", "llvm-profdata-19", "llvm-cov-19")
	needGo(t)
	for _, name := range []string{"weak", "medium", "strong"} {
		t.Run(name, func(t *testing.T) {
			suite := readSuite(t, name)
			want := clangMCDC(t, tools, suite)
			if len(want) != 17 {
				t.Fatalf("llvm-cov found %d decisions in decisions.c, want 17", len(want))
			}
			covered := 0
			for _, d := range want {
				for _, p := range d.pairs {
					if p != "" {
						covered++
					}
				}
			}
			t.Logf("suite %s: llvm-cov: %d conditions covered", name, covered)
			for lang, got := range map[string][]mcdcDecision{"plan": planMCDC(t, suite), "go": goMCDC(t, suite)} {
				if len(got) != len(want) {
					t.Errorf("%s: %d decisions, llvm-cov %d", lang, len(got), len(want))
					continue
				}
				for i := range want {
					if strings.Join(got[i].pairs, " ") != strings.Join(want[i].pairs, " ") {
						t.Errorf("%s: decision %d (decisions.c:%d:%d): pairs %q, llvm-cov %q", lang, i+1, want[i].line, want[i].col, got[i].pairs, want[i].pairs)
					}
				}
			}
		})
	}
}
