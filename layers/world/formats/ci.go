package formats

import (
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/git-speed/git-speed/layers/world"
)

// CI workflows are a layer on the YAML extractor: the skeleton is the
// YAML key outline, and the definitions are what a reader navigates by.
// GitHub Actions (.github/workflows/*.yml): the workflow, its triggers
// (on:), its jobs and their steps; `uses:` of steps and of reusable-
// workflow jobs are imports, `needs:` are references to jobs. GitLab CI
// (.gitlab-ci.yml): jobs (top-level keys other than the reserved ones;
// hidden .templates too), `include:` entries are imports, `extends:` and
// `needs:` are references.

func init() {
	Register("github-actions", extractGitHubActions)
	Register("gitlab-ci", extractGitLabCI)
}

// ciRef is a reference whose enclosing definition is found after the
// definitions are sorted.
type ciRef struct {
	name, in string
	line     int
}

type ciFacts struct {
	facts *world.Facts
	refs  []ciRef
	last  int
}

func (c *ciFacts) def(kind, name, q, parent string, start, end int, sig string) {
	if start <= 0 {
		return
	}
	// (the parser's lines past the file's last: see parseYAML)
	start, end = min(start, c.last), min(end, c.last)
	c.facts.Defs = append(c.facts.Defs, world.Def{Name: name, Qualified: q, Parent: parent, Kind: kind, Start: start,
		End: max(start, end), Signature: sig})
}

// finish sorts the definitions and resolves the references' enclosing
// definitions.
func (c *ciFacts) finish() {
	sortDefsByStart(c.facts.Defs)
	idx := map[string]int{}
	for i, d := range c.facts.Defs {
		if _, ok := idx[d.Qualified]; !ok {
			idx[d.Qualified] = i + 1
		}
	}
	for _, r := range c.refs {
		c.facts.Refs = append(c.facts.Refs, world.Ref{Name: r.name, Line: r.line, In: idx[r.in], Kind: world.RefValue})
	}
}

// ends maps key paths of the YAML outline to their last lines.
func outlineEnds(o *outline) map[string]int {
	m := make(map[string]int, len(o.entries))
	for _, e := range o.entries {
		m[e.path] = e.end
	}
	return m
}

func extractGitHubActions(src []byte, opt Options, facts *world.Facts) {
	docs, out := parseYAML(src, facts)
	defer out.free()
	out.emit(facts)
	facts.Defs = facts.Defs[:0]
	if docs == nil || len(docs) == 0 || docs[0].Body == nil {
		return
	}
	ends := outlineEnds(out)
	c := &ciFacts{facts: facts, last: countLines(src)}
	top := docs[0].Body
	name := ""
	for _, mv := range yamlPairs(top) {
		if yamlKey(mv) == "name" {
			name = yamlScalar(mv.Value)
		}
	}
	wf := strings.Trim(name, `"'`)
	if wf == "" {
		wf = strings.TrimSuffix(strings.TrimSuffix(baseName(opt.Path), ".yml"), ".yaml")
	}
	if wf == "" {
		wf = "workflow"
	}
	c.def("workflow", wf, wf, "", 1, c.last, "workflow "+strconv.Quote(wf))
	for _, mv := range yamlPairs(top) {
		switch yamlKey(mv) {
		case "on", "true":
			ghTriggers(c, mv, ends)
		case "jobs":
			for _, jv := range yamlPairs(mv.Value) {
				ghJob(c, jv, ends)
			}
		}
	}
	c.finish()
}

func ghTriggers(c *ciFacts, mv *ast.MappingValueNode, ends map[string]int) {
	add := func(name string, line int) {
		q := "on." + name
		c.def("trigger", name, q, "on", line, ends[q], "on: "+name)
	}
	v := yamlUnwrap(mv.Value)
	if s := yamlScalar(v); s != "" {
		add(s, yamlLine(mv.Key))
		return
	}
	for _, it := range yamlItems(v) {
		if s := yamlScalar(it); s != "" {
			add(s, yamlLine(it))
		}
	}
	for _, t := range yamlPairs(v) {
		add(yamlKey(t), yamlLine(t.Key))
	}
}

