// Package reduce shrinks a test suite or a corpus without losing
// coverage: given what each input covers (any item: a label, a branch
// outcome, an action bucket, a finding category), it picks a small subset
// that covers every item the whole set covers — greedy set cover, as
// libFuzzer's -set_cover_merge does, preferring smaller inputs as afl-cmin
// does. It is pure arithmetic: reading and writing inputs is the caller's.
package reduce
