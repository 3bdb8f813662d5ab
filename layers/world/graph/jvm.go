package graph

func (b *builder) resolveJVM() {}