func ghJob(c *ciFacts, jv *ast.MappingValueNode, ends map[string]int) {
	id := yamlKey(jv)
	q := "jobs." + id
	line := yamlLine(jv.Key)
	sig := id + ":"
	var steps []ast.Node
	for _, kv := range yamlPairs(jv.Value) {
		switch k := yamlKey(kv); k {
		case "name":
			sig += " name " + yamlScalar(kv.Value)
		case "runs-on":
			if s := yamlScalar(kv.Value); s != "" {
				sig += " runs-on " + s
			}
		case "uses":
			if s := strings.Trim(yamlScalar(kv.Value), `"'`); s != "" {
				c.facts.Imports = append(c.facts.Imports, world.Import{Path: s, Line: yamlLine(kv.Value), Kind: "workflow"})
				sig += " uses " + s
			}
		case "needs":
			ciNeeds(c, kv.Value, q)
		case "steps":
			steps = yamlItems(kv.Value)
		}
	}
	c.def("job", id, q, "jobs", line, ends[q], sig)
	starts := make([]int, len(steps))
	for i, st := range steps {
		starts[i] = yamlLine(st)
		if ps := yamlPairs(st); len(ps) > 0 {
			starts[i] = yamlLine(ps[0].Key)
		}
	}
	for i, st := range steps {
		sq := q + ".steps[" + strconv.Itoa(i) + "]"
		name, uses, run := "", "", ""
		for _, kv := range yamlPairs(st) {
			switch yamlKey(kv) {
			case "name":
				name = strings.Trim(yamlScalar(kv.Value), `"'`)
			case "uses":
				uses = strings.Trim(yamlScalar(kv.Value), `"'`)
				if uses != "" {
					c.facts.Imports = append(c.facts.Imports, world.Import{Path: uses, Line: yamlLine(kv.Value), Kind: "action"})
				}
			case "run":
				run = ciFirstLine(kv.Value)
			}
		}
		label := name
		sig := "- "
		switch {
		case name != "":
			sig += "name: " + name
		case uses != "":
			label, sig = uses, sig+"uses: "+uses
		case run != "":
			label, sig = run, sig+"run: "+run
		default:
			label = "step " + strconv.Itoa(i+1)
		}
		end := ends[q] // a step ends where the next begins, the last with its job
		if i+1 < len(steps) && starts[i+1] > starts[i] {
			end = starts[i+1] - 1
		}
		c.def("step", label, sq, q, starts[i], end, sig)
	}
}

// ciNeeds adds references to the jobs a job needs (a name, a list of
// names, or GitLab's list of {job: name}).
func ciNeeds(c *ciFacts, v ast.Node, in string) {
	if s := strings.Trim(yamlScalar(v), `"'`); s != "" {
		c.refs = append(c.refs, ciRef{name: s, in: in, line: yamlLine(v)})
		return
	}
	for _, it := range yamlItems(v) {
		if s := strings.Trim(yamlScalar(it), `"'`); s != "" {
			c.refs = append(c.refs, ciRef{name: s, in: in, line: yamlLine(it)})
			continue
		}
		for _, kv := range yamlPairs(it) {
			if yamlKey(kv) == "job" {
				if s := strings.Trim(yamlScalar(kv.Value), `"'`); s != "" {
					c.refs = append(c.refs, ciRef{name: s, in: in, line: yamlLine(kv.Value)})
				}
			}
		}
	}
}

