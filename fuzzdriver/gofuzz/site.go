package gofuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Site names a failure by where it happened in the original code: the
// finding key of a Go campaign is Category@Pos (Category alone without a
// position), so failures at one site count once, whatever guided the
// campaign that found them. It is a finding as the fuzzing engines record
// them (engine.Finding):
//
//   - Category is "panic" (a panic, runtime errors included), "fatal" (a
//     fatal runtime error such as a stack overflow), "fail" (t.Error,
//     t.Fatal and friends), "crash" (the process died otherwise) or
//     "unreproduced" (the input does not fail on the original code);
//   - Pos is MODULE-RELATIVE/FILE.go:LINE (no column): for panics and
//     fatal errors the first stack frame in the target's package (with
//     labels inside dependencies, first IMPORTPATH/FILE.go:LINE of a frame
//     in a labelled package), for failures the position the test reported;
//   - Detail is the panic value or failure message.
type Site = engine.Finding

// ReplayTimeout bounds one replay of a failing input.
const ReplayTimeout = 2 * time.Minute

// Reproduce runs one input on bin, a test binary of t's package built from
// the ORIGINAL code, and names the failure by its site. The input is a
// corpus file (input), or a seed of the target (seed: "seed#N" for the
// N-th f.Add, or the name of a file of the package's testdata/fuzz/FuzzX).
// scratch is an empty directory for the run.
func Reproduce(ctx context.Context, bin string, t Target, input, seed, scratch string, env []string) (Site, error) {
	name := seed
	scratch, err := filepath.Abs(scratch)
	if err != nil {
		return Site{}, err
	}
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return Site{}, err
	}
	if isDir(filepath.Join(t.Dir, "testdata")) {
		if err := copyDir(filepath.Join(t.Dir, "testdata"), filepath.Join(scratch, "testdata")); err != nil {
			return Site{}, err
		}
	}
	if input != "" {
		name = "labelcov-replay-" + filepath.Base(input)
		corpus := filepath.Join(scratch, "testdata", "fuzz", t.Name)
		if err := os.MkdirAll(corpus, 0o755); err != nil {
			return Site{}, err
		}
		if err := copyFile(input, filepath.Join(corpus, name)); err != nil {
			return Site{}, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, ReplayTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run=^"+regexp.QuoteMeta(t.Name)+"$/^"+regexp.QuoteMeta(name)+"$", "-test.v")
	cmd.Dir, cmd.Env = scratch, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		return Site{Category: "crash", Detail: "replay timed out after " + ReplayTimeout.String()}, nil
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return Site{}, fmt.Errorf("gofuzz: replaying %s on %s: %w", name, t, err)
	}
	if err == nil {
		if !strings.Contains(out.String(), "--- PASS: "+t.Name+"/"+name) {
			return Site{}, fmt.Errorf("gofuzz: replaying %s on %s ran no test:\n%s", name, t, tail(out.String(), 20))
		}
		return Site{Category: "unreproduced"}, nil
	}
	return ParseFailure(out.String(), t), nil
}

var (
	frameFunc   = regexp.MustCompile(`^\s*(\S+)\(.*\)$`)
	frameFile   = regexp.MustCompile(`^\s*(\S+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	panicLine   = regexp.MustCompile(`^\s*(?:\S+: )?panic: (.*?)(?: \[recovered(?:, repanicked)?\])?$`)
	fatalLine   = regexp.MustCompile(`^\s*fatal error: (.*)$`)
	testLogLine = regexp.MustCompile(`^\s+([^\s/]+\.go):(\d+): (.*)$`)
)

// ParseFailure names the failure in the output of a test binary that
// failed (see Site).
func ParseFailure(out string, t Target) Site {
	lines := strings.Split(out, "\n")
	var s Site
	for _, l := range lines {
		if m := panicLine.FindStringSubmatch(l); m != nil && s.Category == "" {
			s = Site{Category: "panic", Detail: m[1]}
		}
		if m := fatalLine.FindStringSubmatch(l); m != nil && s.Category == "" {
			s = Site{Category: "fatal", Detail: m[1]}
		}
	}
	if s.Category != "" {
		s.Pos = firstFrame(lines, t)
		return s
	}
	// t.Error and friends: the first log line after the subtest's FAIL.
	inFail := false
	for _, l := range lines {
		if strings.Contains(l, "--- FAIL: "+t.Name) {
			inFail = true
			continue
		}
		if m := testLogLine.FindStringSubmatch(l); inFail && m != nil {
			return Site{Category: "fail", Pos: frameAt(pkgFile(t, m[1]), m[2]), Detail: m[3]}
		}
	}
	return Site{Category: "crash", Detail: firstNonEmpty(lines)}
}

// firstFrame is the position of the first stack frame of lines whose
// function belongs to t's package, relative to the module root; with
// labels inside dependencies (t.LabelPkgs, import paths), the first frame
// in a labelled package comes first, as IMPORTPATH/FILE.go:LINE (the bug
// is where the labels are, and a frame of the target's package would name
// every such failure by the fuzz function's one call).
func firstFrame(lines []string, t Target) srcpos.Pos {
	for i := 0; i+1 < len(lines) && len(t.LabelPkgs) > 0; i++ {
		m := frameFunc.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		for _, p := range t.LabelPkgs {
			if p == t.Package || !inPackage(m[1], p) {
				continue
			}
			if f := frameFile.FindStringSubmatch(lines[i+1]); f != nil {
				return frameAt(p+"/"+path.Base(filepath.ToSlash(f[1])), f[2])
			}
		}
	}
	for i := 0; i+1 < len(lines); i++ {
		m := frameFunc.FindStringSubmatch(lines[i])
		if m == nil || !inPackage(m[1], t.Package) {
			continue
		}
		f := frameFile.FindStringSubmatch(lines[i+1])
		if f == nil {
			continue
		}
		// The package's functions live in its directory: name the file
		// from there, so that a copy of the module names it alike.
		return frameAt(pkgFile(t, path.Base(filepath.ToSlash(f[1]))), f[2])
	}
	return srcpos.Pos{}
}

// frameAt is the position of line (digits, as a traceback or a test log
// prints it) of file; Go's output names no column.
func frameAt(file, line string) srcpos.Pos {
	n, err := strconv.Atoi(line)
	if err != nil || n <= 0 {
		return srcpos.Pos{File: file}
	}
	return srcpos.Pos{File: file, Line: n}
}

// pkgFile names file base of t's package relative to the module root.
func pkgFile(t Target, base string) string {
	if rel := t.Rel(); rel != "." {
		return rel + "/" + base
	}
	return base
}

// inPackage reports whether the stack frame function fn (as a traceback
// prints it: "example.com/m/pkg.(*T).Method", "example.com/m/pkg.F.func1")
// belongs to package path.
func inPackage(fn, path string) bool {
	rest, ok := strings.CutPrefix(fn, path+".")
	return ok && !strings.Contains(rest, "/")
}

func firstNonEmpty(lines []string) string {
	for _, l := range lines {
		if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "=== RUN") {
			return s
		}
	}
	return ""
}
