package graph

func (b *builder) resolveRust() {}
