package deflate

import "slices"

// huffBuilder computes length-limited Huffman code lengths, keeping its
// scratch space between calls.
type huffBuilder struct {
	keys []uint64 // frequency<<16 | symbol, ascending
	a    []uint32 // Moffat and Katajainen's array: weights, parents, depths
}

// lengths sets lens[s] to the code length of symbol s for the frequencies
// freq (len(lens) == len(freq)), none longer than limit. Unused symbols
// get 0, and at least two symbols get a length, so the code is complete
// (zlib rejects an incomplete one).
func (h *huffBuilder) lengths(freq []uint32, lens []uint8, limit int) {
	clear(lens)
	h.keys = h.keys[:0]
	for s, f := range freq {
		if f != 0 {
			h.keys = append(h.keys, uint64(f)<<16|uint64(s))
		}
	}
	switch len(h.keys) {
	case 0:
		lens[0], lens[1] = 1, 1
		return
	case 1:
		s := int(h.keys[0] & 0xffff)
		lens[s] = 1
		if s == 0 {
			lens[1] = 1
		} else {
			lens[0] = 1
		}
		return
	}
	slices.Sort(h.keys)
	n := len(h.keys)
	a := h.a[:0]
	for _, k := range h.keys {
		a = append(a, uint32(k>>16))
	}
	h.a = a
	// In-place minimum-redundancy code lengths (Moffat and Katajainen,
	// 1995): pair the two lightest of the next leaf and the next internal
	// node; a[t] becomes the weight of internal node t, then the index of
	// its parent, then its depth; last the leaves' depths, deepest first.
	leaf, root := 0, 0
	for t := 0; t < n-1; t++ {
		for k := 0; k < 2; k++ {
			var w uint32
			if leaf >= n || (root < t && a[root] < a[leaf]) {
				w = a[root]
				a[root] = uint32(t)
				root++
			} else {
				w = a[leaf]
				leaf++
			}
			if k == 0 {
				a[t] = w
			} else {
				a[t] += w
			}
		}
	}
	a[n-2] = 0
	for t := n - 3; t >= 0; t-- {
		a[t] = a[a[t]] + 1
	}
	avail, used, depth := 1, 0, uint32(0)
	r, next := n-2, n-1
	for avail > 0 {
		for r >= 0 && a[r] == depth {
			used++
			r--
		}
		for avail > used {
			a[next] = depth
			next--
			avail--
		}
		avail, used = 2*used, 0
		depth++
	}
	// a[i] is now the length of the i-th lightest symbol (non-increasing).
	if int(a[0]) > limit {
		limitLengths(a, limit)
	}
	for i, k := range h.keys {
		lens[k&0xffff] = uint8(a[i])
	}
}

// limitLengths caps the lengths a (non-increasing, complete) at limit and
// lengthens others until the code is complete again: each step takes one
// code from the longest length and splits the deepest code shorter than
// limit in two, which keeps the count and gives back one unit of the
// Kraft sum in 2^-limit. The lightest symbols keep the longest codes.
func limitLengths(a []uint32, limit int) {
	var count [32]int
	for _, l := range a {
		count[min(int(l), limit)]++
	}
	total := 0
	for l := 1; l <= limit; l++ {
		total += count[l] << (limit - l)
	}
	for ; total > 1<<limit; total-- {
		count[limit]--
		for l := limit - 1; l > 0; l-- {
			if count[l] > 0 {
				count[l]--
				count[l+1] += 2
				break
			}
		}
	}
	i := 0
	for l := limit; l > 0; l-- {
		for range count[l] {
			a[i] = uint32(l)
			i++
		}
	}
}
