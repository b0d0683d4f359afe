package sim

import (
	"context"
	"testing"
)

func loadRunner(t testing.TB, plan string) *Runner {
	t.Helper()
	r, err := LoadRunner("testdata/"+plan, "../../testdata/worlds/warehouse.world", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRunnerSmoke(t *testing.T) {
	r := loadRunner(t, "sort.plan")
	env, err := r.World().LoadEnv("../../testdata/envs/warehouse-three.env")
	if err != nil {
		t.Fatal(err)
	}
	res := r.Run(context.Background(), env)
	t.Logf("outcome %v value %v failure %v steps %d", res.VM.Outcome, res.VM.Value, res.VM.Failure, res.VM.Steps)
	for _, a := range res.Actions {
		t.Log(a.String())
	}
	t.Log(res.Errors, res.CheckErrors, res.Covered)
}
