package sbcover

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Saved is what sb-cover:save-coverage-in-file wrote: for every source file
// compiled with coverage, its branch records.
type Saved struct {
	// Files in the order the file lists them.
	Files []*File
}

// File is the coverage sb-cover recorded for one source file.
type File struct {
	// Name is the file's namestring as SBCL compiled it (its truename).
	Name string
	// Branches maps a conditional's test, by its source path (see Path),
	// to what sb-cover recorded for it.
	Branches map[string]*Branch
}

// Branch is one conditional sb-cover instrumented: whether its "then" and
// its "else" branch ran.
type Branch struct {
	Then, Else bool
}

// Path is an SBCL source path written top-down: the index of the
// top-level form in the file, then the index of each subform on the way
// down to the form (sb-cover stores it bottom-up, innermost index first).
// Its key, as in File.Branches, is the indices joined by spaces.
type Path []int

func (p Path) key() string {
	var b strings.Builder
	for i, x := range p {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
	return b.String()
}

// Find returns the file of s that is name: the same namestring, else the
// only file whose path ends with name's base name.
func (s *Saved) Find(name string) (*File, error) {
	for _, f := range s.Files {
		if f.Name == name {
			return f, nil
		}
	}
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	var found []*File
	for _, f := range s.Files {
		if f.Name == base || strings.HasSuffix(f.Name, "/"+base) || strings.HasSuffix(f.Name, `\`+base) {
			found = append(found, f)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		names := make([]string, len(s.Files))
		for i, f := range s.Files {
			names[i] = f.Name
		}
		sort.Strings(names)
		return nil, fmt.Errorf("sb-cover recorded nothing for %s (was it compiled with (declaim (optimize sb-cover:store-coverage-data)) and loaded?); it recorded %d file(s): %s",
			name, len(names), strings.Join(names, ", "))
	}
	return nil, fmt.Errorf("sb-cover recorded several files named %s (%s, %s, ...); name the annotated file by its full path", base, found[0].Name, found[1].Name)
}

// Read reads the file sb-cover:save-coverage-in-file writes, in either of
// the two forms SBCL has used: up to SBCL 2.5, a list of (NAMESTRING .
// RECORDS), each record (PATH . STATE) with STATE T when the path ran; from
// SBCL 2.6 on, a list of (NAMESTRING PATHS . BITS), PATHS a vector of paths
// and BITS a bit vector saying which ran. A branch's path is (:THEN . P) or
// (:ELSE . P), P the source path of the conditional's test, innermost
// index first; other paths (expressions) are not branches and are skipped.
// name is for error messages.
func Read(name string, r io.Reader) (*Saved, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading sb-cover data %s: %w", name, err)
	}
	rd := &reader{src: src}
	top, err := rd.read()
	if err != nil {
		return nil, rd.errorf(name, err)
	}
	rd.skipSpace()
	if rd.i < len(src) {
		return nil, rd.errorf(name, errors.New("more than one form"))
	}
	if top.kind != kList || top.tail != nil {
		return nil, fmt.Errorf("sb-cover data %s: not a list of files (not written by sb-cover:save-coverage-in-file?)", name)
	}
	s := &Saved{}
	for i, e := range top.elems {
		f, err := readFile(e)
		if err != nil {
			return nil, fmt.Errorf("sb-cover data %s: file %d: %w", name, i+1, err)
		}
		s.Files = append(s.Files, f)
	}
	return s, nil
}

func readFile(e *sexp) (*File, error) {
	if e.kind != kList || len(e.elems) == 0 || e.elems[0].kind != kString {
		return nil, errors.New("not (NAMESTRING ...)")
	}
	f := &File{Name: e.elems[0].str, Branches: map[string]*Branch{}}
	// SBCL 2.6 and later: (NAMESTRING PATHS . BITS).
	if len(e.elems) == 2 && e.elems[1].kind == kVector && e.tail != nil && e.tail.kind == kBits {
		paths, bits := e.elems[1].elems, e.tail.str
		if len(bits) != len(paths) {
			return nil, fmt.Errorf("%s: %d paths but %d bits", f.Name, len(paths), len(bits))
		}
		for i, p := range paths {
			if err := f.record(p, bits[i] == '1'); err != nil {
				return nil, err
			}
		}
		return f, nil
	}
	// Up to SBCL 2.5: (NAMESTRING (PATH . STATE)...).
	if e.tail != nil {
		return nil, fmt.Errorf("%s: not a list of records", f.Name)
	}
	for _, r := range e.elems[1:] {
		if r.kind != kList || len(r.elems) != 1 || r.tail == nil {
			return nil, fmt.Errorf("%s: record %s is not (PATH . STATE)", f.Name, r)
		}
		ran := r.tail.kind == kSymbol && r.tail.str == "T"
		if err := f.record(r.elems[0], ran); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// record notes path p, which ran or not.
func (f *File) record(p *sexp, ran bool) error {
	if p.kind != kList || p.tail != nil || len(p.elems) == 0 {
		return fmt.Errorf("%s: path %s is not a list", f.Name, p)
	}
	mode := p.elems[0]
	if mode.kind != kSymbol || mode.str != ":THEN" && mode.str != ":ELSE" {
		return nil // an expression, not a branch
	}
	path := make(Path, len(p.elems)-1)
	for i, x := range p.elems[1:] {
		if x.kind != kInt {
			return fmt.Errorf("%s: path %s has a non-integer index", f.Name, p)
		}
		path[len(path)-1-i] = x.n
	}
	k := path.key()
	b := f.Branches[k]
	if b == nil {
		b = &Branch{}
		f.Branches[k] = b
	}
	if mode.str == ":THEN" {
		b.Then = b.Then || ran
	} else {
		b.Else = b.Else || ran
	}
	return nil
}

// The reader below reads what SBCL prints under with-standard-io-syntax
// for sb-cover's data: lists (dotted too), integers, symbols, keywords,
// strings, base strings #A((N) BASE-CHAR . "..."), vectors #(...) and bit
// vectors #*0101.

type kind uint8

const (
	kList kind = iota
	kVector
	kInt
	kSymbol
	kString
	kBits
)

type sexp struct {
	kind  kind
	elems []*sexp
	tail  *sexp  // the cdr after a dot, in a list
	str   string // symbol (upper case as printed), string, bits
	n     int
}

func (e *sexp) String() string {
	switch e.kind {
	case kInt:
		return strconv.Itoa(e.n)
	case kString:
		return strconv.Quote(e.str)
	case kBits:
		return "#*" + e.str
	case kSymbol:
		return e.str
	}
	var b strings.Builder
	if e.kind == kVector {
		b.WriteByte('#')
	}
	b.WriteByte('(')
	for i, x := range e.elems {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.String())
	}
	if e.tail != nil {
		b.WriteString(" . " + e.tail.String())
	}
	b.WriteByte(')')
	return b.String()
}

type reader struct {
	src   []byte
	i     int
	depth int
}

// maxDepth bounds nesting: sb-cover's paths are as deep as the source.
const maxDepth = 100000

func (rd *reader) errorf(name string, err error) error {
	line, col := 1, 1
	for _, c := range rd.src[:min(rd.i, len(rd.src))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Errorf("sb-cover data %s:%d:%d: %w", name, line, col, err)
}

func (rd *reader) skipSpace() {
	for rd.i < len(rd.src) {
		switch rd.src[rd.i] {
		case ' ', '\n', '\t', '\r', '\f':
			rd.i++
		case ';':
			for rd.i < len(rd.src) && rd.src[rd.i] != '\n' {
				rd.i++
			}
		default:
			return
		}
	}
}

func (rd *reader) read() (*sexp, error) {
	rd.skipSpace()
	if rd.i >= len(rd.src) {
		return nil, io.ErrUnexpectedEOF
	}
	switch c := rd.src[rd.i]; {
	case c == '(':
		rd.i++
		return rd.list(kList)
	case c == ')':
		return nil, errors.New("unexpected )")
	case c == '"':
		return rd.str()
	case c == '#':
		return rd.sharp()
	}
	return rd.atom()
}

func (rd *reader) list(k kind) (*sexp, error) {
	rd.depth++
	defer func() { rd.depth-- }()
	if rd.depth > maxDepth {
		return nil, errors.New("nested too deeply")
	}
	e := &sexp{kind: k}
	for {
		rd.skipSpace()
		if rd.i >= len(rd.src) {
			return nil, io.ErrUnexpectedEOF
		}
		if rd.src[rd.i] == ')' {
			rd.i++
			return e, nil
		}
		if rd.src[rd.i] == '.' && k == kList && len(e.elems) > 0 && rd.i+1 < len(rd.src) && delimiter(rd.src[rd.i+1]) {
			rd.i++
			t, err := rd.read()
			if err != nil {
				return nil, err
			}
			e.tail = t
			rd.skipSpace()
			if rd.i >= len(rd.src) || rd.src[rd.i] != ')' {
				return nil, errors.New("expected ) after the dotted tail")
			}
			rd.i++
			return e, nil
		}
		x, err := rd.read()
		if err != nil {
			return nil, err
		}
		e.elems = append(e.elems, x)
	}
}

func delimiter(c byte) bool {
	switch c {
	case ' ', '\n', '\t', '\r', '\f', '(', ')', '"', ';':
		return true
	}
	return false
}

func (rd *reader) str() (*sexp, error) {
	var b strings.Builder
	for rd.i++; rd.i < len(rd.src); rd.i++ {
		switch c := rd.src[rd.i]; c {
		case '\\':
			rd.i++
			if rd.i >= len(rd.src) {
				return nil, io.ErrUnexpectedEOF
			}
			b.WriteByte(rd.src[rd.i])
		case '"':
			rd.i++
			return &sexp{kind: kString, str: b.String()}, nil
		default:
			b.WriteByte(c)
		}
	}
	return nil, io.ErrUnexpectedEOF
}

func (rd *reader) sharp() (*sexp, error) {
	if rd.i+1 >= len(rd.src) {
		return nil, io.ErrUnexpectedEOF
	}
	switch rd.src[rd.i+1] {
	case '(':
		rd.i += 2
		return rd.list(kVector)
	case '*':
		rd.i += 2
		start := rd.i
		for rd.i < len(rd.src) && (rd.src[rd.i] == '0' || rd.src[rd.i] == '1') {
			rd.i++
		}
		return &sexp{kind: kBits, str: string(rd.src[start:rd.i])}, nil
	case 'A', 'a':
		// A base string: #A((N) BASE-CHAR . "...").
		rd.i += 2
		x, err := rd.read()
		if err != nil {
			return nil, err
		}
		if x.kind == kList && x.tail != nil && x.tail.kind == kString {
			return x.tail, nil
		}
		return nil, fmt.Errorf("#A%s is not a string", x)
	}
	return nil, fmt.Errorf("unexpected #%c", rd.src[rd.i+1])
}

func (rd *reader) atom() (*sexp, error) {
	var b strings.Builder
	for rd.i < len(rd.src) && !delimiter(rd.src[rd.i]) {
		switch c := rd.src[rd.i]; c {
		case '|':
			end := strings.IndexByte(string(rd.src[rd.i+1:]), '|')
			if end < 0 {
				return nil, io.ErrUnexpectedEOF
			}
			b.Write(rd.src[rd.i+1 : rd.i+1+end])
			rd.i += end + 2
		case '\\':
			if rd.i+1 >= len(rd.src) {
				return nil, io.ErrUnexpectedEOF
			}
			b.WriteByte(rd.src[rd.i+1])
			rd.i += 2
		default:
			b.WriteByte(c)
			rd.i++
		}
	}
	s := b.String()
	if s == "" {
		return nil, fmt.Errorf("unexpected %q", rd.src[rd.i])
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(s, ".")); err == nil {
		return &sexp{kind: kInt, n: n}, nil
	}
	return &sexp{kind: kSymbol, str: s}, nil
}
