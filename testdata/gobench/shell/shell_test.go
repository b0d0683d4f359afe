package shell

import "testing"

func FuzzRun(f *testing.F) {
	f.Add("push 1\npush 2\nadd\ndup\npop\n")
	f.Fuzz(func(t *testing.T, script string) {
		Run(script)
	})
}
