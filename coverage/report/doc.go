// Package report renders a measure.Report, the one coverage report of
// every front end (plans, Go packages, SBCL's records), with one renderer
// per format: Text for people, JSON (the schema of `labelcov cover
// --json`, docs/report-schema.md), HTML (one self-contained page, inline
// CSS and script: the summary, the source with covered and uncovered
// labels marked — a plan's text with its labelled expressions, or Go
// packages' files line by line — and a sortable, filterable label table),
// LCOV (labels as BRDA branch records, one record per file) and
// Cobertura XML (labels as line conditions). A section a front end does
// not fill (Go's blocks and corpus, a plan's instructions and tests) is
// rendered where the report has it, the same way in every format: what
// the text says, the HTML and the JSON say too. SARIF writes a campaign's
// findings as a SARIF 2.1.0 log; CampaignFindings places a campaign's
// finding records on the plan, with CheckPositions, which finds where its
// def-checks return their categories; every position arrives typed
// (srcpos.Pos), none is parsed from text.
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
