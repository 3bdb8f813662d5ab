//go:build !unix

package formats_test

import "time"

// cpuTime is unknown here; benchmarks then report wall-clock MB/s only.
func cpuTime() time.Duration { return 0 }
