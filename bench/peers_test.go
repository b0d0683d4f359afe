package bench

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/d5/tengo/v2"
	lua "github.com/yuin/gopher-lua"
	luaparse "github.com/yuin/gopher-lua/parse"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// loadLua compiles the chunk once, runs it once to define the global main,
// and returns a runner that calls main() on the same LState.
func loadLua(tb testing.TB, filename string, src []byte) func() (int64, error) {
	chunk, err := luaparse.Parse(bytes.NewReader(src), filename)
	if err != nil {
		tb.Fatal(err)
	}
	proto, err := lua.Compile(chunk, filename)
	if err != nil {
		tb.Fatal(err)
	}
	L := lua.NewState()
	tb.Cleanup(L.Close)
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, 0, nil); err != nil {
		tb.Fatal(err)
	}
	main := L.GetGlobal("main")
	if main.Type() != lua.LTFunction {
		tb.Fatalf("%s: no function main", filename)
	}
	call := lua.P{Fn: main, NRet: 1, Protect: true}
	return func() (int64, error) {
		if err := L.CallByParam(call); err != nil {
			return 0, err
		}
		ret := L.Get(-1)
		L.Pop(1)
		n, ok := ret.(lua.LNumber)
		if !ok {
			return 0, fmt.Errorf("main returned %s, not a number", ret.Type())
		}
		return int64(n), nil
	}
}

// loadStarlark executes the file once (resolving and compiling it, and
// defining its functions) and returns a runner that calls main().
// Recursion must be enabled for fib.
func loadStarlark(tb testing.TB, filename string, src []byte) func() (int64, error) {
	opts := &syntax.FileOptions{Recursion: true}
	thread := &starlark.Thread{Name: "bench"}
	globals, err := starlark.ExecFileOptions(opts, thread, filename, src, nil)
	if err != nil {
		tb.Fatal(err)
	}
	main, ok := globals["main"].(starlark.Callable)
	if !ok {
		tb.Fatalf("%s: no function main", filename)
	}
	return func() (int64, error) {
		v, err := starlark.Call(thread, main, nil, nil)
		if err != nil {
			return 0, err
		}
		i, ok := v.(starlark.Int)
		if !ok {
			return 0, fmt.Errorf("main returned %s, not an int", v.Type())
		}
		n, ok := i.Int64()
		if !ok {
			return 0, fmt.Errorf("main returned %s, out of int64 range", i)
		}
		return n, nil
	}
}

// loadTengo compiles the script once; the runner runs it (which defines
// main and calls it; defining functions costs next to nothing against the
// workloads) and reads the global result. Tengo has no API to call a
// script function from Go without running the script.
func loadTengo(tb testing.TB, filename string, src []byte) func() (int64, error) {
	c, err := tengo.NewScript(src).Compile()
	if err != nil {
		tb.Fatalf("%s: %v", filename, err)
	}
	return func() (int64, error) {
		if err := c.Run(); err != nil {
			return 0, err
		}
		v := c.Get("result")
		if v.ValueType() != "int" {
			return 0, fmt.Errorf("main returned %s, not an int", v.ValueType())
		}
		return v.Int64(), nil
	}
}
