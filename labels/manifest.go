package labels

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
)

// ManifestVersion is the version of the manifest format this package
// writes. Version 2 added the digests (sha256, annotated_sha256); version
// 1 manifests, without them, are still read.
const ManifestVersion = 2

// Manifest is the JSON file that goes with an annotated plan: every label
// (active, trivial and infeasible) with its original position and, for
// active labels, the position of its injected (when ...) in the annotated
// plan. `labelcov labels --json` prints the same shape without annotated
// positions.
type Manifest struct {
	Version int `json:"version"`
	// File is the plan the labels were enumerated on; Annotated the
	// annotated plan, when one was written.
	File      string `json:"file"`
	Annotated string `json:"annotated,omitempty"`
	// SHA256 is the hex SHA-256 digest of File's bytes, AnnotatedSHA256
	// of the annotated plan's: a consumer checks the files it is given
	// against them (Manifest.CheckSource). Absent in version 1.
	SHA256          string          `json:"sha256,omitempty"`
	AnnotatedSHA256 string          `json:"annotated_sha256,omitempty"`
	Criteria        []Key           `json:"criteria"`
	MCCMaxAtoms     int             `json:"mcc_max_atoms"`
	Summary         map[Key]*Counts `json:"summary"`
	Labels          []*Label        `json:"labels"`
	// Decisions are the MC/DC decisions (criterion mcdc) with their
	// conditions and test vectors, each naming its label's id.
	Decisions []*Decision `json:"decisions,omitempty"`
	Warnings  []string    `json:"warnings,omitempty"`
}

// Manifest builds the manifest of s.
func (s *Set) Manifest() *Manifest {
	m := &Manifest{
		Version:     ManifestVersion,
		File:        s.File,
		Criteria:    s.Criteria.Keys(),
		MCCMaxAtoms: s.MCCMaxAtoms,
		Summary:     s.StatusCounts(),
		Labels:      s.Labels,
		Decisions:   s.Decisions,
	}
	for _, d := range m.Decisions {
		d.fillIDs()
	}
	if m.Labels == nil {
		m.Labels = []*Label{}
	}
	for _, w := range s.Warnings {
		m.Warnings = append(m.Warnings, w.Error())
	}
	return m
}

// Write writes m as indented JSON. Labels are encoded one at a time, so
// that a plan with a million labels never holds its whole manifest (some
// hundred MB of JSON) in memory; the bytes are those of encoding m whole.
func (m *Manifest) Write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	head := *m
	head.Labels = []*Label{}
	var hb bytes.Buffer
	if err := newManifestEncoder(&hb, "").Encode(&head); err != nil {
		return fmt.Errorf("writing label manifest: %w", err)
	}
	// The labels go into the empty list; the field is unique.
	const open = "\n  \"labels\": ["
	h := hb.Bytes()
	i := bytes.Index(h, []byte(open+"]"))
	if i < 0 || len(m.Labels) == 0 {
		bw.Write(h)
		return flushManifest(bw)
	}
	bw.Write(h[:i+len(open)])
	var lb bytes.Buffer
	enc := newManifestEncoder(&lb, "    ")
	for j, l := range m.Labels {
		lb.Reset()
		if err := enc.Encode(l); err != nil {
			return fmt.Errorf("writing label manifest: %w", err)
		}
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimSuffix(lb.Bytes(), []byte("\n")))
		if j < len(m.Labels)-1 {
			bw.WriteByte(',')
		}
	}
	bw.WriteString("\n  ")
	bw.Write(h[i+len(open):]) // from the ]
	return flushManifest(bw)
}

func newManifestEncoder(w io.Writer, prefix string) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false) // predicates are full of < and >
	return enc
}

func flushManifest(bw *bufio.Writer) error {
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing label manifest: %w", err)
	}
	return nil
}

// ReadManifest reads a manifest and checks its version and label ids.
func ReadManifest(r io.Reader) (*Manifest, error) {
	var m Manifest
	dec := json.NewDecoder(r)
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("reading label manifest: %w", err)
	}
	if m.Version != 1 && m.Version != ManifestVersion {
		return nil, fmt.Errorf("label manifest version %d not supported (want 1 to %d)", m.Version, ManifestVersion)
	}
	seen := map[int]bool{}
	for i, l := range m.Labels {
		if l == nil {
			return nil, fmt.Errorf("label manifest: label %d is null", i)
		}
		if l.Status == Active {
			if l.ID <= 0 || seen[l.ID] {
				return nil, fmt.Errorf("label manifest: active label %d has a missing or duplicate id %d", i, l.ID)
			}
			seen[l.ID] = true
		}
	}
	return &m, nil
}

// Digest is the hex SHA-256 digest of src, as a manifest records it.
func Digest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// CheckSource fails when src, the bytes of the file path given as the
// manifest's plan (annotated false) or annotated plan (annotated true),
// is not the file the manifest was made from. A manifest without the
// digest (version 1) accepts any file.
func (m *Manifest) CheckSource(path string, src []byte, annotated bool) error {
	want, what, made := m.SHA256, "plan", m.File
	if annotated {
		want, what, made = m.AnnotatedSHA256, "annotated plan", m.Annotated
	}
	if want == "" || Digest(src) == want {
		return nil
	}
	return fmt.Errorf("%s is not the %s the label manifest was made from (%s, sha256 %.12s…; this file's is %.12s…): annotate it again, or give the manifest of this plan",
		path, what, made, want, Digest(src))
}

// Active returns the active labels of m.
func (m *Manifest) Active() []*Label {
	var out []*Label
	for _, l := range m.Labels {
		if l.Status == Active {
			out = append(out, l)
		}
	}
	return out
}

// ByAnnotatedOffset maps the byte offset of each injected (when ...) in
// the annotated plan to the ids of its labels (labels of different
// criteria with the same predicate at the same point share one when). The
// compiler reports a conditional's position (BranchInfo.Form); a label is
// covered when the branch of its when was taken (test true) at least once.
func (m *Manifest) ByAnnotatedOffset() map[int][]int {
	out := map[int][]int{}
	for _, l := range m.Labels {
		if l.Status == Active && l.Annotated != nil {
			out[l.Annotated.Offset] = append(out[l.Annotated.Offset], l.ID)
		}
	}
	return out
}
