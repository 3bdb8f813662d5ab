package deflate

// The tables of RFC 1951 3.2.5 and 3.2.6, filled by init.
var (
	lengthCode  [256]uint8 // by length-3
	lengthBase  [29]uint32 // by length code, in length-3
	lengthExtra [29]uint8
	distBase    [30]uint32 // by distance code, in distance-1
	distExtra   [30]uint8
	// distCodeLow is the code of distance-1 below 256; distCodeHigh of
	// the others by (distance-1)>>7 (their bases are multiples of 128).
	distCodeLow  [256]uint8
	distCodeHigh [256]uint8
	fixedCode    code // literal/length codes of a fixed-code block
	fixedDist    code
	clOrder      = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

func init() {
	base := uint32(0)
	for c := range 28 {
		lengthExtra[c] = uint8(max(0, c/4-1))
		lengthBase[c] = base
		for range 1 << lengthExtra[c] {
			lengthCode[base] = uint8(c)
			base++
		}
	}
	// Length 258 has its own code, 285, without extra bits; 227+31=258
	// would otherwise reach it through code 284.
	lengthBase[28], lengthExtra[28] = 255, 0
	lengthCode[255] = 28
	base = 0
	for c := range 30 {
		distExtra[c] = uint8(max(0, c/2-1))
		distBase[c] = base
		for range 1 << distExtra[c] {
			if base < 256 {
				distCodeLow[base] = uint8(c)
			} else {
				distCodeHigh[base>>7] = uint8(c)
			}
			base++
		}
	}
	for s := range 288 {
		switch {
		case s < 144:
			fixedCode.lens[s] = 8
		case s < 256:
			fixedCode.lens[s] = 9
		case s < 280:
			fixedCode.lens[s] = 7
		default:
			fixedCode.lens[s] = 8
		}
	}
	canonical(&fixedCode, 288)
	for s := range 32 {
		fixedDist.lens[s] = 5
	}
	canonical(&fixedDist, 32)
}
