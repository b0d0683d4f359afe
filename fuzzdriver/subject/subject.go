package subject

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// Kind is the kind of a subject: what its argument names.
type Kind int

const (
	// Plan is a plan file ("-": standard input), measured by running its
	// tests on the simulator.
	Plan Kind = iota
	// GoPackages are Go package patterns (./pkg/..., a directory of .go
	// files, an import path), measured by go test and go test -fuzz.
	GoPackages
	// SBCLRecord is a coverage file sb-cover wrote after the user's own
	// tests ran in SBCL on an annotated plan (cover --from-sbcl).
	SBCLRecord
)

func (k Kind) String() string {
	switch k {
	case GoPackages:
		return "Go packages"
	case SBCLRecord:
		return "SBCL coverage record"
	}
	return "plan"
}

// Options are what the user typed: the arguments and the flags of the
// verb, as they are (Open and the Subject's methods check them).
type Options struct {
	// Args are the positional arguments: the subject (a plan, Go
	// patterns; none with FromSBCL for the manifest's plan), then, for
	// plans, tests.
	Args []string
	// Changed reports whether the user set the flag name (without
	// dashes); nil: none was set.
	Changed func(name string) bool
	Stdin   io.Reader
	Stderr  io.Writer

	// What the subject's labels are (every kind); how a plan's tests run
	// (plans); which Go packages and tests (Go); which sb-cover record
	// (SBCL). A group meant for another kind of subject is a usage error
	// naming its flag.
	LabelSettings
	PlanSettings
	GoSettings
	SBCLSettings

	// JSON prints the report as JSON.
	JSON bool
}

// LabelSettings say which labels a subject of any kind gets.
type LabelSettings struct {
	Criteria    string
	MCCMaxAtoms int
	Pure        []string
	NoValues    bool
}

// PlanSettings say how a plan's tests run.
type PlanSettings struct {
	World      string
	Tests      []string
	PlanName   string // --plan: the def-plan to run
	MaxSteps   int64
	MaxObjects int
}

// GoSettings say which Go packages' tests, or which fuzz target's corpus,
// are measured, and how.
type GoSettings struct {
	Fuzz      string // --fuzz FuzzX
	FuzzCache string
	Dir       string // -C
	Tags      string
	LabelPkgs []string
	PerTest   bool
	Verbose   bool
}

// SBCLSettings name an sb-cover record (cover --from-sbcl) and what it
// was made from.
type SBCLSettings struct {
	FromSBCL  string
	Manifest  string
	Annotated string
	Features  []string
}

func (o *Options) changed(name string) bool { return o.Changed != nil && o.Changed(name) }

// Subject is what a suite verb works on.
type Subject interface {
	// Kind is what the argument named.
	Kind() Kind
	// Cover measures the subject's tests (plans: Tests; Go: the
	// packages' tests or a fuzz target's corpus; SBCL: the record) and
	// writes the report to w and the files o names.
	Cover(ctx context.Context, w io.Writer, o CoverOptions) error
	// Reduce copies to out a smallest-first subset of the suite that
	// covers what the whole suite covers, and reports it on w.
	Reduce(ctx context.Context, w io.Writer, out string) error
	// Generate fuzzes the subject seeded with its suite and writes to
	// o.Out the new tests that cover what the suite does not.
	Generate(ctx context.Context, w io.Writer, o GenerateOptions) error
	// Annotate writes the subject with its labels injected as the
	// outputs o name, and reports on w.
	Annotate(ctx context.Context, w io.Writer, o AnnotateOptions) error
	// Sarif writes the findings of the subject's fuzzing campaigns
	// (Args after the subject) as a SARIF 2.1.0 log.
	Sarif(ctx context.Context, w io.Writer, o SarifOptions) error
	// Fuzz runs a fuzzing campaign on the subject and prints its
	// summary on w.
	Fuzz(ctx context.Context, w io.Writer, o FuzzOptions) error
	// Labels lists the subject's labels on w.
	Labels(ctx context.Context, w io.Writer) error
}

// Open opens the subject the user typed. It is the one place that
// decides what kind of subject an argument names: a coverage record with
// FromSBCL, Go packages when the first argument is a Go package pattern
// (transform/golang.IsPatternArg), a plan file otherwise. It reads
// nothing yet: the Subject's methods check the options and read.
func Open(o Options) (Subject, error) {
	switch KindOf(o) {
	case SBCLRecord:
		return &sbclSubject{o: o}, nil
	case GoPackages:
		return &goSubject{o: o}, nil
	}
	if len(o.Args) == 0 {
		return nil, fmt.Errorf("missing the plan")
	}
	return &planSubject{o: o}, nil
}

// KindOf is the kind of subject o names.
func KindOf(o Options) Kind {
	switch {
	case o.FromSBCL != "":
		return SBCLRecord
	case len(o.Args) > 0 && gotransform.IsPatternArg(o.Args[0]):
		return GoPackages
	}
	return Plan
}

// FoundError is returned by a method that did its job and found
// something (failing tests, a missed coverage gate): the CLI's exit
// status 1.
type FoundError struct{ Msg string }

func (e *FoundError) Error() string { return e.Msg }

// Found returns a *FoundError with a formatted message.
func Found(format string, args ...any) error {
	return &FoundError{Msg: fmt.Sprintf(format, args...)}
}

// InterruptedError is returned by a verb a signal or a deadline stopped
// before its budget: the CLI's exit status 3.
type InterruptedError struct{ Msg string }

func (e *InterruptedError) Error() string { return e.Msg }

// Interrupted returns an *InterruptedError with a formatted message.
func Interrupted(format string, args ...any) error {
	return &InterruptedError{Msg: fmt.Sprintf(format, args...)}
}

// Snippet is the source line with a caret of a source error err (a
// *syntax.Error, wrapped or not), or "".
func Snippet(err error) string {
	var serr *syntax.Error
	if errors.As(err, &serr) {
		return serr.Snippet()
	}
	return ""
}

// WriteJSON writes v as indented JSON, as every report of the CLI.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// The defaults of the flags, as the packages that use them define them.
const (
	DefaultMaxObjects       = runner.DefaultMaxObjects
	DefaultMaxSteps         = runner.DefaultMaxSteps
	DefaultCampaignMaxSteps = campaign.DefaultMaxSteps
	DefaultMCCMaxAtoms      = labels.DefaultMCCMaxAtoms
	DefaultRunTimeout       = engine.DefaultRunTimeout
	DefaultInstance         = engine.DefaultInstance
	DefaultProgress         = engine.DefaultProgressInterval
	EngineBuiltin           = campaign.EngineBuiltin
)
