package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// Lockfiles give one definition of kind package per locked entry: its name
// and version (Qualified name@version). The file is recognised by name
// (Options.Path), or else by its first bytes. yarn.lock (v1 and berry),
// Cargo.lock, poetry.lock, uv.lock and pnpm-lock.yaml are read by line
// scanners; package-lock.json and composer.lock by encoding/json's token
// stream. All are single linear passes over the bytes without copies of
// the file; at most maxLockDefs entries are kept. Gemfile.lock's SPECS
// entries are packages and its DEPENDENCIES are imports.

func init() {
	Register("lockfile", extractLockfile)
}

const maxLockDefs = 20000

// lockSet collects entries.
type lockSet struct {
	facts   *world.Facts
	dropped int
}

func (s *lockSet) add(name, version string, start, end int) {
	if name == "" {
		return
	}
	if len(s.facts.Defs) >= maxLockDefs {
		s.dropped++
		return
	}
	q := name
	if version != "" {
		q = name + "@" + version
	}
	s.facts.Defs = append(s.facts.Defs, world.Def{Name: name, Qualified: q, Kind: "package", Start: start, End: max(start, end),
		Signature: q})
}

// close sets the end of the last entry.
func (s *lockSet) close(end int) {
	if n := len(s.facts.Defs); n > 0 && s.facts.Defs[n-1].End < end {
		s.facts.Defs[n-1].End = end
	}
}

func extractLockfile(src []byte, opt Options, facts *world.Facts) {
	s := &lockSet{facts: facts}
	switch kind := lockKind(baseName(opt.Path), src); kind {
	case "yarn":
		lockYarn(s, src)
	case "toml":
		lockTOMLPackages(s, src)
	case "gem":
		lockGemfile(s, src)
	case "pnpm":
		lockPnpm(s, src)
	case "npm", "composer":
		if err := lockJSON(s, src, kind); err != nil {
			facts.Partial = true
			facts.Warning = err.Error()
		}
	default:
		facts.Warning = "lockfile format not recognised; no facts"
		return
	}
	var sk strings.Builder
	for i, d := range facts.Defs {
		if i >= maxSkelLines {
			fmt.Fprintf(&sk, "# … %d more packages\n", len(facts.Defs)-i+s.dropped)
			break
		}
		sk.WriteString(d.Qualified + lineMark(d.Start, d.End) + "\n")
	}
	if s.dropped > 0 {
		facts.Partial = true
		facts.Warning = fmt.Sprintf("more than %d entries; the first %d kept", maxLockDefs, maxLockDefs)
	}
	facts.Skeleton = sk.String()
}

// lockKind tells the lockfile format from the file's name or content.
func lockKind(base string, src []byte) string {
	switch base {
	case "yarn.lock":
		return "yarn"
	case "Cargo.lock", "poetry.lock", "uv.lock":
		return "toml"
	case "Gemfile.lock", "gems.locked":
		return "gem"
	case "pnpm-lock.yaml":
		return "pnpm"
	case "package-lock.json", "npm-shrinkwrap.json":
		return "npm"
	case "composer.lock":
		return "composer"
	}
	head := src[:min(len(src), 2048)]
	switch {
	case bytes.Contains(head, []byte("# yarn lockfile")) || bytes.Contains(head, []byte("__metadata:")):
		return "yarn"
	case bytes.Contains(head, []byte("[[package]]")):
		return "toml"
	case bytes.HasPrefix(head, []byte("GEM\n")) || bytes.HasPrefix(head, []byte("GIT\n")) || bytes.HasPrefix(head, []byte("PATH\n")):
		return "gem"
	case bytes.HasPrefix(head, []byte("lockfileVersion:")):
		return "pnpm"
	case bytes.Contains(head, []byte(`"lockfileVersion"`)):
		return "npm"
	case bytes.Contains(head, []byte(`"content-hash"`)):
		return "composer"
	}
	return ""
}

