package main

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot maps every file under root to its digest (symbolic links to
// their targets' names).
func snapshot(t *testing.T, root string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			m[p] = sha256.Sum256([]byte("link " + l))
		case d.IsDir():
			m[p+"/"] = [32]byte{}
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[p] = sha256.Sum256(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// diffSnapshots names what differs between two snapshots.
func diffSnapshots(a, b map[string][32]byte) []string {
	var d []string
	for p, h := range a {
		if h2, ok := b[p]; !ok {
			d = append(d, "removed "+p)
		} else if h2 != h {
			d = append(d, "changed "+p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			d = append(d, "added "+p)
		}
	}
	return d
}

// guardFixture is a folder with a benchmark (plan, truth.json,
// reproducers), a world and a scenario, an SBCL run (plan, annotated plan,
// manifest, coverage file), a fuzz campaign and a Go module with a fuzz
// corpus entry: everything a verb of labelcov reads.
type guardFixture struct {
	dir, bench, plan, repro, test, world, env string
	lisp, ann, man, cov, other                string
	camp, record                              string
	mod, entry                                string
}

func newGuardFixture(t *testing.T) *guardFixture {
	t.Helper()
	root := t.TempDir()
	f := &guardFixture{dir: filepath.Join(root, "in")}
	f.bench = filepath.Join(f.dir, "temperature")
	f.repro = filepath.Join(f.bench, "reproducers")
	if err := os.MkdirAll(f.repro, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "../../testdata/bench/temperature"
	f.plan = copyFile(t, filepath.Join(src, "temperature.plan"), f.bench)
	copyFile(t, filepath.Join(src, "truth.json"), f.bench)
	ents, _ := os.ReadDir(filepath.Join(src, "reproducers"))
	for _, e := range ents {
		copyFile(t, filepath.Join(src, "reproducers", e.Name()), f.repro)
	}
	f.test = filepath.Join(f.repro, ents[0].Name())
	f.world = copyFile(t, "../../testdata/worlds/warehouse.world", f.dir)
	f.env = copyFile(t, "../../testdata/envs/warehouse-three.env", f.dir)

	sb := filepath.Join(f.dir, "sbcl")
	if err := os.MkdirAll(sb, 0o755); err != nil {
		t.Fatal(err)
	}
	f.lisp = filepath.Join(sb, "u.lisp")
	if err := os.WriteFile(f.lisp, []byte("#-sbcl (defun ignored () 1)\n(in-package :cl-user)\n(defun f (x) (list 'q (if (> x 0) 'a 'b)))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.other = filepath.Join(sb, "other.lisp")
	if err := os.WriteFile(f.other, []byte("(defun g (y) (if (< y 3) 1 2))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.ann, f.man = filepath.Join(sb, "uann.lisp"), filepath.Join(sb, "u.json")
	if code, _, errs := runCLI("annotate", f.lisp, "--criteria", "cc", "-o", f.ann, "--manifest", f.man); code != exitOK {
		t.Fatalf("annotate: %d %s", code, errs)
	}
	f.cov = filepath.Join(sb, "coverage.sexp")
	saved := `(("` + f.ann + `" #((0) (1) (:THEN 1 1 1 2 3 1) (:ELSE 1 1 1 2 3 1) (:THEN 1 2 1 2 3 1) (:ELSE 1 2 1 2 3 1)) . #*111001))`
	if err := os.WriteFile(f.cov, []byte(saved), 0o644); err != nil {
		t.Fatal(err)
	}

	f.camp = filepath.Join(f.dir, "camp")
	if code, _, errs := runCLI("fuzz", f.plan, "--runs", "50", "--workers", "1", "--progress", "0", "--out", f.camp, "--allow-findings"); code != exitOK {
		t.Fatalf("fuzz: %d %s", code, errs)
	}
	f.record = filepath.Join(f.camp, "campaign.json")
	if _, err := os.Stat(f.record); err != nil {
		t.Fatal(err)
	}

	f.mod = fuzzexpWithEntry(t, "seed1", "go test fuzz v1\nint(5)\nbool(true)\n")
	f.entry = filepath.Join(f.mod, "testdata", "fuzz", "FuzzAlarm", "seed1")
	return f
}

// TestOutputsGuarded: every output flag of every verb aimed at one of the
// command's inputs, a folder it reads or a record it keeps is refused
// with exit 2 and nothing changes (through a symbolic link too); the same
// verbs with a fresh output still work.
func TestOutputsGuarded(t *testing.T) {
	f := newGuardFixture(t)
	link := filepath.Join(t.TempDir(), "link.html")
	if err := os.Symlink(f.plan, link); err != nil {
		t.Fatal(err)
	}
	manLink := filepath.Join(t.TempDir(), "m.html")
	if err := os.Symlink(f.man, manLink); err != nil {
		t.Fatal(err)
	}
	cover := []string{"cover", f.plan, "--tests", f.repro}
	sbcl := []string{"cover", "--from-sbcl", f.cov, "--manifest", f.man}
	compare := []string{"compare", "--bench", f.bench, "--runs", "1", "--budget", "1s", "--criteria", "none"}
	goCover := []string{"cover", "./...", "-C", f.mod, "--fuzz", "FuzzAlarm"}
	with := func(base []string, more ...string) []string { return append(append([]string(nil), base...), more...) }
	refused := []struct {
		args []string
		msg  string
	}{
		{[]string{"annotate", f.plan, "-o", f.plan}, "would overwrite the input"},
		{[]string{"annotate", f.plan, "--manifest", f.plan}, "would overwrite the input"},
		{[]string{"annotate", f.plan, "-o", link}, "would overwrite the input"},
		{[]string{"annotate", f.plan, "-o", f.bench}, "is a folder"},
		{with(cover, "--html", f.plan), "would overwrite the input"},
		{with(cover, "--html", link), "would overwrite the input"},
		{with(cover, "--lcov", f.test), "would overwrite a file of the tests folder"},
		{with(cover, "--cobertura", filepath.Join(f.repro, "new.xml")), "would overwrite a file of the tests folder"},
		{with(cover, "--html", filepath.Join(f.bench, "truth.json")), "truth.json"},
		{with(cover, "--lcov", f.record), "would overwrite the record of a campaign directory"},
		{with(sbcl, "--html", f.lisp), "would overwrite the plan"},
		{with(sbcl, "--html", f.ann), "would overwrite the annotated plan"},
		{with(sbcl, "--cobertura", f.ann), "would overwrite the annotated plan"},
		{with(sbcl, "--lcov", f.cov), "would overwrite the coverage file"},
		{with(sbcl, "--html", f.man), "would overwrite the manifest"},
		{with(sbcl, "--html", manLink), "would overwrite the manifest"},
		{[]string{"cover", f.other, "--from-sbcl", f.cov, "--manifest", f.man}, "is not the plan the label manifest was made from"},
		{with(sbcl, "--annotated", f.other), "is not the annotated plan the label manifest was made from"},
		{[]string{"sarif", f.plan, f.camp, "-o", f.plan}, "would overwrite the plan"},
		{[]string{"sarif", f.plan, f.camp, "-o", f.record}, "campaign"},
		{[]string{"sarif", f.plan, f.camp, "-o", filepath.Join(f.camp, "labelcov", "findings.json")}, "is inside the campaign"},
		{[]string{"sarif", f.plan, f.camp, "-o", filepath.Join(f.camp, "findings.sarif")}, "is inside the campaign"},
		{with(compare, "--slurm-script", f.plan), "is inside the benchmark folder"},
		{with(compare, "--md", f.plan), "is inside the benchmark folder"},
		{with(compare, "--md", filepath.Join(f.bench, "report.md")), "is inside the benchmark folder"},
		{with(compare, "--out", f.bench), "is inside the benchmark folder"},
		{with(compare, "--out", f.repro), "is inside the benchmark folder"},
		{[]string{"compare", "--merge", f.camp, "--out", filepath.Join(f.camp, "report")}, "is inside a shard's folder"},
		{[]string{"reduce", f.plan, "--tests", f.repro, "--out", f.repro}, "is inside the tests folder"},
		{[]string{"reduce", f.plan, "--tests", f.repro, "--out", filepath.Join(f.repro, "kept")}, "is inside the tests folder"},
		{[]string{"reduce", f.plan, "--tests", f.repro, "--out", f.plan}, "is a file"},
		{[]string{"gentests", f.plan, "--tests", f.repro, "--runs", "10", "--out", filepath.Join(f.repro, "gen")}, "is inside the tests folder"},
		{[]string{"env", "encode", f.world, f.env, "-o", f.env}, "would overwrite the input"},
		{[]string{"env", "encode", f.world, f.env, "-o", f.world}, "would overwrite the input"},
		{[]string{"sample", f.plan, "--n", "10", "--examples", f.bench}, "holds the input"},
		{[]string{"fuzz", f.plan, "--runs", "10", "--corpus", f.repro, "--out", f.repro}, "is inside the --corpus folder"},
		{with(goCover, "--html", f.entry), "is inside the testdata of"},
		{with(goCover, "--lcov", filepath.Join(f.mod, "alarm.go")), "would overwrite Go source"},
		{with(goCover, "--cobertura", filepath.Join(f.mod, "go.mod")), "would overwrite Go source"},
		{[]string{"annotate", "./...", "-C", f.mod, "-o", filepath.Join(f.mod, "ann")}, "is inside the module of"},
	}
	for _, c := range refused {
		before := snapshot(t, filepath.Dir(f.dir))
		beforeMod := snapshot(t, f.mod)
		code, _, errs := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(errs, c.msg) {
			t.Errorf("labelcov %s: exit %d, want %d and %q\n%s", strings.Join(c.args, " "), code, exitUsage, c.msg, errs)
		}
		if d := append(diffSnapshots(before, snapshot(t, filepath.Dir(f.dir))), diffSnapshots(beforeMod, snapshot(t, f.mod))...); len(d) > 0 {
			t.Errorf("labelcov %s changed files: %s", strings.Join(c.args, " "), strings.Join(d, ", "))
		}
	}

	out := t.TempDir()
	fresh := func(name string) string { return filepath.Join(out, name) }
	for _, c := range []struct {
		args  []string
		files []string
	}{
		{[]string{"annotate", f.plan, "-o", fresh("a.plan"), "--manifest", fresh("a.json")}, []string{"a.plan", "a.json"}},
		{with(cover, "--html", fresh("c.html"), "--lcov", fresh("c.info"), "--cobertura", fresh("c.xml")), []string{"c.html", "c.info", "c.xml"}},
		{with(sbcl, "--html", fresh("s.html"), "--lcov", fresh("s.info"), "--cobertura", fresh("s.xml")), []string{"s.html", "s.info", "s.xml"}},
		{[]string{"cover", f.lisp, "--from-sbcl", f.cov, "--manifest", f.man, "--annotated", f.ann, "--html", fresh("s2.html")}, []string{"s2.html"}},
		{[]string{"sarif", f.plan, f.camp, "-o", fresh("f.sarif")}, []string{"f.sarif"}},
		{with(compare, "--slurm-script", fresh("grid.sh"), "--out", fresh("cmp")), []string{"grid.sh"}},
		{[]string{"reduce", f.plan, "--tests", f.repro, "--out", fresh("kept")}, []string{"kept"}},
		{[]string{"env", "encode", f.world, f.env, "-o", fresh("e.bin")}, []string{"e.bin"}},
		{[]string{"sample", f.plan, "--n", "10", "--examples", fresh("ex")}, nil},
	} {
		before := snapshot(t, filepath.Dir(f.dir))
		code, _, errs := runCLI(c.args...)
		if code != exitOK {
			t.Errorf("labelcov %s: exit %d\n%s", strings.Join(c.args, " "), code, errs)
		}
		for _, name := range c.files {
			if _, err := os.Stat(fresh(name)); err != nil {
				t.Errorf("labelcov %s: %v", strings.Join(c.args, " "), err)
			}
		}
		if d := diffSnapshots(before, snapshot(t, filepath.Dir(f.dir))); len(d) > 0 {
			t.Errorf("labelcov %s changed its inputs: %s", strings.Join(c.args, " "), strings.Join(d, ", "))
		}
	}
}
