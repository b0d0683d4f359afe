package afl_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/afl/internal/synth"
)

// fakeAFL plays afl-fuzz 4.04c's side of the fork-server protocol against
// the test binary run as a target: control and status pipes on fds 198/199,
// a System V shared-memory map named by __AFL_SHM_ID, and stdin bound to a
// .cur_input file that is rewritten and rewound before every run.
type fakeAFL struct {
	t      *testing.T
	cmd    *exec.Cmd
	ctlW   *os.File // AFL's end of the control pipe (requests)
	stR    *os.File // AFL's end of the status pipe
	input  *os.File // .cur_input, the target's stdin
	atFile string   // in @@ mode: the input file path passed as argument
	shm    []byte
	stderr *lockedBuffer
	exited chan error
}

// lockedBuffer collects the target's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

const ioTimeout = 20 * time.Second

// newShm creates a private System V segment like afl_shm_init does, removed
// at cleanup.
func newShm(t *testing.T, size int) (int, []byte) {
	t.Helper()
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, size, unix.IPC_CREAT|unix.IPC_EXCL|0o600)
	if err != nil {
		t.Skipf("System V shared memory unavailable: %v", err)
	}
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
		t.Fatalf("shmat: %v", err)
	}
	t.Cleanup(func() {
		_ = unix.SysvShmDetach(mem)
		_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	})
	return id, mem
}

func startFakeAFL(t *testing.T, shmSize int, env ...string) *fakeAFL {
	t.Helper()
	return startFakeAFLArgs(t, shmSize, "", env...)
}

// startFakeAFLArgs with a non-empty atFile runs the target in @@ mode:
// stdin is /dev/null and the input is a file named on the command line.
func startFakeAFLArgs(t *testing.T, shmSize int, atFile string, env ...string) *fakeAFL {
	t.Helper()
	id, mem := newShm(t, shmSize)
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	input, err := os.Create(t.TempDir() + "/.cur_input")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeAFL{t: t, ctlW: ctlW, stR: stR, input: input, shm: mem, atFile: atFile,
		stderr: &lockedBuffer{}, exited: make(chan error, 1)}
	if atFile != "" {
		f.cmd = exec.Command(targetPath, atFile)
	} else {
		f.cmd = exec.Command(targetPath)
		f.cmd.Stdin = input
	}
	f.cmd.Env = append(os.Environ(), tricksEnv+"=1",
		afl.ShmEnvVar+"="+strconv.Itoa(id))
	f.cmd.Env = append(f.cmd.Env, env...)
	// ExtraFiles[i] is fd 3+i: put the pipes on 198 and 199 as afl-fuzz
	// does with dup2, leaving the fds in between closed.
	extra := make([]*os.File, afl.ForkServerStatusFD-3+1)
	extra[afl.ForkServerCtlFD-3] = ctlR
	extra[afl.ForkServerStatusFD-3] = stW
	f.cmd.ExtraFiles = extra
	f.cmd.Stderr = f.stderr
	if err := f.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctlR.Close()
	stW.Close()
	go func() { f.exited <- f.cmd.Wait() }()
	t.Cleanup(func() {
		ctlW.Close()
		stR.Close()
		input.Close()
		select {
		case <-f.exited:
		case <-time.After(ioTimeout):
			_ = f.cmd.Process.Kill()
			<-f.exited
			t.Errorf("target did not exit after its control pipe closed")
		}
		if t.Failed() {
			t.Logf("target stderr:\n%s", f.stderr.String())
		}
	})
	return f
}

func (f *fakeAFL) readWord() (uint32, error) {
	var b [4]byte
	_ = f.stR.SetReadDeadline(time.Now().Add(ioTimeout))
	if _, err := io.ReadFull(f.stR, b[:]); err != nil {
		return 0, err
	}
	return binary.NativeEndian.Uint32(b[:]), nil
}

func (f *fakeAFL) mustReadWord(what string) uint32 {
	f.t.Helper()
	w, err := f.readWord()
	if err != nil {
		f.t.Fatalf("reading %s: %v\ntarget stderr:\n%s", what, err, f.stderr.String())
	}
	return w
}

