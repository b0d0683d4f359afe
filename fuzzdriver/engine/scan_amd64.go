package engine

import "golang.org/x/sys/cpu"

// haveFirstNew tells that firstNew may run (it needs AVX2).
var haveFirstNew = cpu.X86.HasAVX2

// firstNew returns the offset of the first 64-counter block of c[:n] (n a
// multiple of 64) that reaches a (counter, bucket) pair whose bit is clear
// in s, or n when there is none. It needs AVX2 (haveFirstNew).
//
//go:noescape
func firstNew(c, s *uint8, n int) int
