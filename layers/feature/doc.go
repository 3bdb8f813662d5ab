// Package feature is part of git-speed's Layer 2 input: it owns the files a
// user writes under .speed/features/<feature>/ — the task definitions
// (tasks/<id>.toml, decoded strictly, with the task's files by role:
// files.create, files.modify — files_touched means the same — and
// files.read, roles.go), the feature's spec.md (split into
// requirements with ids such as REQ-1 and design paragraphs) and its
// feature.toml (the cross-cutting concerns every task is given, decoded
// strictly). It checks what
// a person can get wrong (unknown keys, paths outside the repository, a
// path in two roles, a file to create that exists or one to modify or read
// that does not, ids
// that do not match file names, unknown or cyclic dependencies) and reports
// each problem once, naming the file, line and key at fault.
//
// It is pure Go and reads only an fs.FS rooted at the work tree, so the
// layers above can load a feature from disk, from a git tree or from memory.
package feature
