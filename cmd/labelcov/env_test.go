package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	warehouseWorld = "../../testdata/worlds/warehouse.world"
	threeEnv       = "../../testdata/envs/warehouse-three.env"
	threeBin       = "../../testdata/envs/warehouse-three.bin"
)

func TestEnvDecodeEncode(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"env", "decode", warehouseWorld, threeBin}, &out, &errb); code != exitOK {
		t.Fatalf("decode: exit %d: %s", code, errb.String())
	}
	want := "(environment\n" +
		"  (object milk (region board-2) (cell 3 14) (orientation 0)) ; milk-1\n" +
		"  (object cereal (region table) (cell 0 0) (orientation 90)) ; cereal-1\n" +
		"  (object bowl (region board-3) (cell 15 15) (orientation 270)) ; bowl-1\n)\n"
	if out.String() != want {
		t.Errorf("decode printed:\n%s", out.String())
	}
	golden, err := os.ReadFile(threeBin)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"env", "encode", warehouseWorld, threeEnv}, &out, &errb); code != exitOK || !bytes.Equal(out.Bytes(), golden) {
		t.Errorf("encode: exit %d, bytes % x, want % x (%s)", code, out.Bytes(), golden, errb.String())
	}
	// Decoded text encodes back to the same bytes through -o.
	dir := t.TempDir()
	envPath := filepath.Join(dir, "x.env")
	if err := os.WriteFile(envPath, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	binPath := filepath.Join(dir, "x.bin")
	if code := run([]string{"env", "encode", warehouseWorld, envPath, "-o", binPath}, &out, &errb); code != exitOK {
		t.Fatalf("encode -o: exit %d: %s", code, errb.String())
	}
	if got, _ := os.ReadFile(binPath); !bytes.Equal(got, golden) {
		t.Errorf("encode -o wrote % x", got)
	}
}

func TestEnvErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.env")
	os.WriteFile(bad, []byte("(environment\n  (object milk (region shelf) (cell 0 0) (orientation 0)))\n"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"env", "encode", warehouseWorld, bad}, &out, &errb); code != exitUsage ||
		!strings.Contains(errb.String(), "bad.env:2:16: expected (region NAME)") {
		t.Errorf("bad region: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"env", "decode", warehouseWorld}, &out, &errb); code != exitUsage {
		t.Errorf("missing argument: exit %d", code)
	}
	errb.Reset()
	if code := run([]string{"env", "decode", threeEnv, threeBin}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "warehouse-three.env:") {
		t.Errorf("env as world: exit %d, stderr %q", code, errb.String())
	}
}
