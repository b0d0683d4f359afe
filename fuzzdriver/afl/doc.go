// Package afl makes a labelcov target speak AFL++'s fork-server protocol, so
// that a stock, unmodified afl-fuzz (the Debian afl++ 4.04c package) can
// drive the plan VM and simulator:
//
//	afl-fuzz -i seeds -o out -- labelcov afl-target PLAN --world W
//
// AFL++ expects a target that forks a fresh child per input. A Go process
// cannot fork safely (fork keeps only the calling thread of a multi-threaded
// runtime), so this package splits the target in two processes, as the .NET
// and Java AFL bridges do:
//
//   - the front is the process afl-fuzz starts. It answers the fork-server
//     protocol on file descriptors 198 (control, from AFL) and 199 (status, to
//     AFL), and never runs an input itself;
//   - the worker is the same binary re-executed with WorkerEnv set. It builds
//     the Executor once (parse once, run many), attaches AFL's shared-memory
//     coverage map (__AFL_SHM_ID) and runs one input per request from the
//     front, writing the VM's counters into the map.
//
// For every AFL request the front reports the worker's pid as the "child
// pid", so that AFL's timeout kill lands on the worker, and a waitpid-style
// status word: a normal exit, or death by SIGABRT when the run produced a
// finding. When the worker dies (AFL's timeout kill, or a harness crash) the
// front relays its real wait status and starts a new worker before the next
// request. afl-showmap, afl-tmin and afl-cmin use the same fork server.
// Without fds 198/199 (AFL_NO_FORKSRV=1, crash triage, by hand) the target
// runs its input once and exits; see Main.
//
// The package knows nothing of plans, worlds or labels: it only sees an
// Executor (bytes in, a flat []uint8 of counters and a crash flag out).
//
// The campaign side lives here too: Campaign runs afl-fuzz instances on a
// target command line (labelcov's is `afl-target --setup worker.json`,
// written by package fuzzdriver/campaign), reads their progress live,
// replays their queues into a Meter, and replays, groups and minimizes
// their crashes with an engine.Target. It sees only those interfaces and
// counters, never a plan.
//
// What it must never do: panic, hang (every read from AFL or from the worker
// ends on EOF, on a deadline or when the context is cancelled), leave a
// worker process behind when the front goes away, write outside the map size
// it announced to AFL, or keep global mutable state.
package afl
