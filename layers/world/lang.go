package world

import (
	"bytes"
	"path"
	"strings"
)

// Language names. Those with an extractor get facts; the rest are only
// named in the project map.
const (
	LangGo         = "go"
	LangPython     = "python"
	LangJavaScript = "javascript"
	LangTypeScript = "typescript"
	LangTSX        = "tsx"
	LangBash       = "bash"
	LangRust       = "rust"
	LangJava       = "java"
	LangC          = "c"
	LangCPP        = "cpp"
	LangCSharp     = "csharp"
	LangPHP        = "php"
	LangRuby       = "ruby"
	LangCSS        = "css"
	LangPowerShell = "powershell"
	LangINI        = "ini"
)

// Languages of the code-like formats read by the formats package (schemas,
// infrastructure, low level, scripts).
const (
	LangGraphQL    = "graphql"
	LangProtobuf   = "protobuf"
	LangPrisma     = "prisma"
	LangSQL        = "sql"
	LangHCL        = "hcl"
	LangDockerfile = "dockerfile"
	LangMakefile   = "makefile"
	LangCMake      = "cmake"
	LangNix        = "nix"
	LangGradle     = "gradle"
	LangWAT        = "wat"
	LangAssembly   = "assembly"
	LangMATLAB     = "matlab"
	LangObjC       = "objc"
	LangGDScript   = "gdscript"
	LangGML        = "gml"
)

// Languages read with the tree-sitter grammars of issue 12 (their
// extensions were named in the map before they had extractors).
const (
	LangKotlin  = "kotlin"
	LangSwift   = "swift"
	LangLua     = "lua"
	LangScala   = "scala"
	LangZig     = "zig"
	LangDart    = "dart"
	LangHaskell = "haskell"
)

// LangElixir is named (extensions, shebang) but has no extractor: its
// grammar's go.mod declares a module path no repository serves, which
// would make go.mod need a replace, and go install …@version refuses one
// (docs/grammars.md).
const LangElixir = "elixir"

// Languages read by structured scanners in layers/world/formats (langs.go).
const (
	LangSolidity = "solidity"
	LangPerl     = "perl"
	LangR        = "r"
	LangErlang   = "erlang"
	LangClojure  = "clojure"
)

var extLang = map[string]string{
	".go": LangGo,
	".py": LangPython, ".pyi": LangPython, ".pyw": LangPython,
	".js": LangJavaScript, ".jsx": LangJavaScript, ".cjs": LangJavaScript, ".mjs": LangJavaScript,
	".ts": LangTypeScript, ".mts": LangTypeScript, ".cts": LangTypeScript,
	".tsx": LangTSX,
	".sh":  LangBash, ".bash": LangBash, ".zsh": LangBash,
	".rs":   LangRust,
	".java": LangJava,
	".c":    LangC, ".h": LangC,
	".cpp": LangCPP, ".cc": LangCPP, ".cxx": LangCPP, ".hpp": LangCPP, ".hh": LangCPP, ".hxx": LangCPP,
	".cs":  LangCSharp,
	".php": LangPHP,
	".rb":  LangRuby, ".rake": LangRuby, ".gemspec": LangRuby,
	".css": LangCSS,
	".ps1": LangPowerShell, ".psm1": LangPowerShell, ".psd1": LangPowerShell,
	".ini": LangINI, ".cfg": LangINI, ".env": "env",
	".graphql": LangGraphQL, ".gql": LangGraphQL, ".graphqls": LangGraphQL,
	".proto": LangProtobuf, ".prisma": LangPrisma, ".sql": LangSQL,
	".tf": LangHCL, ".tfvars": LangHCL, ".hcl": LangHCL,
	".dockerfile": LangDockerfile, ".mk": LangMakefile, ".cmake": LangCMake, ".nix": LangNix,
	".gradle": LangGradle, ".wat": LangWAT, ".wast": LangWAT,
	".asm": LangAssembly, ".s": LangAssembly, ".S": LangAssembly, ".nasm": LangAssembly,
	".gd": LangGDScript, ".gml": LangGML,
	// Named only (no extractor): shown in the project map.
	".md": "markdown", ".mdx": "markdown", ".json": "json", ".yml": "yaml", ".yaml": "yaml",
	".toml": "toml", ".html": "html", ".htm": "html",
	".xml": "xml", ".txt": "text",
	".mod": "gomod", ".sum": "gosum", ".kt": "kotlin", ".swift": "swift",
	".scala": "scala", ".lua": "lua", ".pl": LangPerl, ".pm": LangPerl, ".r": LangR, ".R": LangR, ".dart": "dart",
	".vue": "vue", ".svelte": "svelte", ".scss": "scss", ".less": "less",
	".bat":  "batch",
	".tmpl": "template", ".zig": "zig", ".ex": LangElixir, ".exs": LangElixir, ".erl": LangErlang, ".hrl": LangErlang,
	".hs": "haskell", ".lhs": "haskell", ".clj": LangClojure, ".cljs": LangClojure, ".cljc": LangClojure, ".sol": LangSolidity,
	// Structured formats read by layers/world/formats.
	".jsonc": "json", ".markdown": "markdown", ".xsd": "xml", ".xsl": "xml", ".xslt": "xml",
	".csproj": "xml", ".fsproj": "xml", ".vbproj": "xml", ".props": "xml", ".targets": "xml",
	".plist": "xml", ".xaml": "xml", ".ipynb": "jupyter", ".log": "log", ".pdf": "pdf",
	".docx": "docx", ".astro": "astro", ".xhtml": "html",
	// Languages read with the tree-sitter grammars added for issue 12.
	".kts": LangKotlin, ".sc": LangScala,
}

