package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

// The shell examples of README.md and docs/*.md that a reader would paste
// are run by TestDocCommands. A ```sh block preceded by the line
//
//	<!-- runnable -->
//
// is runnable: each command in it (a line starting with "$ " in a block
// that shows output, else every line that is not a comment; a trailing
// backslash continues a command) runs with bash in a copy of the
// repository, in document order, with a built labelcov first on PATH. A
// command exits 0 unless its line ends with "# exit N", and prints the
// lines the block shows after it, in that order (other lines may come
// between them; "..." marks where the document leaves some out, in a line
// or as a line; paths are
// relative to the repository, the scratch directory reads /tmp/). To keep the suite
// short, budgets shrink (--budget 1s, 3s with LABELCOV_LONG_TESTS; a
// campaign cut short may find less, so it may then exit 0 or 1), paths
// under /tmp/ move to a scratch directory, and commands that need what the
// hermetic suite does not have (afl-fuzz, jq, genhtml) or that run the
// suite itself (go test ./...) are skipped. The commands on Go packages
// build Go test binaries (tens of seconds): they run with
// LABELCOV_LONG_TESTS=1, as .ci/run sets it.
//
// A documented `go test -fuzz FuzzX` finds its crash by luck: in seconds
// on a quiet machine, not at all in 30 s on a busy one. Its verdict must
// not depend on that, so the test first puts the crash's known input
// (docFuzzWitnesses) into the target's seed corpus: go test -fuzz then
// fails on it at once, deterministically, and the commands after it read
// the crasher as they would after a lucky campaign. What is checked is the
// command's contract: the overlay builds, the target runs on it, a failing
// input ends it with exit 1 and stays in testdata/fuzz.

// runnableMarker marks a ```sh block whose commands TestDocCommands runs.
const runnableMarker = "<!-- runnable -->"

type docCommand struct {
	file string
	line int
	cmd  string
	exit int
	// output is what the document shows the command print (the lines
	// after a "$ " command up to the next one), "..." where it elides.
	output []string
}

var (
	shBlock   = regexp.MustCompile("(?m)^" + regexp.QuoteMeta(runnableMarker) + "\n```sh\n((?s:.*?))^```")
	exitNote  = regexp.MustCompile(`\s+# exit ([0-9])\s*$`)
	budgetArg = regexp.MustCompile(`--budget [0-9]+[smh]`)
)

// docCommands extracts the runnable commands of the Markdown text doc.
func docCommands(file, doc string) []docCommand {
	var out []docCommand
	for _, m := range shBlock.FindAllStringSubmatchIndex(doc, -1) {
		block := doc[m[2]:m[3]]
		first := strings.Count(doc[:m[2]], "\n") + 1
		lines := strings.Split(block, "\n")
		prompt := strings.Contains("\n"+block, "\n$ ")
		for i := 0; i < len(lines); i++ {
			l := lines[i]
			if prompt {
				if !strings.HasPrefix(l, "$ ") {
					continue
				}
				l = l[2:]
			}
			if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
				continue
			}
			c := docCommand{file: file, line: first + i}
			for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
				i++
				l = strings.TrimRight(strings.TrimSuffix(l, "\\"), " ") + " " + strings.TrimSpace(lines[i])
			}
			if n := exitNote.FindStringSubmatch(l); n != nil {
				c.exit, _ = strconv.Atoi(n[1])
				l = l[:len(l)-len(n[0])]
			} else if i := strings.Index(l, " # "); i >= 0 {
				l = l[:i]
			}
			c.cmd = strings.TrimSpace(l)
			for prompt && i+1 < len(lines) && !strings.HasPrefix(lines[i+1], "$ ") {
				i++
				if o := strings.TrimSpace(lines[i]); o != "" && !strings.HasPrefix(o, "#") {
					c.output = append(c.output, strings.TrimRight(lines[i], " "))
				}
			}
			out = append(out, c)
		}
	}
	return out
}

