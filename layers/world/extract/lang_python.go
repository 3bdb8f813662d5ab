package extract

import (
	"iter"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tree_sitter_python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	"github.com/git-speed/git-speed/layers/world"
)

func init() {
	register(world.LangPython, sitter.NewLanguage(tree_sitter_python.Language()), "#", walkPython)
}

// pyBuiltins are names Python provides everywhere: never references.
var pyBuiltins = toSet(`abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr
classmethod compile complex copyright credits delattr dict dir divmod enumerate eval exec exit filter
float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter
len license list locals map max memoryview min next object oct open ord pow print property quit range
repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__
__name__ __file__ __doc__ __spec__ __loader__ __package__ __builtins__ __debug__ __dict__ __class__
NotImplemented Ellipsis self cls
BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError AttributeError
BlockingIOError BrokenPipeError BufferError ChildProcessError ConnectionAbortedError ConnectionError
ConnectionRefusedError ConnectionResetError EOFError EnvironmentError FileExistsError FileNotFoundError
FloatingPointError GeneratorExit IOError ImportError IndentationError IndexError InterruptedError
IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError
NotADirectoryError NotImplementedError OSError OverflowError PermissionError ProcessLookupError
RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration SyntaxError SystemError
SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError
UnicodeError UnicodeTranslateError ValueError ZeroDivisionError Warning UserWarning DeprecationWarning
PendingDeprecationWarning SyntaxWarning RuntimeWarning FutureWarning ImportWarning UnicodeWarning
BytesWarning ResourceWarning EncodingWarning`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// pyWalker extracts one Python file. Python scopes are per function: a
// name assigned anywhere in a function is local to all of it (unless
// declared global), so each function's bindings are collected before its
// uses are read. Module and class bodies bind nothing for this purpose:
// a use there of a module-level name is a reference the resolver finds in
// the same file.
type pyWalker struct {
	f       *file
	modules map[string]bool // names bound by "import a.b" / "import a.b as c"
	names   map[string]bool // names bound by "from m import x [as y]" at module level
	paths   map[string]bool // dotted paths imported whole ("os.path")
	frames  []*pyFrame
	in      int
	all     map[string]bool // names listed in __all__; nil without one
	// cls is the class whose method body is being walked (self and cls
	// name its instances), nil elsewhere.
	cls *pyClass
	// ptypes, while parameters are read, receives their annotated types.
	ptypes map[string]string
	// modTypes are the types of module-level variables assigned a call
	// or annotated (see pyFrame.types).
	modTypes map[string]string
	// kt numbers the grammar's node kinds (pyKinds).
	kt []pyKind
	// fids are the ids of the fields the walker reads (pyFieldIDs).
	fids [pfCount]uint16
	// assigns holds the self assignments of the classes being walked,
	// the innermost's last (selfAssignments).
	assigns []pySelfAssign
	// spareFrames, spareSets and spareTypes are closed frames and their
	// maps, emptied, for the next frames (push, takeSet, takeTypes).
	spareFrames []*pyFrame
	spareSets   []map[string]bool
	spareTypes  []map[string]string
	// scratch is scratchSet's.
	scratch map[string]bool
	// chains holds the member identifiers of the attribute chains being
	// read (attribute); path is typedChainFrom's buffer.
	chains []*sitter.Node
	path   []byte
}

// pyKind is a node kind the walker tells apart, as a number: read from a
// record's symbol through a table (pyKinds), it costs less to get and to
// switch on than the kind's name.
type pyKind uint8

const (
	pkOther pyKind = iota
	pkAsPattern
	pkAssignment
	pkAttribute
	pkAugmentedAssignment
	pkCall
	pkClassDefinition
	pkComment
	pkDecoratedDefinition
	pkDictionaryComprehension
	pkDottedName
	pkEllipsis
	pkEscapeSequence
	pkExceptClause
	pkExpressionStatement
	pkFalse
	pkFloat
	pkForInClause
	pkForStatement
	pkFunctionDefinition
	pkFutureImportStatement
	pkGeneratorExpression
	pkGlobalStatement
	pkIdentifier
	pkIfStatement
	pkImportFromStatement
	pkImportPrefix
	pkImportStatement
	pkInteger
	pkKeywordArgument
	pkKeywordSeparator
	pkLambda
	pkLambdaParameters
	pkListComprehension
	pkNamedExpression
	pkNone
	pkNonlocalStatement
	pkParameters
	pkPositionalSeparator
	pkReturnStatement
	pkSetComprehension
	pkStringContent
	pkStringEnd
	pkStringStart
	pkTrue
	pkType
	pkWildcardImport
)

// pyKindNames maps the kinds the walker numbers to their pyKind.
var pyKindNames = map[string]pyKind{
	"as_pattern":               pkAsPattern,
	"assignment":               pkAssignment,
	"attribute":                pkAttribute,
	"augmented_assignment":     pkAugmentedAssignment,
	"call":                     pkCall,
	"class_definition":         pkClassDefinition,
	"comment":                  pkComment,
	"decorated_definition":     pkDecoratedDefinition,
	"dictionary_comprehension": pkDictionaryComprehension,
	"dotted_name":              pkDottedName,
	"ellipsis":                 pkEllipsis,
	"escape_sequence":          pkEscapeSequence,
	"except_clause":            pkExceptClause,
	"expression_statement":     pkExpressionStatement,
	"false":                    pkFalse,
	"float":                    pkFloat,
	"for_in_clause":            pkForInClause,
	"for_statement":            pkForStatement,
	"function_definition":      pkFunctionDefinition,
	"future_import_statement":  pkFutureImportStatement,
	"generator_expression":     pkGeneratorExpression,
	"global_statement":         pkGlobalStatement,
	"identifier":               pkIdentifier,
	"if_statement":             pkIfStatement,
	"import_from_statement":    pkImportFromStatement,
	"import_prefix":            pkImportPrefix,
	"import_statement":         pkImportStatement,
	"integer":                  pkInteger,
	"keyword_argument":         pkKeywordArgument,
	"keyword_separator":        pkKeywordSeparator,
	"lambda":                   pkLambda,
	"lambda_parameters":        pkLambdaParameters,
	"list_comprehension":       pkListComprehension,
	"named_expression":         pkNamedExpression,
	"none":                     pkNone,
	"nonlocal_statement":       pkNonlocalStatement,
	"parameters":               pkParameters,
	"positional_separator":     pkPositionalSeparator,
	"return_statement":         pkReturnStatement,
	"set_comprehension":        pkSetComprehension,
	"string_content":           pkStringContent,
	"string_end":               pkStringEnd,
	"string_start":             pkStringStart,
	"true":                     pkTrue,
	"type":                     pkType,
	"wildcard_import":          pkWildcardImport,
}

var pyKindTable struct {
	once sync.Once
	t    []pyKind
}

// pyKinds returns the pyKind of each of the Python grammar's symbols.
func pyKinds(l *language) []pyKind {
	pyKindTable.once.Do(func() {
		t := make([]pyKind, len(l.kinds))
		for i, k := range l.kinds {
			t[i] = pyKindNames[k]
		}
		pyKindTable.t = t
	})
	return pyKindTable.t
}

// pyField numbers the fields the walker reads: their ids in the grammar
// (pyFieldIDs) are looked up once, not by name at each question.
type pyField uint8

const (
	pfAlias pyField = iota
	pfAlternative
	pfArguments
	pfAttribute
	pfBody
	pfCondition
	pfConsequence
	pfDefinition
	pfFunction
	pfLeft
	pfModuleName
	pfName
	pfObject
	pfParameters
	pfReturnType
	pfRight
	pfSuperclasses
	pfType
	pfTypeParameters
	pfValue
	pfCount
)

// pyFieldNames are the pyFields' names, in their order.
var pyFieldNames = [pfCount]string{"alias", "alternative", "arguments", "attribute", "body", "condition",
	"consequence", "definition", "function", "left", "module_name", "name", "object", "parameters",
	"return_type", "right", "superclasses", "type", "type_parameters", "value"}

var pyFieldTable struct {
	once sync.Once
	ids  [pfCount]uint16
}

// pyFieldIDs returns the grammar's ids of the pyFields.
func pyFieldIDs(l *language) [pfCount]uint16 {
	pyFieldTable.once.Do(func() {
		for i, n := range pyFieldNames {
			pyFieldTable.ids[i] = l.fields[n]
		}
	})
	return pyFieldTable.ids
}

// field returns n's first child in field fl, or nil: file.field with the
// field's id at hand.
func (w *pyWalker) field(n *sitter.Node, fl pyField) *sitter.Node {
	return w.f.fieldByID(n, w.fids[fl])
}

// recKind returns the pyKind of a record of the file's tree.
func (w *pyWalker) recKind(r *cRec) pyKind {
	if int(r.symbol) < len(w.kt) {
		return w.kt[r.symbol]
	}
	return pyKindNames[r.node.Kind()]
}

// kindOf returns the pyKind of n.
func (w *pyWalker) kindOf(n *sitter.Node) pyKind { return w.recKind(w.f.rec(n)) }

// pyClass is a class being walked: its qualified name and the types of
// the attributes its methods assign on self.
type pyClass struct {
	qual  string
	attrs map[string]string // attribute → type hint (see pyFrame.types)
}

// pyFrame is a function (or lambda, or comprehension) scope being walked.
// Its bindings are learnt as the walk meets them, so the refs to bare
// names made inside it stay pending until its end, when those naming one
// of its locals are dropped and the rest pass to the enclosing frame.
type pyFrame struct {
	locals  map[string]bool
	globals map[string]bool
	pending []int // indices into Facts.Refs
	// types are what locals hold when the code says so, as a type hint
	// for members selected from them: "T" for an annotation (an instance
	// of T), "T()" for the result of calling T (an instance of class T,
	// or what function T returns). "" when assignments disagree.
	types map[string]string
}

func walkPython(f *file) {
	w := &pyWalker{f: f, modules: map[string]bool{}, paths: map[string]bool{}, names: map[string]bool{},
		kt: pyKinds(f.lang), fids: pyFieldIDs(f.lang)}
	w.all = w.findAll(f.root)
	w.block(f.root, "", 0, true)
	// Drop the refs that frames found to be locals.
	refs := f.facts.Refs[:0]
	for _, r := range f.facts.Refs {
		if r.Name != "" {
			refs = append(refs, r)
		}
	}
	f.facts.Refs = refs
}

// push opens a frame with the given locals (a set from takeSet, which
// pop gives back).
func (w *pyWalker) push(locals map[string]bool) {
	fr := takeSpare(&w.spareFrames, func() *pyFrame { return &pyFrame{} })
	fr.locals = locals
	w.frames = append(w.frames, fr)
}

// takeSet returns an empty set of names, one a closed frame gave back
// when there is one: a frame's locals are keyed by strings over the
// source (keyText), and a function's sets are used and dropped by the
// thousand.
func (w *pyWalker) takeSet() map[string]bool {
	return takeSpare(&w.spareSets, func() map[string]bool { return map[string]bool{} })
}

// takeTypes is takeSet for a frame's types.
func (w *pyWalker) takeTypes() map[string]string {
	return takeSpare(&w.spareTypes, func() map[string]string { return map[string]string{} })
}

// takeSpare takes the last of spares, or a new one when there is none.
func takeSpare[T any](spares *[]T, fresh func() T) T {
	if n := len(*spares); n > 0 {
		t := (*spares)[n-1]
		*spares = (*spares)[:n-1]
		return t
	}
	return fresh()
}

// pop closes the innermost frame: pending refs to its locals are dropped,
// the others pass to the enclosing frame.
func (w *pyWalker) pop() {
	fr := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	var up *pyFrame
	if len(w.frames) > 0 {
		up = w.frames[len(w.frames)-1]
	}
	refs := w.f.facts.Refs
	for _, i := range fr.pending {
		if fr.locals[refs[i].Name] && !fr.globals[refs[i].Name] {
			refs[i].Name = ""
		} else if up != nil {
			up.pending = append(up.pending, i)
		}
	}
	clear(fr.locals)
	w.spareSets = append(w.spareSets, fr.locals)
	if fr.types != nil {
		clear(fr.types)
		w.spareTypes = append(w.spareTypes, fr.types)
	}
	*fr = pyFrame{pending: fr.pending[:0]}
	w.spareFrames = append(w.spareFrames, fr)
}

// bindLocal binds name in the innermost frame (unless declared global).
func (w *pyWalker) bindLocal(name string) {
	if len(w.frames) == 0 {
		return
	}
	fr := w.frames[len(w.frames)-1]
	if !fr.globals[name] {
		fr.locals[name] = true
	}
}

// bindTargets binds the names of an assignment target in the innermost
// frame and records the uses in it.
func (w *pyWalker) bindTargets(p *sitter.Node) {
	if len(w.frames) == 0 {
		w.targets(p)
		return
	}
	fr := w.frames[len(w.frames)-1]
	if w.kindOf(p) == pkIdentifier {
		// one name, the most common target: no set
		if name := w.f.keyText(p); fr.globals[name] {
			w.f.ref(world.Ref{Name: w.f.text(p), Line: line(p), In: w.in, Kind: world.RefValue})
		} else {
			fr.locals[name] = true
		}
		return
	}
	set := w.scratchSet()
	w.bindPattern(p, set)
	for name := range set {
		if fr.globals[name] {
			w.f.ref(world.Ref{Name: strings.Clone(name), Line: line(p), In: w.in, Kind: world.RefValue})
		} else {
			fr.locals[name] = true
		}
	}
	w.targets(p)
}

// scratchSet returns the walker's set for the names of one assignment
// target, emptied; its user is done with it before anything else can ask.
func (w *pyWalker) scratchSet() map[string]bool {
	if w.scratch == nil {
		w.scratch = map[string]bool{}
	}
	clear(w.scratch)
	return w.scratch
}

// findAll reads the module's __all__ list of names, if any.
func (w *pyWalker) findAll(root *sitter.Node) map[string]bool {
	f := w.f
	var all map[string]bool
	for r := range f.childRecs(root) {
		if !f.recNamed(r) {
			continue
		}
		st := &r.node
		if f.kind(st) != "expression_statement" || f.namedCount(st) == 0 {
			continue
		}
		a := f.namedChild(st, 0)
		if f.kind(a) != "assignment" && f.kind(a) != "augmented_assignment" {
			continue
		}
		left, right := w.field(a, pfLeft), w.field(a, pfRight)
		if left == nil || right == nil || !f.textIs(left, "__all__") {
			continue
		}
		if all == nil {
			all = map[string]bool{}
		}
		f.walk(right, func(n *sitter.Node) bool {
			if f.kind(n) == "string_content" {
				all[f.text(n)] = true
			}
			return true
		})
	}
	return all
}

// exported says whether a name is public: listed in __all__ when the
// module has one (for top-level names), else not starting with "_"
// (dunder names such as __init__ are public).
func (w *pyWalker) exported(name string, top bool) bool {
	if top && w.all != nil {
		return w.all[name]
	}
	return !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// block handles the statements of a module or class body (or of an
// if/try/with/else at that level): definitions, imports, and refs. parent
// is the enclosing class's qualified name ("" at module level).
func (w *pyWalker) block(n *sitter.Node, parent string, parentIdx int, top bool) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	first := true
	ks := f.kids(n)
	for i := range ks {
		k := &ks[i]
		st := k.n
		w.in = parentIdx
		switch k.kind {
		case "comment":
			f.commentAt(ks, i)
			continue
		case "function_definition", "class_definition":
			w.definition(st, st, nil, parent, parentIdx, top)
		case "decorated_definition":
			def := w.field(st, pfDefinition)
			m := len(f.stack)
			var decos []*sitter.Node
			for _, c := range f.kids(st) {
				if c.kind == "decorator" {
					c := c
					decos = append(decos, c.n)
				}
			}
			if def != nil {
				w.definition(st, def, decos, parent, parentIdx, top)
			} else {
				for _, d := range decos {
					w.uses(d)
				}
			}
			f.release(m)
		case "import_statement", "import_from_statement", "future_import_statement":
			w.importStmt(st)
		case "expression_statement":
			if first && w.docstring(st) {
				break
			}
			w.assignment(st, parent, parentIdx, top)
		case "if_statement", "try_statement", "with_statement", "elif_clause", "else_clause",
			"except_clause", "finally_clause", "block":
			if k.kind == "if_statement" && w.isMainGuard(st) {
				if body := w.field(st, pfConsequence); body != nil {
					w.elideBlock(body)
				}
				w.uses(st)
				break
			}
			w.compound(st, parent, parentIdx, top)
		case "ERROR":
			w.block(st, parent, parentIdx, top)
		default:
			w.uses(st)
			if w.f.endLine(st)-line(st) >= 3 {
				w.elideRest(st)
			}
		}
		first = false
	}
}

// compound handles an if/try/with at module or class level: its
// conditions are uses and its blocks are read like the level around it.
func (w *pyWalker) compound(n *sitter.Node, parent string, parentIdx int, top bool) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	cks := f.kids(n)
	for i := range cks {
		c := &cks[i]
		switch c.kind {
		case "block":
			w.block(c.n, parent, parentIdx, top)
		case "elif_clause", "else_clause", "except_clause", "finally_clause":
			w.compound(c.n, parent, parentIdx, top)
		case "comment":
			f.commentAt(cks, i)
		default:
			if c.named {
				w.uses(c.n)
			}
		}
	}
}

