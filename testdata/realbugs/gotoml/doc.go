// Package gotoml fuzzes github.com/pelletier/go-toml at v1.9.4, whose
// LoadBytes panics on a key without a value followed by another line (see
// ../README.md).
package gotoml
