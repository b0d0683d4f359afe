//go:build linux

package afl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// Defaults for Config.
const (
	defaultStartTimeout = 2 * time.Minute
	// stopGrace is how long a worker gets to exit on its own after the
	// front closes its request pipe, before it is killed.
	stopGrace = 2 * time.Second
)

// ServeForkServer is the front: it answers AFL++'s fork-server protocol on
// ctl (fd 198, AFL's requests) and status (fd 199, our replies) on behalf of
// a worker process, until AFL closes ctl (a clean nil return) or ctx is
// cancelled. ctl and status are switched to blocking mode and used with
// raw syscalls (see canceller for why).
//
// The exchange, as afl-fuzz 4.04c's afl_fsrv_start and afl_fsrv_run_target
// expect it:
//
//	hello     front -> AFL   FS_OPT_ENABLED|FS_OPT_MAPSIZE|size, once
//	request   AFL -> front   was_killed (1 if AFL killed the last child)
//	pid       front -> AFL   the worker's pid; AFL starts its timer now
//	status    front -> AFL   waitpid status: 0, SIGABRT (finding), SIGSEGV
//	                         (harness error), or the worker's real status
//	                         when it died (SIGKILL from AFL's timeout)
//
// A new worker is started right after one dies, and the front waits for
// its hello before sending the next pid: AFL's timer only runs between the
// pid and the status, so a restart never counts against the next input.
func ServeForkServer(ctx context.Context, cfg Config, ctl, status *os.File) error {
	if cfg.Factory == nil {
		return errors.New("afl: Config.Factory is nil")
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c, err := newCanceller(ctx)
	if err != nil {
		return fmt.Errorf("afl: cancellation pipe: %w", err)
	}
	defer c.close()

	s := &server{cfg: cfg, ctx: ctx, c: c, ctlF: ctl, statusF: status,
		ctl: rawFD(ctl), status: rawFD(status)}
	defer s.stopWorker()
	return s.serve()
}

// server is the state of one front.
type server struct {
	cfg           Config
	ctx           context.Context
	c             *canceller
	ctlF, statusF *os.File    // own the descriptors below
	ctl, status   int         // fds 198 and 199, blocking
	w             *workerProc // nil when no worker is running
	mapSize       int         // announced to AFL; every worker must agree
	word          [4]byte
	execs         int64     // runs served
	execsWritten  time.Time // last write of cfg.ExecsFile
}

// noteExec counts a run served and, at most once a second (or when final),
// rewrites cfg.ExecsFile. Errors are ignored: the count is a progress aid.
func (s *server) noteExec(final bool) {
	if !final {
		s.execs++
	}
	if s.cfg.ExecsFile == "" || (!final && time.Since(s.execsWritten) < time.Second) {
		return
	}
	s.execsWritten = time.Now()
	tmp := s.cfg.ExecsFile + ".tmp"
	if os.WriteFile(tmp, []byte(strconv.FormatInt(s.execs, 10)+"\n"), 0o644) == nil {
		os.Rename(tmp, s.cfg.ExecsFile) //nolint:errcheck // progress only
	}
}

func (s *server) serve() error {
	if err := s.startWorker(); err != nil {
		return err
	}
	h, err := s.w.awaitHello(s.ctx, s.c, s.cfg.startTimeout())
	if err != nil {
		return err
	}
	if h.fsError != 0 {
		// AFL has a message for this; it is all it will show the user.
		werr := s.writeWord(errorHelloWord(h.fsError))
		return errors.Join(fmt.Errorf("afl: worker could not attach the coverage map (FS_ERROR %d)", h.fsError), werr)
	}
	s.mapSize = h.mapSize
	if err := s.writeWord(helloWord(h.mapSize)); err != nil {
		return fmt.Errorf("afl: fork-server hello: %w", err)
	}

	for {
		wasKilled, err := s.readRequest()
		if err != nil {
			if errors.Is(err, io.EOF) {
				s.noteExec(true)
				return nil // AFL is done with us
			}
			return err
		}
		if wasKilled && s.w != nil && !s.w.fresh {
			// AFL killed the last child (our worker) on a timeout, perhaps
			// just after we reported its status: make sure it is dead and
			// reaped rather than feeding it a request it cannot answer,
			// which would pin its SIGKILL on the next input.
			s.w.kill()
			s.w = nil
		}
		if s.w == nil {
			if err := s.startWorker(); err != nil {
				return err
			}
		}
		if !s.w.ready {
			h, err := s.w.awaitHello(s.ctx, s.c, s.cfg.startTimeout())
			if err != nil {
				return err
			}
			if h.fsError != 0 || h.mapSize != s.mapSize {
				return fmt.Errorf("afl: restarted worker announced map size %d (error %d), first worker %d",
					h.mapSize, h.fsError, s.mapSize)
			}
		}
		st, err := s.run()
		if err != nil {
			return err
		}
		if err := s.writeWord(st); err != nil {
			return fmt.Errorf("afl: writing status: %w", err)
		}
		s.noteExec(false)
	}
}

// readRequest waits for AFL's next request word.
func (s *server) readRequest() (wasKilled bool, err error) {
	if err := s.c.readFull(s.ctl, s.word[:], time.Time{}); err != nil {
		if ctxErr := s.ctx.Err(); ctxErr != nil {
			return false, ctxErr
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return false, fmt.Errorf("afl: truncated request from afl-fuzz: %w", err)
		}
		if errors.Is(err, io.EOF) {
			return false, io.EOF
		}
		return false, fmt.Errorf("afl: reading request from afl-fuzz: %w", err)
	}
	return getWord(s.word[:]) != 0, nil
}

func (s *server) writeWord(w uint32) error {
	putWord(s.word[:], w)
	if err := s.c.writeFull(s.status, s.word[:]); err != nil {
		if ctxErr := s.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return err
	}
	return nil
}

// run reports the worker's pid, has it run the current input and returns
// the status word for AFL.
func (s *server) run() (uint32, error) {
	w := s.w
	if err := s.writeWord(uint32(w.pid)); err != nil {
		return 0, fmt.Errorf("afl: writing child pid: %w", err)
	}
	w.fresh = false
	result, err := w.exchange(s.c, s.cfg.RunTimeout)
	if err == nil {
		switch result {
		case resultOK:
			return statusOK, nil
		case resultFinding:
			return statusFinding, nil
		case resultHarnessError:
			return statusHarnessError, nil
		}
		err = fmt.Errorf("afl: worker sent unknown result %#x", result)
	}
	if ctxErr := s.ctx.Err(); ctxErr != nil {
		return 0, ctxErr
	}
	// The worker is gone (killed by AFL, crashed) or misbehaved: relay how
	// it ended and start its successor now, so that the restart overlaps
	// with AFL's bookkeeping.
	st := w.kill()
	s.w = nil
	fmt.Fprintf(s.cfg.stderr(), "afl: worker %d ended during a run (%v): %s\n", w.pid, err, describeStatus(st))
	if ws := syscall.WaitStatus(st); !ws.Signaled() {
		// An exit without a signal (a Go fatal error exits 2) is still
		// a crash of the harness: a plain exit status would make AFL
		// count the run as fine and lose the input.
		st = statusHarnessError
	}
	if err := s.startWorker(); err != nil {
		return 0, err
	}
	return st, nil
}

// startWorker launches a worker without waiting for its hello.
func (s *server) startWorker() error {
	w, err := startWorker(s.cfg)
	if err != nil {
		return err
	}
	s.w = w
	return nil
}

// stopWorker ends the current worker: an idle one gets its request pipe
// closed, which makes it return, and is killed if it has not exited after
// stopGrace; one caught in a run (cancellation) is killed at once.
func (s *server) stopWorker() {
	if s.w == nil {
		return
	}
	if s.w.busy {
		s.w.kill()
	} else {
		s.w.stop(stopGrace)
	}
	s.w = nil
}

// workerProc is one running worker as seen by the front.
type workerProc struct {
	cmd        *exec.Cmd
	pid        int
	toW, fromW *os.File // request pipe write end, result pipe read end
	toFD       int      // toW's descriptor, blocking
	fromFD     int      // fromW's descriptor, blocking
	ready      bool     // hello received
	fresh      bool     // never given a request: AFL cannot have killed it
	busy       bool     // a request is outstanding
	done       bool     // reaped
	status     uint32   // wait status once done
	resultBf   [1]byte
}

func (c *Config) startTimeout() time.Duration {
	if c.StartTimeout > 0 {
		return c.StartTimeout
	}
	return defaultStartTimeout
}

// startWorker re-executes the binary as a worker with two private pipes.
func startWorker(cfg Config) (*workerProc, error) {
	path, args := cfg.WorkerPath, cfg.WorkerArgs
	if path == "" {
		p, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("afl: locating own executable for the worker: %w", err)
		}
		path = p
	}
	if args == nil {
		args = os.Args[1:]
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("afl: worker pipe: %w", err)
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("afl: worker pipe: %w", err)
	}
	cmd := exec.Command(path, args...)
	// ExtraFiles[0] becomes fd 3 and [1] fd 4 in the worker.
	cmd.Env = append(os.Environ(), WorkerEnv+"=3")
	cmd.ExtraFiles = []*os.File{reqR, resW}
	// Stdin is AFL's .cur_input (or /dev/null with @@): the same open file,
	// so the worker sees every rewrite. Stdout and stderr pass through.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = workerSysProcAttr()
	err = cmd.Start()
	// The worker's ends now live in the worker; closing ours is what makes
	// its death visible to us as EOF on fromW.
	reqR.Close()
	resW.Close()
	if err != nil {
		reqW.Close()
		resR.Close()
		return nil, fmt.Errorf("afl: starting worker %s: %w", path, err)
	}
	return &workerProc{cmd: cmd, pid: cmd.Process.Pid, toW: reqW, fromW: resR,
		toFD: rawFD(reqW), fromFD: rawFD(resR), fresh: true}, nil
}

