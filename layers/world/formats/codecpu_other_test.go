//go:build !unix

package formats

import "time"

// codeCPU is not measured here: the benchmark reports MB/s only.
func codeCPU() time.Duration { return 0 }
