package sim

import "encoding/binary"

// DecodeArgs turns an input into n plan parameters for plans fuzzed without a
// world: 8 bytes per parameter, a little-endian two's complement int64 each.
// Missing bytes read as zero and bytes beyond 8*n are ignored, so every input
// decodes and short inputs mean small numbers.
func DecodeArgs(input []byte, n int) []int64 {
	if n <= 0 {
		return nil
	}
	args := make([]int64, n)
	var word [8]byte
	for i := range args {
		off := 8 * i
		if off >= len(input) {
			break
		}
		word = [8]byte{}
		copy(word[:], input[off:])
		args[i] = int64(binary.LittleEndian.Uint64(word[:]))
	}
	return args
}
