package build

import "github.com/git-speed/git-speed/layers/world"

// Facts are stored in the same compact binary form as shards: a string
// table, then the fields in a fixed order, reference lines delta-encoded.
// On a large tree this is several times smaller than JSON and keeps the
// memory of a full index in bounds.
//
//	1: first binary facts.
//	2: a definition's Returns after its Doc.
//	3: the term vector (Facts.Terms) follows the warning.
const factsFormat = 3

func encodeFacts(f *world.Facts) ([]byte, error) {
	w := borrowWriter()
	defer w.release()
	w.str(f.Lang)
	w.str(f.Package)
	w.uint(uint64(len(f.Defs)))
	for _, d := range f.Defs {
		w.str(d.Name)
		w.str(d.Kind)
		w.str(d.Qualified)
		w.str(d.Parent)
		w.uint(uint64(d.Start))
		w.uint(uint64(d.End))
		w.str(d.Signature)
		w.bool(d.Exported)
		w.str(d.Doc)
		w.str(d.Returns)
	}
	w.imports(f.Imports)
	w.uint(uint64(len(f.Refs)))
	prev := 0
	for _, r := range f.Refs {
		w.str(r.Name)
		w.str(r.Qual)
		w.uint(zigzag(r.Line - prev))
		prev = r.Line
		w.uint(uint64(r.In))
		w.str(r.Kind)
	}
	w.str(f.Skeleton)
	w.uint(uint64(f.Lines))
	w.uint(uint64(f.Tokens))
	w.uint(uint64(f.SkelToks))
	w.bool(f.Partial)
	w.str(f.Warning)
	w.uint(uint64(len(f.Terms)))
	for _, t := range f.Terms {
		w.str(t.Text)
		w.body = append(w.body, t.Fields)
		w.uint(uint64(t.Count))
	}
	return w.bytes(factsFormat), nil
}

func decodeFacts(b []byte) (*world.Facts, error) {
	r := newOwnShardReader(b, factsFormat)
	f := &world.Facts{Lang: r.str(), Package: r.str()}
	if n := r.count(); n > 0 {
		f.Defs = make([]world.Def, n)
		for i := range f.Defs {
			f.Defs[i] = world.Def{Name: r.str(), Kind: r.str(), Qualified: r.str(), Parent: r.str(),
				Start: int(r.uint()), End: int(r.uint()), Signature: r.str(), Exported: r.bool(), Doc: r.str(), Returns: r.str()}
		}
	}
	f.Imports = r.imports()
	if n := r.count(); n > 0 {
		f.Refs = make([]world.Ref, n)
		prev := 0
		for i := range f.Refs {
			ref := world.Ref{Name: r.str(), Qual: r.str()}
			prev += unzigzag(r.uint())
			ref.Line = prev
			ref.In = int(r.uint())
			ref.Kind = r.str()
			f.Refs[i] = ref
		}
	}
	f.Skeleton = r.str()
	f.Lines = int(r.uint())
	f.Tokens = int(r.uint())
	f.SkelToks = int(r.uint())
	f.Partial = r.bool()
	f.Warning = r.str()
	if n := r.count(); n > 0 {
		f.Terms = make([]world.Term, n)
		for i := range f.Terms {
			f.Terms[i] = world.Term{Text: r.str(), Fields: r.byte(), Count: uint32(r.uint())}
		}
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errShard
	}
	if r.err != nil {
		return nil, r.err
	}
	return f, nil
}

func zigzag(v int) uint64   { return uint64((v << 1) ^ (v >> 63)) }
func unzigzag(u uint64) int { return int(u>>1) ^ -int(u&1) }
