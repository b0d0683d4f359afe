package bstoml

import (
	"bytes"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzDecode decodes a TOML document and encodes what it read, as the
// module's own fuzz test does.
func FuzzDecode(f *testing.F) {
	f.Add("title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n")
	f.Add("[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\ndata = [ [\"delta\", \"phi\"], [3.14] ]\ntemp = { cpu = 79.5, case = 72.0 }\n")
	f.Add("[servers.alpha]\nip = \"10.0.0.1\"\nrole = \"frontend\"\n\n[[products]]\nname = 'Hammer'\nsku = 738594937\n")
	f.Fuzz(func(t *testing.T, doc string) {
		var m map[string]interface{}
		if _, err := toml.Decode(doc, &m); err != nil {
			return
		}
		var b bytes.Buffer
		_ = toml.NewEncoder(&b).Encode(m)
	})
}
