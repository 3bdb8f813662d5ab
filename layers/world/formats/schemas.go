package formats

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/emicklei/proto"
	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/git-speed/git-speed/layers/world"
)

// Schema languages: GraphQL (github.com/vektah/gqlparser/v2) and Protocol
// Buffers (github.com/emicklei/proto) through real parsers; Prisma and
// SQL through structured scanners over the masked source (schema_sql.go).

func init() {
	Register(world.LangGraphQL, extractGraphQL)
	Register(world.LangProtobuf, extractProto)
	Register(world.LangPrisma, extractPrisma)
}

// spanEnd returns the last line of a definition starting on line start:
// the line of the '}' closing the first '{' opened before the next
// definition (starting at line bound, 0 for none), or else the last line
// with code before bound.
func spanEnd(m *masked, start, bound int) int {
	limit := len(m.code)
	if bound > 0 {
		limit = m.li.start(bound)
	}
	from := m.li.start(start)
	if i := bytes.IndexByte(m.code[from:limit], '{'); i >= 0 {
		if c := m.close(from + i); c > 0 {
			return m.li.lineOf(c)
		}
		return m.li.count()
	}
	last := start
	end := bound - 1
	if bound == 0 {
		end = m.li.count()
	}
	for l := start; l <= end; l++ {
		if strings.Trim(m.lineCode(l), `"'`+"`") != "" { // not a string alone
			last = l
		}
	}
	return last
}

// headerDefs is the fallback of a file the parser refused: the
// definitions whose header lines (keyword and name at the start of a line
// of code) re reads, each to the end of its braces or its last line.
func headerDefs(m *masked, facts *world.Facts, re *lazyre.Regexp) {
	n := m.li.count()
	for l := 1; l <= n; l++ {
		mm := re.FindStringSubmatch(m.lineCode(l))
		if mm == nil {
			continue
		}
		facts.Defs = append(facts.Defs, world.Def{Name: mm[2], Qualified: mm[2], Kind: headerKinds[mm[1]], Start: l, End: l,
			Exported: true, Signature: oneLine(mm[0]), Doc: m.docAbove(l)})
	}
	for i := range facts.Defs {
		bound := 0
		if i+1 < len(facts.Defs) {
			bound = facts.Defs[i+1].Start
		}
		facts.Defs[i].End = spanEnd(m, facts.Defs[i].Start, bound)
	}
}

var (
	gqlHeader   = lazyre.New(`^(?:extend\s+)?(type|interface|enum|union|input|scalar|directive\s+@|query|mutation|subscription|fragment)\s*([_A-Za-z]\w*)`)
	protoHeader = lazyre.New(`^(message|enum|service|extend)\s+([_A-Za-z][\w.]*)`)
	headerKinds = map[string]string{"type": world.KindStruct, "input": world.KindStruct, "interface": world.KindInterface,
		"enum": world.KindEnum, "union": world.KindType, "scalar": world.KindType, "directive @": world.KindMacro,
		"query": world.KindFunction, "mutation": world.KindFunction, "subscription": world.KindFunction,
		"fragment": world.KindFunction, "message": world.KindStruct, "service": world.KindInterface, "extend": world.KindModule}
)

// ---- GraphQL ----

// gqlBuiltin are the scalars every schema has.
var gqlBuiltin = map[string]bool{"Int": true, "Float": true, "String": true, "Boolean": true, "ID": true}

var gqlKind = map[ast.DefinitionKind]string{ast.Object: world.KindStruct, ast.InputObject: world.KindStruct,
	ast.Interface: world.KindInterface, ast.Enum: world.KindEnum, ast.Union: world.KindType, ast.Scalar: world.KindType}

var gqlKeyword = map[ast.DefinitionKind]string{ast.Object: "type", ast.InputObject: "input", ast.Interface: "interface",
	ast.Enum: "enum", ast.Union: "union", ast.Scalar: "scalar"}

