package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzCampaign fuzzes plan deterministically (one worker, a seed, a run
// budget) into a new directory and returns it; the campaign must have
// findings (the temperature benchmark's has three).
func fuzzCampaign(t *testing.T, plan string) string {
	t.Helper()
	out := t.TempDir()
	code, _, errs := runCLI("fuzz", plan, "--workers", "1", "--seed", "3", "--runs", "20000", "--out", out)
	if code != exitFound {
		t.Fatalf("fuzz: exit %d (want findings, %d)\n%s", code, exitFound, errs)
	}
	return out
}

// sarifOfCampaign writes the campaign's findings as a SARIF log and returns
// its path.
func sarifOfCampaign(t *testing.T, plan, campaign string) string {
	t.Helper()
	log := filepath.Join(t.TempDir(), "findings.sarif")
	if code, _, errs := runCLI("sarif", plan, campaign, "-o", log); code != exitOK {
		t.Fatalf("sarif: exit %d\n%s", code, errs)
	}
	return log
}

// TestSarif fuzzes the temperature benchmark, writes its findings as SARIF
// and checks the log's structure for what labelcov writes (TestSarifSchema
// validates it against the SARIF 2.1.0 schema), that each result points at
// the def-check that returns its category, and that each replay command
// reproduces the finding.
func TestSarif(t *testing.T) {
	plan := "../../testdata/bench/temperature/temperature.plan"
	data, err := os.ReadFile(sarifOfCampaign(t, plan, fuzzCampaign(t, plan)))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Properties          struct {
					Key    string `json:"key"`
					Replay string `json:"replay"`
				} `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || !strings.Contains(doc.Schema, "sarif-2.1.0") || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name == "" {
		t.Fatalf("log header: %s", data)
	}
	run := doc.Runs[0]
	if len(run.Results) == 0 {
		t.Fatal("no results")
	}
	src, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, r := range run.Results {
		if r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s: ruleIndex does not name its rule", r.RuleID)
		}
		switch r.Level {
		case "none", "note", "warning", "error":
		default:
			t.Errorf("result %s: level %q", r.RuleID, r.Level)
		}
		if r.Message.Text == "" || len(r.Locations) != 1 || r.PartialFingerprints["labelcovFindingKey/v1"] == "" {
			t.Errorf("result %s: %+v", r.RuleID, r)
			continue
		}
		pl := r.Locations[0].PhysicalLocation
		if strings.ContainsAny(pl.ArtifactLocation.URI, "\\ ") || pl.Region.StartLine < 1 || pl.Region.StartColumn < 1 || pl.Region.StartLine > len(lines) {
			t.Errorf("result %s: location %+v", r.RuleID, pl)
			continue
		}
		// The position is where a def-check returns the category.
		line := lines[pl.Region.StartLine-1]
		if !strings.HasPrefix(line[pl.Region.StartColumn-1:], "'"+r.RuleID) || !strings.Contains(line, "(def-check") {
			t.Errorf("result %s points at %d:%d: %q", r.RuleID, pl.Region.StartLine, pl.Region.StartColumn, line)
		}
		// The replay command reproduces the finding.
		args := strings.Fields(r.Properties.Replay)
		if len(args) < 3 || args[0] != "labelcov" || !strings.Contains(r.Message.Text, r.Properties.Replay) {
			t.Errorf("result %s: replay %q", r.RuleID, r.Properties.Replay)
			continue
		}
		code, stdout, errs := runCLI(append(args[1:], "--json")...)
		if (code != exitOK && code != exitFound) || !strings.Contains(stdout, `"`+r.Properties.Key+`"`) {
			t.Errorf("result %s: %s: exit %d\n%s%s", r.RuleID, r.Properties.Replay, code, stdout, errs)
		}
	}
}
