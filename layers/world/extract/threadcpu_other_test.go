//go:build !linux

package extract

import "time"

// threadCPU is not measured here (BenchmarkWalkDir reports 0).
func threadCPU() time.Duration { return 0 }
