// Package gitspeed ships the files `git speed init` writes into a
// repository: speed.toml.example and the sample feature in .speed.example.
// They live at the top of the module so that people read them where they
// are documented, and tests decode them so they cannot drift.
package gitspeed

import "embed"

// Examples holds speed.toml.example and the .speed.example tree.
//
//go:embed speed.toml.example all:.speed.example
var Examples embed.FS