func (f *fakeAFL) writeWord(w uint32) {
	f.t.Helper()
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], w)
	if _, err := f.ctlW.Write(b[:]); err != nil {
		f.t.Fatalf("writing request: %v", err)
	}
}

// setInput does what afl-fuzz's write_to_testcase does: in stdin mode,
// rewrite .cur_input in place and rewind it; in @@ mode, unlink the file
// and create a new one.
func (f *fakeAFL) setInput(in []byte) {
	f.t.Helper()
	if f.atFile != "" {
		_ = os.Remove(f.atFile)
		if err := os.WriteFile(f.atFile, in, 0o600); err != nil {
			f.t.Fatal(err)
		}
		return
	}
	if _, err := f.input.Seek(0, io.SeekStart); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.input.Write(in); err != nil {
		f.t.Fatal(err)
	}
	if err := f.input.Truncate(int64(len(in))); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.input.Seek(0, io.SeekStart); err != nil {
		f.t.Fatal(err)
	}
}

// request starts one run as afl_fsrv_run_target does and returns the pid.
func (f *fakeAFL) request(in []byte, mapSize int, wasKilled uint32) int {
	f.t.Helper()
	f.setInput(in)
	clear(f.shm[:mapSize])
	f.writeWord(wasKilled)
	return int(int32(f.mustReadWord("child pid")))
}

// run is one complete run: request, pid, status.
func (f *fakeAFL) run(in []byte, mapSize int, wasKilled uint32) (int, syscall.WaitStatus) {
	f.t.Helper()
	pid := f.request(in, mapSize, wasKilled)
	return pid, syscall.WaitStatus(f.mustReadWord("status"))
}

// decodeHello applies afl-fuzz 4.04c's reading of the hello word.
func decodeHello(t *testing.T, w uint32) int {
	t.Helper()
	const enabled, mapsize = 0x80000001, 0x40000000
	if w&enabled != enabled || w&mapsize != mapsize {
		t.Fatalf("hello %#08x lacks FS_OPT_ENABLED|FS_OPT_MAPSIZE", w)
	}
	if w&0xf800008f == 0xf800008f {
		t.Fatalf("hello %#08x is an FS_OPT_ERROR", w)
	}
	if extra := w &^ (enabled | mapsize | 0x00fffffe); extra != 0 {
		t.Fatalf("hello %#08x announces unexpected options %#08x", w, extra)
	}
	return int((w&0x00fffffe)>>1) + 1
}

// expect computes the synthetic executor's counters in-process.
func expect(t *testing.T, n int, in []byte) ([]uint8, bool) {
	t.Helper()
	c, crashed, err := synth.New(n, false).Exec(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return c, crashed
}

// alive reports whether pid is running: not gone, and not a zombie (a
// worker orphaned by its front's death waits for init to reap it, which a
// container's init may do late).
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// pid (comm) state ...: the state follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(ioTimeout)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("worker %d still alive", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func signaled(ws syscall.WaitStatus, sig syscall.Signal) bool {
	return ws.Signaled() && ws.Signal() == sig
}

