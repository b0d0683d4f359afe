package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/labelcov/labelcov/labels"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
	"golang.org/x/tools/go/packages"
)

// Options select what Annotate does.
type Options struct {
	Criteria labels.Criteria
	// MCCMaxAtoms bounds MCC (0 means labels.DefaultMCCMaxAtoms).
	MCCMaxAtoms int
	// Dir is the directory packages are loaded from ("" = current).
	Dir string
	// Env is the environment of the go command (nil = os.Environ()).
	Env []string
	// BuildFlags are passed to the go command (e.g. -tags).
	BuildFlags []string
	// Consts harvests Package.Consts without dist too (for directed
	// seeds); only dist's overlays offer them as f.Add seeds.
	Consts bool
	// KeepInfeasible injects the labels found infeasible as active ones
	// (their Reason set): soundness tests check that no run covers them.
	KeepInfeasible bool
	// NoCounterBudget injects every dist label the rules keep, beyond the
	// package's counter budget (budgetDist): tests of the rules.
	NoCounterBudget bool
}

// Result is the outcome of annotating Go packages.
type Result struct {
	Criteria    labels.Criteria
	MCCMaxAtoms int
	Packages    []*Package
	// Labels lists every label (active, trivial, infeasible) in source
	// order; active ones carry ids 1, 2, ... over all packages.
	Labels []*labels.Label
	// Decisions lists the MC/DC decisions (criterion mcdc), numbered in
	// source order.
	Decisions []*labels.Decision
	Warnings  []string
	// FuzzPackages are packages outside Packages whose fuzz targets run
	// the labelled code (labels inside dependencies): with dist,
	// WriteOverlay gives their fuzz targets the constants of every
	// labelled package as seeds, as it does a labelled package's own.
	FuzzPackages []FuzzPackage
}

// FuzzPackage is a package whose test files hold fuzz targets.
type FuzzPackage struct {
	Path   string // import path
	Dir    string
	Module string // the root of its module
}

// Package is one annotated package.
type Package struct {
	Path string // import path
	Dir  string
	Name string
	// Module is the root directory of the package's module ("" if none),
	// ModulePath and ModuleVersion its path and version ("" for the main
	// module).
	Module                    string
	ModulePath, ModuleVersion string
	// Files holds every non-test Go file of the package.
	Files []*File
	// Skipped lists functions left unlabelled, with the reason.
	Skipped []string
	// Consts are the constants of the package's relations (with dist):
	// WriteOverlay offers them to its fuzz targets as seeds, each target
	// those of the functions it may call (Calls: function -> the names it
	// calls).
	Consts []Const
	Calls  map[string][]string
}

// File is one Go file of a package.
type File struct {
	Path string // absolute path of the original
	// Source is the annotated file; nil when it holds no label (the
	// original is used as is).
	Source []byte
	// Bodies maps the id of each label in the file to the position just
	// inside the `{` of its empty body (what a coverage profile block of
	// that body starts at).
	Bodies map[int]labels.Position
}

// Active returns the number of active labels of r.
func (r *Result) Active() int {
	n := 0
	for _, l := range r.Labels {
		if l.Status == labels.Active {
			n++
		}
	}
	return n
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax | packages.NeedModule

// Load loads the packages matching patterns with syntax and types, as
// Annotate needs them.
func Load(ctx context.Context, patterns []string, opts Options) ([]*packages.Package, error) {
	env, flags := opts.Env, opts.BuildFlags
	if mf := modfileOf(env); mf != "" {
		// go/packages also runs the go command outside modules (to learn
		// its version), where -modfile in GOFLAGS is an error: it goes to
		// go list's flags instead.
		env, flags = withoutModfile(env), append(append([]string(nil), flags...), "-modfile="+mf)
	}
	cfg := &packages.Config{Context: ctx, Mode: loadMode, Dir: opts.Dir, Env: env, BuildFlags: flags}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", strings.Join(patterns, " "), err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		if len(errs) > 10 {
			errs = append(errs[:10], fmt.Sprintf("and %d more", len(errs)-10))
		}
		return nil, LoadHint(fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), strings.Join(errs, "; ")))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("loading %s: no packages", strings.Join(patterns, " "))
	}
	return pkgs, nil
}

