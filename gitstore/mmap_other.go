//go:build !unix

package gitstore

import "os"

// mapFile reads a file whole where memory mapping is not at hand.
func mapFile(name string) ([]byte, func() error, error) {
	data, err := os.ReadFile(name)
	return data, func() error { return nil }, err
}

// mapsFiles: mapFile reads files whole here, too dear for a pack.
const mapsFiles = false
