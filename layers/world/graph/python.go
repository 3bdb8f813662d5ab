package graph

func (b *builder) resolvePython() {}