func extractGraphQL(src []byte, opt Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"#"}, quotes: `"`, escape: '\\', tripleQ: true})
	sk := &skel{src: src}
	in := &ast.Source{Name: opt.Path, Input: string(src)}
	if doc, err := parser.ParseSchema(in); err == nil {
		gqlSchema(m, doc, facts)
	} else if q, qerr := parser.ParseQuery(in); qerr == nil {
		gqlQuery(m, q, facts, sk)
	} else {
		if gqlLooksExecutable(m) {
			err = qerr
		}
		facts.Partial = true
		facts.Warning = "graphql: " + gqlError(err) + "; definitions only"
		headerDefs(m, facts, gqlHeader)
	}
	gqlEnds(m, facts)
	// Descriptions become docs; they and comments leave the skeleton.
	for _, s := range m.strs {
		if l := m.li.lineOf(s[0]); strings.TrimSpace(string(src[m.li.start(l):s[0]])) == "" {
			sk.elide(s[0], s[1], "")
		}
	}
	m.dropComments(sk, nil)
	facts.Skeleton = sk.String()
	tidy(facts)
}

// gqlLooksExecutable reports whether a document starts like operations.
func gqlLooksExecutable(m *masked) bool {
	i := m.next(0)
	if i < 0 {
		return false
	}
	for _, w := range []string{"{", "query", "mutation", "subscription", "fragment"} {
		if bytes.HasPrefix(m.code[i:], []byte(w)) {
			return true
		}
	}
	return false
}

func gqlError(err error) string {
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		if len(ge.Locations) > 0 {
			return fmt.Sprintf("syntax error at line %d: %s", ge.Locations[0].Line, ge.Message)
		}
		return "syntax error: " + ge.Message
	}
	return err.Error()
}

// gqlEnds sets the last line of every top-level definition (its Parent is
// empty) from the source, as the parser gives start positions only.
func gqlEnds(m *masked, facts *world.Facts) {
	var tops []int
	for i, d := range facts.Defs {
		if d.Parent == "" {
			tops = append(tops, i)
		}
	}
	sort.SliceStable(tops, func(a, b int) bool { return facts.Defs[tops[a]].Start < facts.Defs[tops[b]].Start })
	for k, i := range tops {
		bound := 0
		if k+1 < len(tops) {
			bound = facts.Defs[tops[k+1]].Start
		}
		facts.Defs[i].End = spanEnd(m, facts.Defs[i].Start, bound)
	}
}

func gqlLine(p *ast.Position) int {
	if p == nil || p.Line < 1 {
		return 1
	}
	return p.Line
}

func gqlTypeRef(facts *world.Facts, t *ast.Type, line, in int) {
	for t != nil && t.Elem != nil {
		t = t.Elem
	}
	if t == nil || t.NamedType == "" || gqlBuiltin[t.NamedType] {
		return
	}
	if t.Position != nil {
		line = t.Position.Line
	}
	facts.Refs = append(facts.Refs, world.Ref{Name: t.NamedType, Line: line, In: in, Kind: world.RefType})
}

