//go:build unix

package corpus

import (
	"syscall"
	"time"
)

// CPUTime is the process's user and system CPU time so far, so that a
// benchmark can give its throughput per CPU second: on a machine shared
// with other work, wall time says more about the neighbours than about
// the code.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
