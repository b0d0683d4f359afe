// Package report renders a measure.Report: as text for people, as JSON
// ("version": 1, the shape of `labelcov cover --json`), as one
// self-contained HTML page showing the plan source with covered and
// uncovered labels marked, and as an LCOV tracefile of the original plan
// (labels as BRDA branch records) for genhtml and other coverage tooling.
// GoText, GoJSON, GoHTML and GoLCOV do the same for a measure.GoReport of
// Go packages.
//
// Renderers only format: they must never run plans, compute coverage, read
// files or the clock, or depend on map iteration order. Identical reports
// render to identical bytes.
package report
