package scope

// severity orders tiers by how hard they cut a file: full text least.
func severity(tier string) int {
	switch tier {
	case TierFull:
		return 0
	case TierSkeleton:
		return 1
	case TierTruncated:
		return 2
	}
	return 3
}

// cutUnder2Hop finds the 1-hop files the fill cut harder than a 2-hop file
// of at least their relevance, each with the most relevant such 2-hop
// file: the value policy may do that (a cheap skeleton two hops away can
// buy more relevance per token than a large neighbour's), and budget.json
// then says so beside the cut, as the seed's rules never allow it
// without a reason.
func (s *state) cutUnder2Hop() map[*cand]*cand {
	var twoHop []*cand
	for _, c := range s.cands {
		if c.dist == 2 && c.tier != TierDropped {
			twoHop = append(twoHop, c)
		}
	}
	if len(twoHop) == 0 {
		return nil
	}
	out := map[*cand]*cand{}
	for _, c := range s.cands {
		if c.dist != 1 || c.plan == TierDropped || c.tier == c.plan || c.extra {
			continue
		}
		var best *cand
		for _, d := range twoHop {
			if d.rel >= c.rel && severity(d.tier) < severity(c.tier) && (best == nil || d.rel > best.rel || d.rel == best.rel && d.path < best.path) {
				best = d
			}
		}
		if best != nil {
			out[c] = best
		}
	}
	return out
}
