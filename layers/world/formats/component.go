package formats

import (
	"strings"
	"unicode"

	"github.com/git-speed/git-speed/internal/lazyre"
	"github.com/git-speed/git-speed/layers/world"
)

// Single-file components (Vue .vue, Svelte .svelte, Astro .astro) are read
// by a block scanner: the component (named from its file, PascalCase) is a
// definition spanning the file; its <template>, <script> and <style>
// blocks and Astro's --- frontmatter are blocks within it. Script blocks
// and frontmatter are read as TypeScript (lang="ts") or JavaScript through
// Options.Code, their definitions, imports and references moved to the
// file's lines. Components used in the markup (<UserCard …>) are
// references.

func init() {
	Register("vue", extractComponent)
	Register("svelte", extractComponent)
	Register("astro", extractComponent)
}

var (
	sfcOpen     = lazyre.New(`^\s*<(script|template|style)\b([^>]*)>`)
	sfcLangAttr = lazyre.New(`\blang\s*=\s*["']?(ts|typescript|tsx)\b`)
	sfcTag      = lazyre.New(`<([A-Z][A-Za-z0-9]*(?:\.[A-Z][A-Za-z0-9]*)?)[\s/>]`)
)

// sfcBlock is one top-level block of a component.
type sfcBlock struct {
	tag, attrs string
	open, end  int // lines of the opening and closing tags
}

func extractComponent(src []byte, opt Options, facts *world.Facts) {
	lines := strings.Split(string(src), "\n")
	comp := componentName(opt.Path)
	if comp == "" {
		comp = "Component"
	}
	n := facts.Lines
	facts.Defs = append(facts.Defs, world.Def{Name: comp, Qualified: comp, Kind: "component", Start: 1, End: max(n, 1),
		Signature: facts.Lang + " component " + comp, Exported: true})
	var blocks []sfcBlock
	start := 0
	if facts.Lang == "astro" && len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
				blocks = append(blocks, sfcBlock{tag: "frontmatter", attrs: ` lang="ts"`, open: 1, end: i + 1})
				start = i + 1
				break
			}
		}
	}
	var markup []int // lines outside script and style blocks
	for i := start; i < len(lines); i++ {
		m := sfcOpen.FindStringSubmatch(lines[i])
		if m == nil || facts.Lang != "vue" && m[1] == "template" {
			markup = append(markup, i)
			continue
		}
		b := sfcBlock{tag: m[1], attrs: m[2], open: i + 1, end: max(n, i+1)} // unclosed: to the end
		closeTag := "</" + m[1] + ">"
		if strings.Contains(lines[i][len(m[0]):], closeTag) {
			b.end = i + 1
		} else {
			for j := i + 1; j < len(lines); j++ {
				if strings.Contains(lines[j], closeTag) {
					b.end = j + 1
					break
				}
			}
		}
		if b.tag == "template" {
			for j := b.open; j < b.end-1; j++ {
				markup = append(markup, j)
			}
		}
		blocks = append(blocks, b)
		i = b.end - 1
	}
	var sk strings.Builder
	sk.WriteString("<!-- " + facts.Lang + " component " + comp + " -->\n")
	for _, b := range blocks {
		label := "<" + b.tag + strings.TrimRight(b.attrs, " /") + ">"
		if b.tag == "frontmatter" {
			label = "---"
		}
		facts.Defs = append(facts.Defs, world.Def{Name: b.tag, Qualified: comp + "." + b.tag, Parent: comp, Kind: "block",
			Start: b.open, End: b.end, Signature: label})
		sk.WriteString(label + lineMark(b.open, b.end) + "\n")
		if (b.tag == "script" || b.tag == "frontmatter") && opt.Code != nil && b.end-b.open > 1 {
			lang := world.LangJavaScript
			if sfcLangAttr.MatchString(b.attrs) || b.tag == "frontmatter" {
				lang = world.LangTypeScript
			}
			body := strings.Join(lines[b.open:b.end-1], "\n") + "\n"
			base := b.open
			code := opt.Code(lang, []byte(body))
			if s := embedCode(facts, code, func(l int) int { return base + l }, comp); s != "" {
				for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
					sk.WriteString("  " + l + "\n")
				}
			}
		}
	}
	// Components used in the markup.
	for _, i := range markup {
		for _, m := range sfcTag.FindAllStringSubmatch(lines[i], -1) {
			facts.Refs = append(facts.Refs, world.Ref{Name: m[1], Line: i + 1, In: 1, Kind: world.RefCall})
		}
	}
	sortDefsKeepRefs(facts)
	facts.Skeleton = sk.String()
}

// componentName is a component's name from its file: my-button.vue →
// MyButton, +page.svelte → Page.
func componentName(p string) string {
	base := baseName(p)
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	var b strings.Builder
	up := true
	for _, r := range base {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
