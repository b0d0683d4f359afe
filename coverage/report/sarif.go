package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf16"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// SARIFVersion is the SARIF version SARIF writes.
const SARIFVersion = "2.1.0"

// SARIFSchema is the $schema URI of SARIF 2.1.0 logs.
const SARIFSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIFColumn converts a byte column (labelcov's positions count bytes, as
// go/token does) on line of src to the UTF-16 code units SARIF counts by
// default (columnKind utf16CodeUnits): the columns differ on a line with
// non-ASCII text before the position. A line or column out of range is
// returned unchanged.
func SARIFColumn(src []byte, line, col int) int {
	if line < 1 || col < 1 {
		return col
	}
	start := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	if start+col-1 > len(src) {
		return col
	}
	units := 0
	for _, r := range string(src[start : start+col-1]) {
		units += utf16.RuneLen(r)
	}
	return units + 1
}

// SARIFFinding is one finding of a campaign, as SARIF reports it.
type SARIFFinding struct {
	// Key and Category as in findings.json; Detail its message.
	Key, Category, Detail string
	// Pos is where the finding is in the plan: the failure's position,
	// or for a check's category where the check returns it; its column
	// counts UTF-16 code units (SARIFColumn).
	Pos labels.Position
	// Input is the saved (minimized) input; Replay the command that
	// replays it.
	Input, Replay string
}

// SARIF writes findings as a SARIF 2.1.0 log for code scanning (GitHub,
// GitLab): one rule per category, one result per finding with its message,
// the plan position, a fingerprint (the finding key) and the replay
// command (in the message and as properties.replay).
func SARIF(w io.Writer, toolVersion string, fs []SARIFFinding) error {
	type rule struct {
		ID               string         `json:"id"`
		Name             string         `json:"name"`
		ShortDescription map[string]any `json:"shortDescription"`
		FullDescription  map[string]any `json:"fullDescription"`
		Help             map[string]any `json:"help"`
	}
	var rules []rule
	ruleIndex := map[string]int{}
	var results []map[string]any
	for _, f := range fs {
		i, ok := ruleIndex[f.Category]
		if !ok {
			i = len(rules)
			ruleIndex[f.Category] = i
			rules = append(rules, rule{ID: f.Category, Name: ruleName(f.Category),
				ShortDescription: map[string]any{"text": "labelcov finding category " + f.Category},
				FullDescription: map[string]any{"text": "A fuzzing campaign found an input on which the plan ends in the finding category " +
					f.Category + ": a def-check returned it, or the plan failed or timed out so."},
				Help: map[string]any{"text": sarifHelp, "markdown": sarifHelpMarkdown}})
		}
		msg := f.Category
		if f.Detail != "" {
			msg += ": " + f.Detail
		}
		if f.Replay != "" {
			msg += ". Replay: " + f.Replay
		}
		region := map[string]any{"startLine": max(f.Pos.Line, 1)}
		if f.Pos.Col > 0 {
			region["startColumn"] = f.Pos.Col
		}
		res := map[string]any{
			"ruleId":    f.Category,
			"ruleIndex": i,
			"level":     "error",
			"message":   map[string]any{"text": msg},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": sarifURI(f.Pos.File)},
				"region":           region,
			}}},
			"partialFingerprints": map[string]any{"labelcovFindingKey/v1": f.Key},
			"properties":          map[string]any{"key": f.Key, "input": f.Input, "replay": f.Replay},
		}
		results = append(results, res)
	}
	if results == nil {
		results = []map[string]any{}
	}
	if rules == nil {
		rules = []rule{}
	}
	driver := map[string]any{
		"name":           "labelcov",
		"version":        sarifToolVersion(toolVersion),
		"informationUri": "https://github.com/labelcov/labelcov",
		"rules":          rules,
	}
	if toolVersion != "" {
		driver["fullName"] = "labelcov " + toolVersion
	}
	log := map[string]any{
		"$schema": SARIFSchema,
		"version": SARIFVersion,
		"runs": []any{map[string]any{
			"tool":       map[string]any{"driver": driver},
			"columnKind": "utf16CodeUnits",
			"results":    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}

// sarifHelp is every rule's help (GitHub code scanning requires one): how
// to reproduce and fix a finding.
const (
	sarifHelp = "Each result names the minimized input that reproduces the finding and the command that replays it " +
		"(labelcov replay PLAN INPUT, also properties.replay); run it, fix the plan or the check, and fuzz again. " +
		"The input's .env beside it (with a world) is the same scenario to read or edit."
	sarifHelpMarkdown = "Each result names the minimized input that reproduces the finding and the command that replays it " +
		"(`labelcov replay PLAN INPUT`, also `properties.replay`); run it, fix the plan or the check, and fuzz again. " +
		"The input's `.env` beside it (with a world) is the same scenario to read or edit."
)

// ruleName makes a PascalCase rule name of a category (window-open-in-frost:
// WindowOpenInFrost), as SARIF viewers show it.
func ruleName(cat string) string {
	var b strings.Builder
	up := true
	for _, r := range cat {
		switch {
		case r == '-' || r == '_' || r == ' ' || r == ':':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "Finding"
	}
	return b.String()
}

// sarifToolVersion is the driver's version as SARIF consumers compare it:
// starting with a number (a module version v1.2.3 gives 1.2.3; a build
// without one, such as "(devel) …", gives 0.0.0-devel, and the driver's
// fullName keeps the whole build description).
func sarifToolVersion(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-devel"
	}
	if i := strings.IndexByte(v, ' '); i >= 0 {
		v = v[:i]
	}
	return v
}

// sarifURI writes a file path as a URI: a relative path as a relative
// reference (forward slashes, no leading ./), an absolute path as a file://
// URI (a relative reference must not start with a slash, SARIF §3.4.4),
// each percent-encoded where a URI needs it.
func sarifURI(path string) string {
	p := strings.ReplaceAll(path, "\\", "/")
	if abs := strings.HasPrefix(p, "/") || (len(p) > 2 && p[1] == ':' && p[2] == '/'); abs {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x is file:///C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return (&url.URL{Path: p}).String()
}

// CheckPositions maps each category a def-check of f may return (a quoted
// symbol or a keyword in its body) to where the first such check returns
// it, and each check's name to the check's position.
func CheckPositions(f *syntax.File) map[string]labels.Position {
	out := map[string]labels.Position{}
	add := func(name string, p syntax.Pos) {
		if _, ok := out[name]; !ok {
			out[name] = labels.PositionOf(f.Name, p)
		}
	}
	for _, form := range f.Forms {
		l, ok := form.(*syntax.List)
		if !ok || syntax.Head(l) != "def-check" || len(l.Elems) < 2 {
			continue
		}
		for _, x := range l.Elems[2:] {
			syntax.Walk(x, func(n syntax.Node) bool {
				switch n := n.(type) {
				case *syntax.Quote:
					if s, ok := n.X.(*syntax.Symbol); ok && s.Name != "nil" {
						add(s.Name, n.Start)
					}
				case *syntax.Keyword:
					add(n.Name, n.Start)
				}
				return true
			})
		}
		if s, ok := l.Elems[1].(*syntax.Symbol); ok {
			start, _ := l.Span()
			add(s.Name, start)
		}
	}
	return out
}

// CampaignFindings are the SARIF findings of a campaign's records on plan
// f (parsed from the file f.Name), sorted (SortFindings): each at its
// recorded position, else for a check's category where the def-check
// returns it (CheckPositions), else at line 1 of the plan; columns on the
// plan's own lines in SARIF's units (SARIFColumn). A record with a saved
// input names it, with replay(input) as the command that replays it.
func CampaignFindings(f *syntax.File, recs []engine.FindingRecord, replay func(input string) string) []SARIFFinding {
	plan := f.Name
	checks := CheckPositions(f)
	fs := make([]SARIFFinding, 0, len(recs))
	for _, r := range recs {
		sf := SARIFFinding{Key: r.Key, Category: r.Category, Detail: r.Detail}
		if r.Pos.IsValid() {
			sf.Pos = r.Pos
		} else if p, ok := checks[r.Category]; ok {
			sf.Pos = p
			if sf.Detail == "" {
				sf.Detail = "a def-check returned this category"
			}
		} else {
			sf.Pos.File, sf.Pos.Line = plan, 1
		}
		if sf.Pos.File == "" {
			sf.Pos.File = plan
		}
		if filepath.Clean(sf.Pos.File) == filepath.Clean(plan) {
			sf.Pos.Col = SARIFColumn(f.Src, sf.Pos.Line, sf.Pos.Col)
		}
		if r.Input != "" {
			sf.Input = r.Input
			sf.Replay = replay(r.Input)
		}
		fs = append(fs, sf)
	}
	SortFindings(fs)
	return fs
}

// SortFindings orders findings by category, then key, for stable logs.
func SortFindings(fs []SARIFFinding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Category != fs[j].Category {
			return fs[i].Category < fs[j].Category
		}
		return fs[i].Key < fs[j].Key
	})
}
