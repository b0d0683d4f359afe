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

// TestRaiseFixed: a later version replaces the fixed one of its module;
// an older one is an error; one of another module is left unused.
func TestRaiseFixed(t *testing.T) {
	fixed := []string{"example.com/a@v1.2.0", "example.com/b/v2@v2.0.0-beta.4"}
	got, used, err := RaiseFixed(fixed, []string{"example.com/b/v2@v2.0.0-beta.5", "example.com/c@v1.0.0"})
	if want := []string{"example.com/a@v1.2.0", "example.com/b/v2@v2.0.0-beta.5"}; err != nil || !reflect.DeepEqual(got, want) ||
		!reflect.DeepEqual(used, []bool{true, false}) {
		t.Errorf("RaiseFixed = %v, %v, %v; want %v, [true false]", got, used, err, want)
	}
	if fixed[1] != "example.com/b/v2@v2.0.0-beta.4" {
		t.Error("RaiseFixed changed its argument")
	}
	if _, _, err := RaiseFixed(fixed, []string{"example.com/a@v1.1.9"}); err == nil || !strings.Contains(err.Error(), "older") {
		t.Errorf("an older version: %v", err)
	}
	if _, _, err := RaiseFixed(fixed, []string{"example.com/a"}); err == nil {
		t.Error("no version: no error")
	}
}
