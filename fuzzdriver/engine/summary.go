package engine

import (
	"fmt"
	"github.com/labelcov/labelcov/labels/fraction"
	"github.com/labelcov/labelcov/labels/srcpos"
	"io"
	"sort"
	"strings"
	"time"
)

// StatsVersion is the version of stats.json and findings.json. Bump it when a
// field changes meaning; adding fields keeps it. Version 2 writes a
// finding's position as an object (file, line, col, offset), where
// version 1 wrote it as text.
const StatsVersion = 2

// Figure is one coverage figure: covered out of total.
type Figure = fraction.Fraction

// Snapshot is what a CoverageFunc sees: the engine's union of coverage and the
// inputs kept since the previous call (so a caller can replay them on another
// plan, e.g. the annotated one, and measure label coverage incrementally).
type Snapshot struct {
	// Buckets holds one byte per VM counter: the AFL buckets (one bit each)
	// seen over all kept inputs; non-zero means the counter was hit.
	Buckets []uint8
	// New holds the inputs kept since the previous call, oldest first. The
	// callback may keep them; the engine never modifies them.
	New [][]byte
	// Corpus is the number of kept inputs.
	Corpus int
}

// CoverageFunc computes the caller's coverage figures ("branches",
// "instructions", "actions", "labels", ...). It is called about once a
// second from one goroutine, and once at the end of the campaign.
type CoverageFunc func(Snapshot) map[string]Figure

// Sample is one point of the stats.json time series.
type Sample struct {
	ElapsedS    float64           `json:"elapsed_s"`
	Execs       int64             `json:"execs"`
	ExecsPerSec float64           `json:"execs_per_sec"` // over the last interval
	Corpus      int               `json:"corpus"`
	Features    int               `json:"features"` // (counter, bucket) pairs seen
	Counters    int               `json:"counters"` // counters hit at least once
	Coverage    map[string]Figure `json:"coverage,omitempty"`
	Findings    int               `json:"findings"`
}

// FindingRecord is a finding key as the campaign records it: when it was
// first seen and where its minimized input lives.
type FindingRecord struct {
	Key      string `json:"key"`
	Category string `json:"category"`
	// Pos is where the finding happened (the zero Pos, left out, for a
	// check's category).
	Pos    srcpos.Pos `json:"pos,omitzero"`
	Detail string     `json:"detail,omitempty"`
	TimeS  float64    `json:"time_s"` // campaign time of first discovery
	Execs  int64      `json:"execs"`  // campaign execs at first discovery
	Input  string     `json:"input"`  // saved path ("" for in-memory campaigns)
	Size   Size       `json:"size"`   // of the saved (minimized) input
	// Original is the size of the input that first showed the key.
	Original Size `json:"original"`
	// New is false for findings loaded from a resumed campaign directory.
	New bool `json:"new"`
	// Data is the saved input itself.
	Data []byte `json:"-"`
}

// StatsFile is the content of <out>/<instance>/stats.json.
type StatsFile struct {
	Version  int             `json:"version"`
	Instance string          `json:"instance"`
	Seed     uint64          `json:"seed"`
	Workers  int             `json:"workers"`
	Started  string          `json:"started"` // RFC 3339, first session
	Samples  []Sample        `json:"samples"`
	Findings []FindingRecord `json:"findings"`
}

// findingsFile is the content of <out>/<instance>/findings.json, the index of
// the findings directory that makes resuming possible.
type findingsFile struct {
	Version  int             `json:"version"`
	Findings []FindingRecord `json:"findings"`
}

// Summary is the result of a campaign, ready to be printed as JSON.
type Summary struct {
	Execs       int64   `json:"execs"`
	ExecsPerSec float64 `json:"execs_per_sec"`
	// ElapsedS is campaign time over every session of a resumed campaign;
	// SessionS is this session's.
	ElapsedS float64 `json:"elapsed_s"`
	SessionS float64 `json:"session_s"`
	// CPUS is the CPU time of the campaign's processes when the runner
	// measured it (go test -fuzz campaigns of compare --go); 0: not known.
	CPUS   float64 `json:"cpu_s,omitempty"`
	Corpus int     `json:"corpus"`
	// NewInputs counts the corpus inputs kept this session.
	NewInputs int               `json:"new_inputs"`
	Features  int               `json:"features"`
	Coverage  map[string]Figure `json:"coverage"`
	Findings  []FindingRecord   `json:"findings"`
	// Stop says why the campaign ended: "runs", "budget", "canceled" or
	// "error".
	Stop string `json:"stop"`
	// Dir is the instance directory ("" for in-memory campaigns).
	Dir string `json:"dir,omitempty"`
	// Inputs holds the corpus inputs in queue order.
	Inputs [][]byte `json:"-"`
}

// writeProgress prints one status line in the spirit of `go test -fuzz`;
// newInputs counts the corpus inputs kept this session, taken with s.
func writeProgress(w io.Writer, s Sample, newInputs int) {
	var b strings.Builder
	fmt.Fprintf(&b, "fuzz: elapsed: %s, execs: %d (%.0f/sec), corpus: %d (%d this session), features: %d",
		(time.Duration(s.ElapsedS) * time.Second).String(), s.Execs, s.ExecsPerSec, s.Corpus, newInputs, s.Features)
	AppendCoverage(&b, s.Coverage)
	fmt.Fprintf(&b, ", findings: %d\n", s.Findings)
	io.WriteString(w, b.String()) //nolint:errcheck // progress is best effort
}

// AppendCoverage writes ", NAME: covered/total" for every figure in name
// order: the coverage part of a progress line, whichever engine runs.
func AppendCoverage(b *strings.Builder, cov map[string]Figure) {
	keys := make([]string, 0, len(cov))
	for k := range cov {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, ", %s: %s", k, cov[k])
	}
}
