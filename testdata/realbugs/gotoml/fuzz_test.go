package gotoml

import (
	"testing"

	"github.com/pelletier/go-toml"
)

// FuzzLoad loads a TOML document into a tree, writes the tree back and
// loads that again, as the module's go-fuzz function does.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n"))
	f.Add([]byte("[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\ntemp = { cpu = 79.5, case = 72.0 }\n"))
	f.Add([]byte("[[products]]\nname = \"Hammer\"\nsku = 738594937\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, err := toml.LoadBytes(data)
		if err != nil {
			if tree != nil {
				t.Fatal("LoadBytes returned a tree and an error")
			}
			return
		}
		s, err := tree.ToTomlString()
		if err != nil {
			return
		}
		_, _ = toml.Load(s)
	})
}
