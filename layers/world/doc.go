// Package world holds the types of git-speed's Layer 1 world model: the
// project map (FileEntry), per-blob source facts (Facts: definitions,
// imports, references, skeleton), the code symbol graph (Graph) and its
// binary encoding. It is pure Go and imports nothing of git or tree-sitter,
// so Layers 2 and 3 can depend on it cheaply.
package world
