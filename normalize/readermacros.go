package normalize

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Opaque reports whether no pass may take list l apart (see forms.Opaque:
// it holds a reader conditional).
func Opaque(l *syntax.List) bool { return forms.Opaque(l) }
