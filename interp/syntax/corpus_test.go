package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCorpus reads every .lisp and .plan file under $LABELCOV_CORPUS (for
// instance a checkout of CRAM's plan files, which the repository does not
// carry) and checks the printer's contract on each: it reads, formatting
// keeps every form and comment, formatting is idempotent. Opt-in: without
// the variable there is nothing to read.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("LABELCOV_CORPUS")
	if dir == "" {
		t.Skip("set LABELCOV_CORPUS to a directory of Lisp files")
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (filepath.Ext(path) == ".lisp" || filepath.Ext(path) == ".plan") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	read, stable := 0, 0
	for _, name := range files {
		f, src, err := readFile(t, name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		read++
		t.Run(filepath.Base(name), func(t *testing.T) { checkRoundTrip(t, f) })
		if bytes.Equal(Format(f), src) {
			stable++
		}
	}
	t.Logf("%d files: %d read, %d already in canonical layout", len(files), read, stable)
}

// readFile reads and parses the file at path; a read error fails the test,
// a parse error is returned for the caller to judge.
func readFile(t *testing.T, path string) (*File, []byte, error) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(path, src)
	return f, src, err
}