// isMainGuard reports whether an if statement is `if __name__ == "__main__":`.
func (w *pyWalker) isMainGuard(n *sitter.Node) bool {
	c := w.field(n, pfCondition)
	return c != nil && strings.Contains(w.f.keyText(c), "__name__") && strings.Contains(w.f.keyText(c), "__main__")
}

// docstring reports whether st is a docstring (a lone string statement)
// and if so keeps only its first line in the skeleton.
func (w *pyWalker) docstring(st *sitter.Node) bool {
	f := w.f
	if f.namedCount(st) != 1 {
		return false
	}
	s := f.namedChild(st, 0)
	if k := f.kind(s); k != "string" && k != "concatenated_string" {
		return false
	}
	w.trimDocstring(s)
	return true
}

// docOf returns the first line of the docstring of a body block.
func (w *pyWalker) docOf(body *sitter.Node) string {
	f := w.f
	if body == nil {
		return ""
	}
	st := f.namedChild(body, 0)
	if st == nil || f.kind(st) != "expression_statement" || f.namedCount(st) != 1 {
		return ""
	}
	s := f.namedChild(st, 0)
	if f.kind(s) != "string" {
		return ""
	}
	t := strings.TrimLeft(f.keyText(s), "rRbBuUfF")
	t = strings.Trim(t, `"'`)
	return strings.Clone(docLine(t)) // a fact's: not over the source
}

// trimDocstring cuts a multi-line string after its first line with text,
// closing it again with its own quotes.
func (w *pyWalker) trimDocstring(s *sitter.Node) {
	f := w.f
	t := f.keyText(s)
	q := strings.TrimLeft(t, "rRbBuUfF")
	quote := `"""`
	if strings.HasPrefix(q, "'''") {
		quote = "'''"
	} else if !strings.HasPrefix(q, `"""`) {
		return
	}
	start := startByte(s)
	pos := 0
	for {
		i := strings.IndexByte(t[pos:], '\n')
		if i < 0 {
			return
		}
		if l := strings.Trim(strings.TrimSpace(t[pos:pos+i]), `"'rRbBuUfF`); l != "" {
			f.elide(start+uint(pos+i), w.f.endByte(s), " …"+quote)
			return
		}
		pos += i + 1
	}
}

