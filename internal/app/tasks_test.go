package app

import (
	"reflect"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/layers/feature"
)

// FuzzTaskTOML: whatever title, description and files a user gives, the
// task file task add writes reads back through the feature loader with the
// same values (or, for a path the loader refuses, is refused by it).
func FuzzTaskTOML(f *testing.F) {
	f.Add("Evict by age", "two\nlines \\n \"\"\" here", "src/a.go")
	f.Add("x\"y'z\\", "", "a b/c.go")
	f.Add("\x00\x7f\t", "\r\n", "")
	f.Fuzz(func(t *testing.T, title, desc, file string) {
		if strings.TrimSpace(title) == "" || !utf8Valid(title+desc+file) {
			return
		}
		var files []string
		if file != "" {
			c, err := feature.CleanPath(file)
			if err != nil {
				return
			}
			files = []string{c}
		}
		data := taskTOML("7", title, desc, files, []string{"3"}, []string{"REQ-2"})
		task, _, err := feature.ParseTask("tasks/7.toml", data, nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		want := strings.TrimSpace(strings.ReplaceAll(desc, "\r\n", "\n"))
		if want != "" && strings.Contains(want, "\n") {
			want += "\n"
		}
		if task.Title != title || task.Description != want || (len(files) > 0 && !reflect.DeepEqual(task.FilesTouched, files)) ||
			!reflect.DeepEqual(task.DependsOn, []string{"3"}) || task.Status != feature.StatusPlanned {
			t.Fatalf("read back %+v from\n%s", task, data)
		}
	})
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
