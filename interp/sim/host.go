package sim

import (
	"errors"

	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// Host adapts a State to the VM: perform executes actions on it. Failures
// become *vm.Failure values of the same kind, so plans can handle them with
// with-failure-handling.
type Host struct{ S *State }

// Perform implements vm.Host.
func (h Host) Perform(m *vm.Machine, d *value.Designator) (value.Value, error) {
	v, err := h.S.Perform(d)
	if err != nil {
		return value.Nil, toVM(err)
	}
	// Detected lists are allocations the plan did not pay for yet.
	if n := v.Len(); n > 0 && m != nil {
		if err := m.Alloc(2 * n); err != nil {
			return value.Nil, err
		}
	}
	return v, nil
}

// TransientDesignators implements vm.TransientHost: the simulator reads
// the designators it performs and keeps none of them (traces hold
// strings), so the VM may reuse them.
func (h Host) TransientDesignators() bool { return true }

func toVM(err error) error {
	var f *Failure
	if errors.As(err, &f) {
		return &vm.Failure{Kind: f.Kind, Message: f.Message}
	}
	return err
}

// Builtins returns the query builtins bound to s, ready for vm.Config.
func (s *State) Builtins() []vm.Builtin {
	qs := Queries()
	out := make([]vm.Builtin, len(qs))
	for i, q := range qs {
		fn := q.Fn
		out[i] = vm.Builtin{Name: q.Name, MinArgs: q.MinArgs, MaxArgs: q.MaxArgs,
			Fn: func(m *vm.Machine, args []value.Value) (value.Value, error) {
				v, err := fn(s, args)
				if err != nil {
					return value.Nil, toVM(err)
				}
				return v, nil
			}}
	}
	return out
}

// NoWorldBuiltins links every query name to a function that signals
// no-world, for plans run without a world: calling a query then fails
// clearly instead of as an undefined function.
func NoWorldBuiltins() []vm.Builtin {
	qs := Queries()
	out := make([]vm.Builtin, len(qs))
	for i, q := range qs {
		name := q.Name
		out[i] = vm.Builtin{Name: name, MinArgs: q.MinArgs, MaxArgs: q.MaxArgs,
			Fn: func(*vm.Machine, []value.Value) (value.Value, error) {
				return value.Nil, vm.Fail("no-world", "%s: no world is loaded (run with --world)", name)
			}}
	}
	return out
}
