package redact

import (
	"path"
	"strings"
)

// Kind is how a file writes values, as far as finding secrets goes: it
// decides whether an unquoted value after a key is a literal (config,
// shell) or an expression (code).
type Kind uint8

// File kinds, from a file's path.
const (
	// KindCode is a programming language: an unquoted value is an
	// expression, a literal is quoted.
	KindCode Kind = iota
	// KindConfig is a config file (YAML, TOML, INI, properties, XML,
	// logs, text, files with no extension): values are written unquoted,
	// bare words included.
	KindConfig
	// KindShell is a shell script, Makefile, Dockerfile or unit file:
	// an unquoted word after `=` is a literal, as in config files.
	KindShell
	// KindEnv is a .env-style file: every value is a secret.
	KindEnv
	// KindProse is documentation (Markdown, reStructuredText) and text
	// with no path (a prompt, a task): values may be unquoted, but a bare
	// word is a word.
	KindProse
)

var kindNames = [...]string{KindCode: "code", KindConfig: "config", KindShell: "shell", KindEnv: "env", KindProse: "prose"}

func (k Kind) String() string { return kindNames[k] }

// configExt are the extensions of files whose values are written unquoted.
var configExt = map[string]bool{
	".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true, ".conf": true,
	".properties": true, ".env": true, ".tf": true, ".tfvars": true, ".hcl": true, ".txt": true,
	".log": true, ".xml": true, ".plist": true, ".cnf": true, ".npmrc": true, ".pypirc": true, "": true,
	".config": true, ".netrc": true, ".pgpass": true, ".s3cfg": true, ".boto": true, ".gitconfig": true,
	".yarnrc": true, ".dockercfg": true, ".htpasswd": true, ".git-credentials": true,
}

// shellExt are shell scripts and their kin; shellNames the same by name.
var shellExt = map[string]bool{
	".sh": true, ".bash": true, ".zsh": true, ".ksh": true, ".fish": true, ".bat": true, ".cmd": true,
	".mk": true, ".mak": true, ".make": true, ".dockerfile": true, ".containerfile": true, ".envrc": true,
	".service": true, ".socket": true, ".timer": true, ".container": true, ".bashrc": true, ".zshrc": true,
	".profile": true, ".bash_profile": true,
}

var shellNames = map[string]bool{
	"Makefile": true, "GNUmakefile": true, "makefile": true, "Dockerfile": true, "Containerfile": true,
	"Procfile": true,
}

// proseExt are documentation formats.
var proseExt = map[string]bool{".md": true, ".markdown": true, ".mdx": true, ".rst": true, ".adoc": true}

// KindOf is the kind of the file at p; "" is prose.
func KindOf(p string) Kind {
	if p == "" {
		return KindProse
	}
	if IsEnvFile(p) {
		return KindEnv
	}
	b := path.Base(p)
	if shellNames[b] || strings.HasPrefix(b, "Dockerfile.") {
		return KindShell
	}
	e := path.Ext(p)
	switch {
	case shellExt[e]:
		return KindShell
	case proseExt[e]:
		return KindProse
	case configExt[e]:
		return KindConfig
	}
	return KindCode
}
