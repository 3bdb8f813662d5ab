package formats

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/git-speed/git-speed/layers/world"
)

// Infrastructure: Terraform and other HCL through the real parser
// (github.com/hashicorp/hcl/v2's hclsyntax), and Dockerfiles through a
// structured line scanner (instructions with their continuations).

func init() {
	Register(world.LangHCL, extractHCL)
	Register(world.LangDockerfile, extractDockerfile)
}

// ---- HCL / Terraform ----

// hclQual gives the address prefix of a top-level Terraform block type.
var hclQual = map[string]string{"variable": "var", "output": "output", "module": "module", "provider": "provider",
	"data": "data"}

var hclKind = map[string]string{"resource": world.KindVar, "data": world.KindVar, "module": world.KindModule,
	"variable": world.KindVar, "output": world.KindVar, "provider": world.KindModule, "terraform": world.KindModule,
	"locals": world.KindModule}

// hclSkipRoots are traversal roots that never name a definition.
var hclSkipRoots = map[string]bool{"each": true, "count": true, "path": true, "self": true, "terraform": true}

type hclWalk struct {
	src   []byte
	facts *world.Facts
	sk    *skel
	li    *lines
}

func extractHCL(src []byte, opt Options, facts *world.Facts) {
	w := &hclWalk{src: src, facts: facts, sk: &skel{src: src}, li: newLines(src)}
	file, diags := hclParse(src, opt.Path)
	if diags.HasErrors() {
		facts.Partial = true
		d := diags.Errs()[0]
		if de, ok := d.(*hcl.Diagnostic); ok && de.Subject != nil {
			facts.Warning = fmt.Sprintf("hcl: line %d: %s; facts are partial", de.Subject.Start.Line, de.Summary)
		} else {
			facts.Warning = "hcl: " + d.Error() + "; facts are partial"
		}
	}
	body, _ := file.Body.(*hclsyntax.Body)
	if body == nil {
		return
	}
	tfvars := strings.HasSuffix(opt.Path, ".tfvars")
	for _, a := range hclAttrs(body) {
		kind := world.KindKey
		if tfvars {
			kind = world.KindVar
		}
		w.facts.Defs = append(w.facts.Defs, world.Def{Name: a.Name, Qualified: a.Name, Kind: kind, Start: a.SrcRange.Start.Line,
			End: a.SrcRange.End.Line, Exported: true, Signature: a.Name + " = " + iniValue(a.Name, w.value(a.Expr)), Doc: w.doc(a.SrcRange.Start.Line)})
		w.refs(a.Expr, len(w.facts.Defs))
		w.elideValue(a.Expr)
	}
	for _, b := range body.Blocks {
		w.block(b)
	}
	w.comments()
	facts.Skeleton = w.sk.String()
	tidy(facts)
}

// hclParse parses src, turning a parser panic into an error diagnostic.
func hclParse(src []byte, name string) (file *hcl.File, diags hcl.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			file = &hcl.File{Body: &hclsyntax.Body{}}
			diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: fmt.Sprintf("parser failed: %v", r)}}
		}
	}()
	file, diags = hclsyntax.ParseConfig(src, name, hcl.Pos{Line: 1, Column: 1})
	if file == nil || file.Body == nil {
		file = &hcl.File{Body: &hclsyntax.Body{}}
	}
	return file, diags
}

// hclAttrs returns a body's attributes in source order.
func hclAttrs(b *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}

// value returns an expression's source when short and on one line.
func (w *hclWalk) value(e hclsyntax.Expression) string {
	r := e.Range()
	if r.Start.Byte < 0 || r.End.Byte > len(w.src) || r.End.Byte < r.Start.Byte {
		return "…"
	}
	return short(string(w.src[r.Start.Byte:r.End.Byte]))
}

// elideValue leaves a long or multi-line value out of the skeleton.
func (w *hclWalk) elideValue(e hclsyntax.Expression) {
	r := e.Range()
	if r.End.Byte > len(w.src) || r.Start.Byte < 0 || r.End.Byte <= r.Start.Byte {
		return
	}
	if r.Start.Line == r.End.Line && r.End.Byte-r.Start.Byte <= maxValue {
		return
	}
	open, close := w.src[r.Start.Byte], w.src[r.End.Byte-1]
	if open == '{' && close == '}' || open == '[' && close == ']' {
		w.sk.elideBody(w.li, r.Start.Byte, r.End.Byte-1, "#")
		return
	}
	w.sk.elide(r.Start.Byte, r.End.Byte, "…")
}

