package main

import (
	"errors"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
)

// Exit codes, the same in every verb; README.md's "Exit codes" table says
// the same. CI tells "found bugs" (1) from "mistyped a flag" (2) from
// "stopped early" (3).
const (
	// exitOK: the verb did its job and found nothing to report.
	exitOK = 0
	// exitFound: the verb did its job and found something: findings of a
	// campaign, failing checks, findings that replay, a missed coverage
	// threshold.
	exitFound = 1
	// exitUsage: usage or input errors: bad flags, unreadable files, plans
	// that do not compile, worlds that do not load.
	exitUsage = 2
	// exitInterrupted: a signal (Ctrl-C, SIGTERM from a scheduler) or a
	// deadline stopped the verb before its budget; what it had done is
	// saved and summarized.
	exitInterrupted = 3
)

// foundError is returned by a verb that did its job and found something;
// the process exits with exitFound and prints the message.
type foundError = subject.FoundError

// found returns a foundError with a formatted message.
func found(format string, args ...any) error { return subject.Found(format, args...) }

// interruptedError is returned by a verb stopped before its budget; the
// process exits with exitInterrupted.
type interruptedError = subject.InterruptedError

// interrupted returns an interruptedError with a formatted message.
func interrupted(format string, args ...any) error { return subject.Interrupted(format, args...) }

// exitCodeOf maps a verb's error to the process's exit status. Every error
// that is neither a finding nor an interruption is a usage or input error.
func exitCodeOf(err error) int {
	var fe *foundError
	var ie *interruptedError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ie):
		return exitInterrupted
	case errors.As(err, &fe):
		return exitFound
	default:
		return exitUsage
	}
}
