package afl

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestReadFuzzerStats(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fuzzer_stats")
	stats := "start_time        : 1700000000\nrun_time          : 61\nexecs_done        : 12345\n" +
		"execs_per_sec     : 202.37\ncorpus_count      : 17\nunique_crashes    : 2\nsaved_hangs       : 1\n" +
		"bitmap_cvg        : 3.14%\nstability         : 100.00%\nexecs_since_crash : bogus\n"
	if err := os.WriteFile(path, []byte(stats), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFuzzerStats(path)
	if err != nil {
		t.Fatal(err)
	}
	want := InstanceStats{RunTimeS: 61, ExecsDone: 12345, ExecsPerSec: 202.37, CorpusCount: 17, SavedCrashes: 2,
		SavedHangs: 1, BitmapCvg: "3.14%", Stability: "100.00%"}
	if got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	// A rate over no time is "inf" in fuzzer_stats; JSON cannot hold it.
	if err := os.WriteFile(path, []byte("execs_per_sec : inf\nlast_update : 1700000009\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFuzzerStats(path); err != nil || got.ExecsPerSec != 0 || got.LastUpdate != 1700000009 {
		t.Errorf("inf rate: %+v, %v", got, err)
	}
	if _, err := ReadFuzzerStats(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing fuzzer_stats: no error")
	}
}

func TestEntriesAndNameTime(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"id:000001,src:000000,time:1520,execs:4411,op:havoc", "id:000000,time:0,orig:seed", "id:000001,x.env", "README.txt", ".state"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "id:000002"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Entries(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "id:000000,time:0,orig:seed"), filepath.Join(dir, "id:000001,src:000000,time:1520,execs:4411,op:havoc")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	if none, err := Entries(filepath.Join(dir, "nope")); none != nil || err != nil {
		t.Errorf("missing directory: %v %v", none, err)
	}
	if ts, execs := NameTime(filepath.Base(want[1])); ts != 1.52 || execs != 4411 {
		t.Errorf("NameTime = %v, %v", ts, execs)
	}
	if ts, execs := NameTime("id:000000,orig:seed"); ts != 0 || execs != 0 {
		t.Errorf("NameTime without fields = %v, %v", ts, execs)
	}
}
