// Package report draws what git-speed decided as pictures a person can look
// at when an agent went wrong: one self-contained HTML page of a task's
// scope (the budget as a picture of each file's tokens by tier and
// distance, why each file is there, every cut with its reason) or of a
// context pack (its ranking and evidence), and Graphviz DOT of the file
// graph.
//
// A page needs nothing but itself: its style, script and SVG are inline,
// and the artifacts it shows (budget.json and manifest.json, or the pack's
// JSON) are embedded in it, gzip-compressed and base64-encoded in
// <script type="application/json"> blocks, so that a kubernetes scope of
// 4 MB of JSON stays a page of a few hundred KB. The page's script inflates
// them and draws the tables; html/template escapes everything the page
// says itself. The same inputs give the same bytes. Redaction is the
// caller's: the operations layer passes every text through internal/redact
// before it reaches this package.
package report
