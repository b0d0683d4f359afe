package subject

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/coverage/report"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/interp/syntax"
)

// SarifOptions are sarif's options beside the subject's (Args: the plan,
// then the campaign folders; World: the world named in replay commands).
type SarifOptions struct {
	// Out is the log to write ("": w).
	Out string
	// Version is labelcov's version, the log's tool version.
	Version string
}

// Sarif writes the findings of fuzzing campaigns on the plan (the
// findings.json of each campaign folder, or of each instance folder in
// it) as one SARIF 2.1.0 log.
func (s *planSubject) Sarif(_ context.Context, w io.Writer, so SarifOptions) error {
	plan, world, camps := s.file(), s.o.World, s.o.Args[1:]
	var g outputs.Guard
	g.Input("the plan", plan, world)
	g.Folder("the campaign", camps...)
	if err := g.Check("-o", so.Out); err != nil {
		return err
	}
	src, err := os.ReadFile(plan)
	if err != nil {
		return fmt.Errorf("reading plan: %w", err)
	}
	f, err := syntax.Parse(plan, src)
	if err != nil {
		return err
	}
	replay := "labelcov replay " + ShellQuote(plan)
	if world != "" {
		replay += " --world " + ShellQuote(world)
	}
	var recs []engine.FindingRecord
	for _, dir := range camps {
		rs, err := engine.ReadFindings(dir)
		if err != nil {
			return err
		}
		recs = append(recs, rs...)
	}
	fs := report.CampaignFindings(f, recs, func(input string) string { return replay + " " + ShellQuote(input) })
	var b bytes.Buffer
	if err := report.SARIF(&b, so.Version, fs); err != nil {
		return err
	}
	if so.Out == "" {
		_, err := w.Write(b.Bytes())
		return err
	}
	if err := g.WriteFile("-o", so.Out, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}

// Sarif: campaigns on Go fuzz targets keep their findings as go test
// does (testdata/fuzz), not as findings.json.
func (s *goSubject) Sarif(context.Context, io.Writer, SarifOptions) error {
	return fmt.Errorf("sarif reads the findings of labelcov fuzz campaigns on a plan; %s names Go packages (go test -fuzz keeps its failing inputs in testdata/fuzz)", s.o.Args[0])
}

// Sarif: sb-cover's records hold no findings.
func (s *sbclSubject) Sarif(context.Context, io.Writer, SarifOptions) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:+=@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
