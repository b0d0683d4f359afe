package outputs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, s string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGuard: every way an output can name what the invocation reads or
// keeps is refused, with nothing written; fresh outputs pass.
func TestGuard(t *testing.T) {
	d := t.TempDir()
	plan := write(t, filepath.Join(d, "p.plan"), "plan")
	tests := filepath.Join(d, "tests")
	entry := write(t, filepath.Join(tests, "a.env"), "env")
	camp := filepath.Join(d, "camp")
	rec := write(t, filepath.Join(camp, "labelcov", "campaign.json"), "{}")
	bench := filepath.Join(d, "bench")
	write(t, filepath.Join(bench, "b.plan"), "b")
	gosrc := write(t, filepath.Join(d, "other", "x.go"), "package x")
	link := filepath.Join(d, "link.html")
	if err := os.Symlink(plan, link); err != nil {
		t.Fatal(err)
	}
	dirLink := filepath.Join(d, "tests-link")
	if err := os.Symlink(tests, dirLink); err != nil {
		t.Fatal(err)
	}
	var g Guard
	g.Input("", plan, "-", "")
	g.Input("the tests", tests)
	g.Folder("the benchmark", bench)
	g.Record("the campaign record", rec)

	for _, c := range []struct {
		out, msg string
	}{
		{plan, "would overwrite the input " + plan},
		{filepath.Join(d, ".", "x", "..", "p.plan"), "would overwrite the input"},
		{link, "would overwrite the input"},
		{entry, "would overwrite a file of the tests"},
		{filepath.Join(dirLink, "a.env"), "would overwrite a file of the tests"},
		{filepath.Join(tests, "new.html"), "would overwrite a file of the tests"},
		{filepath.Join(bench, "report.html"), "is inside the benchmark"},
		{rec, "would overwrite the campaign record"},
		{gosrc, "would overwrite Go source"},
		{tests, "is a folder"},
	} {
		err := g.Check("--html", c.out)
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.msg) || re.Flag != "--html" {
			t.Errorf("Check(%s): %v, want %q", c.out, err, c.msg)
		}
		if err := g.WriteFile("--html", c.out, []byte("x"), 0o644); err == nil {
			t.Errorf("WriteFile(%s) wrote", c.out)
		}
	}
	for name, want := range map[string]string{plan: "plan", entry: "env", rec: "{}", gosrc: "package x"} {
		if b, _ := os.ReadFile(name); string(b) != want {
			t.Errorf("%s changed: %q", name, b)
		}
	}
	for _, out := range []string{"", "-", filepath.Join(d, "cover.html"), filepath.Join(d, "new", "cover.html")} {
		if err := g.Check("--html", out); err != nil {
			t.Errorf("Check(%q): %v", out, err)
		}
	}
	if err := g.WriteFile("--html", filepath.Join(d, "cover.html"), []byte("ok"), 0o644); err != nil {
		t.Error(err)
	}

	for _, c := range []struct{ out, msg string }{
		{bench, "is inside the benchmark"},
		{filepath.Join(bench, "reproducers"), "is inside the benchmark"},
		{filepath.Join(dirLink, "sub"), "is inside the tests"},
		{filepath.Join(camp, "labelcov"), "holds the campaign record"},
		{d, "holds the input"},
		{plan, "is a file"},
	} {
		if err := g.CheckDir("--out", c.out, "/tmp/x"); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("CheckDir(%s): %v, want %q", c.out, err, c.msg)
		}
	}
	for _, out := range []string{"", filepath.Join(d, "out"), camp} {
		if err := g.CheckDir("--out", out, ""); err != nil {
			t.Errorf("CheckDir(%s): %v", out, err)
		}
	}
}

// TestCampaignRecord: a campaign directory's record is never an output,
// whatever the invocation reads; a file of the same name that is not one
// is.
func TestCampaignRecord(t *testing.T) {
	d := t.TempDir()
	rec := write(t, filepath.Join(d, "camp", CampaignRecord), `{"version": 1, "keys": {"plan": "abc"}}`)
	mine := write(t, filepath.Join(d, "mine", CampaignRecord), `{"name": "my own"}`)
	var g Guard
	if err := g.Check("--html", rec); err == nil || !strings.Contains(err.Error(), "record of a campaign directory") {
		t.Errorf("record: %v", err)
	}
	if err := g.Check("--html", mine); err != nil {
		t.Errorf("a file that is no record: %v", err)
	}
}
