package subject

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// TestFuzzSummaryOfResumedSession: the human summary reports this
// session's time (what --budget limits) and inputs, with the total beside.
func TestFuzzSummaryOfResumedSession(t *testing.T) {
	s := &campaign.Summary{Summary: &engine.Summary{Stop: "budget", ElapsedS: 68.1, SessionS: 8.0, Execs: 100, Corpus: 230, NewInputs: 12},
		Engine: "builtin"}
	var b strings.Builder
	if err := writeFuzzSummary(&b, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stopped (budget) after 8.0s (68.1s over all sessions)", "corpus 230 (12 new this session)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}
