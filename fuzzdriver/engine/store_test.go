package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func readStats(t *testing.T, dir string) StatsFile {
	t.Helper()
	var st StatsFile
	data, err := os.ReadFile(filepath.Join(dir, StatsName))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func queueNames(t *testing.T, dir string) []string {
	t.Helper()
	files, err := listIDs(filepath.Join(dir, QueueDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, f := range files {
		if f.id != i {
			t.Fatalf("queue ids not contiguous: %d at position %d (%s)", f.id, i, f.name)
		}
		names = append(names, f.name)
	}
	return names
}

var aflName = regexp.MustCompile(`^id:\d{6},(time:0,execs:0,orig:[^,/]+|src:\d{6}(\+\d{6})?,time:\d+,execs:\d+,op:[a-z0-9]+|sync:[^,/]+,src:\d{6})(,\+cov)?$`)

func TestCampaignDirectoryAndResume(t *testing.T) {
	out := t.TempDir()
	// The budget leaves room: a 4-byte maze takes 3k to 60k runs by seed.
	c := mazeCampaign("MAZE", 0, 4, 200_000)
	c.Out = out
	c.Instance = "builtin"
	var saved []string
	c.SaveFinding = func(path string, input []byte, rec FindingRecord) error {
		saved = append(saved, path)
		return os.WriteFile(path+".env", []byte("(environment)\n"), 0o644)
	}
	var progress bytes.Buffer
	c.Progress = &progress
	sum1, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, "builtin")
	if sum1.Dir != dir {
		t.Fatalf("dir %q", sum1.Dir)
	}
	names := queueNames(t, dir)
	if len(names) != sum1.Corpus {
		t.Fatalf("%d queue files, corpus %d", len(names), sum1.Corpus)
	}
	for _, n := range names {
		if !aflName.MatchString(n) {
			t.Errorf("queue name %q is not AFL++-style", n)
		}
	}
	f, ok := findingKeys(sum1)["maze"]
	if !ok || len(saved) != 1 || f.Input != saved[0] || !f.New {
		t.Fatalf("finding %+v saved %v", f, saved)
	}
	if data, err := os.ReadFile(f.Input); err != nil || string(data) != "MAZE" {
		t.Fatalf("saved input %q %v", data, err)
	}
	if _, err := os.Stat(f.Input + ".env"); err != nil {
		t.Fatal("SaveFinding hook did not run beside the input")
	}
	if !strings.HasPrefix(filepath.Base(f.Input), "id:000000,cat:maze,") || filepath.Dir(f.Input) != filepath.Join(dir, FindingsDir) {
		t.Fatalf("finding path %q", f.Input)
	}
	if !strings.Contains(progress.String(), "fuzz: new finding maze") {
		t.Fatalf("progress:\n%s", progress.String())
	}

	// A SIGKILL between creating and renaming a file leaves an empty
	// temporary behind: resuming removes it.
	killed := filepath.Join(dir, ".tmp-1234")
	if err := os.WriteFile(killed, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	// Resume: the queue is reloaded, ids continue, the finding is known.
	progress.Reset()
	saved = nil
	c.Runs = 20_000
	c.Seed = 99
	sum2, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(killed); !os.IsNotExist(err) {
		t.Errorf("resume left %s behind (%v)", killed, err)
	}
	if sum2.SessionS <= 0 || sum2.SessionS >= sum2.ElapsedS || sum2.ElapsedS < sum1.ElapsedS {
		t.Errorf("resumed session %.3fs of %.3fs in all (first session %.3fs)", sum2.SessionS, sum2.ElapsedS, sum1.ElapsedS)
	}
	if sum2.NewInputs > sum2.Corpus-sum1.Corpus {
		t.Errorf("%d new inputs, but the corpus grew from %d to %d", sum2.NewInputs, sum1.Corpus, sum2.Corpus)
	}
	f2, ok := findingKeys(sum2)["maze"]
	if !ok || f2.New || f2.Input != f.Input || f2.TimeS != f.TimeS {
		t.Fatalf("resumed finding %+v, want the old record, not new", f2)
	}
	if len(saved) != 0 || strings.Contains(progress.String(), "new finding") {
		t.Fatal("known finding re-reported as new")
	}
	names2 := queueNames(t, dir)
	if sum2.Corpus < sum1.Corpus || len(names2) != sum2.Corpus || names2[len(names)-1] != names[len(names)-1] {
		t.Fatalf("corpus %d -> %d, queue %d", sum1.Corpus, sum2.Corpus, len(names2))
	}
	st := readStats(t, dir)
	if sum2.Execs <= sum1.Execs {
		t.Fatalf("execs did not continue: %d then %d", sum1.Execs, sum2.Execs)
	}
	for i := 1; i < len(st.Samples); i++ {
		if st.Samples[i].ElapsedS < st.Samples[i-1].ElapsedS || st.Samples[i].Execs < st.Samples[i-1].Execs {
			t.Fatalf("time series not monotone at %d: %+v %+v", i, st.Samples[i-1], st.Samples[i])
		}
	}
	if len(entriesOf(t, filepath.Join(dir, FindingsDir))) != 2 { // input + .env
		t.Fatal("findings directory changed on resume")
	}
}

func entriesOf(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// stats.json and findings.json are file formats: compare with golden files
// after blanking what depends on the clock or the temporary directory.
func TestStatsGolden(t *testing.T) {
	out := t.TempDir()
	c := mazeCampaign("GO", 6, 1, 5000)
	c.Out = out
	c.StatsInterval = time.Hour // one sample: the final one
	c.Coverage = func(s Snapshot) map[string]Figure {
		hit := 0
		for _, b := range s.Buckets {
			if b != 0 {
				hit++
			}
		}
		return map[string]Figure{"branches": {Covered: hit, Total: len(s.Buckets)}, "labels": {Covered: s.Corpus, Total: 100}}
	}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, DefaultInstance)
	for _, name := range []string{StatsName, FindingsName} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got := normalizeJSON(t, data, dir)
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s:\n%s", name, golden, got)
		}
	}
}

var clockFields = regexp.MustCompile(`"(elapsed_s|execs_per_sec|time_s)": [0-9.e+-]+`)
var startedField = regexp.MustCompile(`"started": "[^"]*"`)
var timeInName = regexp.MustCompile(`time:\d+`)

func normalizeJSON(t *testing.T, data []byte, dir string) []byte {
	t.Helper()
	s := strings.ReplaceAll(string(data), dir, "$DIR")
	s = clockFields.ReplaceAllString(s, `"$1": 0`)
	s = startedField.ReplaceAllString(s, `"started": "T"`)
	s = timeInName.ReplaceAllString(s, "time:T")
	return []byte(s)
}

// An AFL++ instance in the same sync directory: its queue is imported
// (kept when it adds coverage, named sync:<peer>), progress is remembered in
// .synced/<peer> as AFL++ does, and is_main_node is written for a main.
func TestSyncWithPeer(t *testing.T) {
	out := t.TempDir()
	peerQ := filepath.Join(out, "afl-main", QueueDir)
	if err := os.MkdirAll(peerQ, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, data := range []string{"SYNCHRO", "SYNC", "zz"} {
		name := filepath.Join(peerQ, "id:00000"+string(rune('0'+i))+",time:0,execs:0,orig:x")
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(peerQ, ".state"), nil, 0o644)
	c := mazeCampaign("SYNCHRONIZED", 0, 1, 2)
	c.Out = out
	c.Main = true
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, DefaultInstance)
	if _, err := os.Stat(filepath.Join(dir, MainNodeFile)); err != nil {
		t.Fatal("is_main_node missing")
	}
	names := queueNames(t, dir)
	var synced []string
	for _, n := range names {
		if strings.Contains(n, ",sync:afl-main,") {
			synced = append(synced, n)
		}
	}
	// "SYNCHRO" goes deepest; "SYNC" is a new bucket pattern too (fails at
	// byte 4); "zz" fails at byte 0 like the empty seed and adds nothing.
	if len(synced) != 2 || !strings.Contains(synced[0], ",src:000000") {
		t.Fatalf("imported %v from %v", synced, names)
	}
	data, err := os.ReadFile(filepath.Join(dir, SyncedDir, "afl-main"))
	if err != nil || len(data) != 4 || binary.LittleEndian.Uint32(data) != 3 {
		t.Fatalf(".synced/afl-main = %x %v, want 3 as little-endian u32", data, err)
	}
	if sum.Corpus != len(names) {
		t.Fatal("corpus and queue disagree")
	}
	// A second session imports nothing again.
	sum2, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(queueNames(t, dir), "\n"), "sync:afl-main"); n != 2 {
		t.Fatalf("re-imported: %d sync entries", n)
	}
	_ = sum2
}

// Two campaigns never share an instance directory.
func TestInstanceDirectoryIsLocked(t *testing.T) {
	out := t.TempDir()
	s, err := openStore(out, "one", false)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := lockDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	c := mazeCampaign("AB", 0, 1, 10)
	c.Out, c.Instance = out, "one"
	if _, err := c.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second campaign on a locked directory: %v", err)
	}
	unlock()
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatalf("after unlock: %v", err)
	}
}
