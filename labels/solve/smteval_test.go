package solve

import (
	"fmt"
	"strconv"
	"strings"
)

// evalSMT evaluates a formula of the subset Reach writes (bit-vectors of
// 64 bits, the core theory) on concrete arguments: an evaluator of its
// own, so that the translation is checked against the VM without z3.
func evalSMT(src string, args []int64) (bool, error) {
	f, err := parseSMT(src)
	if err != nil {
		return false, err
	}
	return f.holds(args)
}

// smtFormula is a formula read once, evaluated on many arguments.
type smtFormula struct {
	toks []string
}

func parseSMT(src string) (*smtFormula, error) {
	return &smtFormula{toks: strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(src))}, nil
}

func (f *smtFormula) holds(args []int64) (bool, error) {
	e := &smtEval{toks: f.toks, args: args}
	v, err := e.expr()
	if err != nil {
		return false, err
	}
	if e.pos != len(f.toks) {
		return false, fmt.Errorf("trailing tokens at %d", e.pos)
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("not a formula: %v", v)
	}
	return b, nil
}

type smtEval struct {
	toks []string
	pos  int
	args []int64
}

func (e *smtEval) next() string {
	if e.pos >= len(e.toks) {
		return ""
	}
	t := e.toks[e.pos]
	e.pos++
	return t
}

func (e *smtEval) expr() (any, error) {
	t := e.next()
	switch {
	case t == "true":
		return true, nil
	case t == "false":
		return false, nil
	case strings.HasPrefix(t, "arg"):
		i, err := strconv.Atoi(t[3:])
		if err != nil || i >= len(e.args) {
			return nil, fmt.Errorf("bad constant %s", t)
		}
		return e.args[i], nil
	case t != "(":
		return nil, fmt.Errorf("unexpected %q", t)
	}
	op := e.next()
	if op == "_" { // (_ bvN 64)
		n, err := strconv.ParseUint(strings.TrimPrefix(e.next(), "bv"), 10, 64)
		e.next()
		if e.next() != ")" || err != nil {
			return nil, fmt.Errorf("bad literal")
		}
		return int64(n), nil
	}
	var xs []any
	for e.pos < len(e.toks) && e.toks[e.pos] != ")" {
		x, err := e.expr()
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	if e.next() != ")" {
		return nil, fmt.Errorf("unclosed (%s", op)
	}
	ints := func() (int64, int64) { return xs[0].(int64), xs[1].(int64) }
	switch op {
	case "and", "or":
		acc := op == "and"
		for _, x := range xs {
			if op == "and" {
				acc = acc && x.(bool)
			} else {
				acc = acc || x.(bool)
			}
		}
		return acc, nil
	case "not":
		return !xs[0].(bool), nil
	case "ite":
		if xs[0].(bool) {
			return xs[1], nil
		}
		return xs[2], nil
	case "=":
		return xs[0] == xs[1], nil
	case "bvslt", "bvsle", "bvsgt", "bvsge":
		a, b := ints()
		return map[string]bool{"bvslt": a < b, "bvsle": a <= b, "bvsgt": a > b, "bvsge": a >= b}[op], nil
	case "bvadd":
		a, b := ints()
		return a + b, nil
	case "bvsub":
		a, b := ints()
		return a - b, nil
	case "bvmul":
		a, b := ints()
		return a * b, nil
	case "bvneg":
		return -xs[0].(int64), nil
	case "bvsdiv", "bvsrem", "bvsmod":
		a, b := ints()
		if b == 0 { // SMT-LIB's total division; the translation guards every one
			if op == "bvsdiv" {
				if a < 0 {
					return int64(1), nil
				}
				return int64(-1), nil
			}
			return a, nil
		}
		if b == -1 {
			if op == "bvsdiv" {
				return -a, nil
			}
			return int64(0), nil
		}
		switch op {
		case "bvsdiv":
			return a / b, nil
		case "bvsrem":
			return a % b, nil
		}
		r := a % b
		if r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return r, nil
	}
	return nil, fmt.Errorf("operator %s not in the evaluator", op)
}