// awaitHello reads the worker's hello, giving up after timeout, when the
// worker dies (EOF) or when ctx is cancelled.
func (w *workerProc) awaitHello(ctx context.Context, c *canceller, timeout time.Duration) (workerHello, error) {
	b := make([]byte, workerHelloN)
	err := c.readFull(w.fromFD, b, time.Now().Add(timeout))
	if ctx.Err() != nil {
		return workerHello{}, ctx.Err()
	}
	if err != nil {
		// Usually the Factory failed and the worker is on its way out,
		// printing why: let it finish rather than killing it mid-message.
		w.stop(stopGrace)
		return workerHello{}, fmt.Errorf("afl: worker %d did not start (%s; its stderr says why): %w",
			w.pid, describeStatus(w.status), err)
	}
	w.ready = true
	return decodeWorkerHello(b)
}

// exchange sends one run request and waits for the result byte. Its way out
// is the worker's death (EOF), the optional run timeout, or ctx.
func (w *workerProc) exchange(c *canceller, timeout time.Duration) (byte, error) {
	w.busy = true
	w.resultBf[0] = cmdRun
	if err := c.writeFull(w.toFD, w.resultBf[:]); err != nil {
		return 0, fmt.Errorf("sending request: %w", err)
	}
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	if err := c.readFull(w.fromFD, w.resultBf[:], deadline); err != nil {
		return 0, fmt.Errorf("reading result: %w", err)
	}
	w.busy = false
	return w.resultBf[0], nil
}

// kill SIGKILLs the worker if it is still running, reaps it and returns its
// wait status. SIGKILL cannot be caught, so the wait cannot hang.
func (w *workerProc) kill() uint32 {
	if !w.done {
		_ = w.cmd.Process.Kill()
		w.reap()
	}
	return w.status
}

// stop closes the request pipe so the worker returns on its own, and kills
// it if it is still alive after grace.
func (w *workerProc) stop(grace time.Duration) {
	if w.done {
		return
	}
	_ = w.toW.Close()
	exited := make(chan struct{})
	go func() {
		w.reap()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(grace):
		_ = w.cmd.Process.Kill()
		<-exited
	}
}

// reap waits for the worker and releases its pipes.
func (w *workerProc) reap() {
	_ = w.cmd.Wait() // a non-zero exit is information, not an error here
	if ps := w.cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok {
			w.status = uint32(ws)
		}
	}
	_ = w.toW.Close()
	_ = w.fromW.Close()
	w.done = true
}
