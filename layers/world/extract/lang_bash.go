package extract

import (
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_bash "github.com/tree-sitter/tree-sitter-bash/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

func init() {
	register(world.LangBash, sitter.NewLanguage(tree_sitter_bash.Language()), "#", walkBash)
}

// bashCommon are shell builtins and the everyday commands of a POSIX
// system: calls to them are not references to the project's functions.
var bashCommon = toSet(`. : [ [[ alias bg bind break builtin caller cd command compgen complete compopt
continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history
jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift
shopt source suspend test times trap true type typeset ulimit umask unalias unset wait
awk basename cat chmod chown cp curl cut date dirname diff env find git grep gzip head install jq ln ls
make mkdir mktemp mv rm rmdir sed sleep sort ssh tail tar tee touch tr uname uniq wc wget which xargs
sudo docker go python python3 node npm yarn pip tput stat realpath readlink id whoami seq printenv`)

// bashSpecial are variables the shell sets: not references.
var bashSpecial = toSet(`HOME PATH PWD OLDPWD USER SHELL IFS PS1 PS2 PS4 RANDOM LINENO SECONDS BASH
BASH_SOURCE BASH_VERSION BASHPID FUNCNAME HOSTNAME OSTYPE UID EUID PPID REPLY OPTARG OPTIND TMPDIR TERM
LANG LC_ALL PIPESTATUS BASH_REMATCH`)

type bashWalker struct {
	f      *file
	locals map[string]bool // local variables of the function being walked
	in     int
}

func walkBash(f *file) {
	w := &bashWalker{f: f}
	mark := len(f.stack)
	defer f.release(mark)
	ks := f.kids(f.root)
	for i := range ks {
		k := &ks[i]
		n := k.n
		w.in = 0
		switch k.kind {
		case "comment":
			if line(n) == 1 && strings.HasPrefix(f.text(n), "#!") {
				continue // the shebang stays
			}
			f.commentAt(ks, i)
		case "function_definition":
			w.function(n, f.docAt(ks, i))
		case "variable_assignment", "declaration_command":
			w.assignment(n)
			w.uses(n)
		default:
			w.uses(n)
			if w.f.endLine(n)-line(n) >= 2 {
				kind := strings.TrimSuffix(k.kind, "_statement")
				f.elide(startByte(n), w.f.endByte(n), fmt.Sprintf(": # … %s, lines %d-%d", kind, line(n), w.f.endLine(n)))
			}
		}
	}
}

func (w *bashWalker) function(n *sitter.Node, doc string) {
	f := w.f
	nm, body := f.field(n, "name"), f.field(n, "body")
	if nm == nil {
		w.uses(n)
		return
	}
	name := f.text(nm)
	w.in = f.def(world.Def{Name: name, Kind: world.KindFunction, Qualified: name, Start: line(n), End: w.f.endLine(n),
		Signature: f.signature(n, body), Exported: true, Doc: doc})
	w.locals = map[string]bool{}
	f.walk(n, func(c *sitter.Node) bool {
		if f.kind(c) == "declaration_command" && strings.HasPrefix(f.text(c), "local") {
			for i := uint(0); i < f.namedCount(c); i++ {
				v := f.namedChild(c, i)
				switch f.kind(v) {
				case "variable_name":
					w.locals[f.text(v)] = true
				case "variable_assignment":
					if vn := f.field(v, "name"); vn != nil {
						w.locals[f.text(vn)] = true
					}
				}
			}
		}
		return true
	})
	if body != nil {
		w.uses(body)
		f.elideBody(body)
	}
	w.locals = nil
}

// assignment records top-level variables (X=1, export X=1, readonly X).
func (w *bashWalker) assignment(n *sitter.Node) {
	f := w.f
	add := func(nameNode, stmt *sitter.Node) {
		name := f.text(nameNode)
		sig := foldSpace(f.text(stmt))
		if len(sig) > 100 || line(stmt) != w.f.endLine(stmt) {
			sig = foldSpace(f.textRange(startByte(stmt), w.f.endByte(nameNode))) + "=…"
		}
		f.def(world.Def{Name: name, Kind: world.KindVar, Qualified: name, Start: line(stmt), End: w.f.endLine(stmt),
			Signature: sig, Exported: true, Doc: f.docComment(stmt)})
	}
	switch f.kind(n) {
	case "variable_assignment":
		if nm := f.field(n, "name"); nm != nil && f.kind(nm) == "variable_name" {
			add(nm, n)
		}
	case "declaration_command":
		for i := uint(0); i < f.namedCount(n); i++ {
			c := f.namedChild(n, i)
			switch f.kind(c) {
			case "variable_name":
				add(c, n)
			case "variable_assignment":
				if nm := f.field(c, "name"); nm != nil && f.kind(nm) == "variable_name" {
					add(nm, n)
				}
			}
		}
	}
}

// uses records sourced files, calls of non-builtin commands and uses of
// variables that are not local or special.
func (w *bashWalker) uses(n *sitter.Node) {
	f := w.f
	f.walk(n, func(c *sitter.Node) bool {
		switch f.kind(c) {
		case "command":
			nm := f.field(c, "name")
			if nm == nil {
				return true
			}
			name := f.text(nm)
			if name == "source" || name == "." {
				if arg := f.field(c, "argument"); arg != nil {
					f.imp(world.Import{Path: strings.Trim(f.text(arg), `"'`), Line: line(c), Kind: "source"})
				}
				return true
			}
			if !bashCommon[name] && isShellWord(name) {
				f.ref(world.Ref{Name: name, Line: line(nm), In: w.in, Kind: world.RefCall})
			}
		case "simple_expansion", "expansion":
			for i := uint(0); i < f.namedCount(c); i++ {
				v := f.namedChild(c, i)
				if f.kind(v) == "variable_name" {
					name := f.text(v)
					if !w.locals[name] && !bashSpecial[name] && name != "" && !strings.ContainsAny(name[:1], "0123456789@*#?$!-_") {
						f.ref(world.Ref{Name: name, Line: line(v), In: w.in, Kind: world.RefValue})
					}
					break
				}
			}
		case "function_definition":
			if c.Id() != n.Id() {
				return false
			}
		}
		return true
	})
}

// isShellWord reports whether a command name is a plain name (not a path,
// expansion or quoted string).
func isShellWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == ':' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
