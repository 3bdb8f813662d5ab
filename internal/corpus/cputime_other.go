//go:build !unix

package corpus

import "time"

// CPUTime is 0 where the process's CPU time is not read: callers then
// report no CPU figure.
func CPUTime() time.Duration { return 0 }
