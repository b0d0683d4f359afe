package subject

import (
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/labels"
)

// itemKind is a kind of coverage item: its prefix and its name in counts.
type itemKind struct{ prefix, name string }

// planItemKinds name the items of a plan's tests (measure.Items).
var planItemKinds = []itemKind{{measure.ItemLabel, "labels"}, {measure.ItemBranch, "branch outcomes"},
	{measure.ItemAction, "action buckets"}, {measure.ItemCategory, "finding categories"}}

// goItemKinds name the items of a Go fuzz target.
var goItemKinds = []itemKind{{gofuzz.ItemLabel, "labels"}, {gofuzz.ItemBlock, "blocks"}, {gofuzz.ItemFailure, "failure sites"}}

// itemCounts summarizes items by kind: "12 labels", "30 branch outcomes", ...
func itemCounts(items []string, kinds []itemKind) []string {
	var out []string
	for _, k := range kinds {
		out = append(out, fmt.Sprintf("%d %s", countKind(items, k.prefix), k.name))
	}
	return out
}

// itemDelta counts items by kind before and after.
func itemDelta(before, after []string, kinds []itemKind) []string {
	b, a := itemCounts(before, kinds), itemCounts(after, kinds)
	out := make([]string, len(a))
	for i := range a {
		out[i] = b[i] + " -> " + a[i]
	}
	return out
}

// countKind counts the items with prefix.
func countKind(items []string, prefix string) int {
	n := 0
	for _, it := range items {
		if strings.HasPrefix(it, prefix) {
			n++
		}
	}
	return n
}

// goItemFigures counts items by kind for JSON.
func goItemFigures(items []string) map[string]int {
	return map[string]int{"labels": countKind(items, gofuzz.ItemLabel), "blocks": countKind(items, gofuzz.ItemBlock),
		"failures": countKind(items, gofuzz.ItemFailure)}
}

// criterionFigures are the per-criterion figures of what items cover, as
// cover reports them (labels.Figures: each criterion in its unit, mcdc in
// conditions, all the sum), in report order: "mcc 5/6".
func criterionFigures(ls []*labels.Label, ds []*labels.Decision, items []string) ([]string, []labels.Fraction, error) {
	cov, err := labels.Figures(ls, ds, measure.LabelHits(items))
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var figs []labels.Fraction
	for _, k := range append(labels.AllKeys(), labels.All) {
		if c := cov[k]; c != nil {
			names = append(names, string(k))
			figs = append(figs, c.Fraction)
		}
	}
	return names, figs, nil
}

// criterionLine is criterionFigures as one line: "mcc 5/6, mcdc 1/3
// conditions, all 6/9".
func criterionLine(ls []*labels.Label, ds []*labels.Decision, items []string) (string, error) {
	names, figs, err := criterionFigures(ls, ds, items)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + figs[i].String()
		if n == string(labels.MCDC) {
			parts[i] += " conditions"
		}
	}
	return strings.Join(parts, ", "), nil
}

// labelSlugs maps the item of each label ("label:ID") to the words a
// generated test is named by: criterion, operator, id.
func labelSlugs(ls []*labels.Label) map[string]string {
	out := map[string]string{}
	for _, l := range ls {
		out[measure.LabelItem(l.ID)] = fmt.Sprintf("%s_%s_label-%d", l.Criterion, l.Operator, l.ID)
	}
	return out
}

// slugItem names a generated test by the first label it adds (else the
// first item).
func slugItem(adds []string, labelOf map[string]string) string {
	for _, it := range adds {
		if s, ok := labelOf[it]; ok {
			return fileSafe(s)
		}
	}
	if len(adds) > 0 {
		return fileSafe(adds[0])
	}
	return "none"
}

func fileSafe(s string) string {
	s = strings.NewReplacer("<=", "le", ">=", "ge", "/=", "ne", "!=", "ne", "==", "eq", "&&", "and", "||", "or", "->", "to", "<", "lt", ">", "gt", "=", "eq",
		"+", "plus", "*", "mul", "/", "div", "(", "", ")", "", " ", "-").Replace(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return out
}

func firstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string(nil), xs[:n]...), fmt.Sprintf("+%d more", len(xs)-n))
}
