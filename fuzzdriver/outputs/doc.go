// Package outputs holds the one rule every file a labelcov verb writes
// goes through: an output never destroys what the invocation reads or
// keeps. A Guard is told, once per invocation, the input files, the
// folders read (tests, corpus, benchmark, the module being processed) and
// the tool's own records (campaign files); Check refuses an output path
// that is, or resolves to through symbolic links, any of them or lies
// inside a folder read, and WriteFile writes only what Check allows.
//
// It is a leaf: it imports the standard library only, and knows nothing
// of plans, Go packages or campaigns (callers name what each path is). It
// must never write anything but the file it is asked to write.
package outputs
