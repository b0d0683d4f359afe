package afl

import (
	"bufio"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// This file reads what afl-fuzz leaves in its output directory
// (-o OUT): OUT/NAME/fuzzer_stats, OUT/NAME/queue and OUT/NAME/crashes.

// InstanceStats is what one afl-fuzz instance's fuzzer_stats says.
type InstanceStats struct {
	// Name is the instance's directory (default, main, sec1, ...); the
	// caller sets it, fuzzer_stats does not hold it.
	Name         string  `json:"name"`
	RunTimeS     float64 `json:"run_time_s"`
	ExecsDone    int64   `json:"execs_done"`
	ExecsPerSec  float64 `json:"execs_per_sec"`
	CorpusCount  int     `json:"corpus_count"`
	SavedCrashes int     `json:"saved_crashes"`
	SavedHangs   int     `json:"saved_hangs"`
	BitmapCvg    string  `json:"bitmap_cvg"`
	Stability    string  `json:"stability"`
	// LastUpdate is when afl-fuzz wrote the file (Unix seconds): it does
	// so at start, about once a minute and at the end, so its counts lag.
	LastUpdate int64 `json:"last_update"`
}

// ReadFuzzerStats parses an afl-fuzz fuzzer_stats file ("key : value"
// lines). Missing or malformed numbers read as 0; the crash and hang counts
// of AFL++ before 4.0 (unique_crashes, unique_hangs) are understood too.
func ReadFuzzerStats(path string) (InstanceStats, error) {
	var st InstanceStats
	f, err := os.Open(path)
	if err != nil {
		return st, err
	}
	defer f.Close()
	kv := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok {
			kv[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		return st, err
	}
	num := func(k string) float64 {
		x, _ := strconv.ParseFloat(strings.TrimSuffix(kv[k], "%"), 64)
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return 0 // afl-fuzz writes "inf" for a rate over no time; JSON has no Inf
		}
		return x
	}
	st.RunTimeS = num("run_time")
	st.ExecsDone = int64(num("execs_done"))
	st.ExecsPerSec = num("execs_per_sec")
	st.CorpusCount = int(num("corpus_count"))
	st.SavedCrashes = int(num("saved_crashes"))
	if _, ok := kv["saved_crashes"]; !ok {
		st.SavedCrashes = int(num("unique_crashes"))
	}
	st.SavedHangs = int(num("saved_hangs"))
	if _, ok := kv["saved_hangs"]; !ok {
		st.SavedHangs = int(num("unique_hangs"))
	}
	st.BitmapCvg, st.Stability = kv["bitmap_cvg"], kv["stability"]
	st.LastUpdate = int64(num("last_update"))
	return st, nil
}

// Entries lists the id: files of an afl-fuzz queue or crashes directory
// in name order, leaving out .env files beside them; a missing directory
// has none.
func Entries(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "id:") && e.Type().IsRegular() && !strings.HasSuffix(e.Name(), ".env") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

// NameTime reads the time:MS and execs:N fields of an afl-fuzz file name
// ("id:000003,sig:06,src:000001,time:1520,execs:4411,op:havoc,rep:2"):
// seconds since the campaign started and executions so far; 0 for a
// missing field.
func NameTime(name string) (timeS float64, execs int64) {
	for _, field := range strings.Split(name, ",") {
		k, v, _ := strings.Cut(field, ":")
		switch k {
		case "time":
			ms, _ := strconv.ParseInt(v, 10, 64)
			timeS = float64(ms) / 1000
		case "execs":
			execs, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	return timeS, execs
}