// Annotate loads the packages matching patterns and annotates them.
func Annotate(ctx context.Context, patterns []string, opts Options) (*Result, error) {
	pkgs, err := Load(ctx, patterns, opts)
	if err != nil {
		return nil, err
	}
	return AnnotatePackages(ctx, pkgs, opts)
}

// implemented lists the criteria the Go front end enumerates.
func implemented() []labels.Key {
	return []labels.Key{labels.MCC, labels.CC, labels.WMABS, labels.WMAOR, labels.WMCOR, labels.WMROR, labels.DIST, labels.MCDC}
}

// AnnotatePackages annotates loaded packages (see Load for the mode they
// need). Functions whose annotated form does not type-check (a labelcov
// limitation) are left unlabelled and reported in Package.Skipped.
func AnnotatePackages(ctx context.Context, pkgs []*packages.Package, opts Options) (*Result, error) {
	if opts.Criteria == 0 {
		return nil, errors.New("annotate: no criterion selected")
	}
	for _, k := range opts.Criteria.Keys() {
		if !slices.Contains(implemented(), k) {
			// A criterion enumerated nowhere would give an empty manifest
			// that reads as "nothing to label".
			return nil, fmt.Errorf("annotate: criterion %s is not implemented for Go packages", k)
		}
	}
	if opts.MCCMaxAtoms <= 0 {
		opts.MCCMaxAtoms = labels.DefaultMCCMaxAtoms
	}
	res := &Result{Criteria: opts.Criteria, MCCMaxAtoms: opts.MCCMaxAtoms}
	type work struct {
		pkg   *Package
		files []*dst.File
		names []string
		e     *enumerator
		rest  newRestorer
		srcs  map[int][]byte // rendered labelled files (provisional ids)
	}
	var all []*work
	floors := distFloors(pkgs)
	for i, p := range pkgs {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("annotate: %w", err)
		}
		if name := annotatedFile(p); name != "" {
			return nil, fmt.Errorf("annotate: %s is already annotated (it has label comments); annotate the original", name)
		}
		if len(p.GoFiles) != len(p.CompiledGoFiles) {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cgo package left unlabelled", p.PkgPath))
			continue
		}
		skip := map[string]bool{}
		why := map[string]string{}
		var w *work
		for round := 0; ; round++ {
			var err error
			w = &work{pkg: &Package{Path: p.PkgPath, Dir: pkgDir(p), Name: p.Name}}
			if p.Module != nil {
				w.pkg.Module, w.pkg.ModulePath, w.pkg.ModuleVersion = p.Module.Dir, p.Module.Path, p.Module.Version
			}
			w.files, w.names, w.e, w.rest, err = annotateOne(ctx, p, opts, skip, floors[i])
			if err != nil {
				return nil, err
			}
			// Number labels locally to print, then check the result.
			bad, srcs, err := checkPackage(p, w.files, w.names, w.rest, w.e, skip)
			if err != nil {
				return nil, err
			}
			if len(bad) == 0 {
				w.srcs = srcs
				break
			}
			if round == 3 {
				return nil, fmt.Errorf("annotate %s: annotated code does not type-check", p.PkgPath)
			}
			for b := range bad {
				skip[b] = true
				why[b] = bad[b]
			}
		}
		if opts.Criteria.Has(labels.DIST) || opts.Consts {
			w.pkg.Consts, w.pkg.Calls = harvest(p)
		}
		for k := range skip {
			w.pkg.Skipped = append(w.pkg.Skipped, k+": annotated form did not type-check (left unlabelled): "+why[k])
		}
		for n, why := range w.e.norm.Skipped {
			w.pkg.Skipped = append(w.pkg.Skipped, fmt.Sprintf("%s: %s", w.e.position(n, nil), why))
		}
		sort.Strings(w.pkg.Skipped)
		res.Warnings = append(res.Warnings, w.e.warnings...)
		res.Decisions = append(res.Decisions, w.e.decs...)
		all = append(all, w)
	}
	// Global ids in source order (files sorted by path).
	var gls []*goLabel
	for _, w := range all {
		gls = append(gls, w.e.labels...)
	}
	sort.SliceStable(gls, func(i, j int) bool {
		a, b := gls[i].Pos, gls[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
	id := 0
	for _, l := range gls {
		if l.Status == labels.Active {
			id++
			l.ID = id
		}
		res.Labels = append(res.Labels, l.Label)
	}
	labels.NumberDecisions(res.Decisions)
	for _, w := range all {
		// Provisional ids are positions in w.e.labels plus one.
		final := make([]int, len(w.e.labels)+1)
		for i, l := range w.e.labels {
			final[i+1] = l.ID
		}
		for i := range w.files {
			file := &File{Path: w.names[i]}
			if src, ok := w.srcs[i]; ok {
				var err error
				src = renumber(src, final)
				file.Source = src
				file.Bodies, err = BodyPositions(w.names[i], src)
				if err != nil {
					return nil, fmt.Errorf("annotate %s: %w", w.names[i], err)
				}
			}
			w.pkg.Files = append(w.pkg.Files, file)
		}
		res.Packages = append(res.Packages, w.pkg)
	}
	// Annotated positions in the manifest.
	byID := map[int]*labels.Label{}
	for _, l := range res.Labels {
		if l.Status == labels.Active {
			byID[l.ID] = l
		}
	}
	for _, p := range res.Packages {
		for _, f := range p.Files {
			for id, pos := range f.Bodies {
				if l := byID[id]; l != nil {
					pp := pos
					l.Annotated = &pp
				}
			}
		}
	}
	return res, nil
}

var annotatedMark = regexp.MustCompile(`^// label \d+ (mcc|cc|wm-abs|wm-aor|wm-cor|wm-ror|dist|mcdc) `)

// annotatedFile returns the name of a file of p that carries label
// comments, or "".
func annotatedFile(p *packages.Package) string {
	for _, f := range p.Syntax {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if annotatedMark.MatchString(c.Text) {
					return p.Fset.File(f.Pos()).Name()
				}
			}
		}
	}
	return ""
}