// elideBlock replaces a block (a body) by "...  # lines a-b", after its
// docstring when it has one.
func (w *pyWalker) elideBlock(body *sitter.Node) {
	f := w.f
	from := body
	if st := f.namedChild(body, 0); st != nil && f.kind(st) == "expression_statement" && w.isDocString(st) {
		w.trimDocstring(f.namedChild(st, 0))
		from = w.f.nextNamed(st)
		for from != nil && f.kind(from) == "comment" {
			from = w.f.nextNamed(from)
		}
		if from == nil {
			return
		}
	}
	start, end := line(from), w.f.endLine(body)
	var marker string
	if start == end {
		marker = "...  # line " + itoa(start)
		if w.f.endByte(body)-startByte(from) <= uint(len(marker)) {
			return
		}
	} else {
		marker = "...  # lines " + itoa(start) + "-" + itoa(end)
	}
	f.elide(startByte(from), w.f.endByte(body), marker)
}

func (w *pyWalker) isDocString(st *sitter.Node) bool {
	if w.f.namedCount(st) != 1 {
		return false
	}
	k := w.f.kind(w.f.namedChild(st, 0))
	return k == "string"
}

// elideRest cuts a long statement after its first line.
func (w *pyWalker) elideRest(st *sitter.Node) {
	f := w.f
	i := strings.IndexByte(f.keyText(st), '\n')
	if i < 0 {
		return
	}
	f.elide(startByte(st)+uint(i), w.f.endByte(st), " …  # lines "+itoa(line(st))+"-"+itoa(w.f.endLine(st)))
}

// definition handles a function or class definition at module or class
// level (outer is the decorated_definition when there are decorators).
func (w *pyWalker) definition(outer, def *sitter.Node, decos []*sitter.Node, parent string, parentIdx int, top bool) {
	f := w.f
	nameNode, body := w.field(def, pfName), w.field(def, pfBody)
	if nameNode == nil {
		for _, d := range decos {
			w.uses(d)
		}
		w.uses(def)
		return
	}
	name := f.text(nameNode)
	qual := name
	if parent != "" {
		qual = parent + "." + name
	}
	d := world.Def{Name: name, Qualified: qual, Parent: parent, Start: line(outer), End: w.f.endLine(outer),
		Signature: strings.TrimSuffix(f.signature(def, body), ":"),
		Exported:  w.exported(name, top), Doc: w.docOf(body)}
	if parent != "" && w.all == nil {
		d.Exported = w.exported(name, false)
	}
	isClass := f.kind(def) == "class_definition"
	switch {
	case isClass:
		d.Kind = world.KindClass
	case parent != "":
		d.Kind = world.KindMethod
		for _, dec := range decos {
			if t := strings.TrimSpace(strings.TrimPrefix(f.text(dec), "@")); t == "property" || strings.HasSuffix(t, "cached_property") {
				d.Kind = world.KindProperty
			}
		}
	default:
		d.Kind = world.KindFunction
	}
	if !isClass {
		d.Returns = w.returns(def, body, parent)
	} else if sc := w.field(def, pfSuperclasses); sc != nil {
		d.Returns = w.bases(sc)
	}
	idx := f.def(d)
	w.in = idx
	for _, dec := range decos {
		w.uses(dec)
	}
	if isClass {
		if tp := w.field(def, pfTypeParameters); tp != nil {
			w.typeUses(tp)
		}
		if sc := w.field(def, pfSuperclasses); sc != nil {
			w.superclasses(sc)
		}
		if body != nil {
			outerCls := w.cls
			mark := len(w.assigns)
			w.selfAssignments(body)
			end := len(w.assigns)
			w.cls = &pyClass{qual: qual, attrs: w.selfAttrs(body, w.assigns[mark:end])}
			w.block(body, qual, idx, false) // nested classes' assignments come after end, and go
			w.instanceAttrs(w.assigns[mark:end], qual, idx)
			clear(w.assigns[mark:end]) // keep no nodes of this file
			w.assigns = w.assigns[:mark]
			w.cls = outerCls
		}
		return
	}
	if strings.HasPrefix(name, "test") || w.isFixture(decos) {
		w.fixtureParams(def)
	}
	if parent == "" && len(w.frames) == 0 && len(decos) > 0 {
		// @group() def cli(): cli is what the outermost decorator gives
		if h := w.decoratedHint(decos[0]); h != "" {
			if w.modTypes == nil {
				w.modTypes = map[string]string{}
			}
			w.modTypes[name] = h
		}
	}
	outerCls := w.cls
	if parent == "" || w.cls == nil || w.cls.qual != parent {
		w.cls = nil // self means nothing in a plain function
	}
	w.function(def, body)
	w.cls = outerCls
	if body != nil {
		w.elideBlock(body)
	}
}

// isFixture reports whether a decorator names a fixture (@pytest.fixture,
// @fixture(scope=…), @pytest_asyncio.fixture).
func (w *pyWalker) isFixture(decos []*sitter.Node) bool {
	for _, d := range decos {
		t := w.f.text(d)
		if i := strings.IndexByte(t, '('); i >= 0 {
			t = t[:i]
		}
		if strings.Contains(t, "fixture") {
			return true
		}
	}
	return false
}

// fixtureParams records the parameters of a test or fixture as fixture
// refs: pytest fills each with the fixture of that name.
func (w *pyWalker) fixtureParams(def *sitter.Node) {
	f := w.f
	ps := w.field(def, pfParameters)
	if ps == nil {
		return
	}
	for r := range f.childRecs(ps) {
		if !f.recNamed(r) {
			continue
		}
		p := &r.node
		var nm *sitter.Node
		switch f.kind(p) {
		case "identifier":
			nm = p
		case "typed_parameter":
			if c := f.namedChild(p, 0); c != nil && f.kind(c) == "identifier" {
				nm = c
			}
		}
		if nm == nil {
			continue
		}
		if n := f.text(nm); n != "self" && n != "cls" {
			f.ref(world.Ref{Name: n, Line: line(nm), In: w.in, Kind: world.RefFixture})
		}
	}
}

// superclasses records base classes as type refs and keyword arguments
// (metaclass=M) as uses.
func (w *pyWalker) superclasses(sc *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(sc) {
		switch c.kind {
		case "identifier":
			w.name(c.n, world.RefType)
		case "attribute":
			w.attribute(c.n, world.RefType)
		default:
			if c.named {
				w.uses(c.n)
			}
		}
	}
}

// function records the refs of a function (or lambda): parameter defaults
// and annotations in the enclosing scope, the body in its own.
func (w *pyWalker) function(def, body *sitter.Node) {
	f := w.f
	params := w.field(def, pfParameters)
	locals := w.takeSet()
	types := w.takeTypes()
	if params != nil {
		w.ptypes = types
		w.params(params, locals)
		w.ptypes = nil
	}
	if rt := w.field(def, pfReturnType); rt != nil {
		w.typeUses(rt)
	}
	if tp := w.field(def, pfTypeParameters); tp != nil {
		f.walk(tp, func(n *sitter.Node) bool {
			if f.kind(n) == "identifier" {
				locals[f.keyText(n)] = true
			}
			return true
		})
	}
	if body == nil {
		clear(locals)
		clear(types)
		w.spareSets = append(w.spareSets, locals)
		w.spareTypes = append(w.spareTypes, types)
		return
	}
	w.push(locals)
	w.frames[len(w.frames)-1].types = types
	w.uses(body)
	w.pop()
}

// params binds parameter names into locals and records the refs of their
// annotations and defaults.
func (w *pyWalker) params(ps *sitter.Node, locals map[string]bool) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(ps) {
		p := c.n
		switch c.kind {
		case "identifier":
			locals[f.keyText(p)] = true
		case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern":
			for r := range f.childRecs(p) {
				if !f.recNamed(r) {
					continue
				}
				ch := &r.node
				switch f.kind(ch) {
				case "identifier":
					locals[f.keyText(ch)] = true
				case "list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern":
					w.bindPattern(ch, locals)
				}
			}
			if t := w.field(p, pfType); t != nil {
				w.typeUses(t)
				if nm := f.namedChild(p, 0); nm != nil && f.kind(nm) == "identifier" && c.kind == "typed_parameter" {
					w.paramType(f.text(nm), t)
				}
			}
		case "default_parameter", "typed_default_parameter":
			if nm := w.field(p, pfName); nm != nil {
				w.bindPattern(nm, locals)
			}
			if t := w.field(p, pfType); t != nil {
				w.typeUses(t)
				if nm := w.field(p, pfName); nm != nil && f.kind(nm) == "identifier" {
					w.paramType(f.text(nm), t)
				}
			}
			if v := w.field(p, pfValue); v != nil {
				w.uses(v)
			}
		}
	}
}

// bindPattern binds the identifiers of an assignment target (not those
// under attributes or subscripts, which are uses).
func (w *pyWalker) bindPattern(p *sitter.Node, locals map[string]bool) {
	f := w.f
	switch f.kind(p) {
	case "identifier":
		locals[f.keyText(p)] = true // keys over the source: see bindTargets, assignment
	case "pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "dictionary_splat_pattern",
		"expression_list", "tuple", "list", "parenthesized_expression", "list_splat", "as_pattern_target":
		for r := range f.childRecs(p) {
			if f.recNamed(r) {
				w.bindPattern(&r.node, locals)
			}
		}
	}
}

