// Package engine is labelcov's built-in fuzzer: it runs coverage-guided
// campaigns against a Target (bytes in, VM coverage counters and an outcome
// out). It holds the loop (libFuzzer/AFL-style: corpus, byte- and
// word-level mutations, havoc stacking, splicing, hit-count buckets,
// scheduling by recency, size, favored and rare counters), finding
// minimization, the campaign directory (AFL++-compatible queue and sync
// layout, stats.json) and the Summary every campaign reports, whichever
// engine ran it. It knows nothing of plans: package fuzzdriver makes plans
// into Targets.
//
// The engine decides what to keep from the coverage counters alone. It must
// never look at labels, action buckets or checks when deciding what to keep:
// outcomes are only collected as findings. That blindness is the experiment
// labelcov exists for — fine-grained criteria reach the fuzzer only as
// ordinary branches in an annotated plan.
//
// Every random choice comes from Campaign.Seed, so a campaign with the same
// seed, inputs and one worker replays exactly — unless a run hits the
// wall-clock limit (Campaign.RunTimeout): a watchdog, the only reader of the
// clock for runs, cancels it through its context and records a "hang"
// finding, and the campaign goes on. The package keeps no global mutable
// state and never panics on bad input or bad files; a resumed campaign
// removes the temporary files a killed session left behind.
package engine