func TestForkServerProtocol(t *testing.T) {
	const n = synth.MinCounters
	f := startFakeAFL(t, 1<<20)

	mapSize := decodeHello(t, f.mustReadWord("hello"))
	if mapSize != 64 {
		t.Fatalf("announced map size %d, want 64 (%d counters rounded up to 64)", mapSize, n)
	}
	// Nothing may be written past the announced size: AFL only clears
	// and reads that much.
	for i := mapSize; i < 4096; i++ {
		f.shm[i] = 0xee
	}
	checkMap := func(in []byte) {
		t.Helper()
		want, _ := expect(t, n, in)
		if f.shm[0] != 1 || !bytes.Equal(f.shm[1:n+1], want) {
			t.Fatalf("map after %q:\n got %v\nwant 1 then %v", in, f.shm[:n+1], want)
		}
		for i := n + 1; i < mapSize; i++ {
			if f.shm[i] != 0 {
				t.Fatalf("map[%d] = %d in the alignment tail", i, f.shm[i])
			}
		}
		for i := mapSize; i < 4096; i++ {
			if f.shm[i] != 0xee {
				t.Fatalf("map[%d] written beyond the announced size %d", i, mapSize)
			}
		}
	}

	// Normal runs: one worker answers them all, status exit(0).
	pid, st := f.run([]byte("LaB"), mapSize, 0)
	if pid <= 0 || pid == f.cmd.Process.Pid {
		t.Fatalf("child pid %d: want the worker's pid, not the front's (%d)", pid, f.cmd.Process.Pid)
	}
	if st != 0 {
		t.Fatalf("status %#x for a normal run, want 0", uint32(st))
	}
	checkMap([]byte("LaB"))
	if pid2, st := f.run([]byte("xyz"), mapSize, 0); pid2 != pid || st != 0 {
		t.Fatalf("second run: pid %d status %#x, want pid %d status 0", pid2, uint32(st), pid)
	}
	checkMap([]byte("xyz"))

	// A finding: death by SIGABRT, like abort() in a C target.
	if _, st := f.run([]byte(synth.Magic), mapSize, 0); !signaled(st, syscall.SIGABRT) {
		t.Fatalf("finding reported as %#x, want SIGABRT", uint32(st))
	}
	checkMap([]byte(synth.Magic))

	// Harness errors and panics: SIGSEGV, and the worker survives.
	for _, in := range []string{"error", "panic"} {
		p, st := f.run([]byte(in), mapSize, 0)
		if !signaled(st, syscall.SIGSEGV) || p != pid {
			t.Fatalf("%s: pid %d status %#x, want pid %d SIGSEGV", in, p, uint32(st), pid)
		}
	}

	// A hang: AFL's timer fires, it kills the child pid it was given and
	// expects the killed status; the next request says was_killed=1 and
	// must be served by a new worker.
	p := f.request([]byte("hang"), mapSize, 0)
	if p != pid {
		t.Fatalf("hang run pid %d, want %d", p, pid)
	}
	time.Sleep(50 * time.Millisecond)
	if err := syscall.Kill(p, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if st := syscall.WaitStatus(f.mustReadWord("status after kill")); !signaled(st, syscall.SIGKILL) {
		t.Fatalf("status after AFL's kill %#x, want SIGKILL", uint32(st))
	}
	waitGone(t, pid)
	pid2, st := f.run([]byte("LaBe"), mapSize, 1)
	if pid2 == pid || st != 0 {
		t.Fatalf("after timeout: pid %d status %#x, want a new worker and status 0", pid2, uint32(st))
	}
	checkMap([]byte("LaBe"))

	// The late-timeout race: AFL's timer fires just after the worker
	// answered, so AFL kills a worker whose status it already has and
	// says was_killed=1. The next input must not inherit that SIGKILL.
	if _, st := f.run([]byte("L"), mapSize, 0); st != 0 {
		t.Fatalf("status %#x", uint32(st))
	}
	if err := syscall.Kill(pid2, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	pid3, st := f.run([]byte("La"), mapSize, 1)
	if pid3 == pid2 || st != 0 {
		t.Fatalf("after late kill: pid %d status %#x, want a new worker and status 0", pid3, uint32(st))
	}
	checkMap([]byte("La"))

	// A worker that exits on its own mid-run (a Go fatal error exits 2):
	// reported as a harness crash, then replaced.
	if p, st := f.run([]byte("exit"), mapSize, 0); p != pid3 || !signaled(st, syscall.SIGSEGV) {
		t.Fatalf("exit: pid %d status %#x, want pid %d SIGSEGV", p, uint32(st), pid3)
	}
	pid4, st := f.run([]byte("LaBeL"), mapSize, 0)
	if pid4 == pid3 || st != 0 {
		t.Fatalf("after exit: pid %d status %#x", pid4, uint32(st))
	}
	checkMap([]byte("LaBeL"))

	// AFL goes away: the front exits cleanly and takes its worker along.
	f.ctlW.Close()
	select {
	case err := <-f.exited:
		if err != nil {
			t.Fatalf("front exited with %v after AFL closed the pipe; stderr:\n%s", err, f.stderr.String())
		}
		f.exited <- nil
	case <-time.After(ioTimeout):
		t.Fatal("front did not exit after AFL closed the control pipe")
	}
	waitGone(t, pid4)
}

func TestForkServerFileInput(t *testing.T) {
	const n = synth.MinCounters
	f := startFakeAFLArgs(t, 1<<16, filepath.Join(t.TempDir(), ".cur_input"))
	mapSize := decodeHello(t, f.mustReadWord("hello"))
	for _, in := range []string{"LaBe", "", "xx", synth.Magic} {
		_, st := f.run([]byte(in), mapSize, 0)
		want, crashed := expect(t, n, []byte(in))
		if crashed != signaled(st, syscall.SIGABRT) || (!crashed && st != 0) {
			t.Fatalf("%q: status %#x, finding %v", in, uint32(st), crashed)
		}
		if !bytes.Equal(f.shm[1:n+1], want) {
			t.Fatalf("%q: map %v, want %v", in, f.shm[1:n+1], want)
		}
	}
}

func TestForkServerRunTimeout(t *testing.T) {
	// Without AFL's timer (a harness other than afl-fuzz), Config.RunTimeout
	// makes the front kill a hanging worker itself.
	f := startFakeAFL(t, 1<<16, "AFLTEST_RUN_TIMEOUT=100ms")
	mapSize := decodeHello(t, f.mustReadWord("hello"))
	// The fake AFL never kills a worker, so SIGKILL is the front's doing;
	// f.run's ioTimeout only keeps a broken front from hanging the test.
	pid, st := f.run([]byte("hang"), mapSize, 0)
	if !signaled(st, syscall.SIGKILL) {
		t.Fatalf("hang: status %#x, want SIGKILL", uint32(st))
	}
	pid2, st := f.run([]byte("L"), mapSize, 0)
	if pid2 == pid || st != 0 {
		t.Fatalf("after timeout: pid %d (was %d) status %#x", pid2, pid, uint32(st))
	}
}

func TestForkServerLargeMap(t *testing.T) {
	const n = 100_000 // more counters than AFL's default 64 KiB map
	in := []byte("Lq")
	want, _ := expect(t, n, in)

	t.Run("negotiated", func(t *testing.T) {
		// What afl-fuzz 4.04c allocates when the binary check passes.
		f := startFakeAFL(t, 8<<20, countersEnv+"="+strconv.Itoa(n))
		mapSize := decodeHello(t, f.mustReadWord("hello"))
		if mapSize != 100_032 {
			t.Fatalf("map size %d, want 100032 (100000 rounded up to 64)", mapSize)
		}
		if _, st := f.run(in, mapSize, 0); st != 0 {
			t.Fatalf("status %#x", uint32(st))
		}
		if f.shm[0] != 1 || !bytes.Equal(f.shm[1:n+1], want) {
			t.Fatal("identity placement: map differs from counters")
		}
	})
	t.Run("folded", func(t *testing.T) {
		// AFL_SKIP_BIN_CHECK without AFL_MAP_SIZE: 64 KiB (+8 bytes).
		f := startFakeAFL(t, 65536+8, countersEnv+"="+strconv.Itoa(n))
		mapSize := decodeHello(t, f.mustReadWord("hello"))
		if mapSize != 65536 {
			t.Fatalf("map size %d, want the whole 64 KiB segment", mapSize)
		}
		f.shm[65536] = 0xee
		if _, st := f.run(in, mapSize, 0); st != 0 {
			t.Fatalf("status %#x", uint32(st))
		}
		var gotSum, wantSum, gotNZ, wantNZ int
		for _, c := range f.shm[1:mapSize] {
			gotSum += int(c)
			if c != 0 {
				gotNZ++
			}
		}
		for _, c := range want {
			wantSum += int(c)
			if c != 0 {
				wantNZ++
			}
		}
		if gotSum != wantSum || gotNZ == 0 || gotNZ > wantNZ {
			t.Fatalf("folded map: sum %d (want %d), %d non-zero bytes (counters %d)", gotSum, wantSum, gotNZ, wantNZ)
		}
		if f.shm[65536] != 0xee {
			t.Fatal("wrote past the segment's map size")
		}
	})
}

func TestForkServerProbesCounterCount(t *testing.T) {
	f := startFakeAFL(t, 1<<16, noSizerEnv+"=1", countersEnv+"=1000")
	if got := decodeHello(t, f.mustReadWord("hello")); got != 1024 {
		t.Fatalf("map size %d, want 1024 from probing 1000 counters", got)
	}
	if _, st := f.run([]byte("L"), 1024, 0); st != 0 {
		t.Fatalf("status %#x", uint32(st))
	}
}

func TestForkServerCancelled(t *testing.T) {
	f := startFakeAFL(t, 1<<16)
	mapSize := decodeHello(t, f.mustReadWord("hello"))
	pid := f.request([]byte("hang"), mapSize, 0)
	// SIGTERM cancels the front's context while its worker hangs in a run:
	// the front must stop waiting, kill the worker and exit.
	if err := f.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-f.exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("front exit %v, want status 1 (context cancelled)", err)
		}
		f.exited <- err
	case <-time.After(ioTimeout):
		t.Fatal("front did not exit on SIGTERM")
	}
	waitGone(t, pid)
}

