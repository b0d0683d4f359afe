package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

// TestDocExamples runs every example of docs/language.md through
// `labelcov run --json`, so the language reference cannot drift from the
// implementation. In a ```lisp block, a form followed by `; => VALUE`
// must return VALUE (as printed by run), `; -| TEXT` lines are what it
// prints, and `; error-> KIND` means it fails with KIND. Definitions in a
// block are visible to the forms after them in that block.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := lispBlocks(string(doc))
	if len(blocks) < 40 {
		t.Fatalf("found %d lisp blocks in docs/language.md, expected the whole reference", len(blocks))
	}
	dir := t.TempDir()
	total := 0
	for bi, b := range blocks {
		examples, err := blockExamples(b.text)
		if err != nil {
			t.Errorf("docs/language.md:%d: %v", b.line, err)
			continue
		}
		var prog strings.Builder
		for _, ex := range examples {
			if ex.def {
				fmt.Fprintln(&prog, ex.src)
			}
		}
		var runs []docExample
		for i, ex := range examples {
			if ex.def {
				continue
			}
			ex.plan = fmt.Sprintf("doc-example-%d", i)
			fmt.Fprintf(&prog, "(def-plan %s () %s)\n", ex.plan, ex.src)
			runs = append(runs, ex)
		}
		file := filepath.Join(dir, fmt.Sprintf("block%d.plan", bi))
		if err := os.WriteFile(file, []byte(prog.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, ex := range runs {
			total++
			line := b.line + ex.line
			got, err := runJSON(file, ex.plan)
			if err != nil {
				t.Errorf("docs/language.md:%d: %s: %v", line, ex.src, err)
				continue
			}
			if msg := ex.check(got); msg != "" {
				t.Errorf("docs/language.md:%d: %s\n%s", line, ex.src, msg)
			}
		}
	}
	if total < 120 {
		t.Errorf("ran %d examples, expected every example of the reference", total)
	}
}

type lispBlock struct {
	text string
	line int // line of the first line of text in the document, 1-based
}

var fence = regexp.MustCompile("(?m)^```lisp\n((?s:.*?))^```")

func lispBlocks(doc string) []lispBlock {
	var out []lispBlock
	for _, m := range fence.FindAllStringSubmatchIndex(doc, -1) {
		out = append(out, lispBlock{
			text: doc[m[2]:m[3]],
			line: strings.Count(doc[:m[2]], "\n") + 1,
		})
	}
	return out
}

type docExample struct {
	src    string // the form, on one line
	line   int    // 0-based line in its block
	def    bool   // a definition, not run on its own
	plan   string // name of the def-plan wrapping it
	result string // expected printed value; "" if not stated
	hasRes bool
	output []string // expected output lines
	kind   string   // expected failure kind
}

// blockExamples splits a block into forms and their expectations, which are
// the comments between a form and the next.
func blockExamples(text string) ([]docExample, error) {
	f, err := syntax.Parse("block.plan", []byte(text))
	if err != nil {
		return nil, err
	}
	var out []docExample
	ci := 0
	for i, form := range f.Forms {
		start, end := form.Span()
		limit := len(text) + 1
		if i+1 < len(f.Forms) {
			next, _ := f.Forms[i+1].Span()
			limit = next.Offset
		}
		ex := docExample{src: syntax.NodeString(form), line: start.Line - 1}
		switch syntax.Head(form) {
		case "defun", "defparameter", "def-plan", "def-check", "def-policy",
			"def-cram-function", "defvar", "defconstant", "defmacro", "in-package":
			ex.def = true
		}
		for ; ci < len(f.Comments) && f.Comments[ci].Start.Offset < limit; ci++ {
			c := f.Comments[ci]
			if c.Start.Offset < end.Offset {
				continue
			}
			body := strings.TrimSpace(strings.TrimLeft(c.Text, ";"))
			switch {
			case strings.HasPrefix(body, "=>"):
				ex.result, ex.hasRes = strings.TrimSpace(body[2:]), true
			case strings.HasPrefix(body, "-|"):
				ex.output = append(ex.output, strings.TrimSpace(body[2:]))
			case strings.HasPrefix(body, "error->"):
				ex.kind = strings.TrimSpace(body[len("error->"):])
			}
		}
		if ex.def && (ex.hasRes || ex.kind != "") {
			return nil, fmt.Errorf("definition %s has an expectation", ex.src)
		}
		if !ex.def && !ex.hasRes && ex.kind == "" {
			return nil, fmt.Errorf("example %s states no result (; => VALUE or ; error-> KIND)", ex.src)
		}
		out = append(out, ex)
	}
	return out, nil
}

type docRunReport struct {
	Outcome string          `json:"outcome"`
	Result  json.RawMessage `json:"result"`
	Failure *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"failure"`
	Output string `json:"output"`
}

func runJSON(file, plan string) (*docRunReport, error) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--json", "--plan", plan, file}, &stdout, &stderr)
	if code != exitOK && code != exitFound {
		return nil, fmt.Errorf("labelcov run exited %d: %s", code, stderr.String())
	}
	var r docRunReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return nil, fmt.Errorf("bad JSON from labelcov run: %w\n%s", err, stdout.String())
	}
	// run exits 1 exactly when the plan did not return.
	if (code == exitFound) != (r.Outcome != "ok") {
		return nil, fmt.Errorf("labelcov run exited %d with outcome %s", code, r.Outcome)
	}
	return &r, nil
}

func (ex docExample) check(r *docRunReport) string {
	var msgs []string
	if ex.kind == "timeout" {
		if r.Outcome != "timeout" {
			msgs = append(msgs, fmt.Sprintf("want outcome timeout, got %s", r.Outcome))
		}
	} else if ex.kind != "" {
		if r.Outcome != "failure" || r.Failure == nil || r.Failure.Kind != ex.kind {
			msgs = append(msgs, fmt.Sprintf("want failure %s, got outcome %s result %s failure %+v", ex.kind, r.Outcome, r.Result, r.Failure))
		}
	} else {
		var res string
		_ = json.Unmarshal(r.Result, &res)
		if r.Outcome != "ok" {
			msgs = append(msgs, fmt.Sprintf("want => %s, got outcome %s failure %+v", ex.result, r.Outcome, r.Failure))
		} else if res != ex.result {
			msgs = append(msgs, fmt.Sprintf("want => %s\n got => %s", ex.result, res))
		}
	}
	var lines []string
	for _, l := range strings.Split(r.Output, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if strings.Join(lines, "\n") != strings.Join(ex.output, "\n") {
		msgs = append(msgs, fmt.Sprintf("want output %q, got %q", ex.output, lines))
	}
	return strings.Join(msgs, "\n")
}
