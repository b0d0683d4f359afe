package gofuzz

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestFixedVersions: the highest fixed version per module (semantic
// version order, pre-releases below their release), sorted by module;
// no truth, or a bug without a fixed version, is ErrNoFixed; a malformed
// one names itself.
func TestFixedVersions(t *testing.T) {
	tr := &Truth{Categories: []TruthCategory{
		{Name: "a", Fixed: "golang.org/x/text@v0.3.5"},
		{Name: "b", Fixed: "golang.org/x/text@v0.3.10"},
		{Name: "c", Fixed: "example.com/v2@v2.0.0-beta.4"},
		{Name: "d", Fixed: "example.com/v2@v2.0.0-beta.3"},
		{Name: "e", Fixed: "golang.org/x/text@v0.3.6"},
	}}
	got, err := FixedVersions(tr)
	if want := []string{"example.com/v2@v2.0.0-beta.4", "golang.org/x/text@v0.3.10"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FixedVersions = %v, %v; want %v", got, err, want)
	}
	if _, err := FixedVersions(nil); !errors.Is(err, ErrNoFixed) {
		t.Errorf("no truth: %v", err)
	}
	tr.Categories = append(tr.Categories, TruthCategory{Name: "panic@x.go:1"})
	if _, err := FixedVersions(tr); !errors.Is(err, ErrNoFixed) || !strings.Contains(err.Error(), "panic@x.go:1") {
		t.Errorf("a bug without a fixed version: %v", err)
	}
	tr.Categories[len(tr.Categories)-1].Fixed = "golang.org/x/text@0.3.6"
	if _, err := FixedVersions(tr); err == nil || !strings.Contains(err.Error(), "golang.org/x/text@0.3.6") {
		t.Errorf("a version without its v: %v", err)
	}
}
