// Package align is the spec alignment artifact of git-speed's Layer 1: for
// one tree and one feature it maps each requirement of the feature's
// spec.md to the files and symbols that carry it, with the evidence for
// every claim (explicit path or symbol mentions, identifier and term
// matches, tasks citing the requirement) and a status: aligned, partial or
// unaligned. It is pure Go: it reads a world.Graph, per-file Facts through a
// function, and a feature.Feature. The result is deterministic and
// JSON-serialisable, and Render gives a plain markdown form.
package align
