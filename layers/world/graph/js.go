package graph

func (b *builder) resolveJS() {}