func TestForkServerKilledTakesWorkerAlong(t *testing.T) {
	// afl-fuzz ends a campaign by SIGKILLing the fork server, which then
	// cannot clean up: the kernel must take the worker along, even one
	// stuck in a run.
	f := startFakeAFL(t, 1<<16)
	mapSize := decodeHello(t, f.mustReadWord("hello"))
	pid := f.request([]byte("hang"), mapSize, 0)
	if err := f.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	err := <-f.exited
	f.exited <- err
	waitGone(t, pid)
}

func TestForkServerReportsShmErrorsToAFL(t *testing.T) {
	// afl-fuzz has messages for shared-memory failures; the hello must
	// carry them as FS_OPT_ERROR | FS_OPT_SET_ERROR(code).
	for _, tc := range []struct {
		id   string
		code uint32
	}{
		{"not-a-number", 4}, // FS_ERROR_SHM_OPEN
		{"2147483000", 8},   // FS_ERROR_SHMAT: no such segment
	} {
		f := startFakeAFL(t, 1<<16, afl.ShmEnvVar+"="+tc.id)
		w := f.mustReadWord("hello")
		if w&0xf800008f != 0xf800008f || (w&0x00ffff00)>>8 != tc.code {
			t.Errorf("%s=%s: hello %#08x, want FS_OPT_ERROR with code %d", afl.ShmEnvVar, tc.id, w, tc.code)
		}
		select {
		case err := <-f.exited:
			if err == nil {
				t.Errorf("front exited 0 after a map error")
			}
			f.exited <- err
		case <-time.After(ioTimeout):
			t.Fatal("front did not exit")
		}
	}
}