func gqlArgs(args ast.ArgumentDefinitionList) string {
	if len(args) == 0 {
		return ""
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.Name + ": " + a.Type.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func gqlSchema(m *masked, doc *ast.SchemaDocument, facts *world.Facts) {
	for _, s := range append(append(ast.SchemaDefinitionList{}, doc.Schema...), doc.SchemaExtension...) {
		line := gqlLine(s.Position)
		facts.Defs = append(facts.Defs, world.Def{Name: "schema", Qualified: "schema", Kind: world.KindModule, Start: line,
			End: line, Exported: true, Signature: "schema", Doc: firstDocLine(s.Description)})
		in := len(facts.Defs)
		for _, op := range s.OperationTypes {
			facts.Refs = append(facts.Refs, world.Ref{Name: op.Type, Line: gqlLine(op.Position), In: in, Kind: world.RefType})
		}
	}
	for _, d := range doc.Directives {
		line := gqlLine(d.Position)
		facts.Defs = append(facts.Defs, world.Def{Name: d.Name, Qualified: "@" + d.Name, Kind: world.KindMacro, Start: line,
			End: line, Exported: true, Signature: "directive @" + d.Name + gqlArgs(d.Arguments), Doc: firstDocLine(d.Description)})
		in := len(facts.Defs)
		for _, a := range d.Arguments {
			gqlTypeRef(facts, a.Type, line, in)
		}
	}
	defs := append(append(ast.DefinitionList{}, doc.Definitions...), doc.Extensions...)
	for n, d := range defs {
		line := gqlLine(d.Position)
		kw := gqlKeyword[d.Kind]
		if n >= len(doc.Definitions) {
			kw = "extend " + kw
		}
		sig := kw + " " + d.Name
		if len(d.Interfaces) > 0 {
			sig += " implements " + strings.Join(d.Interfaces, " & ")
		}
		if len(d.Types) > 0 {
			sig += " = " + strings.Join(d.Types, " | ")
		}
		facts.Defs = append(facts.Defs, world.Def{Name: d.Name, Qualified: d.Name, Kind: gqlKind[d.Kind], Start: line, End: line,
			Exported: true, Signature: sig, Doc: firstDocLine(d.Description)})
		in := len(facts.Defs)
		for _, t := range append(append([]string{}, d.Interfaces...), d.Types...) {
			facts.Refs = append(facts.Refs, world.Ref{Name: t, Line: line, In: in, Kind: world.RefType})
		}
		for _, f := range d.Fields {
			fl := gqlLine(f.Position)
			sig := f.Name + gqlArgs(f.Arguments)
			if f.Type != nil {
				sig += ": " + f.Type.String()
			}
			facts.Defs = append(facts.Defs, world.Def{Name: f.Name, Qualified: d.Name + "." + f.Name, Parent: d.Name,
				Kind: world.KindField, Start: fl, End: fl, Exported: true, Signature: sig, Doc: firstDocLine(f.Description)})
			fin := len(facts.Defs)
			gqlTypeRef(facts, f.Type, fl, fin)
			for _, a := range f.Arguments {
				gqlTypeRef(facts, a.Type, fl, fin)
			}
		}
		for _, v := range d.EnumValues {
			vl := gqlLine(v.Position)
			facts.Defs = append(facts.Defs, world.Def{Name: v.Name, Qualified: d.Name + "." + v.Name, Parent: d.Name,
				Kind: world.KindConst, Start: vl, End: vl, Exported: true, Signature: v.Name, Doc: firstDocLine(v.Description)})
		}
	}
}

var gqlRoot = map[ast.Operation]string{ast.Query: "Query", ast.Mutation: "Mutation", ast.Subscription: "Subscription"}

func gqlQuery(m *masked, q *ast.QueryDocument, facts *world.Facts, sk *skel) {
	body := func(line int) {
		if open, close := m.braceAfter(m.li.start(line), ""); open >= 0 && close > open {
			sk.elideBody(m.li, open, close, "#")
		}
	}
	for _, op := range q.Operations {
		line := gqlLine(op.Position)
		name := op.Name
		if name == "" {
			name = string(op.Operation)
		}
		var vars []string
		for _, v := range op.VariableDefinitions {
			vars = append(vars, "$"+v.Variable+": "+v.Type.String())
		}
		sig := string(op.Operation) + " " + op.Name
		if len(vars) > 0 {
			sig = strings.TrimSpace(sig) + "(" + strings.Join(vars, ", ") + ")"
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: world.KindFunction, Start: line, End: line,
			Exported: true, Signature: strings.TrimSpace(sig), Doc: m.docAbove(line)})
		in := len(facts.Defs)
		for _, v := range op.VariableDefinitions {
			gqlTypeRef(facts, v.Type, gqlLine(v.Position), in)
		}
		gqlSelections(facts, op.SelectionSet, gqlRoot[op.Operation], in, 0)
		body(line)
	}
	for _, f := range q.Fragments {
		line := gqlLine(f.Position)
		facts.Defs = append(facts.Defs, world.Def{Name: f.Name, Qualified: f.Name, Kind: world.KindFunction, Start: line, End: line,
			Exported: true, Signature: "fragment " + f.Name + " on " + f.TypeCondition, Doc: m.docAbove(line)})
		in := len(facts.Defs)
		facts.Refs = append(facts.Refs, world.Ref{Name: f.TypeCondition, Line: line, In: in, Kind: world.RefType})
		gqlSelections(facts, f.SelectionSet, f.TypeCondition, in, 0)
		body(line)
	}
}

// gqlSelections records fragment spreads, type conditions and the root
// fields an operation selects (as members of Query, Mutation …).
func gqlSelections(facts *world.Facts, set ast.SelectionSet, root string, in, depth int) {
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if depth == 0 && root != "" {
				facts.Refs = append(facts.Refs, world.Ref{Name: s.Name, Qual: root, Line: gqlLine(s.Position), In: in, Kind: world.RefMember})
			}
			gqlSelections(facts, s.SelectionSet, "", in, depth+1)
		case *ast.FragmentSpread:
			facts.Refs = append(facts.Refs, world.Ref{Name: s.Name, Line: gqlLine(s.Position), In: in, Kind: world.RefCall})
		case *ast.InlineFragment:
			if s.TypeCondition != "" {
				facts.Refs = append(facts.Refs, world.Ref{Name: s.TypeCondition, Line: gqlLine(s.Position), In: in, Kind: world.RefType})
			}
			gqlSelections(facts, s.SelectionSet, root, in, depth)
		}
	}
}