// importBindings binds the names an import inside a function makes.
func (w *pyWalker) importBindings(n *sitter.Node, locals map[string]bool) {
	f := w.f
	from := f.kind(n) == "import_from_statement"
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(n) {
		if c.field != w.fids[pfName] {
			continue
		}
		switch c.kind {
		case "aliased_import":
			if a := w.field(c.n, pfAlias); a != nil {
				locals[f.keyText(a)] = true
			}
		case "dotted_name":
			t := f.keyText(c.n)
			if !from {
				t, _, _ = strings.Cut(t, ".")
			}
			locals[t] = true
		}
	}
}

// bound reports whether name is a local of an enclosing function.
func (w *pyWalker) bound(name string) bool {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].locals[name] {
			return true
		}
	}
	return false
}

// name records a bare identifier use unless it is local, a builtin or an
// imported module.
func (w *pyWalker) name(n *sitter.Node, kind string) {
	f := w.f
	key := f.keyText(n)
	if w.modules[key] || w.bound(key) || pyBuiltins[key] {
		return
	}
	f.ref(world.Ref{Name: f.text(n), Line: line(n), In: w.in, Kind: kind})
	if len(w.frames) > 0 {
		fr := w.frames[len(w.frames)-1]
		fr.pending = append(fr.pending, len(f.facts.Refs)-1)
	}
}

// attribute records a.b.c: with a an imported module, a qualified ref
// (Qual the longest imported dotted path) and member refs for the rest;
// otherwise a use of a and member refs qualified by it.
func (w *pyWalker) attribute(n *sitter.Node, kind string) {
	// The chain's identifiers go on w.chains, as a stack: the uses of
	// the receiver may read attributes of their own.
	mark := len(w.chains)
	obj := n
	for w.kindOf(obj) == pkAttribute {
		if a := w.field(obj, pfAttribute); a != nil {
			w.chains = append(w.chains, a)
		}
		o := w.field(obj, pfObject)
		if o == nil {
			w.chains = w.chains[:mark]
			return
		}
		obj = o
	}
	chain := w.chains[mark:len(w.chains):len(w.chains)]
	// chain is outermost first; reverse to source order.
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	w.members(obj, chain, kind)
	w.chains = w.chains[:mark]
}

// members records the refs of an attribute chain (see attribute): obj
// the receiver, chain the member identifiers in source order.
func (w *pyWalker) members(obj *sitter.Node, chain []*sitter.Node, kind string) {
	f := w.f
	if w.kindOf(obj) != pkIdentifier {
		w.uses(obj)
		if h := w.valueHint(obj, 0); h != "" && len(chain) > 0 && !w.isSuper(obj) {
			// T().m, f().m: members of what the call gives
			w.typedChain("", h, chain)
			return
		}
		if w.isSuper(obj) && len(chain) > 0 {
			// super().m: m as the bases of the enclosing class declare it
			f.ref(world.Ref{Name: f.text(chain[0]), Qual: "super:" + w.cls.qual + "^", Line: line(chain[0]), In: w.in, Kind: world.RefMember})
			chain = chain[1:]
		}
		for _, a := range chain {
			f.ref(world.Ref{Name: f.text(a), Line: line(a), In: w.in, Kind: world.RefMember})
		}
		return
	}
	root := f.keyText(obj) // copied where it goes into a fact
	if w.modules[root] && len(chain) > 0 {
		qual := f.text(obj)
		i := 0
		for i < len(chain)-1 && w.paths[qual+"."+f.text(chain[i])] {
			qual += "." + f.text(chain[i])
			i++
		}
		k := world.RefValue
		if i == len(chain)-1 {
			k = kind
		}
		f.ref(world.Ref{Name: f.text(chain[i]), Qual: qual, Line: line(chain[i]), In: w.in, Kind: k})
		// the members after it are qualified by the chain so far
		// (mod.Class.member, pkg.sub.name)
		for _, a := range chain[i+1:] {
			qual += "." + f.text(chain[i])
			i++
			f.ref(world.Ref{Name: f.text(a), Qual: qual, Line: line(a), In: w.in, Kind: world.RefMember})
		}
		return
	}
	w.name(obj, world.RefValue)
	if h := w.typeOf(root); h != "" && len(chain) > 0 {
		w.typedChain(root, h, chain)
		return
	}
	if w.names[root] && !w.bound(root) && len(chain) > 0 {
		// x.Y where x came from "from m import x": x may be a module or a
		// class; either way Y is qualified by the imported name.
		// The resolver also tries x as a class or a variable of a known
		// type ("x:x"): Y is then looked up in the class and its bases.
		k := world.RefValue
		if len(chain) == 1 {
			k = kind
		}
		f.ref(world.Ref{Name: f.text(chain[0]), Qual: root + ":" + root, Line: line(chain[0]), In: w.in, Kind: k})
		if len(chain) > 1 {
			w.typedChainFrom(root, root, chain, 1)
		}
		return
	}
	qual := f.text(obj)
	for _, a := range chain {
		f.ref(world.Ref{Name: f.text(a), Qual: qual, Line: line(a), In: w.in, Kind: world.RefMember})
	}
}

// typedChain records the members of a receiver whose type the code says
// (hint h): the resolver looks each member up in that class and its
// bases ("v:T" qualifiers), the next one in what the previous member is
// declared to hold or return. root is the receiver as written ("" for a
// call).
func (w *pyWalker) typedChain(root, h string, chain []*sitter.Node) {
	w.typedChainFrom(root, h, chain, 0)
}

// typedChainFrom is typedChain for the members of chain from index
// from on.
func (w *pyWalker) typedChainFrom(root, h string, chain []*sitter.Node, from int) {
	f := w.f
	// root may be over the source (keyText): it goes into facts copied.
	// The path so far is built in w.path, and copied when it goes into a
	// qualifier.
	path := append(w.path[:0], root...)
	for _, a := range chain[:from] {
		path = append(append(path, '.'), f.bytes(a)...)
	}
	for k, a := range chain {
		if k < from {
			continue
		}
		var q string
		switch {
		case k == 0:
		case k == 1 && w.isSelf(root) && w.cls.attrs[f.keyText(chain[0])] != "":
			h = w.cls.attrs[f.keyText(chain[0])]
		case k <= 3:
			// what the previous member is declared to hold or return
			h += "#" + f.keyText(chain[k-1])
		default:
			h = ""
		}
		if h != "" {
			q = string(path) + ":" + h
		} else {
			q = strings.Clone(root)
		}
		path = append(append(path, '.'), f.bytes(a)...)
		f.ref(world.Ref{Name: f.text(a), Qual: q, Line: line(a), In: w.in, Kind: world.RefMember})
	}
	w.path = path
}

// typeUses records the refs of an annotation: names are type refs.
func (w *pyWalker) typeUses(n *sitter.Node) {
	f := w.f
	switch f.kind(n) {
	case "identifier":
		w.name(n, world.RefType)
		return
	case "attribute":
		w.attribute(n, world.RefType)
		return
	case "string", "comment":
		return
	}
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(n) {
		if c.named {
			w.typeUses(c.n)
		}
	}
}

// uses records the refs of any expression or statement.
func (w *pyWalker) uses(n *sitter.Node) { w.usesK(n, w.kindOf(n)) }

