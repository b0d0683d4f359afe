package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/labelcov/labelcov/coverage/measure"
)

// JSON writes r as indented JSON, the one schema of every front end
// (measure.Version; docs/report-schema.md). Predicates keep their < and >
// unescaped.
func JSON(w io.Writer, r *measure.Report) error { return writeJSON(w, r) }

func writeJSON(w io.Writer, r any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("writing coverage JSON: %w", err)
	}
	return nil
}
