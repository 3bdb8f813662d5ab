// Package rules owns git-speed's security rules: an embedded library of
// rule files written for git-speed (the OWASP Top 10 core; Go, Python,
// JavaScript/TypeScript, Java, C/C++, Rust, PHP, Ruby and shell; Dockerfiles
// and compose files; CI workflows), the repository's own rule files under
// .speed/rules/ that add to or override them, the choice of the files that
// apply to the paths a task creates or modifies, and their summary to a
// token budget for the developer and reviewer prompts.
//
// A rule file is markdown: a "# Title" line, then one block per rule that
// starts with "## Rule: <title>" (or "### Rule:") and carries a
// "**Level**: strict|warning|advisory" line, a "**When**: …" line, prose
// and code blocks. The summary keeps only each rule's title, Level and When
// (code blocks and prose are left out) so that many rules fit a few hundred
// tokens. A repository file's summary names its path, so an agent can read
// the whole of it.
//
// The package is pure Go: it reads an fs.FS and counts tokens through the
// function it is given, and imports neither git nor the world model.
package rules