func pkgDir(p *packages.Package) string {
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return ""
}

func fileHasLabels(e *enumerator, f *dst.File) bool {
	has := false
	dst.Inspect(f, func(n dst.Node) bool {
		if ifs, ok := n.(*dst.IfStmt); ok {
			for _, c := range ifs.Decs.End {
				if labelComment.MatchString(c) {
					has = true
				}
			}
		}
		return !has
	})
	return has
}

// annotateOne decorates, normalizes and enumerates one package (ids are
// not final yet).
// floor is the package's least dist counter budget (distFloors).
func annotateOne(ctx context.Context, p *packages.Package, opts Options, skip map[string]bool, floor int) ([]*dst.File, []string, *enumerator, newRestorer, error) {
	dec := decorator.NewDecoratorFromPackage(p)
	var files []*dst.File
	var names []string
	for _, af := range p.Syntax {
		name := p.Fset.File(af.Pos()).Name()
		if skip["file:"+name] {
			continue
		}
		f, err := dec.DecorateFile(af)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("annotate %s: %w", name, err)
		}
		files = append(files, f)
		names = append(names, name)
	}
	t := gonorm.NewTypes(p.TypesInfo, p.Fset, p.Types, dec)
	e := &enumerator{t: t, crit: opts.Criteria, maxAtoms: opts.MCCMaxAtoms, seen: map[dedupKey]bool{}, consts: map[string]bool{}}
	for _, obj := range p.TypesInfo.Defs {
		if c, ok := obj.(*types.Const); ok {
			e.consts[c.Name()] = true
		}
	}
	// Functions to leave alone lose their bodies while normalizing and
	// enumerating.
	hidden := hideSkipped(files, names, skip)
	nres, err := gonorm.Package(ctx, files, t, gonorm.Options{
		Statements: e.ops(),
		Decisions:  e.dec(),
		Slot:       func(s dst.Stmt) bool { return e.wantsSlot(s) },
	})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	e.norm = nres
	e.positions = e.positionFields(files)
	for _, f := range files {
		e.file(f)
	}
	if opts.Criteria.Has(labels.DIST) && !opts.NoCounterBudget {
		e.budgetDist(p.Syntax, floor)
	}
	if opts.KeepInfeasible {
		for _, l := range e.labels {
			if l.Status == labels.Infeasible {
				l.Status = labels.Active // Reason says it was infeasible
			}
		}
	}
	hidden.restore()
	return files, names, e, restorerFor(p), nil
}

