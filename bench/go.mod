module github.com/labelcov/labelcov/bench

go 1.26.0

require (
	github.com/d5/tengo/v2 v2.17.0
	github.com/labelcov/labelcov v0.0.0
	github.com/yuin/gopher-lua v1.1.2
	go.starlark.net v0.0.0-20260908191801-89a6a09411d5
)

require (
	github.com/alecthomas/participle/v2 v2.1.4 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/labelcov/labelcov => ../
