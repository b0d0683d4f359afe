package measure

import (
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Annotated is the annotated plan the Measurer measures labels on (its
// tree, program and active labels), for analyses that work on the plan
// under test as it runs (directed generation, labels/solve).
func (m *Measurer) Annotated() *pipeline.Annotated { return m.ann }

// Plan is the plan under test as read (the original, whose positions the
// labels name).
func (m *Measurer) Plan() *syntax.File { return m.put.File }
