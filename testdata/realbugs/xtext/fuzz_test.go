package xtext

import (
	"testing"

	"golang.org/x/text/language"
)

// FuzzParse parses a BCP 47 language tag and reads its parts back, as a
// caller that validates a user's language setting does.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"en", "en-US", "zh-Hant-TW", "sr-Latn-RS", "de-CH-1996", "es-419", "x-klingon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := language.Parse(s)
		if err != nil {
			return
		}
		_ = tag.String()
		tag.Base()
		tag.Script()
		tag.Region()
		tag.Parent()
	})
}

// FuzzAcceptLanguage parses an HTTP Accept-Language header and matches it
// against the languages a server offers, as an HTTP handler does.
func FuzzAcceptLanguage(f *testing.F) {
	for _, s := range []string{"en-US,en;q=0.9", "da, en-gb;q=0.8, en;q=0.7", "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "zh-Hant-TW;q=0.8"} {
		f.Add(s)
	}
	m := language.NewMatcher([]language.Tag{language.English, language.BritishEnglish, language.French, language.German, language.Chinese})
	f.Fuzz(func(t *testing.T, s string) {
		tags, q, err := language.ParseAcceptLanguage(s)
		if err != nil {
			return
		}
		if len(tags) != len(q) {
			t.Fatalf("ParseAcceptLanguage(%q): %d tags, %d weights", s, len(tags), len(q))
		}
		m.Match(tags...)
	})
}