// usesK is uses for a node whose kind is known.
func (w *pyWalker) usesK(n *sitter.Node, k pyKind) {
	f := w.f
	switch k {
	case pkIdentifier:
		w.name(n, world.RefValue)
		return
	case pkAttribute:
		w.attribute(n, world.RefValue)
		return
	case pkCall:
		fn := w.field(n, pfFunction)
		if fn != nil {
			switch w.kindOf(fn) {
			case pkIdentifier:
				w.name(fn, world.RefCall)
			case pkAttribute:
				w.attribute(fn, world.RefCall)
			default:
				w.uses(fn)
			}
		}
		if a := w.field(n, pfArguments); a != nil {
			w.uses(a)
			if fn != nil {
				w.keywords(fn, a)
			}
		}
		return
	case pkKeywordArgument:
		if v := w.field(n, pfValue); v != nil {
			w.uses(v)
		}
		return
	case pkType:
		w.typeUses(n)
		return
	case pkStringContent, pkEscapeSequence, pkComment, pkInteger, pkFloat, pkTrue, pkFalse, pkNone,
		pkEllipsis, pkStringStart, pkStringEnd, pkKeywordSeparator, pkPositionalSeparator, pkWildcardImport,
		pkImportPrefix, pkDottedName:
		return
	case pkFunctionDefinition, pkClassDefinition, pkDecoratedDefinition:
		w.nestedDef(n)
		return
	case pkLambda:
		w.function(n, w.field(n, pfBody))
		return
	case pkListComprehension, pkSetComprehension, pkDictionaryComprehension, pkGeneratorExpression:
		// Its for clauses' names (and those of the comprehensions nested
		// in it) are its locals.
		locals := w.takeSet()
		recs := f.recs
		i := f.at(n)
		for j, end := i, int(recs[i].after); j < end; j++ {
			if w.recKind(&recs[j]) == pkForInClause {
				if l := w.field(&recs[j].node, pfLeft); l != nil {
					w.bindPattern(l, locals)
				}
			}
		}
		w.push(locals)
		fr := w.frames[len(w.frames)-1]
		for c := range f.childRecs(n) {
			// the clauses of this comprehension, not of nested ones
			if w.recKind(c) == pkForInClause {
				if l, r := w.field(&c.node, pfLeft), w.field(&c.node, pfRight); l != nil && r != nil {
					w.loopTypes(fr, l, r)
				}
			}
		}
		w.children(n)
		w.pop()
		return
	case pkImportStatement, pkImportFromStatement, pkFutureImportStatement:
		w.importStmt(n)
		if len(w.frames) > 0 {
			w.importBindings(n, w.frames[len(w.frames)-1].locals)
		}
		return
	case pkAssignment, pkAugmentedAssignment:
		if t := w.field(n, pfType); t != nil {
			w.typeUses(t)
		}
		if r := w.field(n, pfRight); r != nil {
			w.uses(r)
		}
		if l := w.field(n, pfLeft); l != nil {
			w.bindTargets(l)
			if k == pkAssignment && f.kind(l) == "identifier" && len(w.frames) > 0 {
				fr := w.frames[len(w.frames)-1]
				if fr.types == nil {
					fr.types = w.takeTypes()
				}
				fr.types[f.keyText(l)] = w.hintOf(n) // the latest assignment decides
			}
		}
		return
	case pkIfStatement:
		if name, t := w.isinstanceOf(w.field(n, pfCondition)); name != "" && len(w.frames) > 0 {
			// if isinstance(v, T): v is a T in the block
			fr := w.frames[len(w.frames)-1]
			if fr.locals[name] {
				old, had := fr.types[name]
				if fr.types == nil {
					fr.types = w.takeTypes()
				}
				mark := len(f.stack)
				defer f.release(mark)
				for _, c := range f.kids(n) {
					if !c.named {
						continue
					}
					if c.field == w.fids[pfConsequence] {
						fr.types[name] = t
						w.uses(c.n)
						if had {
							fr.types[name] = old
						} else {
							delete(fr.types, name)
						}
						continue
					}
					w.uses(c.n)
				}
				return
			}
		}
	case pkForStatement:
		r, l := w.field(n, pfRight), w.field(n, pfLeft)
		if r != nil {
			w.uses(r)
		}
		if l != nil {
			w.bindTargets(l)
			if r != nil && len(w.frames) > 0 {
				w.loopTypes(w.frames[len(w.frames)-1], l, r)
			}
		}
		for _, fl := range [...]pyField{pfBody, pfAlternative} {
			if b := w.field(n, fl); b != nil {
				w.uses(b)
			}
		}
		return
	case pkAsPattern, pkExceptClause:
		mark := len(f.stack)
		var value *sitter.Node
		for _, c := range f.kids(n) {
			if !c.named {
				continue
			}
			if c.field == w.fids[pfAlias] {
				if len(w.frames) > 0 {
					w.bindTargets(c.n)
				}
				if value != nil {
					w.asType(n, k, value, c.n)
				}
				continue
			}
			if value == nil {
				value = c.n
			}
			w.uses(c.n)
		}
		f.release(mark)
		return
	case pkNamedExpression:
		if v := w.field(n, pfValue); v != nil {
			w.uses(v)
		}
		if nm := w.field(n, pfName); nm != nil {
			w.bindLocal(f.keyText(nm))
		}
		return
	case pkGlobalStatement, pkNonlocalStatement:
		if len(w.frames) > 0 {
			fr := w.frames[len(w.frames)-1]
			for r := range f.childRecs(n) {
				if !f.recNamed(r) {
					continue
				}
				name := f.keyText(&r.node)
				if k == pkGlobalStatement {
					if fr.globals == nil {
						fr.globals = map[string]bool{}
					}
					fr.globals[name] = true
					delete(fr.locals, name)
				} else {
					fr.locals[name] = true
				}
			}
		}
		return
	case pkParameters, pkLambdaParameters:
		return
	}
	w.children(n)
}

// targets records the uses inside an assignment target: bare names are
// bindings (local, or module-level definitions), attributes and
// subscripts read their objects.
func (w *pyWalker) targets(n *sitter.Node) {
	f := w.f
	switch f.kind(n) {
	case "identifier":
		return // a binding (bindTargets records it)
	case "attribute", "subscript":
		w.uses(n)
		return
	}
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(n) {
		if c.named {
			w.targets(c.n)
		}
	}
}

// children reads the uses in n's named children.
func (w *pyWalker) children(n *sitter.Node) {
	// Read straight from the tree dump, not through kids' copies: every
	// expression the walker does not know is read so.
	f := w.f
	for r := range f.childRecs(n) {
		if f.recNamed(r) {
			w.usesK(&r.node, w.recKind(r))
		}
	}
}

// nestedDef handles a function or class defined inside a function body:
// not a definition of the file's API, but a scope whose refs count.
func (w *pyWalker) nestedDef(n *sitter.Node) {
	f := w.f
	def := n
	hint := ""
	if f.kind(n) == "decorated_definition" {
		mark := len(f.stack)
		first := true
		for _, c := range f.kids(n) {
			if c.kind == "decorator" {
				w.uses(c.n)
				if first {
					// @group() def cli(): cli is what the outermost
					// decorator gives
					hint, first = w.decoratedHint(c.n), false
				}
			}
		}
		f.release(mark)
		def = w.field(n, pfDefinition)
		if def == nil {
			return
		}
	}
	if nm := w.field(def, pfName); nm != nil {
		w.bindLocal(f.keyText(nm))
		if len(w.frames) > 0 && f.kind(def) == "function_definition" {
			if fr := w.frames[len(w.frames)-1]; fr.locals[f.keyText(nm)] {
				if fr.types == nil {
					fr.types = w.takeTypes()
				}
				fr.types[f.keyText(nm)] = hint
			}
		}
	}
	body := w.field(def, pfBody)
	if f.kind(def) == "class_definition" {
		if sc := w.field(def, pfSuperclasses); sc != nil {
			w.superclasses(sc)
		}
		if body != nil {
			outer := w.cls
			w.cls = nil // a class of a function body: not a definition the resolver sees
			w.uses(body)
			w.cls = outer
		}
		return
	}
	w.function(def, body)
}

// assignment handles an expression statement at module or class level:
// assignments define variables (module) or fields (class); long values
// are elided from the skeleton.
func (w *pyWalker) assignment(st *sitter.Node, parent string, parentIdx int, top bool) {
	f := w.f
	a := f.namedChild(st, 0)
	if a == nil || f.kind(a) != "assignment" {
		w.uses(st)
		if w.f.endLine(st)-line(st) >= 3 {
			w.elideRest(st)
		}
		return
	}
	left, right, typ := w.field(a, pfLeft), w.field(a, pfRight), w.field(a, pfType)
	var names []string
	if left != nil {
		if f.kind(left) == "identifier" {
			names = []string{f.text(left)}
		} else {
			set := w.scratchSet()
			w.bindPattern(left, set)
			for n := range set {
				names = append(names, strings.Clone(n)) // a fact's: not over the source
			}
			sortStrings(names)
		}
	}
	// The signature is the assignment on one line, cut before its value
	// when that is long or takes more than a line (a value spread over
	// lines is not folded only to be cut).
	t := f.keyText(a)
	var sig string
	if right != nil && line(right) != w.f.endLine(right) {
		sig = foldSpace(t[:startByte(right)-startByte(a)]) + " …"
	} else if sig = foldSpace(t); right != nil && len(sig) > 120 {
		sig = foldSpace(t[:startByte(right)-startByte(a)]) + " …"
	} else {
		sig = strings.Clone(sig) // a fact's: not over the source
	}
	if parent == "" && len(w.frames) == 0 && left != nil && f.kind(left) == "identifier" {
		if w.modTypes == nil {
			w.modTypes = map[string]string{}
		}
		w.modTypes[f.keyText(left)] = w.hintOf(a)
	}
	first := 0
	for _, name := range names {
		d := world.Def{Name: name, Qualified: name, Start: line(st), End: w.f.endLine(st), Signature: sig,
			Exported: w.exported(name, top)}
		if parent != "" {
			d.Kind, d.Parent, d.Qualified = world.KindField, parent, parent+"."+name
			if w.all == nil || !top {
				d.Exported = w.exported(name, false)
			}
		} else if isUpperName(name) {
			d.Kind = world.KindConst
		} else {
			d.Kind = world.KindVar
		}
		if len(names) == 1 && f.kind(left) == "identifier" {
			d.Returns = w.hintOf(a) // what it holds, when the code says
		}
		if i := f.def(d); first == 0 {
			first = i
		}
	}
	if first != 0 {
		w.in = first
	}
	if typ != nil {
		w.typeUses(typ)
	}
	if left != nil {
		w.targets(left)
	}
	if right != nil {
		w.uses(right)
		if w.f.endLine(right)-line(right) >= 2 {
			f.elide(startByte(right), w.f.endByte(right), "…  # lines "+itoa(line(right))+"-"+itoa(w.f.endLine(right)))
		}
	}
	w.in = parentIdx
}

