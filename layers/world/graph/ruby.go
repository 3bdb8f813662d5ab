package graph

import (
	"path"
	"strings"

	"github.com/git-speed/git-speed/layers/world"
)

// resolveRuby resolves Ruby: require_relative against the file's folder,
// require against lib/ and the tree root; constants by name in the
// required files, then by the guarded name fallback (Ruby autoloads).
func (b *builder) resolveRuby() {
	fn := func(a *acc, i int) {
		l := b.links[i]
		s := newScope()
		dir := path.Dir(b.files[i].Path)
		for _, im := range l.Imports {
			p := strings.Trim(im.Path, `"'`)
			if !strings.HasSuffix(p, ".rb") {
				p += ".rb"
			}
			var cands []string
			if im.Kind == "relative" || im.Kind == "require_relative" || strings.HasPrefix(p, ".") {
				cands = []string{cleanJoin(dir, p)}
			} else {
				cands = []string{cleanJoin("lib", p), cleanJoin(".", p), cleanJoin(dir, p)}
			}
			for _, c := range cands {
				if f := b.lookupPath(c); f >= 0 {
					s.glob(f)
					break
				}
			}
		}
		a.resolveScoped(i, l, s)
	}
	b.filesOf(world.LangRuby, func(i int, l *world.Link) { b.register(i, fn) })
}
