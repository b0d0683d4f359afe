package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// sarifValidatorJS validates SARIF logs with ajv (JSON Schema 2020-12, with
// ajv-formats for the schema's uri, date-time and uuid formats) against the
// SARIF 2.1.0 schema that Microsoft's SARIF SDK ships in its Multitool
// package. Arguments: npm's global node_modules directory, then the logs.
// It prints one JSON object: the schema's and the Multitool's paths and,
// per log, the schema errors.
const sarifValidatorJS = `
const path = require('path'), fs = require('fs');
const [root, ...logs] = process.argv.slice(1);
const Ajv2020 = require(path.join(root, 'ajv/dist/2020'));
const addFormats = require(path.join(root, 'ajv-formats'));
const multitool = require(path.join(root, '@microsoft/sarif-multitool'));
const schemaPath = path.join(path.dirname(multitool), 'sarif-2.1.0.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({allErrors: true, strict: false});
addFormats(ajv);
const validate = ajv.compile(schema);
const out = {schema: schemaPath, multitool: multitool, errors: {}};
for (const f of logs) {
  validate(JSON.parse(fs.readFileSync(f, 'utf8')));
  out.errors[f] = (validate.errors || []).map(e => e.instancePath + ' ' + e.message + ' ' + JSON.stringify(e.params));
}
console.log(JSON.stringify(out));
`

// TestSarifSchema validates the SARIF logs of a real campaign with findings
// (the plan named by a relative path and by an absolute one) against the
// SARIF 2.1.0 schema, twice:
//
//   - Microsoft's SARIF Multitool (`validate`, npm @microsoft/sarif-multitool
//     5.7.0, from the SARIF SDK of the specification's editors): the schema's
//     required properties and the SDK's SARIF1xxx rules (errors: what the
//     specification requires beyond the schema), SARIF2xxx rules (warnings:
//     what it recommends) and GHxxxx rules (errors: what GitHub code
//     scanning requires); any error or warning fails;
//   - ajv against the schema file the Multitool ships, because the
//     Multitool's own schema check does not enforce enum values, minimums or
//     additionalProperties (it accepts "level": "fatal" and "startLine": 0).
//
// Each validator is first shown a broken copy of the log and must reject it,
// so that a validator that checks nothing cannot pass. Opt-in with
// LABELCOV_FORMAT_TESTS=1; .ci/run installs the validators (npm install -g
// @microsoft/sarif-multitool@5.7.0 ajv@8 ajv-formats@3).
func TestSarifSchema(t *testing.T) {
	tools := testenv.Formats(t, "node", "npm")
	rootOut, err := exec.Command(tools[1], "root", "-g").Output()
	if err != nil {
		t.Fatalf("npm root -g: %v", err)
	}
	root := strings.TrimSpace(string(rootOut))

	plan := "../../testdata/bench/temperature/temperature.plan"
	absPlan, err := filepath.Abs(plan)
	if err != nil {
		t.Fatal(err)
	}
	camp := fuzzCampaign(t, plan)
	logs := []string{sarifOfCampaign(t, plan, camp), sarifOfCampaign(t, absPlan, camp)}

	// The broken copies: a level and a region the schema forbids and a
	// property it does not define (ajv); a relative reference that starts
	// with a slash, which SARIF1004 forbids (Multitool).
	var doc map[string]any
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	result := doc["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	physical := result["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	result["level"] = "fatal"
	result["severity"] = "high"
	physical["region"].(map[string]any)["startLine"] = 0
	brokenSchema := writeTestJSON(t, "broken-schema.sarif", doc)
	result["level"] = "error"
	delete(result, "severity")
	physical["region"].(map[string]any)["startLine"] = 1
	physical["artifactLocation"].(map[string]any)["uri"] = "/plans/temperature.plan"
	brokenRules := writeTestJSON(t, "broken-rules.sarif", doc)

	// ajv.
	cmd := exec.Command(tools[0], append([]string{"-e", sarifValidatorJS, root, brokenSchema}, logs...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node (ajv): %v\n%s", err, out)
	}
	var ajv struct {
		Schema    string              `json:"schema"`
		Multitool string              `json:"multitool"`
		Errors    map[string][]string `json:"errors"`
	}
	if err := json.Unmarshal(out, &ajv); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var schema struct {
		Title      string `json:"title"`
		Properties struct {
			Version struct {
				Enum []string `json:"enum"`
			} `json:"version"`
		} `json:"properties"`
	}
	if data, err := os.ReadFile(ajv.Schema); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	if schema.Title != "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema" || len(schema.Properties.Version.Enum) != 1 || schema.Properties.Version.Enum[0] != "2.1.0" {
		t.Fatalf("%s is not the SARIF 2.1.0 schema: %q, versions %v", ajv.Schema, schema.Title, schema.Properties.Version.Enum)
	}
	broken := strings.Join(ajv.Errors[brokenSchema], "\n")
	for _, want := range []string{"/level must be equal to one of the allowed values", "/startLine must be >= 1", `"additionalProperty":"severity"`} {
		if !strings.Contains(broken, want) {
			t.Errorf("ajv accepted what the schema forbids (no %q):\n%s", want, broken)
		}
	}
	for _, log := range logs {
		if errs := ajv.Errors[log]; len(errs) > 0 {
			t.Errorf("%s does not validate against %s:\n%s", log, ajv.Schema, strings.Join(errs, "\n"))
		}
	}

	// The Multitool.
	if probs := multitoolValidate(t, ajv.Multitool, brokenRules); !strings.Contains(strings.Join(probs, "\n"), "error SARIF1004") {
		t.Errorf("the Multitool accepted a relative reference that starts with a slash: %v", probs)
	}
	for _, log := range logs {
		if probs := multitoolValidate(t, ajv.Multitool, log); len(probs) > 0 {
			t.Errorf("sarif-multitool validate %s:\n%s", log, strings.Join(probs, "\n"))
		}
	}
}

// multitoolValidate runs `Sarif.Multitool validate` on log and returns its
// errors and warnings, one "level RULE: message arguments" each.
func multitoolValidate(t *testing.T, exe, log string) []string {
	t.Helper()
	res := filepath.Join(t.TempDir(), "validation.sarif")
	cmd := exec.Command(exe, "validate", log, "-o", res, "--log", "ForceOverwrite", "--rule-kind", "Sarif;Gh")
	// A .NET program: without ICU's data (libicu), invariant culture is
	// all a validator needs.
	cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sarif-multitool validate %s: %v\n%s", log, err, out)
	}
	data, err := os.ReadFile(res)
	if err != nil {
		t.Fatalf("sarif-multitool validate wrote no log: %v\n%s", err, out)
	}
	var v struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					ID        string   `json:"id"`
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Runs) != 1 || len(v.Runs[0].Invocations) == 0 || !v.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Fatalf("sarif-multitool validate %s did not run to the end:\n%s\n%s", log, out, data)
	}
	var probs []string
	for _, r := range v.Runs[0].Results {
		level := r.Level
		if level == "" {
			level = "warning" // SARIF's default level
		}
		if level == "error" || level == "warning" {
			probs = append(probs, level+" "+r.RuleID+": "+r.Message.ID+r.Message.Text+" "+strings.Join(r.Message.Arguments, "; "))
		}
	}
	return probs
}

func writeTestJSON(t *testing.T, name string, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
