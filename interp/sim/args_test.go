package sim

import (
	"reflect"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		in   []byte
		n    int
		want []int64
	}{
		{nil, 2, []int64{0, 0}},
		{[]byte{1}, 1, []int64{1}},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1, []int64{-1}},
		// Second parameter: only two bytes present, the rest read as zero.
		{[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0x34, 0x12}, 3, []int64{1, 0x1234, 0}},
		// Extra bytes are ignored.
		{[]byte{2, 0, 0, 0, 0, 0, 0, 0, 9}, 1, []int64{2}},
		{[]byte{1, 2, 3}, 0, nil},
		{[]byte{0, 0, 0, 0, 0, 0, 0, 0x80}, 1, []int64{-1 << 63}},
	}
	for _, tc := range tests {
		if got := DecodeArgs(tc.in, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeArgs(%x, %d) = %v, want %v", tc.in, tc.n, got, tc.want)
		}
	}
}
