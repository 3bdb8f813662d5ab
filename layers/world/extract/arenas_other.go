//go:build !linux

package extract

// TrimHeap does nothing off Linux: only glibc is asked to give back the
// pages it keeps free (arenas_linux.go).
func TrimHeap() {}