// lockYarn reads yarn.lock: an entry is a line at column 0 ending in ':'
// ("lodash@^4.17.0", "@babel/core@npm:^7.0.0":), its version the
// indented version line (version "1.2.3" in v1, version: 1.2.3 in berry).
func lockYarn(s *lockSet, src []byte) {
	name, start, last := "", 0, 0
	flush := func() {
		if name != "" {
			s.close(last)
		}
	}
	forLines(src, func(ln int, l []byte) bool {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' {
			return true
		}
		if l[0] != ' ' && bytes.HasSuffix(l, []byte(":")) {
			flush()
			name, start = "", ln
			spec := strings.TrimSpace(string(l[:len(l)-1]))
			if spec == "__metadata" {
				return true
			}
			first, _, _ := strings.Cut(spec, ",")
			name = yarnName(strings.Trim(strings.TrimSpace(first), `"`))
			return true
		}
		last = ln
		if name != "" && l[0] == ' ' {
			if v, ok := bytes.CutPrefix(t, []byte("version")); ok && (len(v) == 0 || v[0] == ' ' || v[0] == ':') {
				ver := strings.Trim(strings.TrimSpace(strings.TrimPrefix(string(v), ":")), `"`)
				s.add(name, ver, start, ln)
				name = "" // one version per entry
			}
		}
		return true
	})
	s.close(last)
}

// yarnName is the package of a yarn spec: "@scope/name@^1" → @scope/name.
func yarnName(spec string) string {
	if i := strings.LastIndexByte(spec, '@'); i > 0 {
		return spec[:i]
	}
	return spec
}

// lockTOMLPackages reads the [[package]] tables of Cargo.lock, poetry.lock
// and uv.lock: name and version keys.
func lockTOMLPackages(s *lockSet, src []byte) {
	in, name, ver, start, last := false, "", "", 0, 0
	flush := func() {
		if in && name != "" {
			s.add(name, ver, start, last)
		}
		in, name, ver = false, "", ""
	}
	forLines(src, func(ln int, l []byte) bool {
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' {
			return true
		}
		if t[0] == '[' {
			if bytes.Equal(t, []byte("[[package]]")) {
				flush()
				in, start, last = true, ln, ln
				return true
			}
			if !bytes.HasPrefix(t, []byte("[package.")) && !bytes.HasPrefix(t, []byte("[[package.")) {
				flush()
			}
			last = ln
			return true
		}
		if !in {
			return true
		}
		last = ln
		if k, v, ok := bytes.Cut(t, []byte("=")); ok {
			switch string(bytes.TrimSpace(k)) {
			case "name":
				if name == "" {
					name = tomlString(v)
				}
			case "version":
				if ver == "" {
					ver = tomlString(v)
				}
			}
		}
		return true
	})
	flush()
}

// tomlString is a one-line basic or literal TOML string's content.
func tomlString(v []byte) string {
	t := strings.TrimSpace(string(v))
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') {
		if j := strings.IndexByte(t[1:], t[0]); j >= 0 {
			return t[1 : 1+j]
		}
	}
	return t
}

// lockGemfile reads Gemfile.lock: under each "  specs:" the gems at four
// spaces ("    rack (3.0.8)"), and the DEPENDENCIES section's gems as
// imports.
func lockGemfile(s *lockSet, src []byte) {
	section, specs := "", false
	forLines(src, func(ln int, l []byte) bool {
		if len(bytes.TrimSpace(l)) == 0 {
			specs = false
			return true
		}
		if l[0] != ' ' {
			section, specs = string(bytes.TrimSpace(l)), false
			return true
		}
		indent := len(l) - len(bytes.TrimLeft(l, " "))
		t := string(bytes.TrimSpace(l))
		switch {
		case indent == 2 && t == "specs:":
			specs = true
		case specs && indent == 4:
			name, ver, _ := strings.Cut(t, " ")
			s.add(name, strings.Trim(ver, "()"), ln, ln)
		case specs && indent == 6:
			s.close(ln)
		case section == "DEPENDENCIES" && indent == 2:
			name, _, _ := strings.Cut(t, " ")
			s.facts.Imports = append(s.facts.Imports, world.Import{Path: strings.TrimSuffix(name, "!"), Line: ln, Kind: "gem"})
		}
		return true
	})
}

