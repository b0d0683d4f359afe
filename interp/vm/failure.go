package vm

import (
	"fmt"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Failure is a plan failure: signalled by (fail ...), by a runtime error,
// by a builtin or by the host. Kind names a node of the kind tree; Pos is
// the source position of the instruction that signalled (filled in by the
// VM when a builtin or host leaves it unset).
type Failure struct {
	Kind    string
	Message string
	File    string
	Pos     syntax.Pos
}

// At is where the failure happened, as the one position type (invalid
// when the position is unknown).
func (f *Failure) At() srcpos.Pos {
	if f == nil || !f.Pos.IsValid() {
		return srcpos.Pos{}
	}
	return srcpos.Pos{File: f.File, Line: f.Pos.Line, Col: f.Pos.Col, Offset: f.Pos.Offset}
}

func (f *Failure) Error() string {
	if f.Pos.IsValid() {
		return fmt.Sprintf("%s:%s: %s: %s", f.File, f.Pos, f.Kind, f.Message)
	}
	return f.Kind + ": " + f.Message
}

// Fail builds a failure of kind with a formatted message. Builtins and
// hosts return it as their error to signal a plan failure.
func Fail(kind, format string, args ...any) *Failure {
	return &Failure{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Kinds outside the failure tree: they end a run and no handler (not even
// ignore-errors) can intercept them.
const (
	KindTimeout     = "timeout"      // the step budget is exhausted
	KindCanceled    = "canceled"     // the context was cancelled
	KindOutputLimit = "output-limit" // the run printed more than Config.MaxOutput bytes
)

// The VM's catchable limits: errors in the failure tree (kindParent), so
// a handler can catch them, and limits all the same (IsLimit).
const (
	KindStackOverflow   = "stack-overflow"   // the call depth exceeds Config.MaxDepth
	KindAllocationLimit = "allocation-limit" // the allocation budget is exhausted
)

// IsLimit reports whether kind is one of the VM's limits rather than
// something the plan did: the step budget, cancellation, the output
// limit, the call depth and the allocation budget. A run in which the
// plan hits a limit, caught or not, covers no label (Machine.Counters):
// where it stopped depends on the limit, not on the plan, so a label
// reached there is not one the plan reaches.
func IsLimit(kind string) bool {
	switch kind {
	case KindTimeout, KindCanceled, KindOutputLimit, KindStackOverflow, KindAllocationLimit:
		return true
	}
	return false
}

// The built-in kind tree. Any other kind descends from plan-failure.
// Read-only.
var kindParent = map[string]string{
	"failure":              "",
	"error":                "failure",
	"arithmetic-error":     "error",
	"division-by-zero":     "arithmetic-error",
	"type-error":           "error",
	"unbound-variable":     "error",
	"arity-error":          "error",
	KindStackOverflow:      "error",
	"undefined-function":   "error",
	"no-world":             "error",
	KindAllocationLimit:    "error",
	"format-error":         "error",
	"plan-failure":         "failure",
	"object-not-found":     "plan-failure",
	"navigation-failure":   "plan-failure",
	"manipulation-failure": "plan-failure",
	"grasping-failure":     "manipulation-failure",
	"object-unreachable":   "manipulation-failure",
	"placing-failure":      "manipulation-failure",
}

// ParentKind returns the parent of kind in the tree ("" for failure and for
// the uncatchable timeout and canceled).
func ParentKind(kind string) string {
	if p, ok := kindParent[kind]; ok {
		return p
	}
	if kind == KindTimeout || kind == KindCanceled || kind == KindOutputLimit || kind == "" {
		return ""
	}
	return "plan-failure"
}

// IsKind reports whether kind equals ancestor or descends from it.
func IsKind(kind, ancestor string) bool {
	for k := kind; k != ""; k = ParentKind(k) {
		if k == ancestor {
			return true
		}
	}
	return false
}

// Catchable reports whether handlers may intercept a failure of kind.
func Catchable(kind string) bool { return IsKind(kind, "failure") }

// maxShown bounds the bytes of a value a failure message shows.
const maxShown = 200

// failureValue is how plans see a caught failure: a designator of class
// failure with properties kind and message, so (desig-prop f 'kind) works.
func failureValue(f *Failure) value.Value {
	d := value.NewDesignator("failure", 2)
	d.Props[0] = value.Prop{Key: "kind", Val: value.Symbol(f.Kind)}
	d.Props[1] = value.Prop{Key: "message", Val: value.String(f.Message)}
	return value.FromDesignator(d)
}

func typeError(what string, want string, got value.Value) *Failure {
	return Fail("type-error", "%s: expected %s, got %s", what, want, value.Abbrev(got, maxShown))
}
