package sbcover

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Options configure LabelCoverage and Report.
type Options struct {
	// Features are the features SBCL read the annotated plan with (its
	// *features*, with or without colons); DefaultFeatures when nil.
	Features []string
}

// LabelCoverage reads off the coverage of every active label of manifest
// m from f, what sb-cover recorded for the annotated plan annotated (the
// file m's labels were injected into, as SBCL compiled it). A label is
// covered when the "then" branch of its injected (when (ignore-errors
// PRED)) ran, and reached when either branch did. sb-cover files that
// branch under the source path of the when's test, which is found by
// reading annotated as SBCL reads it (Options.Features decide its reader
// conditionals).
//
// A label whose when is not where the manifest says, or whose branch
// sb-cover did not record, is an error: the annotated plan is not the one
// m describes, was not compiled with coverage, or was read with other
// features.
func LabelCoverage(m *labels.Manifest, annotated *syntax.File, f *File, opts Options) (covered, reached map[int]bool, err error) {
	feats := opts.Features
	if feats == nil {
		feats = DefaultFeatures
	}
	want := map[int]bool{}
	var active []*labels.Label
	for _, l := range m.Labels {
		if l.Status != labels.Active {
			continue
		}
		if l.Annotated == nil {
			return nil, nil, fmt.Errorf("label %d has no annotated position in the manifest (write it with labelcov annotate --manifest)", l.ID)
		}
		off := l.Annotated.Offset
		if off < 0 || !bytes.HasPrefix(annotated.Src[min(off, len(annotated.Src)):], []byte("(when ")) {
			return nil, nil, fmt.Errorf("%s: label %d: no (when ...) at %d:%d; is this the annotated plan the manifest describes?",
				annotated.Name, l.ID, l.Annotated.Line, l.Annotated.Col)
		}
		want[off] = true
		active = append(active, l)
	}
	paths := testPaths(annotated, newFeatures(feats), want)
	covered, reached = map[int]bool{}, map[int]bool{}
	var missing []string
	for _, l := range active {
		p, ok := paths[l.Annotated.Offset]
		var b *Branch
		if ok {
			b = f.Branches[p.key()]
		}
		if b == nil {
			missing = append(missing, fmt.Sprintf("label %d at %d:%d", l.ID, l.Annotated.Line, l.Annotated.Col))
			continue
		}
		covered[l.ID] = b.Then
		reached[l.ID] = b.Then || b.Else
	}
	if len(missing) > 0 {
		more := ""
		if len(missing) > 5 {
			more = fmt.Sprintf(" and %d more", len(missing)-5)
			missing = missing[:5]
		}
		return nil, nil, fmt.Errorf("%s: sb-cover recorded no branch for %s%s (of %d labels): was every form compiled with (declaim (optimize sb-cover:store-coverage-data)), and read with these features (%s)?",
			annotated.Name, strings.Join(missing, ", "), more, len(active), strings.Join(feats, " "))
	}
	return covered, reached, nil
}

// Report is the label coverage report (package measure's, for every
// renderer of coverage/report) of an SBCL run: m is the manifest
// labelcov annotate wrote, orig the original plan, annotated the annotated
// plan SBCL compiled, saved what sb-cover:save-coverage-in-file wrote
// (named savedName) after the user's tests ran. The run is one test,
// named after savedName.
func Report(m *labels.Manifest, orig, annotated *syntax.File, saved *Saved, savedName string, opts Options) (*measure.Report, error) {
	f, err := saved.Find(annotated.Name)
	if err != nil {
		return nil, err
	}
	covered, reached, err := LabelCoverage(m, annotated, f, opts)
	if err != nil {
		return nil, err
	}
	return measure.FromLabels(m, orig, "sb-cover "+savedName, covered, reached)
}