// ciFirstLine is the first line of a run script, shortened.
func ciFirstLine(v ast.Node) string {
	v = yamlUnwrap(v)
	if v == nil {
		return ""
	}
	s := ""
	if lit, ok := v.(*ast.LiteralNode); ok && lit.Value != nil {
		s = lit.Value.Value
	} else if tk := v.GetToken(); tk != nil {
		s = tk.Value
	}
	s = firstLine(s)
	if len(s) > maxShownValue {
		s = s[:maxShownValue] + "…"
	}
	return s
}

// gitlabReserved are the top-level keys of .gitlab-ci.yml that are not jobs.
var gitlabReserved = map[string]bool{"stages": true, "variables": true, "include": true, "default": true, "workflow": true,
	"image": true, "services": true, "before_script": true, "after_script": true, "cache": true, "spec": true, "types": true}

func extractGitLabCI(src []byte, opt Options, facts *world.Facts) {
	docs, out := parseYAML(src, facts)
	defer out.free()
	out.emit(facts)
	facts.Defs = facts.Defs[:0]
	if len(docs) == 0 {
		return
	}
	ends := outlineEnds(out)
	c := &ciFacts{facts: facts, last: countLines(src)}
	for _, d := range docs {
		if d == nil || d.Body == nil {
			continue
		}
		for _, mv := range yamlPairs(d.Body) {
			k := yamlKey(mv)
			switch {
			case k == "include":
				gitlabIncludes(c, mv.Value)
			case k == "stages":
				for _, it := range yamlItems(mv.Value) {
					if s := yamlScalar(it); s != "" {
						c.def("stage", s, "stages."+s, "stages", yamlLine(it), yamlLine(it), "stage "+s)
					}
				}
			case gitlabReserved[k]:
			default:
				gitlabJob(c, mv, k, ends)
			}
		}
	}
	c.finish()
}

func gitlabJob(c *ciFacts, mv *ast.MappingValueNode, id string, ends map[string]int) {
	kind := "job"
	if strings.HasPrefix(id, ".") {
		kind = "template"
	}
	sig := id + ":"
	for _, kv := range yamlPairs(mv.Value) {
		switch yamlKey(kv) {
		case "stage":
			sig += " stage " + yamlScalar(kv.Value)
		case "extends":
			ciNeeds(c, kv.Value, id)
			if s := yamlScalar(kv.Value); s != "" {
				sig += " extends " + s
			}
		case "needs", "dependencies":
			ciNeeds(c, kv.Value, id)
		case "trigger":
			if s := yamlScalar(kv.Value); s != "" {
				c.facts.Imports = append(c.facts.Imports, world.Import{Path: s, Line: yamlLine(kv.Value), Kind: "trigger"})
			}
		}
	}
	c.def(kind, id, id, "", yamlLine(mv.Key), ends[id], sig)
}

// gitlabIncludes reads include: a path, a list of paths, or maps with
// local, project (+file), remote, template or component.
func gitlabIncludes(c *ciFacts, v ast.Node) {
	add := func(p, kind string, line int) {
		if p = strings.Trim(p, `"'`); p != "" {
			c.facts.Imports = append(c.facts.Imports, world.Import{Path: p, Line: line, Kind: kind})
		}
	}
	one := func(n ast.Node) {
		if s := yamlScalar(n); s != "" {
			add(s, "include", yamlLine(n))
			return
		}
		project := ""
		for _, kv := range yamlPairs(n) {
			switch k := yamlKey(kv); k {
			case "local", "remote", "template", "component":
				add(yamlScalar(kv.Value), k, yamlLine(kv.Value))
			case "project":
				project = strings.Trim(yamlScalar(kv.Value), `"'`)
			case "file":
				files := yamlItems(kv.Value)
				if files == nil {
					files = []ast.Node{kv.Value}
				}
				for _, f := range files {
					add(project+":"+strings.Trim(yamlScalar(f), `"'`), "project", yamlLine(f))
				}
			}
		}
	}
	if items := yamlItems(v); items != nil {
		for _, it := range items {
			one(it)
		}
		return
	}
	one(v)
}

// baseName is the last element of a slash path.
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}