var nameLang = map[string]string{
	"Makefile": LangMakefile, "GNUmakefile": LangMakefile, "makefile": LangMakefile,
	"Dockerfile": LangDockerfile, "Containerfile": LangDockerfile, "CMakeLists.txt": LangCMake, "Rakefile": LangRuby,
	"Gemfile": LangRuby, ".bashrc": LangBash, ".zshrc": LangBash, ".profile": LangBash,
	"go.mod": "gomod", "go.sum": "gosum", "go.work": "gomod",
	"yarn.lock": "lockfile", "Cargo.lock": "lockfile", "Gemfile.lock": "lockfile",
	"composer.lock": "lockfile", "package-lock.json": "lockfile", "npm-shrinkwrap.json": "lockfile",
	"poetry.lock": "lockfile", "uv.lock": "lockfile", "pnpm-lock.yaml": "lockfile",
	".gitlab-ci.yml": "gitlab-ci", ".gitlab-ci.yaml": "gitlab-ci",
}

var shebangLang = map[string]string{
	"sh": LangBash, "bash": LangBash, "zsh": LangBash, "dash": LangBash, "ksh": LangBash,
	"python": LangPython, "python2": LangPython, "python3": LangPython,
	"node": LangJavaScript, "nodejs": LangJavaScript, "deno": LangTypeScript, "ts-node": LangTypeScript,
	"ruby": LangRuby, "php": LangPHP, "pwsh": LangPowerShell, "perl": LangPerl, "Rscript": LangR, "escript": LangErlang,
	"lua": LangLua, "elixir": LangElixir, "runghc": LangHaskell, "runhaskell": LangHaskell,
}

// binaryDocs are languages whose files are binary by nature (archives,
// page descriptions) yet have an extractor that reads them.
var binaryDocs = map[string]bool{"pdf": true, "docx": true}

// BinaryDoc reports whether lang's files are binary documents read by an
// extractor: the project map does not flag them binary, their raw bytes
// count no tokens, and their facts number pages' text lines or paragraphs
// instead of the file's lines.
func BinaryDoc(lang string) bool { return binaryDocs[lang] }

// DetectLang names the language of a file from its name, its extension and,
// for files without either, the shebang line in head (the first bytes of the
// content; nil when not read). It returns "" when it cannot tell.
func DetectLang(p string, head []byte) string {
	base := path.Base(p)
	if l, ok := nameLang[base]; ok {
		return l
	}
	if strings.HasPrefix(base, "Dockerfile.") || strings.HasSuffix(base, ".Dockerfile") {
		return LangDockerfile
	}
	if strings.HasSuffix(base, ".gradle.kts") {
		return LangGradle
	}
	if strings.HasPrefix(base, ".env") {
		return "env"
	}
	ext := path.Ext(base)
	if ext == ".m" {
		return mLang(head)
	}
	if (ext == ".yml" || ext == ".yaml") && strings.Contains("/"+p, "/.github/workflows/") {
		return "github-actions"
	}
	if l, ok := extLang[ext]; ok {
		return l
	}
	if l, ok := extLang[strings.ToLower(ext)]; ok {
		return l
	}
	return shebang(head)
}

// mLang tells MATLAB/Octave from Objective-C for a .m file by its head:
// preprocessor lines or @interface/@implementation/@protocol mean
// Objective-C. Without a head it cannot tell ("").
func mLang(head []byte) string {
	if head == nil {
		return ""
	}
	for _, l := range strings.Split(string(head), "\n") {
		l = strings.TrimSpace(l)
		for _, p := range []string{"#import", "#include", "#define", "#pragma", "@interface", "@implementation", "@protocol", "@class ", "@end"} {
			if strings.HasPrefix(l, p) {
				return LangObjC
			}
		}
	}
	return LangMATLAB
}

func shebang(head []byte) string {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return ""
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				prog = path.Base(f)
				break
			}
		}
	}
	if l, ok := shebangLang[prog]; ok {
		return l
	}
	// python3.12, ruby2.7 …
	for name, l := range shebangLang {
		if strings.HasPrefix(prog, name) && strings.Trim(prog[len(name):], "0123456789.") == "" {
			return l
		}
	}
	return ""
}