// wantsSlot reports whether a decision statement will carry labels.
func (e *enumerator) wantsSlot(s dst.Stmt) bool {
	hasDec := e.dec()
	nonConst := func(c dst.Expr) bool {
		if c == nil || e.t.Const(c) != nil {
			return false
		}
		return hasDec || (e.ops() && gonorm.HasOperator(c))
	}
	// An init statement with something to label must become a statement
	// of its own (`if init; c` → `{ init; if c }`).
	initLabelled := func(init dst.Stmt) bool {
		if init == nil {
			return false
		}
		lhs, roots := gonorm.SimpleExprs(init)
		for _, p := range append(lhs, roots...) {
			if (e.ops() && gonorm.HasOperator(*p)) || (hasDec && gonorm.HasDecision(*p)) {
				return true
			}
		}
		return false
	}
	switch x := s.(type) {
	case *dst.IfStmt:
		return nonConst(x.Cond) || initLabelled(x.Init)
	case *dst.ForStmt:
		return nonConst(x.Cond)
	case *dst.SwitchStmt:
		if initLabelled(x.Init) {
			return true
		}
		for _, c := range x.Body.List {
			if len(c.(*dst.CaseClause).List) > 0 {
				return true
			}
		}
	}
	return false
}

type hiddenBodies struct {
	decls  []*dst.FuncDecl
	bodies []*dst.BlockStmt
}

func (h *hiddenBodies) restore() {
	for i, d := range h.decls {
		d.Body = h.bodies[i]
	}
}

func funcKey(file string, recv, name string) string {
	if recv != "" {
		return fmt.Sprintf("func:%s:(%s).%s", file, recv, name)
	}
	return fmt.Sprintf("func:%s:%s", file, name)
}

func hideSkipped(files []*dst.File, names []string, skip map[string]bool) *hiddenBodies {
	h := &hiddenBodies{}
	for i, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*dst.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if skip[funcKey(names[i], dstRecv(fd), fd.Name.Name)] {
				h.decls = append(h.decls, fd)
				h.bodies = append(h.bodies, fd.Body)
				fd.Body = nil
			}
		}
	}
	return h
}

func dstRecv(fd *dst.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	return recvName(ExprString(fd.Recv.List[0].Type))
}

func recvName(s string) string {
	s = strings.TrimPrefix(s, "*")
	if i := strings.IndexAny(s, "[…"); i >= 0 {
		s = s[:i]
	}
	return s
}

type resolverFunc func(path string) (string, error)

func (f resolverFunc) ResolvePackage(path string) (string, error) { return f(path) }

func importResolver(p *packages.Package) resolverFunc {
	names := map[string]string{}
	if p.Types != nil {
		for _, imp := range p.Types.Imports() {
			names[imp.Path()] = imp.Name()
		}
	}
	for path, ip := range p.Imports {
		if ip.Name != "" {
			names[path] = ip.Name
		}
	}
	return func(path string) (string, error) {
		if n, ok := names[path]; ok {
			return n, nil
		}
		return "", fmt.Errorf("package %s not imported by %s", path, p.PkgPath)
	}
}

// newRestorer returns a fresh restorer for printing files of p (a
// restorer remembers the nodes it restored: one per print).
type newRestorer func() *decorator.Restorer

func restorerFor(p *packages.Package) newRestorer {
	res := importResolver(p)
	return func() *decorator.Restorer { return decorator.NewRestorerWithImports(p.PkgPath, res) }
}

func render(nr newRestorer, f *dst.File) ([]byte, error) {
	var b bytes.Buffer
	fr := nr().FileRestorer()
	if err := fr.Fprint(&b, f); err != nil {
		return nil, fmt.Errorf("printing annotated file: %w", err)
	}
	return b.Bytes(), nil
}

var labelComment = regexp.MustCompile(`^// label (\d+) `)

var labelCommentAnywhere = regexp.MustCompile(`// label (\d+) `)

// renumber rewrites the ids of label comments: provisional id n becomes
// final[n].
func renumber(src []byte, final []int) []byte {
	return labelCommentAnywhere.ReplaceAllFunc(src, func(m []byte) []byte {
		n, err := strconv.Atoi(string(m[len("// label ") : len(m)-1]))
		if err != nil || n <= 0 || n >= len(final) {
			return m
		}
		return []byte("// label " + strconv.Itoa(final[n]) + " ")
	})
}