func TestDocCommandsExtraction(t *testing.T) {
	doc := "x\n" + runnableMarker + "\n```sh\n# a comment\n$ labelcov run a.plan \\\n    --arg 1   # exit 1\n=> out\n$ labelcov fmt a.plan   # prints it\n```\n" +
		"```sh\nlabelcov not-runnable\n```\n" + runnableMarker + "\n```sh\nlabelcov fuzz p.plan --budget 60s\n```\n"
	got := docCommands("d.md", doc)
	want := []docCommand{
		{"d.md", 5, "labelcov run a.plan --arg 1", 1, []string{"=> out"}},
		{"d.md", 8, "labelcov fmt a.plan", 0, nil},
		{"d.md", 15, "labelcov fuzz p.plan --budget 60s", 0, nil},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	for _, c := range []struct {
		doc    []string
		output string
		miss   string
	}{
		{[]string{"a", "...", "c"}, "a\nb\nc  \n", ""},
		{[]string{"a", "c"}, "a\nb\nc", ""},
		{[]string{"c", "a"}, "a\nb\nc", "a"},
		{[]string{"a", "d"}, "a\nb\nc", "d"},
		{[]string{"=> ((x ...) y)"}, "=> ((x 1 2) y)", ""},
		{[]string{"=> ((x ...) y)"}, "=> ((x 1 2) z)", "=> ((x ...) y)"},
	} {
		if got := outputMissing(c.doc, c.output); got != c.miss {
			t.Errorf("outputMissing(%q, %q) = %q, want %q", c.doc, c.output, got, c.miss)
		}
	}
}

// TestDocCommands runs every runnable example of README.md and docs/.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the documentation's commands (a minute); not with -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md"}
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, m := range more {
		docs = append(docs, "docs/"+filepath.Base(m))
	}
	var cmds []docCommand
	for _, d := range docs {
		b, err := os.ReadFile(filepath.Join(root, d))
		if err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, docCommands(d, string(b))...)
	}
	if len(cmds) < 15 {
		t.Fatalf("found %d runnable commands, expected at least the README's set-up and tour", len(cmds))
	}
	bin := filepath.Dir(buildLabelcov(t))
	work := t.TempDir()
	repo := filepath.Join(work, "repo")
	if err := copyRepo(root, repo); err != nil {
		t.Fatal(err)
	}
	scratch := filepath.Join(work, "tmp")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TMPDIR="+scratch)
	if cache, err := privateFuzzCache(filepath.Join(work, "gocache")); err != nil {
		t.Fatal(err)
	} else if cache != "" {
		env = append(env, "GOCACHE="+cache)
	}
	ran := 0
	for _, c := range cmds {
		cmd, skip := adaptDocCommand(c.cmd, scratch)
		if skip != "" {
			t.Logf("%s:%d: skipped (%s): %s", c.file, c.line, skip, c.cmd)
			continue
		}
		if err := seedDocFuzzWitness(c.cmd, repo); err != nil {
			t.Fatalf("%s:%d: %v", c.file, c.line, err)
		}
		ran++
		sh := exec.Command("bash", "-c", cmd)
		sh.Dir, sh.Env = repo, env
		var out bytes.Buffer
		sh.Stdout, sh.Stderr = &out, &out
		start := time.Now()
		err := sh.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s:%d: %v", c.file, c.line, err)
		}
		t.Logf("%s:%d: %.1fs exit %d: %s", c.file, c.line, time.Since(start).Seconds(), code, cmd)
		ok := code == c.exit
		if budgetArg.MatchString(c.cmd) && c.exit <= exitFound {
			// A shortened campaign may find less than the documented one.
			ok = code == exitOK || code == exitFound
		}
		if !ok {
			t.Errorf("%s:%d: %s\nexit %d, want %d (%.1fs)\n%s", c.file, c.line, c.cmd, code, c.exit, time.Since(start).Seconds(), tailLines(out.String(), 30))
			continue
		}
		if budgetArg.MatchString(c.cmd) {
			continue // a shortened campaign prints other figures
		}
		// Paths print as the reader's would: relative to the repository,
		// and /tmp/ for the scratch directory.
		got := strings.ReplaceAll(strings.ReplaceAll(out.String(), repo+string(filepath.Separator), ""), scratch+"/", "/tmp/")
		if miss := outputMissing(c.output, got); miss != "" {
			t.Errorf("%s:%d: %s\nprints no line %q (in the documented order):\n%s", c.file, c.line, c.cmd, miss, tailLines(got, 40))
		}
	}
	if ran < 10 {
		t.Errorf("ran %d documented commands", ran)
	}
}

// outputMissing returns the first line of the documented output doc that
// output lacks, "" when output has them all in that order ("..." lines and
// lines between documented ones may be anything, "..." in a line any text);
// trailing blanks do not count.
func outputMissing(doc []string, output string) string {
	got := strings.Split(output, "\n")
	j := 0
	for _, d := range doc {
		if strings.TrimSpace(d) == "..." {
			continue
		}
		re := docLineRe(d)
		for j < len(got) && !re.MatchString(strings.TrimRight(got[j], " ")) {
			j++
		}
		if j == len(got) {
			return d
		}
		j++
	}
	return ""
}

