package engine

import "golang.org/x/sys/cpu"

// haveAnyNew tells that anyNew may run (it needs AVX2).
var haveAnyNew = cpu.X86.HasAVX2

// anyNew reports whether c[:n] (n >= 64) reaches a (counter, bucket) pair
// whose bit is clear in s, where m[i] is coverMask[s[i]] for every i < n.
// It needs AVX2 (haveAnyNew).
//
//go:noescape
func anyNew(c, s, m *uint8, n int) bool
