package rules

import (
	"path"
	"strings"

	"github.com/git-speed/git-speed/internal/pathglob"
)

// Area is a group of rules and the paths it applies to.
type Area struct {
	Name   string
	Always bool                // applies to every task
	Match  func(p string) bool // applies when one of a task's paths matches
}

func ext(exts ...string) func(string) bool {
	return func(p string) bool {
		e := strings.ToLower(path.Ext(p))
		for _, x := range exts {
			if e == x {
				return true
			}
		}
		return false
	}
}

func isDocker(p string) bool {
	b := strings.ToLower(path.Base(p))
	if b == "dockerfile" || strings.HasPrefix(b, "dockerfile.") || strings.HasSuffix(b, ".dockerfile") || b == "containerfile" {
		return true
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(b, ".yml"), ".yaml")
	if stem == b {
		return false
	}
	return stem == "compose" || stem == "docker-compose" || strings.HasPrefix(stem, "docker-compose.") || strings.HasPrefix(stem, "compose.")
}

func isCI(p string) bool {
	if strings.HasPrefix(p, ".github/workflows/") || strings.HasPrefix(p, ".github/actions/") || strings.HasPrefix(p, ".gitea/workflows/") {
		return ext(".yml", ".yaml")(p)
	}
	return p == ".gitlab-ci.yml" || p == ".circleci/config.yml" || p == "azure-pipelines.yml" || p == "bitbucket-pipelines.yml"
}

// Areas are the rule areas of the library, in the order a summary gives
// them: the OWASP core first, then languages, then containers and CI.
var Areas = []Area{
	{Name: "owasp", Always: true},
	{Name: "go", Match: ext(".go")},
	{Name: "python", Match: ext(".py", ".pyi", ".pyx", ".pyw")},
	{Name: "javascript", Match: ext(".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte")},
	{Name: "java", Match: ext(".java", ".jsp")},
	{Name: "c-cpp", Match: ext(".c", ".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".ipp", ".inl")},
	{Name: "rust", Match: ext(".rs")},
	{Name: "php", Match: ext(".php", ".phtml")},
	{Name: "ruby", Match: func(p string) bool {
		b := path.Base(p)
		return ext(".rb", ".erb", ".rake", ".gemspec")(p) || b == "Gemfile" || b == "Rakefile"
	}},
	{Name: "shell", Match: ext(".sh", ".bash", ".zsh", ".ksh")},
	{Name: "docker", Match: isDocker},
	{Name: "ci", Match: isCI},
}

// applies reports whether area a applies to any of paths.
func (a Area) applies(paths []string) bool {
	if a.Always {
		return true
	}
	for _, p := range paths {
		if a.Match(p) {
			return true
		}
	}
	return false
}

// globsMatch reports whether any path matches any glob (internal/pathglob:
// on the whole path or any ending of it).
func globsMatch(globs, paths []string) bool {
	for _, g := range globs {
		for _, p := range paths {
			if pathglob.Match(g, p) {
				return true
			}
		}
	}
	return false
}

// Select returns the rule files that apply to a task creating or
// modifying paths: the library areas that match (OWASP core always), each
// followed by the repository file of the same area, then the repository's
// other files whose globs match (or that have none). A repository rule
// with the title of a library rule replaces it wherever it stands: the
// library rule is left out and the repository's version is kept in its
// own file. Files left with no rules are not returned.
func Select(lib, repo []*File, paths []string) []*File {
	override := map[string]bool{}
	var picked []*File
	for _, r := range repo {
		if r.Area == "" && len(r.Globs) > 0 && !globsMatch(r.Globs, paths) {
			continue
		}
		if r.Area != "" && !areaApplies(r.Area, paths) {
			continue
		}
		for _, x := range r.Rules {
			override[key(x.Title)] = true
		}
	}
	var out []*File
	for _, a := range Areas {
		if !a.applies(paths) {
			continue
		}
		for _, f := range lib {
			if f.Area != a.Name {
				continue
			}
			kept := &File{Source: f.Source, Area: f.Area, Title: f.Title}
			for _, x := range f.Rules {
				if !override[key(x.Title)] {
					kept.Rules = append(kept.Rules, x)
				}
			}
			if len(kept.Rules) > 0 {
				out = append(out, kept)
			}
		}
		for _, r := range repo {
			if r.Area == a.Name && len(r.Rules) > 0 {
				out = append(out, r)
			}
		}
	}
	for _, r := range repo {
		if r.Area == "" && len(r.Rules) > 0 && (len(r.Globs) == 0 || globsMatch(r.Globs, paths)) {
			picked = append(picked, r)
		}
	}
	return append(out, picked...)
}

func areaApplies(name string, paths []string) bool {
	for _, a := range Areas {
		if a.Name == name {
			return a.applies(paths)
		}
	}
	return false
}
