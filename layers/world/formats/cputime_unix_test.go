//go:build unix

package formats_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system), so a
// benchmark's throughput can be given per CPU second on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