func (w *hclWalk) doc(line int) string {
	if line <= 1 {
		return ""
	}
	first := 0
	for l := line - 1; l >= 1; l-- {
		t := strings.TrimSpace(w.li.text(l))
		if !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "//") {
			break
		}
		first = l
	}
	if first == 0 {
		return ""
	}
	return firstDocLine(w.li.text(first))
}

func (w *hclWalk) block(b *hclsyntax.Block) {
	line := b.TypeRange.Start.Line
	end := b.CloseBraceRange.End.Line
	if end < line {
		end = line
	}
	labels := make([]string, len(b.Labels))
	for i, l := range b.Labels {
		labels[i] = fmt.Sprintf("%q", l)
	}
	sig := strings.TrimSpace(b.Type + " " + strings.Join(labels, " "))
	kind, ok := hclKind[b.Type]
	if !ok {
		kind = world.KindModule
	}
	name, qual := b.Type, b.Type
	switch {
	case b.Type == "resource" && len(b.Labels) >= 2:
		name, qual = b.Labels[1], b.Labels[0]+"."+b.Labels[1]
	case b.Type == "data" && len(b.Labels) >= 2:
		name, qual = b.Labels[1], "data."+b.Labels[0]+"."+b.Labels[1]
	case hclQual[b.Type] != "" && len(b.Labels) >= 1:
		name, qual = b.Labels[0], hclQual[b.Type]+"."+b.Labels[0]
	case len(b.Labels) > 0:
		name, qual = b.Labels[len(b.Labels)-1], b.Type+"."+strings.Join(b.Labels, ".")
	}
	if b.Type == "locals" {
		for _, a := range hclAttrs(b.Body) {
			w.facts.Defs = append(w.facts.Defs, world.Def{Name: a.Name, Qualified: "local." + a.Name, Kind: world.KindVar,
				Start: a.SrcRange.Start.Line, End: a.SrcRange.End.Line, Exported: true, Signature: a.Name + " = " + iniValue(a.Name, w.value(a.Expr)),
				Doc: w.doc(a.SrcRange.Start.Line)})
			w.refs(a.Expr, len(w.facts.Defs))
			w.elideValue(a.Expr)
		}
		return
	}
	w.facts.Defs = append(w.facts.Defs, world.Def{Name: name, Qualified: qual, Kind: kind, Start: line, End: end,
		Exported: true, Signature: sig, Doc: w.doc(line)})
	in := len(w.facts.Defs)
	for _, a := range hclAttrs(b.Body) {
		if b.Type == "module" && a.Name == "source" {
			if v, ok := hclString(a.Expr); ok {
				w.facts.Imports = append(w.facts.Imports, world.Import{Path: v, Alias: name, Line: a.SrcRange.Start.Line, Kind: "module"})
			}
		}
		w.refs(a.Expr, in)
		w.elideValue(a.Expr)
	}
	for _, nb := range b.Body.Blocks {
		if b.Type == "terraform" && nb.Type == "required_providers" {
			for _, a := range hclAttrs(nb.Body) {
				if obj, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok {
					for _, it := range obj.Items {
						k, _ := hclString(it.KeyExpr)
						if k == "source" {
							if v, ok := hclString(it.ValueExpr); ok {
								w.facts.Imports = append(w.facts.Imports, world.Import{Path: v, Alias: a.Name, Line: a.SrcRange.Start.Line, Kind: "provider"})
							}
						}
					}
				}
			}
		}
		hclsyntax.VisitAll(nb.Body, func(n hclsyntax.Node) hcl.Diagnostics {
			if e, ok := n.(hclsyntax.Expression); ok {
				w.refOne(e, in)
			}
			return nil
		})
		if nb.OpenBraceRange.Start.Byte < nb.CloseBraceRange.Start.Byte && nb.CloseBraceRange.Start.Byte < len(w.src) {
			w.sk.elideBody(w.li, nb.OpenBraceRange.Start.Byte, nb.CloseBraceRange.Start.Byte, "#")
		}
	}
}

// hclString returns the value of a literal string or bare keyword.
func hclString(e hclsyntax.Expression) (string, bool) {
	switch e := e.(type) {
	case *hclsyntax.TemplateExpr:
		if len(e.Parts) == 1 {
			if l, ok := e.Parts[0].(*hclsyntax.LiteralValueExpr); ok && l.Val.Type().FriendlyName() == "string" && l.Val.IsKnown() && !l.Val.IsNull() {
				return l.Val.AsString(), true
			}
		}
	case *hclsyntax.ObjectConsKeyExpr:
		if t, ok := e.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok {
			return t.Traversal.RootName(), true
		}
		return hclString(e.Wrapped)
	}
	return "", false
}

