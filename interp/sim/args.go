package sim

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// DecodeArgs turns an input into n plan parameters for plans fuzzed without a
// world: 8 bytes per parameter, a little-endian two's complement int64 each.
// Missing bytes read as zero and bytes beyond 8*n are ignored, so every input
// decodes and short inputs mean small numbers.
func DecodeArgs(input []byte, n int) []int64 {
	if n <= 0 {
		return nil
	}
	args := make([]int64, n)
	for i := range args {
		args[i] = argWord(input, i)
	}
	return args
}

// decodeArgsInto is DecodeArgs into dst (one value per parameter), with
// no allocation: Runner.RunBytes decodes every fuzzer input.
func decodeArgsInto(dst []value.Value, input []byte) {
	for i := range dst {
		dst[i] = value.Int(argWord(input, i))
	}
}

// argWord is parameter i of input: its 8 bytes at 8*i, little-endian,
// missing bytes zero.
func argWord(input []byte, i int) int64 {
	off := 8 * i
	if off+8 <= len(input) {
		return int64(binary.LittleEndian.Uint64(input[off:]))
	}
	var word [8]byte
	if off < len(input) {
		copy(word[:], input[off:])
	}
	return int64(binary.LittleEndian.Uint64(word[:]))
}

// EncodeArgs is the input DecodeArgs turns into args.
func EncodeArgs(args []int64) []byte {
	out := make([]byte, 8*len(args))
	for i, a := range args {
		binary.LittleEndian.PutUint64(out[8*i:], uint64(a))
	}
	return out
}

// ParseArgs reads a .args file (the reproducers of world-less benchmarks,
// labelcov cover's tests): its top-level forms, plan literals, are the
// arguments of plan fn, in order. Errors are *syntax.Error naming
// name:line:col.
func ParseArgs(name string, data []byte, fn *compile.Func) ([]value.Value, error) {
	_, args, err := parseArgs(name, data, fn)
	return args, err
}

func parseArgs(name string, data []byte, fn *compile.Func) (*syntax.File, []value.Value, error) {
	f, err := syntax.Parse(name, data)
	if err != nil {
		return nil, nil, err
	}
	n := fn.NumParams()
	if len(f.Forms) > n {
		return nil, nil, f.NodeErrorf(f.Forms[n], "plan %s takes %d argument%s (%s); this is argument %d",
			fn.Name, n, plural(n), strings.Join(fn.Params, " "), n+1)
	}
	if len(f.Forms) < n {
		pos := syntax.Pos{Line: 1, Col: 1}
		if len(f.Forms) > 0 {
			_, pos = f.Forms[len(f.Forms)-1].Span()
		}
		return nil, nil, syntax.Errorf(name, data, pos, "plan %s takes %d argument%s (%s), the file gives %d",
			fn.Name, n, plural(n), strings.Join(fn.Params, " "), len(f.Forms))
	}
	args := make([]value.Value, n)
	for i, e := range f.Forms {
		args[i] = compile.Literal(e)
	}
	return f, args, nil
}

// ArgStrings reads the arguments of plan fn from one plan literal per
// string (labelcov run --arg), in order; the i-th is named "--arg i" in
// errors (*syntax.Error, with a caret).
func ArgStrings(fn *compile.Func, raw []string) ([]value.Value, error) {
	if len(raw) != fn.NumParams() {
		return nil, fmt.Errorf("plan %s takes %d argument%s (%s), got %d --arg", fn.Name, fn.NumParams(),
			plural(fn.NumParams()), strings.Join(fn.Params, " "), len(raw))
	}
	vals := make([]value.Value, len(raw))
	for i, s := range raw {
		n, err := syntax.ParseExpr(fmt.Sprintf("--arg %d", i+1), []byte(s))
		if err != nil {
			return nil, err
		}
		vals[i] = compile.Literal(n)
	}
	return vals, nil
}

// ArgsFileInput reads a .args file as the fuzzer input that gives plan fn
// those arguments (EncodeArgs): fuzzed world-less plans take integers only.
func ArgsFileInput(name string, data []byte, fn *compile.Func) ([]byte, error) {
	f, args, err := parseArgs(name, data, fn)
	if err != nil {
		return nil, err
	}
	ints := make([]int64, len(args))
	for i, a := range args {
		if a.Kind() != value.KInt {
			return nil, f.NodeErrorf(f.Forms[i], "argument %d is %s: a fuzzer input gives plan %s integers only", i+1, a, fn.Name)
		}
		ints[i] = a.Int()
	}
	return EncodeArgs(ints), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