// lockPnpm reads pnpm-lock.yaml's packages: section: keys at two spaces,
// "/name@1.2.3:" (v6), "name@1.2.3:" (v9) or "/name/1.2.3:" (v5).
func lockPnpm(s *lockSet, src []byte) {
	in := false
	forLines(src, func(ln int, l []byte) bool {
		if len(l) == 0 {
			return true
		}
		if l[0] != ' ' {
			in = bytes.Equal(bytes.TrimSpace(l), []byte("packages:"))
			return true
		}
		if !in {
			return true
		}
		if len(l) > 2 && l[0] == ' ' && l[1] == ' ' && l[2] != ' ' && bytes.HasSuffix(l, []byte(":")) {
			key := strings.Trim(strings.TrimSpace(string(l[:len(l)-1])), `'"`)
			key = strings.TrimPrefix(key, "/")
			if i := strings.IndexByte(key, '('); i > 0 {
				key = key[:i]
			}
			name, ver := key, ""
			if i := strings.LastIndexByte(key, '@'); i > 0 {
				name, ver = key[:i], key[i+1:]
			} else if i := strings.LastIndexByte(key, '/'); i > 0 {
				name, ver = key[:i], key[i+1:]
			}
			s.add(name, ver, ln, ln)
		} else {
			s.close(ln)
		}
		return true
	})
}

// lockJSON reads package-lock.json ("packages": {"node_modules/x":
// {"version": …}} in v2/v3, "dependencies": {"x": {"version": …}} in v1)
// or composer.lock ("packages" and "packages-dev": [{"name", "version"}])
// from encoding/json's token stream.
func lockJSON(s *lockSet, src []byte, kind string) error {
	ls := newLineStarts(src)
	dec := json.NewDecoder(bytes.NewReader(src))
	line := func() int { return ls.line(max(0, int(dec.InputOffset())-1)) }
	fail := func(err error) error {
		return fmt.Errorf("malformed %s at line %d: %v; entries before it kept", map[string]string{"npm": "package-lock.json", "composer": "composer.lock"}[kind], line(), err)
	}
	if err := jsonOpen(dec, '{', "the file"); err != nil {
		return fail(err)
	}
	sawPackages := false
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		k, _ := kt.(string)
		switch {
		case kind == "npm" && (k == "packages" || k == "dependencies" && !sawPackages):
			sawPackages = sawPackages || k == "packages"
			if err := lockNpmMap(s, dec, line, k == "packages"); err != nil {
				return fail(err)
			}
		case kind == "composer" && (k == "packages" || k == "packages-dev"):
			if err := lockComposerList(s, dec, line); err != nil {
				return fail(err)
			}
		default:
			if err := jsonSkipValue(dec); err != nil {
				return fail(err)
			}
		}
	}
	return nil
}

// lockNpmMap reads an object of entries whose values hold a version.
func lockNpmMap(s *lockSet, dec *json.Decoder, line func() int, paths bool) error {
	if err := jsonOpen(dec, '{', "packages"); err != nil {
		return err
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
		start := line()
		var e struct {
			Version string `json:"version"`
			Name    string `json:"name"`
		}
		if err := dec.Decode(&e); err != nil {
			if _, ok := err.(*json.UnmarshalTypeError); !ok {
				return err
			}
		}
		name := key
		if paths {
			if key == "" {
				continue // the root project
			}
			if i := strings.LastIndex(key, "node_modules/"); i >= 0 {
				name = key[i+len("node_modules/"):]
			}
			if e.Name != "" && !strings.Contains(key, "node_modules/") {
				name = e.Name
			}
		}
		s.add(name, e.Version, start, line())
	}
	_, err := dec.Token()
	return err
}

// lockComposerList reads an array of {"name", "version"} objects.
func lockComposerList(s *lockSet, dec *json.Decoder, line func() int) error {
	if err := jsonOpen(dec, '[', "packages"); err != nil {
		return err
	}
	for dec.More() {
		if err := jsonOpen(dec, '{', "a package entry"); err != nil {
			return err
		}
		start := line()
		name, ver := "", ""
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			if k == "name" || k == "version" {
				vt, err := dec.Token()
				if err != nil {
					return err
				}
				v, _ := vt.(string)
				if k == "name" {
					name = v
				} else {
					ver = v
				}
				continue
			}
			if err := jsonSkipValue(dec); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		s.add(name, ver, start, line())
	}
	_, err := dec.Token()
	return err
}
