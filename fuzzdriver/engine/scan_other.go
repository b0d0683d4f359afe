//go:build !amd64

package engine

// haveSkipOld tells that skipOld may run: not on this architecture.
const haveSkipOld = false

// skipOld is never called here (haveSkipOld is false).
func skipOld(c, s *uint8, n int) int { return 0 }
