package compile

import (
	"testing"

	"github.com/labelcov/labelcov/interp/forms"
)

// TestGeneratorsMatchTable checks that the compiler has a code generator
// for exactly the special forms of the shared table (interp/forms), so the
// compiler and normalize agree on what is a special form.
func TestGeneratorsMatchTable(t *testing.T) {
	for _, f := range forms.All() {
		if generators[f.Name] == nil {
			t.Errorf("special form %s has no code generator", f.Name)
		}
	}
	for name := range generators {
		if forms.Lookup(name) == nil {
			t.Errorf("generator %s is not in the forms table", name)
		}
	}
}