// ---- Protocol Buffers ----

// protoScalar are the scalar field types, never references.
var protoScalar = map[string]bool{"double": true, "float": true, "int32": true, "int64": true, "uint32": true,
	"uint64": true, "sint32": true, "sint64": true, "fixed32": true, "fixed64": true, "sfixed32": true,
	"sfixed64": true, "bool": true, "string": true, "bytes": true}

type protoWalk struct {
	m     *masked
	facts *world.Facts
	sk    *skel
}

func extractProto(src []byte, opt Options, facts *world.Facts) {
	w := &protoWalk{m: maskSource(src, syntax{line: []string{"//"}, blockOpen: "/*", blockClose: "*/", quotes: `"'`, escape: '\\'}),
		facts: facts, sk: &skel{src: src}}
	def, err := proto.NewParser(bytes.NewReader(src)).Parse()
	if err != nil {
		facts.Partial = true
		facts.Warning = "protobuf: " + protoError(err) + "; definitions only"
		headerDefs(w.m, facts, protoHeader)
	} else if def != nil {
		w.elements(def.Elements, "")
	}
	w.m.dropComments(w.sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = w.sk.String()
	tidy(facts)
}

// protoError words a parse error as "syntax error at line N: …".
func protoError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "<input>:")
	if ln, rest, ok := strings.Cut(msg, ":"); ok && strings.Trim(ln, "0123456789") == "" && ln != "" {
		if _, r, ok := strings.Cut(rest, ":"); ok {
			rest = r
		}
		return "syntax error at line " + ln + ":" + rest
	}
	return msg
}

func protoDoc(c *proto.Comment) string {
	if c == nil {
		return ""
	}
	for _, l := range c.Lines {
		if d := firstDocLine(l); d != "" {
			return d
		}
	}
	return ""
}

// add records a definition at pos with a body found in the source and
// returns its 1-based index and body.
func (w *protoWalk) add(d world.Def, off int) (in, open, close int) {
	d.Exported = true
	open, close = w.m.braceAfter(off, ";")
	d.End = d.Start
	if close > open && open >= 0 {
		d.End = w.m.li.lineOf(close)
	}
	w.facts.Defs = append(w.facts.Defs, d)
	return len(w.facts.Defs), open, close
}

func (w *protoWalk) typeRef(t string, line, in int) {
	t = strings.TrimPrefix(t, ".")
	if t == "" || protoScalar[t] {
		return
	}
	w.facts.Refs = append(w.facts.Refs, world.Ref{Name: afterLast(t, "."), Qual: strings.TrimSuffix(strings.TrimSuffix(t, afterLast(t, ".")), "."),
		Line: line, In: in, Kind: world.RefType})
}

