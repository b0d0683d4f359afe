// Package bstoml fuzzes github.com/BurntSushi/toml at v1.0.0, whose lexer
// panics on a multi-line string followed by an incomplete UTF-8 sequence
// at the end of the input (see ../README.md).
package bstoml
