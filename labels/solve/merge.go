package solve

import "strings"

// State merging: where the paths of a conditional join, two outcomes that
// differ only in their conditions and in numbers and truth values become
// one, whose condition is the disjunction of the two and whose values are
// if-then-else terms over it. This keeps the paths of a plan whose
// decisions converge (most of them) from multiplying; the reach conditions
// stay exact.

const maxText = 240 // of a merged condition's text

func sameVal(x, y val) bool {
	if x.k != y.k {
		return false
	}
	switch x.k {
	case kSym:
		return x.name == y.name
	case kInt:
		if x.konst || y.konst {
			return x.konst && y.konst && x.n == y.n
		}
		return x.t == y.t
	case kBool:
		return x.t == y.t
	case kList:
		if len(x.elems) != len(y.elems) {
			return false
		}
		for i := range x.elems {
			if !sameVal(x.elems[i], y.elems[i]) {
				return false
			}
		}
	}
	return true
}

// asFormula is a truth value as a formula: t, nil or a kBool.
func asFormula(v val) (string, bool) {
	switch {
	case v.k == kBool:
		return v.t, true
	case v.k == kSym && v.name == "t":
		return "true", true
	case v.k == kSym && v.name == "nil":
		return "false", true
	}
	return "", false
}

// mergeVal is x where c holds, else y.
func mergeVal(c string, x, y val) (val, bool) {
	if sameVal(x, y) {
		return x, true
	}
	if x.k == kInt && y.k == kInt {
		return vTerm("(ite " + c + " " + x.term() + " " + y.term() + ")"), true
	}
	fx, ok1 := asFormula(x)
	fy, ok2 := asFormula(y)
	if ok1 && ok2 {
		return vFormula("(ite " + c + " " + fx + " " + fy + ")"), true
	}
	return val{}, false
}

func mergeBinds(c string, a, b []bind) ([]bind, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	out := make([]bind, len(a))
	for i := range a {
		var j int
		if b[i].name == a[i].name {
			j = i
		} else {
			j = -1
			for k := range b {
				if b[k].name == a[i].name {
					j = k
					break
				}
			}
			if j < 0 {
				return nil, false
			}
		}
		v, ok := mergeVal(c, a[i].v, b[j].v)
		if !ok {
			return nil, false
		}
		out[i] = bind{a[i].name, v}
	}
	return out, true
}

func texts(cs []cond) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.text)
	}
	s := strings.Join(parts, ", ")
	if len(s) > maxText {
		s = s[:maxText] + "..."
	}
	return s
}

// mergeTwo merges outcomes a and b, or reports that they differ in more
// than numbers and truth values.
func mergeTwo(a, b out) (out, bool) {
	if a.err != b.err || a.st.base != b.st.base || len(a.st.loc) != len(b.st.loc) {
		return out{}, false
	}
	for i := range a.st.loc {
		if a.st.loc[i].name != b.st.loc[i].name {
			return out{}, false
		}
	}
	p := 0
	for p < len(a.st.pc) && p < len(b.st.pc) && a.st.pc[p].smt == b.st.pc[p].smt {
		p++
	}
	ra, rb := a.st.pc[p:], b.st.pc[p:]
	if len(ra) == 0 || len(rb) == 0 {
		return out{}, false // one path is a prefix of the other: not two sides of a branch
	}
	c := conj(ra)
	loc, ok := mergeBinds(c, a.st.loc, b.st.loc)
	if !ok {
		return out{}, false
	}
	glob, ok := mergeBinds(c, a.st.glob, b.st.glob)
	if !ok {
		return out{}, false
	}
	v := a.v
	if !a.err {
		if v, ok = mergeVal(c, a.v, b.v); !ok {
			return out{}, false
		}
	}
	pc := append(a.st.pc[:p:p], cond{smt: "(or " + c + " " + conj(rb) + ")", text: "(" + texts(ra) + ") or (" + texts(rb) + ")"})
	return out{st: &state{pc: pc, glob: glob, loc: loc, base: a.st.base}, v: v, err: a.err}, true
}

// mergeOuts merges what it can of outs.
func mergeOuts(outs []out) []out {
	if len(outs) < 2 {
		return outs
	}
	var res []out
	for _, o := range outs {
		merged := false
		for i := range res {
			if m, ok := mergeTwo(res[i], o); ok {
				res[i], merged = m, true
				break
			}
		}
		if !merged {
			res = append(res, o)
		}
	}
	return res
}
