package afl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// The front and its worker talk over two private pipes, passed to the worker
// as consecutive file descriptors (WorkerEnv holds the first number):
//
//	worker -> front  hello, once: "LCW1", counters, map size, AFL error code
//	                 (four 32-bit words in host order; the error code is one
//	                 of AFL's FS_ERROR_* values, 0 when the map is usable)
//	front -> worker  one byte cmdRun per AFL request
//	worker -> front  one result byte per run: resultOK, resultFinding or
//	                 resultHarnessError, written after the map is filled
//
// The front never reads the input or the map; the worker never talks to AFL.
// EOF on either pipe means the other side is gone.
const (
	workerMagic  = "LCW1"
	workerHelloN = 16

	cmdRun byte = 'r'

	resultOK           byte = 0
	resultFinding      byte = 1
	resultHarnessError byte = 2
)

// workerHello is what a worker reports once it is ready to run inputs.
type workerHello struct {
	numCounters int
	mapSize     int
	fsError     uint32 // FS_ERROR_* code to forward to AFL, 0 if none
}

func (h workerHello) encode() []byte {
	b := make([]byte, workerHelloN)
	copy(b, workerMagic)
	putWord(b[4:], uint32(h.numCounters))
	putWord(b[8:], uint32(h.mapSize))
	putWord(b[12:], h.fsError)
	return b
}

func decodeWorkerHello(b []byte) (workerHello, error) {
	if len(b) != workerHelloN || string(b[:4]) != workerMagic {
		return workerHello{}, fmt.Errorf("afl: malformed worker hello %q", b)
	}
	return workerHello{
		numCounters: int(getWord(b[4:])),
		mapSize:     int(getWord(b[8:])),
		fsError:     getWord(b[12:]),
	}, nil
}

// RunWorker is the worker side: it builds the Executor, attaches AFL's
// coverage map, says hello on res, then runs one input per cmdRun byte read
// from cmd until cmd reaches EOF (the front is gone or done), which is a
// clean return. Main calls it when WorkerEnv is set; it is exported for
// embedders that start workers themselves.
func RunWorker(ctx context.Context, cfg Config, cmd io.Reader, res io.Writer) error {
	if cfg.Factory == nil {
		return errors.New("afl: Config.Factory is nil")
	}
	shm, err := attachShm()
	var hello workerHello
	if err != nil {
		// Tell AFL why (its FS_ERROR message), then stop: running
		// without the map would look to AFL like a target without
		// coverage.
		var fe *fsSetupError
		if errors.As(err, &fe) {
			hello.fsError = fe.code
		} else {
			hello.fsError = fsErrorShmat
		}
		_, werr := res.Write(hello.encode())
		return errors.Join(err, werr)
	}
	defer shm.detach()

	ex, err := cfg.Factory(ctx)
	if err != nil {
		return fmt.Errorf("afl: building executor: %w", err)
	}
	n, err := counterCount(ctx, ex)
	if err != nil {
		return err
	}
	mem := shm.mem
	if mem == nil {
		mem = make([]byte, MapSizeFor(n))
	}
	cm, err := NewCoverageMap(mem, n)
	if err != nil {
		return err
	}
	hello.numCounters, hello.mapSize = n, cm.Size()
	if _, err := res.Write(hello.encode()); err != nil {
		return fmt.Errorf("afl: worker hello: %w", err)
	}

	in := inputSource{path: cfg.InputPath}
	stderr := cfg.stderr()
	var req, out [1]byte
	for {
		if _, err := io.ReadFull(cmd, req[:]); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("afl: worker reading request: %w", err)
		}
		if req[0] != cmdRun {
			return fmt.Errorf("afl: worker got unknown request %#x", req[0])
		}
		result := resultOK
		crashed, err := runOne(ctx, ex, &in, cm)
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "afl: harness error: %v\n", err)
			result = resultHarnessError
		case crashed:
			result = resultFinding
		}
		out[0] = result
		if _, err := res.Write(out[:]); err != nil {
			return fmt.Errorf("afl: worker writing result: %w", err)
		}
		if err := ctx.Err(); err != nil {
			// Cancelled (SIGTERM when AFL_KILL_SIGNAL=15 and the CLI maps
			// signals to the context): that run's result was reported; a
			// worker that ignored the signal would outlive its front's
			// purpose.
			return err
		}
	}
}

// counterCount asks the Executor how many counters it produces, running the
// empty input once when it cannot say.
func counterCount(ctx context.Context, ex Executor) (int, error) {
	if s, ok := ex.(CounterSizer); ok {
		return s.NumCounters(), nil
	}
	counters, _, err := safeExec(ctx, ex, nil)
	if err != nil {
		return 0, fmt.Errorf("afl: probing counter count with the empty input: %w", err)
	}
	return len(counters), nil
}

// runOne reads the current input, runs it and fills the map.
func runOne(ctx context.Context, ex Executor, in *inputSource, cm *CoverageMap) (bool, error) {
	input, err := in.read()
	if err != nil {
		return false, err
	}
	counters, crashed, err := safeExec(ctx, ex, input)
	if err != nil {
		return false, err
	}
	if err := cm.Write(counters); err != nil {
		return false, err
	}
	return crashed, nil
}

// safeExec runs ex.Exec and turns a panic into an error, so that a bug in
// the harness becomes a replayable crash input rather than a dead worker.
func safeExec(ctx context.Context, ex Executor, input []byte) (counters []uint8, crashed bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			counters, crashed, err = nil, false, fmt.Errorf("afl: executor panicked: %v", r)
		}
	}()
	counters, crashed, err = ex.Exec(ctx, input)
	if err != nil {
		err = fmt.Errorf("afl: executor: %w", err)
	}
	return counters, crashed, err
}

// inputSource reads the current test case, reusing one buffer.
type inputSource struct {
	path string // AFL's @@ file; "" for stdin
	buf  []byte
}

// read returns the current input. For stdin it reads fd 0 from offset 0 with
// pread: under AFL, stdin is the .cur_input file, which AFL truncates,
// rewrites and rewinds before each run, and whose file offset the worker
// shares with the front and with AFL; pread does not depend on that offset.
// A pipe on stdin (by hand) cannot be pread and is read to EOF once.
func (s *inputSource) read() ([]byte, error) {
	if s.path != "" {
		// AFL unlinks and recreates the @@ file for every run, so it must
		// be reopened each time.
		f, err := os.Open(s.path)
		if err != nil {
			return nil, fmt.Errorf("afl: opening input: %w", err)
		}
		defer f.Close()
		return s.readAll(f, -1)
	}
	return s.readAll(os.Stdin, 0)
}

// readAll reads f to EOF into s.buf, with pread from offset at when at >= 0.
func (s *inputSource) readAll(f *os.File, at int64) ([]byte, error) {
	s.buf = s.buf[:0]
	off := at
	for {
		if len(s.buf) == cap(s.buf) {
			s.buf = append(s.buf, 0)[:len(s.buf)]
		}
		var n int
		var err error
		if off >= 0 {
			n, err = f.ReadAt(s.buf[len(s.buf):cap(s.buf)], off)
			off += int64(n)
			if errors.Is(err, syscall.ESPIPE) {
				off, err = -1, nil // not seekable: plain reads from here on
			}
		} else {
			n, err = f.Read(s.buf[len(s.buf):cap(s.buf)])
		}
		s.buf = s.buf[:len(s.buf)+n]
		if errors.Is(err, io.EOF) {
			return s.buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("afl: reading input: %w", err)
		}
	}
}

func (c *Config) stderr() io.Writer {
	if c.Stderr != nil {
		return c.Stderr
	}
	return os.Stderr
}
