package measure

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// TestReportSchemaDocumented: docs/report-schema.md lists, per object of
// the report, every field of the Go struct's JSON form in its order, and
// documents no other object or field — the doc cannot drift from the code.
func TestReportSchemaDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/report-schema.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string][]string{}
	var section string
	row := regexp.MustCompile("^\\| `([a-z0-9_]+)` \\|")
	for _, line := range strings.Split(string(data), "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			section = name
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil && section != "" {
			doc[section] = append(doc[section], m[1])
		}
	}
	code := map[string][]string{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct {
			return
		}
		if _, seen := code[ty.Name()]; seen {
			return
		}
		code[ty.Name()] = []string{}
		var fields func(reflect.Type)
		fields = func(st reflect.Type) {
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" || !f.IsExported() {
					continue
				}
				if f.Anonymous && tag == "" {
					ft := f.Type
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					fields(ft)
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if name == "" {
					t.Errorf("%s.%s has no JSON name", ty.Name(), f.Name)
				}
				code[ty.Name()] = append(code[ty.Name()], name)
				walk(f.Type)
			}
		}
		fields(ty)
	}
	walk(reflect.TypeOf(Report{}))
	for name, fs := range code {
		if got := strings.Join(doc[name], " "); got != strings.Join(fs, " ") {
			t.Errorf("docs/report-schema.md, ## %s lists\n  %s\nthe JSON of %s has\n  %s", name, got, name, strings.Join(fs, " "))
		}
	}
	for name := range doc {
		if _, ok := code[name]; !ok {
			t.Errorf("docs/report-schema.md documents %s, which the report does not have", name)
		}
	}
}
