package engine

import "golang.org/x/sys/cpu"

// haveSkipOld tells that skipOld may run (it needs AVX2).
var haveSkipOld = cpu.X86.HasAVX2

// skipOld returns the offset of the first 64-byte block of c[:n] (n a
// multiple of 64) that holds a counter above 1 or a 1 whose bucket bit is
// clear in the same byte of s, or n when there is none. It needs AVX2
// (haveSkipOld).
//
//go:noescape
func skipOld(c, s *uint8, n int) int