// refs records the references of every traversal in e.
func (w *hclWalk) refs(e hclsyntax.Expression, in int) {
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if x, ok := n.(hclsyntax.Expression); ok {
			w.refOne(x, in)
		}
		return nil
	})
}

func (w *hclWalk) refOne(e hclsyntax.Expression, in int) {
	t, ok := e.(*hclsyntax.ScopeTraversalExpr)
	if !ok {
		return
	}
	root := t.Traversal.RootName()
	var attrs []string
	for _, s := range t.Traversal[1:] {
		if a, ok := s.(hcl.TraverseAttr); ok {
			attrs = append(attrs, a.Name)
		} else {
			break
		}
	}
	line := t.SrcRange.Start.Line
	ref := func(name, qual string) {
		w.facts.Refs = append(w.facts.Refs, world.Ref{Name: name, Qual: qual, Line: line, In: in, Kind: world.RefValue})
	}
	switch {
	case hclSkipRoots[root] || len(attrs) == 0:
	case root == "var" || root == "local" || root == "module":
		ref(attrs[0], root)
	case root == "data" && len(attrs) >= 2:
		ref(attrs[1], "data."+attrs[0])
	case strings.Contains(root, "_"): // a resource type: aws_instance.web
		ref(attrs[0], root)
	}
}

// comments leaves comments out of the skeleton except the first line of a
// block right above a top-level definition.
func (w *hclWalk) comments() {
	m := maskSource(w.src, syntax{line: []string{"#", "//"}, blockOpen: "/*", blockClose: "*/", quotes: `"`, escape: '\\', heredoc: true})
	m.dropComments(w.sk, docStarts(w.facts, func(d *world.Def) bool { return d.Doc != "" }))
}

// ---- Dockerfile ----

