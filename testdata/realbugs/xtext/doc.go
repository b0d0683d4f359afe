// Package xtext fuzzes golang.org/x/text/language at v0.3.4, which panics
// on some BCP 47 tags and Accept-Language headers (see ../README.md).
package xtext
