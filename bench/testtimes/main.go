// Command testtimes prints what each package of labelcov's test suite costs,
// so that the next change that makes `go test ./...` slow shows up before
// it reaches a user:
//
//	cd bench && go run ./testtimes              # the default suite
//	cd bench && go run ./testtimes -long        # with LABELCOV_LONG_TESTS=1
//	cd bench && go run ./testtimes -top 20 ./labels/...
//
// It runs `go test -count=1 -json` in the main module (the parent of this
// directory) with itself as the -exec wrapper of every test binary, and
// prints one row a package: wall seconds (go test's elapsed time), CPU
// seconds (user+system of the test binary and every process it waited for:
// the go commands and compilers it runs), and the package's slowest tests.
// CPU is the figure to compare across runs on a shared machine; the wall
// sum over packages, divided by the cores go test uses, is what a user
// waits. The README's budget is 120 s of wall time on two cores once the
// test binaries are built (build them first: go test -count=1 -run '^$'
// ./...).
//
// It measures; it asserts nothing (a timing assertion in a test would fail
// on a loaded machine, see the README).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// wrapVar names the file the -exec wrapper appends its CPU figures to;
// set, it makes this program the wrapper.
const wrapVar = "LABELCOV_TESTTIMES_CPU"

func main() {
	if out := os.Getenv(wrapVar); out != "" && len(os.Args) > 1 {
		os.Exit(wrap(out, os.Args[1:]))
	}
	long := flag.Bool("long", false, "run the long suite too (LABELCOV_LONG_TESTS=1)")
	top := flag.Int("top", 3, "slowest tests to show per package")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./testtimes [-long] [-top N] [packages]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(*long, *top, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(2)
	}
}

// wrap runs a test binary (args) as go test's -exec does and appends
// "IMPORTPATH-DIR CPU-SECONDS" to the file out.
func wrap(out string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		return 2
	}
	if st := cmd.ProcessState; st != nil {
		cpu := (st.UserTime() + st.SystemTime()).Seconds()
		wd, _ := os.Getwd() // go test runs the binary in the package's directory
		if f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%s\t%.2f\n", wd, cpu)
			f.Close()
		}
	}
	return code
}

type pkgTimes struct {
	name   string
	action string
	wall   float64
	cpu    float64
	tests  []testTime
}

type testTime struct {
	name string
	secs float64
}

func run(long bool, top int, patterns []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	root, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return fmt.Errorf("run it from labelcov's bench directory: %w", err)
	}
	cpuFile, err := os.CreateTemp("", "testtimes-*.tsv")
	if err != nil {
		return err
	}
	cpuFile.Close()
	defer os.Remove(cpuFile.Name())
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	args := append([]string{"test", "-count=1", "-json", "-exec", self}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), wrapVar+"="+cpuFile.Name())
	if long {
		cmd.Env = append(cmd.Env, "LABELCOV_LONG_TESTS=1")
	}
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	pkgs := map[string]*pkgTimes{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e struct {
			Action, Package, Test string
			Elapsed               float64
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Package == "" {
			continue
		}
		p := pkgs[e.Package]
		if p == nil {
			p = &pkgTimes{name: e.Package}
			pkgs[e.Package] = p
		}
		switch {
		case e.Action != "pass" && e.Action != "fail" && e.Action != "skip":
		case e.Test == "":
			p.action, p.wall = e.Action, e.Elapsed
			fmt.Fprintf(os.Stderr, "%-4s %6.1fs %s\n", e.Action, e.Elapsed, e.Package)
		case !strings.Contains(e.Test, "/"):
			p.tests = append(p.tests, testTime{e.Test, e.Elapsed})
		}
	}
	runErr := cmd.Wait()
	elapsed := time.Since(start)

	module := strings.TrimSpace(goOutput(root, "list", "-m"))
	b, err := os.ReadFile(cpuFile.Name())
	if err != nil {
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		dir, secs, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			continue
		}
		name := module
		if rel != "." {
			name += "/" + filepath.ToSlash(rel)
		}
		if p := pkgs[name]; p != nil {
			fmt.Sscan(secs, &p.cpu)
		}
	}
	var list []*pkgTimes
	var wallSum, cpuSum float64
	for _, p := range pkgs {
		if p.action == "" || (p.wall == 0 && len(p.tests) == 0) {
			continue
		}
		list = append(list, p)
		wallSum += p.wall
		cpuSum += p.cpu
	}
	sort.Slice(list, func(i, j int) bool { return list[i].wall > list[j].wall })
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "PACKAGE\tRESULT\tWALL s\tCPU s\tSLOWEST TESTS (s)")
	for _, p := range list {
		sort.Slice(p.tests, func(i, j int) bool { return p.tests[i].secs > p.tests[j].secs })
		var slow []string
		for i, t := range p.tests {
			if i == top || t.secs < 0.5 {
				break
			}
			slow = append(slow, fmt.Sprintf("%s %.1f", t.name, t.secs))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%s\n", strings.TrimPrefix(p.name, module+"/"), p.action, p.wall, p.cpu, strings.Join(slow, ", "))
	}
	fmt.Fprintf(tw, "total\t\t%.1f\t%.1f\t%s wall for the whole go test\n", wallSum, cpuSum, elapsed.Round(time.Second))
	tw.Flush()
	if runErr != nil {
		return fmt.Errorf("go test: %w", runErr)
	}
	return nil
}

func goOutput(dir string, args ...string) string {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, _ := cmd.Output()
	return string(out)
}
