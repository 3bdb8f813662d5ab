package graph

func (b *builder) resolveC() {}
