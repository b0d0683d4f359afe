package gotomlv2

import (
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// FuzzUnmarshal decodes a TOML document and encodes what it read.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte("title = \"TOML Example\"\n\n[owner]\nname = \"Tom\"\ndob = 1979-05-27T07:32:00-08:00\n"))
	f.Add([]byte("[database]\nenabled = true\nports = [ 8000, 8001, 8002 ]\ntemp = { cpu = 79.5, case = 72.0 }\n"))
	f.Add([]byte("[[products]]\nname = \"Hammer\"\nsku = 738594937\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v interface{}
		if err := toml.Unmarshal(data, &v); err != nil {
			return
		}
		_, _ = toml.Marshal(v)
	})
}