// docLineRe matches an output line as the document shows it, "..." or "…"
// inside it standing for any text.
func docLineRe(d string) *regexp.Regexp {
	parts := regexp.MustCompile(`\.\.\.|…`).Split(d, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

// adaptDocCommand rewrites a documented command for the test (short
// budgets, the built binary, a scratch /tmp) or says why it is skipped.
func adaptDocCommand(cmd, scratch string) (string, string) {
	switch {
	case regexp.MustCompile(`(^|\s)go test (-[^ ]+ )*\./\.\.\.`).MatchString(cmd):
		return "", "the test suite itself"
	case strings.Contains(cmd, "--engine afl") || strings.Contains(cmd, "afl-fuzz "):
		if os.Getenv("LABELCOV_AFL_TESTS") == "" {
			return "", "AFL++: LABELCOV_AFL_TESTS=1"
		}
	case goDocCommand.MatchString(cmd) && !testenv.IsLong():
		return "", "builds Go test binaries: " + testenv.LongVar + "=1"
	}
	for _, tool := range []string{"jq", "genhtml", "xxd", "hyperfine"} {
		if regexp.MustCompile(`\|\s*` + tool + `\b|(^|&&\s*)` + tool + `\b`).MatchString(cmd) {
			if _, err := exec.LookPath(tool); err != nil {
				return "", tool + " not installed"
			}
		}
	}
	cmd = strings.ReplaceAll(cmd, "go run ./cmd/labelcov", "labelcov")
	cmd = budgetArg.ReplaceAllStringFunc(cmd, func(s string) string {
		return "--budget " + strconv.Itoa(testenv.Sized(1, 3)) + "s"
	})
	cmd = strings.ReplaceAll(cmd, "/tmp/", scratch+"/")
	return cmd, ""
}

// goDocCommand matches a documented command that works on Go packages
// (the go command itself, or labelcov on a Go pattern or module): each
// builds Go test binaries.
var goDocCommand = regexp.MustCompile(`(^|[\s&;])go (test|run ./[^c]|build)|\./\.\.\.|testdata/go/|gobench`)

// docFuzzWitnesses holds, for each fuzz target a document fuzzes with go
// test -fuzz, an input that crashes it, in Go's corpus encoding.
var docFuzzWitnesses = map[string]string{
	// Hot, humid and dusty at once: Alarm divides by zero quiet sensors.
	"FuzzAlarm": "go test fuzz v1\nint32(510)\nint32(90)\nint32(260)\n",
}

var docGoFuzz = regexp.MustCompile(`^cd (\S+) && go test .*-fuzz (\w+)`)

// seedDocFuzzWitness writes the known crasher of the target that cmd, a
// documented `cd DIR && go test ... -fuzz FuzzX` command, fuzzes into
// DIR/testdata/fuzz/FuzzX of the repository copy repo. Other commands
// are left alone; a fuzzed target without a witness is an error.
func seedDocFuzzWitness(cmd, repo string) error {
	m := docGoFuzz.FindStringSubmatch(cmd)
	if m == nil {
		return nil
	}
	w, ok := docFuzzWitnesses[m[2]]
	if !ok {
		return fmt.Errorf("the documented go test -fuzz of %s has no witness in docFuzzWitnesses: its verdict would be luck", m[2])
	}
	dir := filepath.Join(repo, filepath.FromSlash(m[1]), "testdata", "fuzz", m[2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "doc-witness"), []byte(w), 0o644)
}

// copyRepo copies the repository's tracked-looking files (no .git, no
// campaign outputs, and in a testdata/fuzz directory only the corpus
// entries git tracks, not what a documented go test -fuzz run left there)
// so that documented commands write into the copy.
func copyRepo(src, dst string) error {
	tracked := map[string]bool{}
	ls := exec.Command("git", "ls-files", "-z")
	ls.Dir = src
	if out, err := ls.Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			tracked[filepath.FromSlash(f)] = true
		}
	}
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() && (d.Name() == ".git" || rel == "out") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if inFuzzCorpus(rel) && !tracked[rel] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// inFuzzCorpus reports whether the relative path rel is inside a
// testdata/fuzz directory.
// privateFuzzCache returns a GOCACHE for the documented commands whose
// build cache is the caller's (so nothing is rebuilt) but whose fuzz
// corpora, which go test -fuzz writes and cover --fuzz reads under
// GOCACHE/fuzz, are private to this run: the suite neither reads what
// earlier campaigns left in the user's cache nor adds to it. Every entry
// of the caller's cache but fuzz/ is linked into dir. It returns "" when
// the go command is not there (the commands that need it then fail on
// their own).
func privateFuzzCache(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return "", nil
	}
	real := strings.TrimSpace(string(out))
	if real == "" || real == "off" {
		return "", nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "fuzz"), 0o755); err != nil {
		return "", err
	}
	if err := os.MkdirAll(real, 0o755); err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	// The go command lays out 256 subdirectories and a few files at the
	// cache's top; create the subdirectories first so that both caches
	// share every one of them.
	for i := 0; i < 256; i++ {
		if err := os.MkdirAll(filepath.Join(real, fmt.Sprintf("%02x", i)), 0o755); err != nil {
			return "", fmt.Errorf("build cache: %w", err)
		}
	}
	entries, err := os.ReadDir(real)
	if err != nil {
		return "", fmt.Errorf("build cache: %w", err)
	}
	for _, e := range entries {
		if e.Name() == "fuzz" {
			continue
		}
		if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return "", err
		}
	}
	return dir, nil
}

func inFuzzCorpus(rel string) bool {
	return strings.Contains(filepath.ToSlash(rel), "testdata/fuzz/")
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// TestDocsSpeakToReaders: the documentation addresses a reader, who has no
// issue tracker open: no "the issue", no "issue N".
func TestDocsSpeakToReaders(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md", "../../testdata/bench/README.md")
	bad := regexp.MustCompile(`(?i)\b(the issue|issue's|issue [0-9]+)\b`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := bad.FindString(line); m != "" {
				t.Errorf("%s:%d: %q speaks of an issue the reader does not have", f, i+1, m)
			}
		}
	}
}
