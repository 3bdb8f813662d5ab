//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only into memory: a pack index is searched in
// place, only the pages a lookup touches are read.
func mapFile(name string) ([]byte, func() error, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() == 0 || fi.Size() != int64(int(fi.Size())) {
		return nil, func() error { return nil }, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}

// mapsFiles: mapFile maps files, so a pack is read in place.
const mapsFiles = true
