// Package xtiff fuzzes golang.org/x/image/tiff at v0.17.0, which accepts
// palette-colour images whose pixels index past the colour map, so reading
// such a pixel panics (see ../README.md).
package xtiff
