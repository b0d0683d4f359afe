// Package report renders a measure.Report: as text for people, as JSON
// ("version": 1, the shape of `labelcov cover --json`), as one
// self-contained HTML page (inline CSS and script) showing the plan source
// with covered and uncovered labels marked (with the tests covering each
// label and each line) and a sortable, filterable label
// table, and as an LCOV tracefile of the original plan
// (labels as BRDA branch records) for genhtml and other coverage tooling,
// and as Cobertura XML (labels as line conditions). GoText, GoJSON,
// GoHTML, GoLCOV and GoCobertura do the same for a gotest.Report of Go
// packages, through the same pieces where the reports share a shape: the
// rows (measure.KeyReport) print with one KeyTable, the labels
// (measure.LabelRow) show through one labelView, tracefiles are written by
// one LCOV writer and Cobertura files by one XML writer. Text and HTML include the MC/DC of every decision when it was
// measured. SARIF writes a campaign's findings as a SARIF 2.1.0 log;
// CampaignFindings places a campaign's finding records on the plan, with
// CheckPositions, which finds where its def-checks return their categories;
// every position arrives typed (srcpos.Pos), none is parsed from text.
//
// Labels are shown by the source expression they are about, their operator
// and their predicate with temporaries resolved (Expr, else Predicate); a
// percentage of nothing (nil) prints n/a.
//
// Renderers only format: they must never run plans, compute coverage, read
// files or the clock, or depend on map iteration order. Identical reports
// render to identical bytes. (CheckPositions reads a parsed plan, never a
// file.)
package report
