// Package gobench is labelcov's benchmark of Go fuzz targets: one package
// per target, each with one bug of a shape `go test -fuzz` finds hard
// (or, in easy, finds at once), and its ground truth in the package's
// truth.json. See README.md.
package gobench
