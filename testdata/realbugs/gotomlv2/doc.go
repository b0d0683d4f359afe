// Package gotomlv2 fuzzes github.com/pelletier/go-toml/v2 at
// v2.0.0-beta.3, whose parser panics on several truncated documents (see
// ../README.md).
package gotomlv2
