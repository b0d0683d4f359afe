package testenv

import "testing"

func TestEnabled(t *testing.T) {
	for v, want := range map[string]bool{"": false, "0": false, "false": false, "1": true, "yes": true} {
		t.Setenv(AFLVar, v)
		if got := enabled(AFLVar); got != want {
			t.Errorf("%s=%q: enabled %v, want %v", AFLVar, v, got, want)
		}
	}
}

func TestSkipsWhenNotOptedIn(t *testing.T) {
	t.Setenv(AFLVar, "")
	t.Setenv(NetworkVar, "")
	t.Setenv(SBCLVar, "")
	t.Setenv(SlurmVar, "")
	for name, f := range map[string]func(testing.TB){
		"afl":     func(tb testing.TB) { AFL(tb, "afl-fuzz") },
		"network": Network,
		"sbcl":    func(tb testing.TB) { SBCL(tb) },
		"slurm":   func(tb testing.TB) { Slurm(tb) },
	} {
		skipped := false
		t.Run(name, func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			f(t)
		})
		if !skipped {
			t.Errorf("%s: not skipped without opting in", name)
		}
	}
}
