package feature

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// A task's constraints besides its files, as SPEED's assembly puts them
// under Constraints: the assumptions a task states (assumptions = […] in
// its file), the cross-cutting concerns of its feature (concerns = […] in
// the feature's feature.toml) and the concerns its done upstream tasks
// recorded (concerns = […] in their files). Each is one line of text.

// FileName is the feature-level settings file in a feature's folder.
const FileName = "feature.toml"

// file is feature.toml, decoded strictly.
type file struct {
	Concerns []string `toml:"concerns"`
}

// loadFile reads dir/feature.toml when there is one.
func (f *Feature) loadFile(root fs.FS, dir string) error {
	p := path.Join(dir, FileName)
	data, err := fs.ReadFile(root, p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &Error{File: p, Msg: err.Error()}
	}
	var ff file
	if err := decodeStrict(p, data, &ff); err != nil {
		return err
	}
	if errs := checkTexts(p, data, "concerns", ff.Concerns); len(errs) > 0 {
		return errs[0]
	}
	f.Concerns, f.FilePath, f.FileRaw = ff.Concerns, p, data
	return nil
}

// checkTexts checks the one-line texts of key: none may be blank.
func checkTexts(name string, data []byte, key string, texts []string) []*Error {
	var errs []*Error
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			errs = append(errs, &Error{File: name, Line: lineOfKey(data, key), Key: key, Msg: fmt.Sprintf("entry %d is empty", i+1)})
		}
	}
	return errs
}

// Concern is one cross-cutting concern a task is given, with where it
// comes from.
type Concern struct {
	// Source is "feature" for the feature's own, or the id of the task
	// that recorded it.
	Source string
	Text   string
	// Path is where it is written: "<feature.toml>#concerns[i]" or
	// "<task file>#concerns[i]".
	Path string
}

// ConcernsFor returns the concerns task id is given: the feature's, then
// its own, then those of the done tasks upstream of it, nearest first.
func (f *Feature) ConcernsFor(id string) []Concern {
	var out []Concern
	add := func(source, file string, texts []string) {
		for i, t := range texts {
			out = append(out, Concern{Source: source, Text: strings.TrimSpace(t), Path: fmt.Sprintf("%s#concerns[%d]", file, i)})
		}
	}
	add("feature", f.FilePath, f.Concerns)
	t := f.Task(id)
	if t == nil {
		return out
	}
	add(t.ID, t.Path, t.Concerns)
	for _, u := range f.Upstream(id) {
		add(u.ID, u.Path, u.Concerns)
	}
	return out
}