func (w *protoWalk) elements(els []proto.Visitee, parent string) {
	for _, e := range els {
		switch e := e.(type) {
		case *proto.Package:
			w.facts.Package = e.Name
		case *proto.Import:
			w.facts.Imports = append(w.facts.Imports, world.Import{Path: e.Filename, Line: e.Position.Line, Kind: e.Kind})
		case *proto.Message:
			kw, kind := "message", world.KindStruct
			name := e.Name
			if e.IsExtend {
				kw, kind = "extend", world.KindModule
			}
			q := joinQual(parent, name)
			idx, _, _ := w.add(world.Def{Name: name, Qualified: q, Parent: parent, Kind: kind, Start: e.Position.Line,
				Signature: kw + " " + name, Doc: protoDoc(e.Comment)}, e.Position.Offset)
			if e.IsExtend {
				w.typeRef(name, e.Position.Line, idx)
			}
			w.elements(e.Elements, q)
		case *proto.Enum:
			q := joinQual(parent, e.Name)
			w.add(world.Def{Name: e.Name, Qualified: q, Parent: parent, Kind: world.KindEnum, Start: e.Position.Line,
				Signature: "enum " + e.Name, Doc: protoDoc(e.Comment)}, e.Position.Offset)
			w.elements(e.Elements, q)
		case *proto.EnumField:
			w.facts.Defs = append(w.facts.Defs, world.Def{Name: e.Name, Qualified: joinQual(parent, e.Name), Parent: parent,
				Kind: world.KindConst, Start: e.Position.Line, End: e.Position.Line, Exported: true,
				Signature: fmt.Sprintf("%s = %d", e.Name, e.Integer), Doc: protoDoc(e.Comment)})
		case *proto.Service:
			q := joinQual(parent, e.Name)
			w.add(world.Def{Name: e.Name, Qualified: q, Parent: parent, Kind: world.KindInterface, Start: e.Position.Line,
				Signature: "service " + e.Name, Doc: protoDoc(e.Comment)}, e.Position.Offset)
			w.elements(e.Elements, q)
		case *proto.RPC:
			req, ret := e.RequestType, e.ReturnsType
			if e.StreamsRequest {
				req = "stream " + req
			}
			if e.StreamsReturns {
				ret = "stream " + ret
			}
			idx, open, close := w.add(world.Def{Name: e.Name, Qualified: joinQual(parent, e.Name), Parent: parent, Kind: world.KindMethod,
				Start: e.Position.Line, Signature: "rpc " + e.Name + "(" + req + ") returns (" + ret + ")", Doc: protoDoc(e.Comment)}, e.Position.Offset)
			w.typeRef(e.RequestType, e.Position.Line, idx)
			w.typeRef(e.ReturnsType, e.Position.Line, idx)
			if open >= 0 && close > open {
				w.sk.elideBody(w.m.li, open, close, "//")
			}
		case *proto.Oneof:
			q := joinQual(parent, e.Name)
			w.add(world.Def{Name: e.Name, Qualified: q, Parent: parent, Kind: world.KindField, Start: e.Position.Line,
				Signature: "oneof " + e.Name, Doc: protoDoc(e.Comment)}, e.Position.Offset)
			w.elements(e.Elements, q)
		case *proto.NormalField:
			sig := e.Type + " " + e.Name + fmt.Sprintf(" = %d", e.Sequence)
			switch {
			case e.Repeated:
				sig = "repeated " + sig
			case e.Optional:
				sig = "optional " + sig
			case e.Required:
				sig = "required " + sig
			}
			w.field(e.Field, parent, sig)
		case *proto.OneOfField:
			w.field(e.Field, parent, e.Type+" "+e.Name+fmt.Sprintf(" = %d", e.Sequence))
		case *proto.MapField:
			w.field(e.Field, parent, "map<"+e.KeyType+", "+e.Type+"> "+e.Name+fmt.Sprintf(" = %d", e.Sequence))
		case *proto.Group:
			q := joinQual(parent, e.Name)
			w.add(world.Def{Name: e.Name, Qualified: q, Parent: parent, Kind: world.KindStruct, Start: e.Position.Line,
				Signature: "group " + e.Name, Doc: protoDoc(e.Comment)}, e.Position.Offset)
			w.elements(e.Elements, q)
		}
	}
}

func (w *protoWalk) field(f *proto.Field, parent, sig string) {
	if f == nil {
		return
	}
	w.facts.Defs = append(w.facts.Defs, world.Def{Name: f.Name, Qualified: joinQual(parent, f.Name), Parent: parent,
		Kind: world.KindField, Start: f.Position.Line, End: f.Position.Line, Exported: true, Signature: sig, Doc: protoDoc(f.Comment)})
	w.typeRef(f.Type, f.Position.Line, len(w.facts.Defs))
}

