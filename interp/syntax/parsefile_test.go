package syntax

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := ParseFile(filepath.Join(dir, "missing.plan")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad.plan")
	if err := os.WriteFile(bad, []byte("(def-plan main ()\n  (print 1)"), 0o644); err != nil {
		t.Fatal(err)
	}
	var se *Error
	if _, err := ParseFile(bad); !errors.As(err, &se) || !strings.HasPrefix(err.Error(), bad+":") {
		t.Errorf("bad file: %v, want a *Error naming %s", err, bad)
	}
	good := filepath.Join(dir, "good.plan")
	if err := os.WriteFile(good, []byte("(def-plan main () 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := ParseFile(good); err != nil || len(f.Forms) != 1 {
		t.Errorf("good file: %v", err)
	}
}