func isUpperName(s string) bool {
	hasUpper := false
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			hasUpper = true
		case r == '_' || r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return hasUpper
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// importStmt records an import statement and binds module names.
func (w *pyWalker) importStmt(n *sitter.Node) {
	f := w.f
	mark := len(f.stack)
	defer f.release(mark)
	ln := line(n)
	switch f.kind(n) {
	case "import_statement":
		for _, c := range f.kids(n) {
			if c.field != w.fids[pfName] {
				continue
			}
			switch c.kind {
			case "dotted_name":
				p := f.text(c.n)
				f.imp(world.Import{Path: p, Line: ln})
				root, _, _ := strings.Cut(p, ".")
				w.bindModule(root, p)
			case "aliased_import":
				nm, al := w.field(c.n, pfName), w.field(c.n, pfAlias)
				if nm == nil || al == nil {
					continue
				}
				f.imp(world.Import{Path: f.text(nm), Alias: f.text(al), Line: ln})
				w.bindModule(f.text(al), f.text(al))
			}
		}
	case "import_from_statement", "future_import_statement":
		path := "__future__"
		if m := w.field(n, pfModuleName); m != nil {
			path = strings.Join(strings.Fields(f.text(m)), "")
		}
		plain := world.Import{Path: path, Line: ln}
		var aliased []world.Import
		star := false
		for _, c := range f.kids(n) {
			switch {
			case c.kind == "wildcard_import":
				star = true
			case c.field != w.fids[pfName]:
			case c.kind == "dotted_name":
				plain.Names = append(plain.Names, f.text(c.n))
				if len(w.frames) == 0 {
					w.names[f.text(c.n)] = true
				}
			case c.kind == "aliased_import":
				nm, al := w.field(c.n, pfName), w.field(c.n, pfAlias)
				if nm != nil && al != nil {
					aliased = append(aliased, world.Import{Path: path, Names: []string{f.text(nm)}, Alias: f.text(al), Line: ln})
					if len(w.frames) == 0 {
						w.names[f.text(al)] = true
					}
				}
			}
		}
		if star {
			plain.Alias = "*"
		}
		if star || len(plain.Names) > 0 || len(aliased) == 0 {
			f.imp(plain)
		}
		for _, a := range aliased {
			f.imp(a)
		}
	}
}

// bindModule records that name refers to an imported module (unless a
// function imports it, then it is a local anyway) and path is importable.
func (w *pyWalker) bindModule(name, path string) {
	w.modules[name] = true
	for p := path; p != ""; {
		w.paths[p] = true
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
}

// returns names the type a function returns when the code says so: its
// return annotation ("-> Client", "-> 'Client'", "-> models.Client"),
// else the class its first return statement constructs
// ("return Client(...)"); "" otherwise.
func (w *pyWalker) returns(def, body *sitter.Node, class string) string {
	f := w.f
	if rt := w.field(def, pfReturnType); rt != nil {
		t := pyAnnotType(f.text(rt))
		if class != "" && (t == "Self" || strings.HasSuffix(t, ".Self")) {
			return class
		}
		return t
	}
	if body == nil {
		return ""
	}
	// The first return statement decides.
	for r := range w.scopeRecs(body) {
		if w.recKind(r) == pkReturnStatement {
			return w.returned(&r.node, class)
		}
	}
	return ""
}

// scopeRecs yields body and the nodes below it in document order, as
// records of the file's tree, but for the functions, lambdas and
// classes nested in it (their own scopes) and what they hold.
func (w *pyWalker) scopeRecs(body *sitter.Node) iter.Seq[*cRec] {
	return func(yield func(*cRec) bool) {
		recs := w.f.recs
		i := w.f.at(body)
		for j, end := i, int(recs[i].after); j < end; {
			r := &recs[j]
			switch w.recKind(r) {
			case pkFunctionDefinition, pkClassDefinition, pkLambda:
				j = int(r.after)
				continue
			}
			if !yield(r) {
				return
			}
			j++
		}
	}
}

// returned is the type a return statement returns when the code says so
// (see returns); "" otherwise.
func (w *pyWalker) returned(n *sitter.Node, class string) string {
	f := w.f
	v := f.namedChild(n, 0)
	if class != "" && v != nil && (f.kind(v) == "identifier" && f.textIs(v, "self") ||
		f.kind(v) == "call" && w.field(v, pfFunction) != nil && f.textIs(w.field(v, pfFunction), "cls")) {
		return class // return self, return cls(…): an instance of the class
	}
	if v != nil && f.kind(v) == "call" {
		if fn := w.field(v, pfFunction); fn != nil && (f.kind(fn) == "identifier" || f.kind(fn) == "attribute") {
			if t := pyTypeName(f.text(fn)); t != "" && isUpper(t[strings.LastIndexByte(t, '.')+1]) {
				return t
			}
		}
	}
	return ""
}

// pyTypeName returns a plain dotted type name written in an annotation,
// quotes stripped; "" for anything else (Optional[X], X | None, …).
func pyTypeName(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if s == "" {
		return ""
	}
	for _, c := range s {
		if !(c == '.' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	// A dotted name has no empty part ("A." is what a syntax error
	// leaves of A.m).
	if s == "None" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return ""
	}
	return s
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// paramType records the annotated type of parameter name.
func (w *pyWalker) paramType(name string, t *sitter.Node) {
	if w.ptypes == nil || name == "self" || name == "cls" {
		return
	}
	if h := pyAnnotType(w.f.text(t)); h != "" {
		w.ptypes[name] = h
	}
}

// pyWrappers are the generic forms whose first argument is the type an
// annotation gives (ClassVar[T], Final[T], Annotated[T, …], type[T]).
var pyWrappers = toSet(`ClassVar Final Annotated type Type Required NotRequired ReadOnly Optional`)

// pyAnnotType is the class an annotation says a value is an instance of,
// as written: Optional and "| None" unwrapped, T[…] read as T (but for
// containers), ClassVar[T] and the like as T; a container of instances
// of one class is "T[]" (list[T], Iterator[T], tuple[T, ...] and the
// like: its elements are T), a mapping to them "T{}" (dict[str, T],
// Mapping[K, T]: its values are T); "" when not one class.
func pyAnnotType(s string) string {
	return pyAnnotTypeD(s, 2)
}

// pyAnnotTypeD is pyAnnotType reading containers depth deep.
func pyAnnotTypeD(s string, depth int) string {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	for k := 0; k < 3; k++ {
		s = strings.TrimSpace(pyUnwrapOptional(s))
		open := strings.IndexByte(s, '[')
		if open < 0 || !strings.HasSuffix(s, "]") {
			break
		}
		head := s[:open]
		base := head[strings.LastIndexByte(head, '.')+1:]
		args := pySplitArgs(s[open+1 : len(s)-1])
		if e := pyElementArg(base, args); e != "" {
			if depth <= 1 {
				return ""
			}
			t := pyAnnotTypeD(e, depth-1)
			if t == "" || strings.ContainsAny(t, "[{") {
				return "" // containers of containers say too little
			}
			if pyMappings[base] {
				return t + "{}"
			}
			return t + "[]"
		}
		if base == "Union" {
			// Union[T, None]: T
			var one []string
			for _, a := range args {
				if a != "None" {
					one = append(one, a)
				}
			}
			if len(one) != 1 {
				return ""
			}
			s = one[0]
			continue
		}
		if !pyWrappers[base] {
			s = head // Generic[T] as T's class
			break
		}
		if base == "type" || base == "Type" {
			// type[T]: the class T itself ("T!"); calling it gives a T
			if t := pyTypeName(args[0]); t != "" && !pyContainers[t[strings.LastIndexByte(t, '.')+1:]] {
				return t + "!"
			}
			return ""
		}
		s = args[0]
	}
	t := pyTypeName(s)
	if t != "" && pyContainers[t[strings.LastIndexByte(t, '.')+1:]] {
		return ""
	}
	return t
}

// pySequences are the generic containers whose first argument is the
// type of their elements; pyMappings those whose second is the type of
// their values.
var (
	pySequences = toSet(`list List Iterable Iterator Sequence MutableSequence set Set frozenset FrozenSet
AbstractSet MutableSet Collection Generator AsyncIterator AsyncIterable AsyncGenerator deque Deque
Reversible`)
	pyMappings = toSet(`dict Dict Mapping MutableMapping OrderedDict DefaultDict defaultdict ChainMap`)
)

// pyElementArg is the argument of container base[args…] naming its
// elements' (or values') type, "" when base is no such container.
func pyElementArg(base string, args []string) string {
	switch {
	case pySequences[base] && len(args) >= 1:
		return args[0]
	case pyMappings[base] && len(args) == 2:
		return args[1]
	case (base == "tuple" || base == "Tuple") && len(args) == 2 && args[1] == "...":
		return args[0]
	}
	return ""
}

// pySplitArgs splits the arguments of a subscript at its top-level
// commas, each trimmed.
func pySplitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// pyElemHint is the hint of an element of what hint h designates: op
// "@i" an element iterated over, "@v" a value taken by key or index
// (x[k], d.get(k), d.values()). A container the code declares ("T[]",
// "T{}") gives T at once; anything else defers to the resolver, which
// reads what h is declared as ("h#@i"). "" when nothing can be said.
func pyElemHint(h, op string) string {
	if h == "" || strings.Count(h, "#") >= 4 {
		return ""
	}
	if !strings.Contains(h, "#") {
		if e, ok := strings.CutSuffix(h, "[]"); ok {
			return e
		}
		if e, ok := strings.CutSuffix(h, "{}"); ok {
			if op == "@v" {
				return e
			}
			return "" // the keys of a mapping
		}
	}
	return h + "#" + op
}

// pyContainers are generic names that say nothing of a class of the tree.
var pyContainers = toSet(`list dict set frozenset tuple List Dict Set FrozenSet Tuple Callable Union
Optional Literal Iterable Iterator Sequence Mapping MutableMapping Generator AsyncIterator
AsyncGenerator Awaitable Coroutine Any TypeVar Protocol`)

// pyUnwrapOptional turns "Optional[T]", "T | None" and "None | T" into T.
func pyUnwrapOptional(s string) string {
	s = strings.TrimSpace(s)
	if in, ok := strings.CutPrefix(s, "Optional["); ok && strings.HasSuffix(in, "]") {
		return strings.TrimSuffix(in, "]")
	}
	if a, b, ok := strings.Cut(s, "|"); ok && !strings.Contains(b, "|") {
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if b == "None" {
			return a
		}
		if a == "None" {
			return b
		}
	}
	return s
}

// hintOf is the type hint an assignment gives its target: the annotated
// type ("T"), or what the value it assigns is (see valueHint); "" when
// the code does not say.
func (w *pyWalker) hintOf(a *sitter.Node) string {
	f := w.f
	if t := w.field(a, pfType); t != nil {
		return pyAnnotType(f.text(t))
	}
	return w.valueHint(w.field(a, pfRight), 0)
}

// valueHint is the type hint of an expression: "T()" for a call of T (a
// class, or a function whose declared return the resolver reads),
// "H#m" for a call of method m of a receiver whose hint is H, the
// common hint of both branches of a conditional expression, what an
// await of a call gives; "" otherwise.
func (w *pyWalker) valueHint(r *sitter.Node, depth int) string {
	f := w.f
	if r == nil || depth > 4 {
		return ""
	}
	switch f.kind(r) {
	case "parenthesized_expression":
		if f.namedCount(r) == 1 {
			return w.valueHint(f.namedChild(r, 0), depth+1)
		}
		return ""
	case "conditional_expression":
		if f.namedCount(r) != 3 {
			return ""
		}
		a, b := w.valueHint(f.namedChild(r, 0), depth+1), w.valueHint(f.namedChild(r, 2), depth+1)
		if a != b {
			return ""
		}
		return a
	case "await":
		if f.namedCount(r) == 1 {
			return w.valueHint(f.namedChild(r, 0), depth+1)
		}
		return ""
	case "identifier":
		// a local or module variable whose type the code says, an
		// imported name as what it is declared to hold
		name := f.keyText(r)
		if pyBuiltins[name] || w.modules[name] {
			return ""
		}
		if h := w.typeOf(name); h != "" || w.bound(name) || w.isSelf(name) {
			return h
		}
		// a name of the module or imported: what it is (a class, a
		// variable)
		return name + "!"
	case "attribute":
		return w.attrHint(r, depth+1)
	case "subscript":
		// x[k]: a value of what x is
		return pyElemHint(w.valueHint(w.field(r, pfValue), depth+1), "@v")
	case "call":
	default:
		return ""
	}
	fn := w.field(r, pfFunction)
	if fn != nil && f.kind(fn) == "subscript" {
		fn = w.field(fn, pfValue) // C[T](…): an instance of C
		if fn != nil && f.kind(fn) != "identifier" && f.kind(fn) != "attribute" {
			return ""
		}
	}
	if fn == nil {
		return ""
	}
	switch f.kind(fn) {
	case "identifier":
		if f.textIs(fn, "cls") && w.isSelf("cls") {
			return w.cls.qual // cls(…) in a classmethod: an instance
		}
		if f.textIs(fn, "cast") && !w.bound("cast") {
			return w.castHint(r)
		}
		if pyBuiltins[f.keyText(fn)] {
			return ""
		}
		if w.bound(f.keyText(fn)) {
			// a local holding a class (type[T]): an instance; a local
			// holding an instance: what its __call__ returns
			h := w.typeOf(f.keyText(fn))
			if c, ok := strings.CutSuffix(h, "!"); ok && !strings.Contains(c, "#") {
				return c + "()"
			}
			if h != "" && strings.Count(h, "#") < 4 {
				return h + "#__call__"
			}
			return ""
		}
	case "attribute":
		o, at := w.field(fn, pfObject), w.field(fn, pfAttribute)
		if o != nil && at != nil && f.textIs(at, "cast") && f.kind(o) == "identifier" && w.modules[f.keyText(o)] {
			return w.castHint(r) // typing.cast(T, v), t.cast(T, v)
		}
		if o != nil && at != nil && f.kind(o) == "identifier" && !w.modules[f.keyText(o)] {
			// recv.m(): what method m of recv's type returns
			if h := w.typeOf(f.keyText(o)); h != "" && strings.Count(h, "#") < 4 {
				return h + "#" + f.keyText(at)
			}
			if w.bound(f.keyText(o)) || w.isSelf(f.keyText(o)) {
				return ""
			}
		}
		if o != nil && at != nil && f.kind(o) == "identifier" && w.names[f.keyText(o)] && !w.bound(f.keyText(o)) && isUpper(f.keyText(o)[0]) {
			// Cls.make() with Cls imported: what Cls's make returns
			return f.keyText(o) + "#" + f.keyText(at)
		}
		if o != nil && at != nil && f.kind(o) == "attribute" {
			// a.b.m(): what m of a.b's type returns
			if h := w.attrHint(o, depth+1); h != "" && strings.Count(h, "#") < 4 {
				return h + "#" + f.keyText(at)
			}
		}
		if o != nil && at != nil && f.kind(o) != "identifier" && f.kind(o) != "attribute" {
			// T().m(), f().m(): what m of the call's result returns
			if h := w.valueHint(o, depth+1); h != "" {
				return h + "#" + f.keyText(at)
			}
			return ""
		}
	default:
		return ""
	}
	if t := pyTypeName(f.keyText(fn)); t != "" {
		return t + "()"
	}
	return ""
}

// keywords records the keyword arguments of a call of what looks like a
// class (C(…), m.C(…), cls(…) in a classmethod) as members of that class
// ("k" qualified ":C="): the resolver links each to the __init__ that
// takes it, up the class's bases, or, in a class without one (a
// dataclass), to the field of that name.
func (w *pyWalker) keywords(fn, args *sitter.Node) {
	f := w.f
	h := ""
	switch k := f.kind(fn); {
	case k == "identifier" && f.textIs(fn, "cls") && w.isSelf("cls"):
		h = w.cls.qual
	case k == "identifier" || k == "attribute":
		t := pyTypeName(f.keyText(fn))
		root, _, _ := strings.Cut(t, ".")
		if t == "" || !isUpper(t[strings.LastIndexByte(t, '.')+1]) || w.bound(root) || strings.Count(t, ".") > 1 {
			return // no class name, a local's (or self's) attribute, a nested path
		}
		h = t
	default:
		return
	}
	mark := len(f.stack)
	defer f.release(mark)
	for _, c := range f.kids(args) {
		if c.kind != "keyword_argument" {
			continue
		}
		if nm := w.field(c.n, pfName); nm != nil {
			f.ref(world.Ref{Name: f.text(nm), Qual: ":" + h + "=", Line: line(nm), In: w.in, Kind: world.RefMember})
		}
	}
}

// loopTypes records in frame fr the types of the names a for loop (or
// a comprehension's for clause) binds when the code says what it
// iterates over: the elements of a declared container (for x in xs,
// xs: list[T]), the values of a mapping (for k, v in d.items(),
// for v in d.values()), enumerate(xs), sorted(xs), reversed(xs).
func (w *pyWalker) loopTypes(fr *pyFrame, left, right *sitter.Node) {
	f := w.f
	set := func(name *sitter.Node, h string) {
		if f.kind(name) != "identifier" || !fr.locals[f.keyText(name)] {
			return
		}
		if fr.types == nil {
			fr.types = w.takeTypes()
		}
		fr.types[f.keyText(name)] = h // the latest binding decides
	}
	pair := func() (*sitter.Node, *sitter.Node) {
		if k := f.kind(left); (k == "pattern_list" || k == "tuple_pattern") && f.namedCount(left) == 2 {
			return f.namedChild(left, 0), f.namedChild(left, 1)
		}
		return nil, nil
	}
	if f.kind(right) == "call" {
		fn, args := w.field(right, pfFunction), w.field(right, pfArguments)
		if fn != nil && args != nil {
			switch {
			case f.kind(fn) == "attribute" && w.field(fn, pfAttribute) != nil && f.textIs(w.field(fn, pfAttribute), "items") && f.namedCount(args) == 0:
				// for k, v in d.items(): v a value of d
				if k, v := pair(); k != nil {
					set(k, "")
					set(v, pyElemHint(w.valueHint(w.field(fn, pfObject), 0), "@v"))
				}
				return
			case f.kind(fn) == "identifier" && f.textIs(fn, "enumerate") && !w.bound("enumerate") && f.namedCount(args) >= 1:
				if k, v := pair(); k != nil {
					set(k, "")
					set(v, pyElemHint(w.valueHint(f.namedChild(args, 0), 0), "@i"))
				}
				return
			case f.kind(fn) == "identifier" && (f.textIs(fn, "sorted") || f.textIs(fn, "reversed") || f.textIs(fn, "list") || f.textIs(fn, "tuple")) &&
				!w.bound(f.keyText(fn)) && f.namedCount(args) >= 1:
				right = f.namedChild(args, 0)
			}
		}
	}
	set(left, pyElemHint(w.valueHint(right, 0), "@i"))
}

// asType records the type an "as" binding gets when the code says:
// with T(…) as v (what T's __enter__, or __aenter__ in an async with,
// returns), except E as e (an instance of E).
func (w *pyWalker) asType(n *sitter.Node, k pyKind, value, alias *sitter.Node) {
	f := w.f
	if f.namedCount(alias) == 1 && f.kind(alias) == "as_pattern_target" {
		alias = f.namedChild(alias, 0)
	}
	if f.kind(alias) != "identifier" {
		return
	}
	h := ""
	switch p := w.f.parent(n); {
	case k == pkExceptClause || p != nil && f.kind(p) == "except_clause":
		h = pyTypeName(f.text(value))
	case p != nil && f.kind(p) == "with_item":
		enter := "__enter__"
		for q := w.f.parent(p); q != nil; q = w.f.parent(q) {
			if f.kind(q) == "with_statement" {
				if strings.HasPrefix(f.keyText(q), "async") {
					enter = "__aenter__"
				}
				break
			}
		}
		if v := w.valueHint(value, 0); v != "" && strings.Count(v, "#") < 4 {
			h = v + "#" + enter
		}
	default:
		return
	}
	name := f.keyText(alias)
	if len(w.frames) > 0 {
		fr := w.frames[len(w.frames)-1]
		if fr.locals[name] {
			if fr.types == nil {
				fr.types = w.takeTypes()
			}
			fr.types[name] = h
		}
		return
	}
	if w.modTypes == nil {
		w.modTypes = map[string]string{}
	}
	w.modTypes[name] = h
}

// isinstanceOf reads a condition isinstance(v, T) (v a name, T one
// class) and returns v and T's hint; "" otherwise.
func (w *pyWalker) isinstanceOf(c *sitter.Node) (string, string) {
	f := w.f
	if c == nil || f.kind(c) != "call" {
		return "", ""
	}
	fn, args := w.field(c, pfFunction), w.field(c, pfArguments)
	if fn == nil || args == nil || !f.textIs(fn, "isinstance") || f.namedCount(args) != 2 {
		return "", ""
	}
	v, t := f.namedChild(args, 0), f.namedChild(args, 1)
	if f.kind(v) != "identifier" || f.kind(t) != "identifier" && f.kind(t) != "attribute" {
		return "", ""
	}
	h := pyTypeName(f.text(t))
	if h == "" || pyBuiltins[h] {
		return "", ""
	}
	return f.text(v), h
}

// castHint is the type cast(T, v) says its result is.
func (w *pyWalker) castHint(call *sitter.Node) string {
	args := w.field(call, pfArguments)
	if args == nil || w.f.namedCount(args) == 0 {
		return ""
	}
	return pyAnnotType(w.f.text(w.f.namedChild(args, 0)))
}

// decoratedHint is the type hint of a function decorated with dec, as
// far as the code says: @d(…) gives what calling d returns (the class a
// decorator factory's declared result builds, read as its first
// overload), @d what calling d on the function returns; "" otherwise.
func (w *pyWalker) decoratedHint(dec *sitter.Node) string {
	f := w.f
	e := f.namedChild(dec, 0)
	if e == nil {
		return ""
	}
	switch f.kind(e) {
	case "call":
		return w.valueHint(e, 0)
	case "identifier", "attribute":
		t := pyTypeName(f.keyText(e))
		root, _, _ := strings.Cut(t, ".")
		if t == "" || pyBuiltins[root] || w.bound(root) || w.modules[t] {
			return ""
		}
		return t + "()"
	}
	return ""
}

// attrHint is the type hint of an attribute expression a.b (a.b.c…)
// whose receiver's type the code says: "H#b", or the type self.b is
// assigned in the class; "" otherwise.
func (w *pyWalker) attrHint(n *sitter.Node, depth int) string {
	f := w.f
	o, at := w.field(n, pfObject), w.field(n, pfAttribute)
	if o == nil || at == nil || depth > 4 {
		return ""
	}
	h := ""
	switch f.kind(o) {
	case "identifier":
		root := f.keyText(o)
		if w.modules[root] {
			return ""
		}
		if w.isSelf(root) && w.cls.attrs[f.keyText(at)] != "" {
			return w.cls.attrs[f.keyText(at)]
		}
		h = w.typeOf(root)
	case "attribute":
		h = w.attrHint(o, depth+1)
	default:
		h = w.valueHint(o, depth+1)
	}
	if h == "" || strings.Count(h, "#") >= 4 {
		return ""
	}
	return h + "#" + f.keyText(at)
}

// instanceAttrs defines the attributes the methods of class qual assign
// on self (self.x = …) that the class body does not declare, as fields
// with the type the code gives them: jedi and type checkers find a
// member there.
func (w *pyWalker) instanceAttrs(sa []pySelfAssign, qual string, classIdx int) {
	f := w.f
	have := map[string]bool{}
	for _, d := range f.facts.Defs[classIdx:] {
		if d.Parent == qual {
			have[d.Name] = true
		}
	}
	for _, a := range sa {
		name, n := a.name, a.assign
		if have[name] {
			continue
		}
		have[name] = true
		var sig string
		if line(n) != f.endLine(n) {
			sig = "self." + name + " = …"
		} else if sig = foldSpace(f.keyText(n)); len(sig) > 120 {
			sig = "self." + name + " = …"
		} else {
			sig = strings.Clone(sig) // a fact's: not over the source
		}
		f.def(world.Def{Name: name, Qualified: qual + "." + name, Parent: qual, Kind: world.KindField,
			Start: line(n), End: f.endLine(n), Signature: sig, Exported: w.exported(name, false),
			Returns: w.cls.attrs[name]})
	}
}

// pySelfAssign is an assignment self.name = … in method of a class.
type pySelfAssign struct {
	name           string
	assign, method *sitter.Node
}

// selfAssignments appends to w.assigns, in source order, every
// assignment self.name = … in the methods of a class body (not in
// functions nested in them). Both selfAttrs and instanceAttrs read them:
// the methods are walked once.
func (w *pyWalker) selfAssignments(body *sitter.Node) {
	f := w.f
	recs := f.recs
	for st := range f.childRecs(body) {
		if w.recKind(st) == pkDecoratedDefinition {
			d := w.field(&st.node, pfDefinition)
			if d == nil {
				continue
			}
			st = &recs[f.at(d)]
		}
		if w.recKind(st) != pkFunctionDefinition {
			continue
		}
		fb := w.field(&st.node, pfBody)
		if fb == nil {
			continue
		}
		for r := range w.scopeRecs(fb) {
			if w.recKind(r) != pkAssignment {
				continue
			}
			l := w.field(&r.node, pfLeft)
			if l == nil || w.kindOf(l) != pkAttribute {
				continue
			}
			o, at := w.field(l, pfObject), w.field(l, pfAttribute)
			if o != nil && at != nil && w.kindOf(o) == pkIdentifier && f.textIs(o, "self") {
				w.assigns = append(w.assigns, pySelfAssign{f.text(at), &r.node, &st.node})
			}
		}
	}
}

// paramAnnot is the type hint of parameter name of function def as its
// annotation says, "" when it has none.
func (w *pyWalker) paramAnnot(def *sitter.Node, name string) string {
	f := w.f
	ps := w.field(def, pfParameters)
	if ps == nil {
		return ""
	}
	for r := range f.childRecs(ps) {
		if !f.recNamed(r) {
			continue
		}
		p := &r.node
		var nm *sitter.Node
		switch f.kind(p) {
		case "typed_parameter":
			nm = f.namedChild(p, 0)
		case "typed_default_parameter":
			nm = w.field(p, pfName)
		default:
			continue
		}
		if nm != nil && f.kind(nm) == "identifier" && f.textIs(nm, name) {
			if t := w.field(p, pfType); t != nil {
				return pyAnnotType(f.text(t))
			}
		}
	}
	return ""
}

// isSelf reports whether root is self or cls in a method of the class
// being walked.
func (w *pyWalker) isSelf(root string) bool {
	return w.cls != nil && (root == "self" || root == "cls") && w.bound(root)
}

// typeOf is the type hint of receiver root where it is used: the class
// for self and cls in its methods, what a local was last assigned or is
// annotated with, else what a module-level variable was assigned.
func (w *pyWalker) typeOf(root string) string {
	if w.isSelf(root) {
		return w.cls.qual
	}
	for i := len(w.frames) - 1; i >= 0; i-- {
		if fr := w.frames[i]; fr.locals[root] {
			return fr.types[root]
		}
	}
	if w.modules[root] || w.names[root] {
		return ""
	}
	return w.modTypes[root]
}

// selfAttrs collects the types of a class's attributes: class-level
// annotated or assigned fields, and self.x assignments in its methods.
// Attributes assigned different types get none.
func (w *pyWalker) selfAttrs(body *sitter.Node, sa []pySelfAssign) map[string]string {
	f := w.f
	attrs := map[string]string{}
	set := func(name, h string) {
		if old, ok := attrs[name]; ok && old != h {
			h = ""
		}
		attrs[name] = h
	}
	for r := range f.childRecs(body) {
		if !f.recNamed(r) {
			continue
		}
		st := &r.node
		if w.recKind(r) == pkDecoratedDefinition {
			st = w.field(st, pfDefinition)
			if st == nil {
				continue
			}
		}
		if w.kindOf(st) == pkExpressionStatement {
			if a := f.namedChild(st, 0); a != nil && f.kind(a) == "assignment" {
				if l := w.field(a, pfLeft); l != nil && f.kind(l) == "identifier" {
					set(f.text(l), w.hintOf(a))
				}
			}
		}
	}
	for _, a := range sa {
		name, n := a.name, a.assign
		if r := w.field(n, pfRight); w.field(n, pfType) == nil && r != nil && w.kindOf(r) == pkIdentifier {
			// self.x = x, x an annotated parameter (other names are the
			// method's locals, whose types are not known here)
			set(name, w.paramAnnot(a.method, f.keyText(r)))
			continue
		}
		set(name, w.hintOf(n))
	}
	for k, v := range attrs {
		if v == "" {
			delete(attrs, k)
		}
	}
	return attrs
}

// bases lists the base classes of a class as written, comma-separated
// (keyword arguments such as metaclass= left out); "" when none is a
// plain dotted name.
func (w *pyWalker) bases(sc *sitter.Node) string {
	f := w.f
	var out []string
	for r := range f.childRecs(sc) {
		if !f.recNamed(r) {
			continue
		}
		c := &r.node
		k := f.kind(c)
		if k == "subscript" { // Generic[T], Base[int]
			c = w.field(c, pfValue)
			if c == nil {
				continue
			}
			k = f.kind(c)
		}
		if k != "identifier" && k != "attribute" {
			continue
		}
		if t := pyTypeName(f.text(c)); t != "" && t != "object" {
			out = append(out, t)
		}
	}
	return strings.Join(out, ",")
}

// isSuper reports whether n is a call super() (or super(C, self)) in a
// method of the class being walked.
func (w *pyWalker) isSuper(n *sitter.Node) bool {
	f := w.f
	if w.cls == nil || f.kind(n) != "call" {
		return false
	}
	fn := w.field(n, pfFunction)
	return fn != nil && f.kind(fn) == "identifier" && f.textIs(fn, "super")
}