// extractDockerfile reads instructions (joining continuation lines):
// FROM stages are definitions and their images imports; COPY --from and
// RUN --mount=from name earlier stages (references); ARG and ENV give
// variables, EXPOSE ports, ENTRYPOINT and CMD the commands. Long RUN
// scripts are elided in the skeleton.
func extractDockerfile(src []byte, _ Options, facts *world.Facts) {
	li := newLines(src)
	sk := &skel{src: src}
	n := li.count()
	escape := byte('\\')
	stage := -1 // index of the current stage's def
	stages := map[string]bool{}
	stageNo := 0
	for l := 1; l <= n; l++ {
		t := strings.TrimSpace(li.text(l))
		if strings.HasPrefix(t, "#") {
			low := strings.ToLower(strings.ReplaceAll(t, " ", ""))
			if strings.HasPrefix(low, "#escape=") && len(low) > len("#escape=") && len(facts.Defs) == 0 {
				escape = low[len("#escape=")]
			}
			continue
		}
		if t == "" {
			continue
		}
		// The instruction's lines: continued while a line ends in the escape
		// character (comment lines inside are skipped).
		end := l
		var parts []string
		for k := l; k <= n; k++ {
			lt := strings.TrimSpace(li.text(k))
			end = k
			if k > l && strings.HasPrefix(lt, "#") {
				continue
			}
			if len(lt) > 0 && lt[len(lt)-1] == escape {
				parts = append(parts, strings.TrimSpace(lt[:len(lt)-1]))
				continue
			}
			parts = append(parts, lt)
			break
		}
		full := oneLine(strings.Join(parts, " "))
		fields := strings.Fields(full)
		if len(fields) == 0 {
			l = end
			continue
		}
		instr := strings.ToUpper(fields[0])
		args := fields[1:]
		flags := map[string]string{}
		for len(args) > 0 && strings.HasPrefix(args[0], "--") {
			k, v, _ := strings.Cut(args[0][2:], "=")
			flags[strings.ToLower(k)] = v
			args = args[1:]
		}
		in := stage + 1
		switch instr {
		case "FROM":
			if len(args) == 0 {
				break
			}
			image := args[0]
			name := ""
			if len(args) >= 3 && strings.EqualFold(args[1], "AS") {
				name = args[2]
			}
			stageNo++
			qual := name
			if name == "" {
				name = fmt.Sprintf("stage%d", stageNo-1)
				qual = name
			}
			if stage >= 0 {
				facts.Defs[stage].End = dockerEnd(li, facts.Defs[stage].Start, l-1)
			}
			facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: qual, Kind: world.KindModule, Start: l, End: end,
				Exported: true, Signature: full, Doc: dockerDoc(li, l)})
			stage = len(facts.Defs) - 1
			if stages[image] {
				facts.Refs = append(facts.Refs, world.Ref{Name: image, Line: l, In: stage + 1, Kind: world.RefType})
			} else if !strings.EqualFold(image, "scratch") {
				facts.Imports = append(facts.Imports, world.Import{Path: image, Line: l, Kind: "image"})
			}
			stages[strings.ToLower(name)] = true
			stages[name] = true
		case "COPY", "ADD", "RUN":
			from := flags["from"]
			if m := flags["mount"]; m != "" {
				for _, kv := range strings.Split(m, ",") {
					if k, v, ok := strings.Cut(kv, "="); ok && k == "from" {
						from = v
					}
				}
			}
			if from != "" {
				if stages[from] || stages[strings.ToLower(from)] {
					facts.Refs = append(facts.Refs, world.Ref{Name: from, Line: l, In: in, Kind: world.RefType})
				} else if strings.Trim(from, "0123456789") != "" {
					facts.Imports = append(facts.Imports, world.Import{Path: from, Line: l, Kind: "image"})
				}
			}
			if end > l+1 || end > l && len(full) > 100 {
				sk.elideLines(li, l+1, end, "    ", "#")
			}
		case "ARG", "ENV":
			for _, kv := range dockerPairs(args) {
				facts.Defs = append(facts.Defs, world.Def{Name: kv[0], Qualified: joinQual(dockerStageName(facts, stage), kv[0]),
					Parent: dockerStageName(facts, stage), Kind: world.KindVar, Start: l, End: end, Exported: true,
					Signature: instr + " " + kv[0] + dockerValue(kv[0], kv[1]), Doc: dockerDoc(li, l)})
			}
		case "EXPOSE":
			for _, p := range args {
				facts.Defs = append(facts.Defs, world.Def{Name: p, Qualified: joinQual(dockerStageName(facts, stage), p),
					Parent: dockerStageName(facts, stage), Kind: world.KindConst, Start: l, End: end, Exported: true, Signature: "EXPOSE " + p})
			}
		case "ENTRYPOINT", "CMD", "HEALTHCHECK":
			facts.Defs = append(facts.Defs, world.Def{Name: instr, Qualified: joinQual(dockerStageName(facts, stage), instr),
				Parent: dockerStageName(facts, stage), Kind: world.KindFunction, Start: l, End: end, Exported: true,
				Signature: dockerShort(full), Doc: dockerDoc(li, l)})
		}
		l = end
	}
	if stage >= 0 {
		facts.Defs[stage].End = dockerEnd(li, facts.Defs[stage].Start, n)
	}
	// Comments leave the skeleton, except the first line above a FROM.
	m := maskSource(src, syntax{line: []string{"#"}, lineStart: true})
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Kind == world.KindModule && d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}

func dockerStageName(facts *world.Facts, stage int) string {
	if stage < 0 {
		return ""
	}
	return facts.Defs[stage].Qualified
}

// dockerEnd is the last non-blank, non-comment line in from..to.
func dockerEnd(li *lines, from, to int) int {
	for l := to; l > from; l-- {
		t := strings.TrimSpace(li.text(l))
		if t != "" && !strings.HasPrefix(t, "#") {
			return l
		}
	}
	return from
}

func dockerDoc(li *lines, l int) string {
	first := 0
	for k := l - 1; k >= 1; k-- {
		t := strings.TrimSpace(li.text(k))
		if !strings.HasPrefix(t, "#") || strings.Contains(strings.ReplaceAll(t, " ", ""), "syntax=") {
			break
		}
		first = k
	}
	if first == 0 {
		return ""
	}
	return firstDocLine(li.text(first))
}

// dockerPairs reads ARG/ENV arguments: k=v pairs, or the legacy "ENV k v".
func dockerPairs(args []string) [][2]string {
	if len(args) == 0 {
		return nil
	}
	if !strings.Contains(args[0], "=") && len(args) > 1 {
		return [][2]string{{args[0], "=" + strings.Join(args[1:], " ")}}
	}
	var out [][2]string
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if k == "" {
			continue
		}
		if ok {
			v = "=" + v
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

// dockerValue shows a short value, never a long one nor a secret's.
func dockerValue(key, v string) string {
	if v == "" {
		return ""
	}
	return "=" + iniValue(key, strings.TrimPrefix(v, "="))
}

func dockerShort(s string) string { return clip(s, 120) }
