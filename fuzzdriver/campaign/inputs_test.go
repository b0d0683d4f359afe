package campaign

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
)

// A .args reproducer replays as the arguments it spells, not as its text.
func TestReadInputArgs(t *testing.T) {
	f, err := syntax.Parse("p.plan", []byte("(def-plan main (a b) (+ a b))"))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := Setup{Plan: f}.Build()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r.args")
	if err := os.WriteFile(path, []byte("533 ; first\n-22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := pf.ReadInput(path)
	if err != nil || !reflect.DeepEqual(sim.DecodeArgs(data, 2), []int64{533, -22}) {
		t.Fatalf("ReadInput: %x %v", data, err)
	}
	rp, err := pf.Replay(context.Background(), data)
	if err != nil || rp.VM.Value.String() != "511" {
		t.Fatalf("replay: %v %v", rp, err)
	}
}

func TestReadCorpus(t *testing.T) {
	pf, err := Setup{Plan: readPlanFile(t, "testdata/range.plan")}.Build()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := pf.ReadCorpus(dir); err == nil {
		t.Error("empty corpus: no error")
	}
	for name, data := range map[string]string{"b": "2", "a": "1", ".hidden": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := pf.ReadCorpus(dir)
	if err != nil || len(got) != 2 || string(got[0]) != "1" || string(got[1]) != "2" {
		t.Errorf("corpus %q, %v: want the two visible files in name order", got, err)
	}
}