// BodyPositions finds the labels of an annotated Go file (`if P {} //
// label N ...`) and returns, for each id, the position just inside the `{`
// of the empty body — where Go's coverage profile starts the block of
// that body. Positions are those of src as written, not as its line
// directives map them: in an overlay file the directives point at the
// original file, where the empty bodies do not exist.
func BodyPositions(name string, src []byte) (map[int]labels.Position, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing annotated file: %w", err)
	}
	byLine := map[int]int{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if m := labelComment.FindStringSubmatch(c.Text); m != nil {
				id, _ := strconv.Atoi(m[1])
				byLine[fset.PositionFor(c.Pos(), false).Line] = id
			}
		}
	}
	out := map[int]labels.Position{}
	ast.Inspect(f, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || len(ifs.Body.List) != 0 || ifs.Else != nil {
			return true
		}
		rb := fset.PositionFor(ifs.Body.Rbrace, false)
		if id, ok := byLine[rb.Line]; ok {
			lb := fset.PositionFor(ifs.Body.Lbrace, false)
			out[id] = labels.Position{File: name, Line: lb.Line, Col: lb.Column + 1, Offset: lb.Offset + 1}
		}
		return true
	})
	return out, nil
}

// checkPackage prints the package with provisional ids and type-checks it;
// it returns the functions (or files) whose annotated form has errors.
func checkPackage(p *packages.Package, files []*dst.File, names []string, r newRestorer, e *enumerator, skip map[string]bool) (map[string]string, map[int][]byte, error) {
	// Provisional ids; AnnotatePackages renumbers the comments once every
	// package is done.
	for i, l := range e.labels {
		l.ID = i + 1
	}
	e.inject()
	fset := token.NewFileSet()
	var afs []*ast.File
	fileOf := map[string]*ast.File{}
	srcs := map[int][]byte{}
	for i, f := range files {
		var src []byte
		var err error
		if fileHasLabels(e, f) {
			src, err = render(r, f)
			if err != nil {
				return nil, nil, fmt.Errorf("annotate %s: %w", names[i], err)
			}
			srcs[i] = src
		} else if src, err = os.ReadFile(names[i]); err != nil {
			return nil, nil, fmt.Errorf("annotate: %w", err)
		}
		af, err := parser.ParseFile(fset, names[i], src, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, fmt.Errorf("annotate %s: printed file does not parse: %w", names[i], err)
		}
		afs = append(afs, af)
		fileOf[names[i]] = af
	}
	imports := map[string]*types.Package{}
	for _, imp := range p.Types.Imports() {
		imports[imp.Path()] = imp
	}
	var errs []types.Error
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if ip, ok := imports[path]; ok {
				return ip, nil
			}
			if ip, ok := p.Imports[path]; ok && ip.Types != nil {
				return ip.Types, nil
			}
			return nil, fmt.Errorf("package %s not found", path)
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs = append(errs, te)
			}
		},
		GoVersion: goVersion(p),
		Sizes:     p.TypesSizes,
	}
	_, _ = conf.Check(p.PkgPath, fset, afs, nil)
	bad := map[string]string{}
	for _, te := range errs {
		pos := fset.Position(te.Pos)
		key := "file:" + pos.Filename
		if af := fileOf[pos.Filename]; af != nil {
			for _, d := range af.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if ok && fd.Pos() <= te.Pos && te.Pos <= fd.End() {
					recv := ""
					if fd.Recv != nil && len(fd.Recv.List) > 0 {
						recv = recvName(types.ExprString(fd.Recv.List[0].Type))
					}
					key = funcKey(pos.Filename, recv, fd.Name.Name)
				}
			}
		}
		if skip[key] {
			return nil, nil, fmt.Errorf("annotate %s: annotated code does not type-check: %s", p.PkgPath, te.Msg)
		}
		if _, ok := bad[key]; !ok {
			bad[key] = te.Msg
		}
	}
	return bad, srcs, nil
}

