package tokens

// bytesPerToken is the measured o200k ratio of source bytes to tokens per
// language, taken over the Go distribution's own files (go test -run Cal in
// this package's history). Layer 1 uses it for the project map, where
// counting 90 MB exactly would cost as much as parsing it; Layer 2 counts
// exactly what it puts in a budget.
var bytesPerToken = map[string]float64{
	"go": 3.08, "c": 3.34, "cpp": 3.3, "assembly": 2.25, "python": 3.5,
	"javascript": 3.47, "typescript": 3.45, "tsx": 3.45, "json": 2.75,
	"markdown": 4.19, "text": 3.17, "html": 3.55,
}

// Estimate guesses the o200k tokens of n bytes of text in lang without
// reading it.
func Estimate(lang string, n int64) int {
	r, ok := bytesPerToken[lang]
	if !ok {
		r = 3.2
	}
	return int(float64(n)/r + 0.999)
}
