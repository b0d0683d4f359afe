// Package sim is labelcov's fast, deterministic "projection" simulator: it
// loads worlds from .world files, turns fuzzer bytes or .env files into
// initial environments, executes the CPL actions a plan performs
// (navigating, moving-torso, parking-arms, detecting, picking-up, placing),
// answers the plans' and checks' queries, and counts action coverage.
//
// Geometry is kinematic and rule-based: reach is a distance from a shoulder,
// perception is a field of view with occlusion and hidden zones, placing
// drifts near edges. There is no physics engine and no randomness, so one
// environment always yields one trace and one final state.
//
// The package must never hard-code anything about a particular world (every
// surface, robot dimension, object type and coverage bucket comes from the
// world file), never read the clock or a random source, and never panic on
// bad worlds, environments or designators. Resetting a State for the next
// run reuses its storage, so fuzzing loops stay cheap.
//
// Runner runs a compiled plan on one input — an environment of a world,
// or, without a world, the plan's arguments — with its policies and
// checks: it is the one place that makes a VM run of a plan for an input
// (package fuzzdriver/runner wraps it for every verb), and CategoryName
// the one place that names an error category.
//
// The package also knows what a plan can link: CheckCalls reports calls to
// functions no defun, builtin or world query defines (before anything
// runs), and NeedsWorld whether a plan performs actions or queries a world.
package sim
