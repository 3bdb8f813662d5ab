package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// sameFile tells a file holding exactly the bytes from one that differs
// anywhere, in size, or is not there.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	data := bytes.Repeat([]byte("0123456789abcdef"), 10000) // 160,000 bytes: three pieces
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if !sameFile(file, data) {
		t.Error("the same bytes are not the same")
	}
	for name, other := range map[string][]byte{
		"last byte":  append(append([]byte(nil), data[:len(data)-1]...), 'x'),
		"first byte": append([]byte("x"), data[1:]...),
		"shorter":    data[:len(data)-1],
		"longer":     append(append([]byte(nil), data...), '\n'),
		"empty":      nil,
	} {
		if sameFile(file, other) {
			t.Errorf("%s: found the same", name)
		}
	}
	if sameFile(filepath.Join(dir, "none.json"), nil) {
		t.Error("a missing file holds nothing")
	}
}
