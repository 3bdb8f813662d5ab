package graph

func (b *builder) resolveRuby() {}
