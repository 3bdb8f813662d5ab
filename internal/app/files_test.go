package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/feature"
	"github.com/git-speed/git-speed/layers/scope"
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

// panicWorld is a world whose file contents cannot be read without a
// panic, standing in for a bug anywhere below Scope.
type panicWorld struct{ *scope.FileWorld }

func (panicWorld) Content(string) ([]byte, error) { panic("boom") }

func TestSafeScopeTurnsAPanicIntoAnError(t *testing.T) {
	task, _, err := feature.ParseTask(".speed/features/f/tasks/1.toml", []byte("id = \"1\"\ntitle = \"t\"\nfiles_touched = [\"a.go\"]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &feature.Feature{Name: "f", Spec: &feature.Spec{}, Tasks: []*feature.Task{task}}
	w := panicWorld{scope.NewFileWorld("", map[string][]byte{"a.go": []byte("package a\n")})}
	_, err = safeScope(w, f, "1", scope.Options{})
	if err == nil || !strings.Contains(err.Error(), "internal error while scoping task 1: boom") {
		t.Fatalf("got %v", err)
	}
	// The same task over the files alone scopes.
	res, err := safeScope(w.FileWorld, f, "1", scope.Options{})
	if err != nil || len(res.Material.Files) != 1 || res.Material.Files[0].Path != "a.go" {
		t.Fatalf("fallback world: %v %+v", err, res)
	}
	var ce *contextError
	if !errors.As(error(&contextError{err: errors.New("x")}), &ce) || unwrapContext(ce).Error() != "x" {
		t.Fatal("contextError does not unwrap")
	}
}
