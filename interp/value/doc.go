// Package value defines the values plans compute with: nil, t, integers,
// floats, strings, symbols, keywords, cons lists, designators, functions and
// world object handles, plus their printing (prin1 and princ styles) and the
// equality predicates eq, eql and equal.
//
// A Value is a small struct, not an interface, so that integers and floats
// never allocate: the VM's hot loop depends on it. This package holds data
// only; it must never evaluate code or know about the VM or the simulator.
package value