func TestForkServerWorkerFailsToStart(t *testing.T) {
	// A bad counters setting makes the Factory fail in the worker: the
	// front must report an error and exit, not hang waiting for a hello.
	f := startFakeAFL(t, 1<<16, countersEnv+"=bogus")
	if w, err := f.readWord(); err == nil {
		t.Fatalf("got hello %#x from a target whose worker cannot start", w)
	}
	select {
	case err := <-f.exited:
		if err == nil {
			t.Fatal("front exited 0 although its worker failed")
		}
		f.exited <- err
	case <-time.After(ioTimeout):
		t.Fatal("front did not exit")
	}
	if !bytes.Contains([]byte(f.stderr.String()), []byte(countersEnv)) {
		t.Errorf("stderr does not say why:\n%s", f.stderr.String())
	}
}

func TestStandalone(t *testing.T) {
	run := func(in string, env ...string) error {
		cmd := exec.Command(targetPath)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdin = bytes.NewReader([]byte(in))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(ioTimeout):
			_ = cmd.Process.Kill()
			t.Fatalf("standalone run of %q did not finish", in)
			return nil
		}
	}
	if err := run("LaB"); err != nil {
		t.Fatalf("normal input: %v", err)
	}
	err := run(synth.Magic)
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("finding: %v, want death by SIGABRT", err)
	}
	if ws := ee.Sys().(syscall.WaitStatus); !signaled(ws, syscall.SIGABRT) {
		t.Fatalf("finding: wait status %#x, want SIGABRT", uint32(ws))
	}

	// With __AFL_SHM_ID (afl-showmap, AFL_NO_FORKSRV=1) the map is filled.
	id, mem := newShm(t, 1<<16)
	if err := run("LaBe", afl.ShmEnvVar+"="+strconv.Itoa(id)); err != nil {
		t.Fatal(err)
	}
	want, _ := expect(t, synth.MinCounters, []byte("LaBe"))
	if mem[0] != 1 || !bytes.Equal(mem[1:len(want)+1], want) {
		t.Fatalf("standalone map %v, want 1 then %v", mem[:len(want)+1], want)
	}
}

