//go:build !amd64

package engine

// haveFirstNew tells that firstNew may run: not on this architecture.
const haveFirstNew = false

// firstNew is never called here (haveFirstNew is false).
func firstNew(c, s *uint8, n int) int { return n }
