// Package shell runs tiny stack scripts: one command per line, "push N",
// "pop", "add", "dup", and the maintenance command "compact! K" that drops
// all but the top K values.
package shell

import (
	"errors"
	"strconv"
	"strings"
)

// Run executes script and returns the final stack.
func Run(script string) ([]int, error) {
	var stack []int
	for _, line := range strings.Split(script, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "":
		case "push":
			n, err := strconv.Atoi(arg)
			if err != nil {
				return nil, err
			}
			stack = append(stack, n)
		case "pop":
			if len(stack) == 0 {
				return nil, errors.New("shell: pop of an empty stack")
			}
			stack = stack[:len(stack)-1]
		case "dup":
			if len(stack) == 0 {
				return nil, errors.New("shell: dup of an empty stack")
			}
			stack = append(stack, stack[len(stack)-1])
		case "add":
			if len(stack) < 2 {
				return nil, errors.New("shell: add needs two values")
			}
			n := len(stack)
			stack = append(stack[:n-2], stack[n-2]+stack[n-1])
		case "compact!":
			k, err := strconv.Atoi(arg)
			if err != nil || k < 0 {
				return nil, errors.New("shell: compact! needs a count")
			}
			// BUG: k is not checked against the stack's depth.
			stack = append([]int(nil), stack[len(stack)-k:]...)
		default:
			return nil, errors.New("shell: unknown command " + strconv.Quote(cmd))
		}
	}
	return stack, nil
}
