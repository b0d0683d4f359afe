//go:build !unix

package bench

const rssSupported = false

func peakRSS() int64 { return 0 }
