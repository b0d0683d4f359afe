//go:build !amd64

package engine

// haveAnyNew tells that anyNew may run: not on this architecture.
const haveAnyNew = false

// anyNew is never called here (haveAnyNew is false).
func anyNew(c, s, m *uint8, n int) bool { return false }
