package graph

func (b *builder) resolvePHP() {}
