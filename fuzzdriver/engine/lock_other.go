//go:build !unix

package engine

// lockDir is a no-op where flock is not available.
func lockDir(string) (func(), error) { return func() {}, nil }
