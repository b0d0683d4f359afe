package transform

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// readBack parses r.Source, as a reader of the annotated file does, and
// requires the tree to equal r.File, the tree built while the text was
// written: the same forms, positions, names as written and comments.
func readBack(r *Result) (*syntax.File, error) {
	f, err := syntax.Parse(r.Normalized.Orig.Name, r.Source)
	if err != nil {
		return nil, fmt.Errorf("annotated plan does not parse: %w", err)
	}
	if r.File == nil {
		return nil, fmt.Errorf("no built tree")
	}
	if d := treeDiff(f, r.File); d != "" {
		return nil, fmt.Errorf("built tree differs from the parsed one: %s", d)
	}
	return f, nil
}

// treeDiff describes the first difference of the built tree b from the
// parsed tree p ("" if they are equal).
func treeDiff(p, b *syntax.File) string {
	if p.Name != b.Name || string(p.Src) != string(b.Src) {
		return "name or text"
	}
	if len(p.Comments) != len(b.Comments) {
		return fmt.Sprintf("%d comments parsed, %d built", len(p.Comments), len(b.Comments))
	}
	for i := range p.Comments {
		if !reflect.DeepEqual(p.Comments[i], b.Comments[i]) {
			return fmt.Sprintf("comment %d: parsed %+v, built %+v", i, *p.Comments[i], *b.Comments[i])
		}
	}
	if len(p.Forms) != len(b.Forms) {
		return fmt.Sprintf("%d forms parsed, %d built", len(p.Forms), len(b.Forms))
	}
	for i := range p.Forms {
		if d := nodeDiff(p.Forms[i], b.Forms[i]); d != "" {
			return d
		}
	}
	if !reflect.DeepEqual(p, b) {
		return "trees differ (nil against empty slices?)"
	}
	return ""
}

func nodeDiff(p, b syntax.Node) string {
	if reflect.TypeOf(p) != reflect.TypeOf(b) {
		return fmt.Sprintf("%T parsed at %v, %T built", p, start(p), b)
	}
	if pl, ok := p.(*syntax.List); ok {
		bl := b.(*syntax.List)
		if pl.Open != bl.Open || pl.Close != bl.Close || len(pl.Elems) != len(bl.Elems) || (pl.Elems == nil) != (bl.Elems == nil) {
			return fmt.Sprintf("list parsed %+v-%+v (%d elems), built %+v-%+v (%d elems)", pl.Open, pl.Close, len(pl.Elems), bl.Open, bl.Close, len(bl.Elems))
		}
		for i := range pl.Elems {
			if d := nodeDiff(pl.Elems[i], bl.Elems[i]); d != "" {
				return d
			}
		}
		return ""
	}
	var d string
	pc, bc := children(p), children(b)
	for i := range pc {
		if d = nodeDiff(pc[i], bc[i]); d != "" {
			return d
		}
	}
	if !reflect.DeepEqual(p, b) {
		return fmt.Sprintf("parsed %#v, built %#v", p, b)
	}
	return ""
}

func start(n syntax.Node) syntax.Pos { s, _ := n.Span(); return s }

func children(n syntax.Node) []syntax.Node {
	switch n := n.(type) {
	case *syntax.Quote:
		return []syntax.Node{n.X}
	case *syntax.Prefixed:
		return []syntax.Node{n.X}
	case *syntax.Conditional:
		return []syntax.Node{n.Feature, n.X}
	}
	return nil
}

// repoPlans lists every plan and Lisp file of the repository's testdata
// and test folders (testdata/bench included).
func repoPlans(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".plan") || strings.HasSuffix(path, ".lisp")) {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 40 {
		t.Fatalf("found only %d plans", len(out))
	}
	return out
}

// TestBuiltTreeIsParsedTree: the tree Plan builds while writing the
// annotated text is the tree a parse of that text reads, on every plan of
// the repository (the default run: the small ones), annotated with all
// criteria, with dist and with mcdc; each active label's when is a node of
// that tree at the label's annotated offset; the text is the same when no
// tree is built (Options.TextOnly).
func TestBuiltTreeIsParsedTree(t *testing.T) {
	annotated := 0
	for _, path := range repoPlans(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(src) > 2500 && !testenv.IsLong() {
			continue // the default run reads the small plans (half of them)
		}
		f, err := syntax.Parse(path, src)
		if err != nil {
			continue // a plan that tests the reader's errors
		}
		for _, cs := range []string{"all", "dist", "mcdc"} {
			c, err := labels.ParseCriteria(cs)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Plan(f, Options{Labels: labels.Options{Criteria: c}})
			if err != nil {
				continue // a plan normalize or the labels refuse
			}
			annotated++
			if _, err := readBack(r); err != nil {
				t.Errorf("%s (%v): %v", path, c, err)
				continue
			}
			if cs == "all" {
				// The text does not depend on whether its tree is built.
				rt, err := Plan(f, Options{Labels: labels.Options{Criteria: c}, TextOnly: true})
				if err != nil || string(rt.Source) != string(r.Source) || rt.File != nil {
					t.Errorf("%s (%v): the text written without a tree differs (%v)", path, c, err)
				}
			}
			inTree := map[*syntax.List]bool{}
			for _, n := range r.File.Forms {
				syntax.Walk(n, func(n syntax.Node) bool {
					if l, ok := n.(*syntax.List); ok {
						inTree[l] = true
					}
					return true
				})
			}
			for _, l := range r.Labels.Active() {
				w := r.Whens[l.ID]
				if w == nil || !inTree[w] || syntax.Head(w) != "when" || w.Open.Offset != l.Annotated.Offset {
					t.Errorf("%s (%v): label %d: when %v not in the tree at %d", path, c, l.ID, w, l.Annotated.Offset)
				}
			}
		}
	}
	if want := testenv.Sized(60, 160); annotated < want {
		t.Errorf("only %d plans annotated", annotated)
	}
}