func goVersion(p *packages.Package) string {
	if p.Module != nil && p.Module.GoVersion != "" {
		return "go" + p.Module.GoVersion
	}
	return ""
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// WriteOverlay writes the annotated files under dir (dir/IMPORT/PATH/FILE),
// dir/overlay.json for `go build -overlay` and dir/labels.json (the label
// manifest). The annotated files carry /*line*/ directives, so that
// panics, stack traces and go vet under -overlay give the original file's
// lines. With dist, the fuzz targets of the packages' test files get
// the constants of their relations as extra seeds (Package.Consts; in
// copies of the test files in the overlay). It returns the overlay file's path. The original files are
// never touched.
func (r *Result) WriteOverlay(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("overlay directory: %w", err)
	}
	// A package with nothing to label writes no annotated file, so dir
	// must be made here for overlay.json and labels.json.
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", fmt.Errorf("overlay directory: %w", err)
	}
	replace := map[string]string{}
	written := map[int]labels.Position{}
	for _, p := range r.Packages {
		for _, f := range p.Files {
			if f.Source == nil {
				continue
			}
			out := filepath.Join(abs, filepath.FromSlash(p.Path), filepath.Base(f.Path))
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return "", fmt.Errorf("writing overlay: %w", err)
			}
			orig, err := os.ReadFile(f.Path)
			if err != nil {
				return "", fmt.Errorf("writing overlay: %w", err)
			}
			src := withLineDirectives(f.Path, orig, f.Source)
			if err := os.WriteFile(out, src, 0o644); err != nil {
				return "", fmt.Errorf("writing overlay: %w", err)
			}
			// The directives shift columns: the manifest gives positions
			// in the file written.
			bodies, err := BodyPositions(out, src)
			if err != nil {
				return "", fmt.Errorf("writing overlay: %w", err)
			}
			for id, pos := range bodies {
				written[id] = pos
			}
			replace[f.Path] = out
		}
		if !r.Criteria.Has(labels.DIST) {
			continue
		}
		seeded, err := seedTestFiles(p, filepath.Join(abs, filepath.FromSlash(p.Path)))
		if err != nil {
			return "", err
		}
		for orig, cp := range seeded {
			replace[orig] = cp
		}
	}
	if len(r.FuzzPackages) > 0 && r.Criteria.Has(labels.DIST) {
		// The fuzz targets of other packages call the labelled ones:
		// every labelled package's constants, reachable by name.
		all := &Package{Calls: map[string][]string{}}
		for _, p := range r.Packages {
			all.Consts = append(all.Consts, p.Consts...)
			for f, cs := range p.Calls {
				all.Calls[f] = append(all.Calls[f], cs...)
			}
		}
		for _, fp := range r.FuzzPackages {
			all.Path, all.Dir = fp.Path, fp.Dir
			seeded, err := seedTestFiles(all, filepath.Join(abs, filepath.FromSlash(fp.Path)))
			if err != nil {
				return "", err
			}
			for orig, cp := range seeded {
				replace[orig] = cp
			}
		}
	}
	ov := filepath.Join(abs, "overlay.json")
	if err := writeJSON(ov, map[string]any{"Replace": replace}); err != nil {
		return "", err
	}
	m := r.Manifest(ov)
	ls := make([]*labels.Label, len(m.Labels))
	for i, l := range m.Labels {
		if pos, ok := written[l.ID]; ok && l.Status == labels.Active {
			c := *l
			c.Annotated = &pos
			l = &c
		}
		ls[i] = l
	}
	m.Labels = ls
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(abs, "labels.json"), b.Bytes(), 0o644); err != nil {
		return "", fmt.Errorf("writing manifest: %w", err)
	}
	return ov, nil
}

// Manifest returns the label manifest (the same format as for plans): File
// names the packages, Annotated the overlay, each active label's annotated
// position is the inside of its empty body in the annotated file.
func (r *Result) Manifest(annotated string) *labels.Manifest {
	var paths []string
	for _, p := range r.Packages {
		paths = append(paths, p.Path)
	}
	ls := r.Labels
	if ls == nil {
		ls = []*labels.Label{}
	}
	return &labels.Manifest{
		Version:     labels.ManifestVersion,
		File:        strings.Join(paths, " "),
		Annotated:   annotated,
		Criteria:    r.Criteria.Keys(),
		MCCMaxAtoms: r.MCCMaxAtoms,
		Summary:     labels.CountStatuses(r.Criteria, r.Labels),
		Labels:      ls,
		Decisions:   r.Decisions,
		Warnings:    r.Warnings,
	}
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
