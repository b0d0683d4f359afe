package forms

import (
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
)

// File is what the top-level forms of a file say about the others: the
// macros it defines and the functions it defines.
type File struct {
	macros map[string]bool
	funcs  map[string]bool
}

// ScanFile collects the names f defines with defmacro and with the
// function definitions (defun, def-plan, ...).
func ScanFile(f *syntax.File) *File {
	fi := &File{macros: map[string]bool{}, funcs: map[string]bool{}}
	for _, form := range f.Forms {
		l, ok := form.(*syntax.List)
		if !ok || len(l.Elems) < 2 {
			continue
		}
		name, ok := l.Elems[1].(*syntax.Symbol)
		if !ok {
			continue
		}
		switch h := Head(l); {
		case h == "defmacro":
			fi.macros[Name(name)] = true
		case Lookup(h) != nil && Lookup(h).Params > 0:
			fi.funcs[Name(name)] = true
		}
	}
	return fi
}

// Skip reports whether top-level form n is left alone: the compiler does
// not compile it and normalize and labels do not touch it, so fmt, labels
// and annotate pass it through byte for byte. note explains why for the
// user ("" for in-package and defpackage, which are understood: they
// only name packages). A form that is not a list is never skipped (the
// compiler reports it).
//
// Skipped are the forms the table marks Skipped (defmacro, defmethod,
// def-fact-group, ...), any other form that is not a definition (a
// top-level call, an unknown macro), and a definition whose code uses a
// macro: one the file defines with defmacro, or an operator named with-...
// that is neither a special form nor a function of the file — by Lisp
// convention a macro, whose expansion labelcov cannot know.
func (fi *File) Skip(n syntax.Node) (note string, skip bool) {
	switch n.(type) {
	case *syntax.Prefixed, *syntax.Quote:
		return "note: " + syntax.NodeString(n)[:min(len(syntax.NodeString(n)), 30)] + "... is not compiled, labelled or annotated; it is passed through", true
	}
	l, ok := n.(*syntax.List)
	h := Head(n)
	if !ok || h == "" {
		return "", false
	}
	f := Lookup(h)
	switch {
	case h == "in-package" || h == "defpackage":
		return "", true
	case f == nil || f.Skipped || f.Level != TopLevel:
		return "note: (" + h + " ...) is not compiled, labelled or annotated; it is passed through", true
	}
	var macro string
	for _, e := range l.Elems[1:] {
		macro = fi.macroUse(e)
		if macro != "" {
			break
		}
	}
	if macro == "" {
		if !hasKeywordList(l) {
			return "", false
		}
		if k := keywordForm(l); k != nil {
			return "note: (" + DescribeDef(l) + " ...) has the form (" + syntax.NodeString(k.Elems[0]) + " ...), which only a macro around it can take apart: it is not compiled, labelled or annotated; it is passed through", true
		}
		return "", false
	}
	return "note: (" + DescribeDef(l) + " ...) uses the macro " + macro + ": it is not compiled, labelled or annotated; it is passed through", true
}

// macroUse returns the name of the first macro used in n (outside quoted
// data), or "".
func (fi *File) macroUse(n syntax.Node) string {
	found := ""
	syntax.Walk(n, func(x syntax.Node) bool {
		if found != "" {
			return false
		}
		if _, ok := x.(*syntax.Quote); ok {
			return false
		}
		h := Head(x)
		switch {
		case h == "quote":
			return false
		case fi.macros[h]:
			found = h
		case strings.HasPrefix(h, "with-") && Lookup(h) == nil && !fi.funcs[h]:
			found = h
		}
		return found == ""
	})
	return found
}

// DescribeDef names top-level form l for a note: its head and name.
func DescribeDef(l *syntax.List) string {
	what := Head(l)
	if len(l.Elems) > 1 {
		what += " " + syntax.NodeString(l.Elems[1])
	}
	return what
}

// hasKeywordList reports whether some list in n, anywhere (quoted data
// included), is headed by a keyword: keywordForm finds none when none is,
// and this walk allocates nothing (keywordForm lists the slots of every
// list on its way, which an annotated plan has thousands of).
func hasKeywordList(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if l, ok := x.(*syntax.List); ok && len(l.Elems) > 0 {
			if _, ok := l.Elems[0].(*syntax.Keyword); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// keywordForm returns the first list headed by a keyword in an evaluated
// place of l (its Slots, recursively), or nil. Such a list is no Common
// Lisp form — a keyword names no function — so the operator around it is
// a macro that gives it a meaning of its own, like CPL's (:tag NAME
// BODY...) in a plan or the option list of a retry macro. Where a keyword
// heads a list that is not evaluated (case keys, quoted data, lambda
// lists), Slots does not lead there.
func keywordForm(l *syntax.List) *syntax.List {
	if len(l.Elems) > 0 {
		if _, ok := l.Elems[0].(*syntax.Keyword); ok {
			return l
		}
	}
	for _, s := range Slots(l) {
		if sub, ok := At(l, s.Path).(*syntax.List); ok {
			if k := keywordForm(sub); k != nil {
				return k
			}
		}
	}
	return nil
}

// TempsHead is the declaration normalize writes into a plan that has
// temporaries. Every variable a let or let* of such a plan binds whose name
// starts with PREFIX is one of normalize's temporaries: binding it and
// reading it back cost no step (SETT, LOADT). A plan without the
// declaration has no temporaries, however its variables are named.
//
// normalize writes it guarded by labelcov's own feature (TempsDeclaration):
//
//	#+labelcov (declaim (labelcov-temporaries "PREFIX"))
//
// labelcov's compiler has the feature, so it reads the declaim; any other
// Common Lisp (SBCL building the annotated file with ASDF) skips the form
// at read time, so an unknown declaration never reaches its compiler,
// which would signal a full WARNING and fail the ASDF build. The unguarded
// form older versions wrote is recognized too.
const TempsHead = "labelcov-temporaries"

// TempsFeature is the feature that guards the temporaries declaration.
const TempsFeature = "labelcov"

// TempsDeclaration is the top-level form declaring prefix as the prefix
// of normalize's temporaries, as normalize writes it.
func TempsDeclaration(prefix string) string {
	return "#+" + TempsFeature + " (declaim (" + TempsHead + " " + strconv.Quote(prefix) + "))"
}

// TempsDeclared reports whether top-level form is the temporaries
// declaration, guarded (#+labelcov (declaim ...)) or not, and its prefix.
func TempsDeclared(form syntax.Node) (string, bool) {
	if c, ok := form.(*syntax.Conditional); ok {
		if !c.Plus || !isFeature(c.Feature, TempsFeature) {
			return "", false
		}
		form = c.X
	}
	l, ok := form.(*syntax.List)
	if !ok || Head(l) != "declaim" || len(l.Elems) != 2 {
		return "", false
	}
	d, ok := l.Elems[1].(*syntax.List)
	if !ok || Head(d) != TempsHead || len(d.Elems) != 2 {
		return "", false
	}
	s, ok := d.Elems[1].(*syntax.String)
	if !ok || s.Value == "" {
		return "", false
	}
	return s.Value, true
}

// isFeature reports whether feature expression n is the single feature
// name (labelcov, :labelcov).
func isFeature(n syntax.Node, name string) bool {
	switch n := n.(type) {
	case *syntax.Keyword:
		return n.Name == name
	case *syntax.Symbol:
		return n.Pkg == "" && n.Name == name
	}
	return false
}
