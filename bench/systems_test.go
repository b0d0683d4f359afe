package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A system loads one workload (the base name of a file in testdata/) and
// returns a function that runs its entry point once and returns the result
// as an integer. Everything that can be done once — reading, parsing,
// compiling, defining functions, creating the interpreter state — happens in
// load, outside the timed loop; run is what a benchmark iteration measures.
type system struct {
	name string
	ext  string // file extension of the workload sources, e.g. ".lua"
	load func(tb testing.TB, filename string, src []byte) (run func() (int64, error))
}

// systems is the list of systems every workload benchmark compares.
// labelcov registers itself from labelcov_test.go.
var systems = []system{
	{name: "gopher-lua", ext: ".lua", load: loadLua},
	{name: "starlark-go", ext: ".star", load: loadStarlark},
	{name: "tengo", ext: ".tengo", load: loadTengo},
}

// workload is one computation, written once per system in testdata/.
type workload struct {
	name string // base name in testdata/
	want int64  // the right answer, computed in Go
}

var (
	fib30 = workload{name: "fib", want: fibGo(30)}
	loop  = workload{name: "loop", want: loopGo(1_000_000)}
)

func fibGo(n int64) int64 {
	if n < 2 {
		return n
	}
	return fibGo(n-1) + fibGo(n-2)
}

// loopGo is the Loop workload: sum of (i*i) mod 7 for i in [0, n).
func loopGo(n int64) int64 {
	var s int64
	for i := int64(0); i < n; i++ {
		s += (i * i) % 7
	}
	return s
}

// BenchmarkFib30 measures function calls: naive recursive fib(30),
// 1,664,079 calls, result 832040.
func BenchmarkFib30(b *testing.B) { benchWorkload(b, fib30) }

// BenchmarkLoop measures a tight counted loop of integer arithmetic:
// 1,000,000 iterations of s += (i*i) mod 7, result 1999998.
func BenchmarkLoop(b *testing.B) { benchWorkload(b, loop) }

func benchWorkload(b *testing.B, w workload) {
	for _, s := range systems {
		b.Run("system="+s.name, func(b *testing.B) {
			run := load(b, s, w)
			check(b, s, w, run) // once untimed: a fast wrong answer is worthless
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				got, err := run()
				if err != nil || got != w.want {
					b.Fatalf("%s/%s: got %d, %v; want %d", w.name, s.name, got, err, w.want)
				}
			}
			cpu.report(b)
		})
	}
}

// TestWorkloads runs every workload once on every system and checks the
// result, so that plain `go test` catches a benchmark that computes the
// wrong thing.
func TestWorkloads(t *testing.T) {
	for _, w := range []workload{fib30, loop} {
		for _, s := range systems {
			t.Run(w.name+"/"+s.name, func(t *testing.T) {
				check(t, s, w, load(t, s, w))
			})
		}
	}
}

// cpuMeter measures the process CPU time of a benchmark loop. CPU time per
// op is far less disturbed than wall time when other processes compete for
// the cores (a shared machine); it includes the garbage collector's
// background work, so allocation-heavy systems pay for it.
type cpuMeter struct {
	t0 time.Duration
	ok bool
}

// startCPU starts a meter; call it just before the b.Loop loop.
func startCPU() cpuMeter {
	t0, ok := processCPU()
	return cpuMeter{t0, ok}
}

// report adds cpu-ns/op for the loop that just ended.
func (c cpuMeter) report(b *testing.B) {
	if t1, ok := processCPU(); ok && c.ok && b.N > 0 {
		b.ReportMetric(float64(t1-c.t0)/float64(b.N), "cpu-ns/op")
	}
}

func load(tb testing.TB, s system, w workload) func() (int64, error) {
	tb.Helper()
	filename := filepath.Join("testdata", w.name+s.ext)
	return s.load(tb, filename, readWorkload(tb, w.name+s.ext))
}

func readWorkload(tb testing.TB, base string) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", base))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

func check(tb testing.TB, s system, w workload, run func() (int64, error)) {
	tb.Helper()
	got, err := run()
	if err != nil {
		tb.Fatalf("%s on %s: %v", w.name, s.name, err)
	}
	if got != w.want {
		tb.Fatalf("%s on %s = %d, want %d", w.name, s.name, got, w.want)
	}
}

func TestGoReference(t *testing.T) {
	if got := fmt.Sprint(fib30.want, " ", loop.want); got != "832040 1999998" {
		t.Fatalf("Go reference results = %s", got)
	}
}