// ---- Prisma ----

// prismaScalar are Prisma's scalar field types.
var prismaScalar = map[string]bool{"String": true, "Boolean": true, "Int": true, "BigInt": true, "Float": true,
	"Decimal": true, "DateTime": true, "Json": true, "Bytes": true, "Unsupported": true}

var prismaBlocks = map[string]string{"model": world.KindStruct, "view": world.KindType, "type": world.KindStruct,
	"enum": world.KindEnum, "datasource": world.KindModule, "generator": world.KindModule}

// extractPrisma reads a Prisma schema with a line scanner over the masked
// source: blocks (model, view, type, enum, datasource, generator) at the
// top, fields, enum values and settings inside them; field types that
// name models, types or enums are references.
func extractPrisma(src []byte, _ Options, facts *world.Facts) {
	m := maskSource(src, syntax{line: []string{"//"}, quotes: `"`, escape: '\\'})
	sk := &skel{src: src}
	n := m.li.count()
	for l := 1; l <= n; l++ {
		f := strings.Fields(m.lineCode(l))
		if len(f) < 2 {
			continue
		}
		kind, ok := prismaBlocks[f[0]]
		if !ok || !strings.HasSuffix(m.lineCode(l), "{") {
			continue
		}
		name := strings.TrimSuffix(f[1], "{")
		open := m.li.start(l) + strings.LastIndexByte(string(m.code[m.li.start(l):m.li.end(l)]), '{')
		close := m.close(open)
		end := n
		if close > 0 {
			end = m.li.lineOf(close)
		} else if facts.Warning == "" {
			facts.Partial = true
			facts.Warning = "unclosed { at line " + itoa(l) + "; facts are partial"
		}
		facts.Defs = append(facts.Defs, world.Def{Name: name, Qualified: name, Kind: kind, Start: l, End: end, Exported: true,
			Signature: f[0] + " " + name, Doc: m.docAbove(l)})
		for k := l + 1; k < end; k++ {
			code := m.lineCode(k)
			if code == "" || strings.HasPrefix(code, "@@") {
				continue
			}
			g := strings.Fields(code)
			text := strings.TrimSpace(m.li.text(k))
			switch f[0] {
			case "enum":
				facts.Defs = append(facts.Defs, world.Def{Name: g[0], Qualified: name + "." + g[0], Parent: name, Kind: world.KindConst,
					Start: k, End: k, Exported: true, Signature: g[0], Doc: m.docAbove(k)})
			case "datasource", "generator":
				key, val, _ := strings.Cut(text, "=")
				key, val = strings.TrimSpace(key), strings.TrimSpace(val)
				if strings.Contains(val, "://") { // a connection string: no credentials in the skeleton
					val = "…"
					if st, _, ok := strings.Cut(string(src[m.li.start(k):m.li.end(k)]), "="); ok {
						sk.elide(m.li.start(k)+len(st)+1, m.li.end(k), " \"…\"")
					}
				}
				facts.Defs = append(facts.Defs, world.Def{Name: key, Qualified: name + "." + key, Parent: name, Kind: world.KindKey,
					Start: k, End: k, Exported: true, Signature: key + " = " + short(val)})
			default:
				if len(g) < 2 {
					continue
				}
				facts.Defs = append(facts.Defs, world.Def{Name: g[0], Qualified: name + "." + g[0], Parent: name, Kind: world.KindField,
					Start: k, End: k, Exported: true, Signature: oneLine(strings.SplitN(text, "//", 2)[0]), Doc: m.docAbove(k)})
				t := strings.TrimRight(g[1], "?[]!")
				if i := strings.IndexByte(t, '('); i >= 0 {
					t = t[:i]
				}
				if t != "" && !prismaScalar[t] && isIdent(t[0]) {
					facts.Refs = append(facts.Refs, world.Ref{Name: t, Line: k, In: len(facts.Defs), Kind: world.RefType})
				}
			}
		}
		l = end
	}
	m.dropComments(sk, docStarts(facts, func(d *world.Def) bool { return d.Doc != "" }))
	facts.Skeleton = sk.String()
	tidy(facts)
}