func TestBinaryCarriesAFLSignature(t *testing.T) {
	// afl-fuzz 4.04c refuses a target whose file lacks "__AFL_SHM_ID\0"
	// unless AFL_SKIP_BIN_CHECK is set, and only then negotiates the map
	// size. Any binary linking Main must carry it.
	data, err := os.ReadFile(targetPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(afl.ShmEnvVar+"\x00")) {
		t.Fatal(`target lacks the NUL-terminated "__AFL_SHM_ID" signature`)
	}
	if bytes.Contains(data, []byte("##SIG_AFL_PERSISTENT##\x00")) {
		t.Fatal("binary claims persistent mode, which the front does not implement")
	}
}

// BenchmarkForkServerRoundTrip measures one request/pid/status exchange
// through the front and its worker, as afl-fuzz sees it (fake AFL side).
func BenchmarkForkServerRoundTrip(b *testing.B) {
	id, mem := benchShm(b, 1<<16)
	ctlR, ctlW, _ := os.Pipe()
	stR, stW, _ := os.Pipe()
	input, err := os.Create(b.TempDir() + "/.cur_input")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := input.WriteString("LaBe"); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(targetPath)
	cmd.Env = append(os.Environ(), afl.ShmEnvVar+"="+strconv.Itoa(id))
	extra := make([]*os.File, afl.ForkServerStatusFD-3+1)
	extra[afl.ForkServerCtlFD-3] = ctlR
	extra[afl.ForkServerStatusFD-3] = stW
	cmd.ExtraFiles = extra
	cmd.Stdin = input
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ctlR.Close()
	stW.Close()
	defer func() {
		ctlW.Close()
		_ = cmd.Wait()
	}()
	var w [4]byte
	if _, err := io.ReadFull(stR, w[:]); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		clear(mem[:64])
		binary.NativeEndian.PutUint32(w[:], 0)
		if _, err := ctlW.Write(w[:]); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(stR, w[:]); err != nil { // pid
			b.Fatal(err)
		}
		if _, err := io.ReadFull(stR, w[:]); err != nil { // status
			b.Fatal(err)
		}
	}
}

func benchShm(b *testing.B, size int) (int, []byte) {
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, size, unix.IPC_CREAT|unix.IPC_EXCL|0o600)
	if err != nil {
		b.Skip(err)
	}
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = unix.SysvShmDetach(mem)
		_, _ = unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	})
	return id, mem
}

// TestForkServerCountsExecs: with $LABELCOV_AFL_EXECS_FILE set, the fork
// server keeps its run count there (afl-fuzz's fuzzer_stats lags by up to a
// minute), and writes the final count when AFL is done with it.
func TestForkServerCountsExecs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "execs")
	f := startFakeAFL(t, 1<<16, afl.ExecsFileEnv+"="+path)
	mapSize := decodeHello(t, f.mustReadWord("hello"))
	for _, in := range []string{"a", "b", "c", "LaBe", ""} {
		f.run([]byte(in), mapSize, 0)
	}
	f.ctlW.Close()
	select {
	case err := <-f.exited:
		f.exited <- err // for the cleanup
	case <-time.After(ioTimeout):
		t.Fatal("target did not exit after its control pipe closed")
	}
	data, err := os.ReadFile(path)
	if err != nil || string(bytes.TrimSpace(data)) != "5" {
		t.Errorf("execs file %q (%v), want 5", data, err)
	}
}
