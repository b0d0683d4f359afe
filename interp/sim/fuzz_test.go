package sim

import (
	"bytes"
	"context"
	"os"
	"reflect"
	"testing"
)

// FuzzDecodeEnv: every byte string decodes; the result re-encodes, and the
// encoding decodes back to the same objects.
func FuzzDecodeEnv(f *testing.F) {
	w := loadWorld(f, "warehouse")
	golden, _ := os.ReadFile("../../testdata/envs/warehouse-three.bin")
	f.Add(golden)
	f.Add([]byte{0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		env := w.DecodeEnv(data, 0)
		enc, err := w.EncodeEnv(env)
		if err != nil {
			t.Fatal(err)
		}
		if back := w.DecodeEnv(enc, 0); !reflect.DeepEqual(back.Objects, env.Objects) && len(env.Objects) > 0 {
			t.Fatalf("round trip changed % x", data)
		}
		if isCanonical(w, data, env) && !bytes.Equal(enc, data) {
			t.Fatalf("canonical % x re-encoded as % x", data, enc)
		}
	})
}

// FuzzParseWorld: bad world files give errors, never panics.
func FuzzParseWorld(f *testing.F) {
	for _, name := range []string{"warehouse", "kitchen"} {
		src, err := os.ReadFile("../../testdata/worlds/" + name + ".world")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(minimal))
	f.Fuzz(func(t *testing.T, src []byte) {
		w, err := ParseWorld("f.world", src)
		if err != nil {
			return
		}
		// A world that loads must decode and run an environment.
		env := w.DecodeEnv(bytes.Repeat([]byte{0x5a}, 8*w.BytesPerObject()), 0)
		s := NewState(w)
		s.Reset(env)
		for _, q := range Queries() {
			if q.MinArgs == 0 {
				q.Fn(s, nil)
			}
		}
		s.Perform(action("detecting"))
		s.Perform(action("placing", "target", desig("location", "on", w.Regions[0].Name)))
	})
}

// FuzzRunBytes: any input runs the plan to an outcome with its checks.
func FuzzRunBytes(f *testing.F) {
	r := loadRunner(f, "sort.plan")
	for _, in := range sixObjectInputs(f, r.World(), 4) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := r.RunBytes(context.Background(), data)
		if res.VM.Outcome == "" || len(res.CheckErrors) != 0 {
			t.Fatalf("outcome %q, check errors %v", res.VM.Outcome, res.CheckErrors)
		}
	})
}
