package compile

// BuiltinSig is the name and arity of a core builtin. The compiler uses it
// to resolve calls and check arity; interp/vm implements each one under the
// same name. Max is -1 for variadic builtins.
type BuiltinSig struct {
	Name     string
	Min, Max int
}

// coreBuiltins is the core library in a fixed order: a builtin's index here
// is the operand A of CALLB. Read-only after initialisation.
var coreBuiltins = [...]BuiltinSig{
	// arithmetic
	{"+", 0, -1}, {"-", 1, -1}, {"*", 0, -1}, {"/", 1, -1},
	{"mod", 2, 2}, {"rem", 2, 2}, {"abs", 1, 1}, {"min", 1, -1}, {"max", 1, -1},
	{"floor", 1, 2}, {"round", 1, 1}, {"sqrt", 1, 1}, {"1+", 1, 1}, {"1-", 1, 1},
	// comparison
	{"<", 1, -1}, {"<=", 1, -1}, {">", 1, -1}, {">=", 1, -1}, {"=", 1, -1}, {"/=", 1, -1},
	{"eq", 2, 2}, {"eql", 2, 2}, {"equal", 2, 2}, {"string=", 2, 2},
	// predicates
	{"not", 1, 1}, {"null", 1, 1}, {"numberp", 1, 1}, {"integerp", 1, 1}, {"floatp", 1, 1},
	{"symbolp", 1, 1}, {"keywordp", 1, 1}, {"listp", 1, 1}, {"consp", 1, 1}, {"stringp", 1, 1},
	{"functionp", 1, 1}, {"designatorp", 1, 1},
	{"zerop", 1, 1}, {"plusp", 1, 1}, {"minusp", 1, 1}, {"evenp", 1, 1}, {"oddp", 1, 1},
	// lists
	{"list", 0, -1}, {"cons", 2, 2}, {"car", 1, 1}, {"cdr", 1, 1}, {"first", 1, 1},
	{"second", 1, 1}, {"third", 1, 1}, {"rest", 1, 1}, {"nth", 2, 2}, {"length", 1, 1},
	{"append", 0, -1}, {"reverse", 1, 1}, {"member", 2, 2}, {"remove", 2, 2}, {"assoc", 2, 2},
	// output
	{"print", 1, 1}, {"format", 2, -1},
	// CPL and failures
	{"desig-prop", 2, 2}, {"perform", 1, 1}, {"fail", 1, -1},
	{"make-designator", 2, 3},
	// sequences and characters (appended: earlier ids stay)
	{"subseq", 2, 3}, {"mismatch", 2, 2}, {"code-char", 1, 1}, {"char-code", 1, 1},
}

// CoreBuiltins returns the signatures of the core builtins; the index of a
// signature is its builtin id (operand A of CALLB).
func CoreBuiltins() []BuiltinSig {
	out := make([]BuiltinSig, len(coreBuiltins))
	copy(out[:], coreBuiltins[:])
	return out
}

// CoreBuiltin returns the id of the core builtin called name.
func CoreBuiltin(name string) (int, bool) {
	for i := range coreBuiltins {
		if coreBuiltins[i].Name == name {
			return i, true
		}
	}
	return -1, false
}

// inlineOps maps builtins with a dedicated opcode for a given argument count.
func inlineOp(name string, nargs int) (Op, bool) {
	switch nargs {
	case 1:
		switch name {
		case "not", "null":
			return NOT, true
		case "car", "first":
			return CAR, true
		case "cdr", "rest":
			return CDR, true
		case "1+":
			return ADD1, true
		case "1-":
			return SUB1, true
		}
	case 2:
		switch name {
		case "+":
			return ADD, true
		case "-":
			return SUB, true
		case "*":
			return MUL, true
		case "<":
			return LT, true
		case "<=":
			return LE, true
		case ">":
			return GT, true
		case ">=":
			return GE, true
		case "=":
			return NUMEQ, true
		case "cons":
			return CONS, true
		case "eq":
			return EQ, true
		case "eql":
			return EQL, true
		case "mod":
			return MOD, true
		}
	}
	return 0, false
}
