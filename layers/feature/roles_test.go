package feature

import (
	"reflect"
	"strings"
	"testing"
)

func TestRoles(t *testing.T) {
	tree := map[string]bool{"calc/lexer.go": true, "calc/ast.go": true, "calc/parse.go": true}
	exists := func(p string) bool { return tree[p] }
	task, warns, err := ParseTask("tasks/t1.toml", []byte(`id = "t1"
files_touched = ["calc/lexer.go"]
[files]
create = ["./calc/token.go", "calc/token_test.go"]
modify = ["calc/parse.go", "calc/lexer.go"]
read = ["calc/ast.go"]
`), exists)
	if err != nil || len(warns) != 0 {
		t.Fatalf("%v %v", err, warns)
	}
	if got := task.Creates(); !reflect.DeepEqual(got, []string{"calc/token.go", "calc/token_test.go"}) {
		t.Errorf("creates %q", got)
	}
	if got := task.Modifies(); !reflect.DeepEqual(got, []string{"calc/lexer.go", "calc/parse.go"}) {
		t.Errorf("modifies %q", got)
	}
	if got := task.Writes(); !reflect.DeepEqual(got, []string{"calc/token.go", "calc/token_test.go", "calc/lexer.go", "calc/parse.go"}) {
		t.Errorf("writes %q", got)
	}
	if got := task.Paths(); len(got) != 5 || got[4] != "calc/ast.go" {
		t.Errorf("paths %q", got)
	}
	for p, want := range map[string]string{"calc/token.go": RoleCreate, "calc/lexer.go": RoleModify, "calc/parse.go": RoleModify, "calc/ast.go": RoleRead, "x.go": ""} {
		if got := task.Role(p); got != want {
			t.Errorf("role of %s: %q, want %q", p, got, want)
		}
	}
	// A done task whose created file exists, and whose read file is gone:
	// no problem, and a warning.
	done, warns, err := ParseTask("tasks/t2.toml", []byte("id = \"t2\"\nstatus = \"done\"\n[files]\ncreate = [\"calc/ast.go\"]\nread = [\"gone.go\"]\n"), exists)
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].String(), "key files.read: gone.go is not in the tree") || done.Role("calc/ast.go") != RoleCreate {
		t.Errorf("done task: %v %v", err, warns)
	}
}

func TestRoleErrors(t *testing.T) {
	exists := func(p string) bool { return p == "a.go" || p == "b.go" }
	for _, tc := range []struct{ name, body, want string }{
		{"create exists", "id = \"t1\"\n[files]\ncreate = [\"a.go\"]\n", "tasks/t1.toml:3: key files.create: a.go is already in the tree; a planned task cannot create it"},
		{"modify absent", "id = \"t1\"\n[files]\nmodify = [\"new.go\"]\n", "tasks/t1.toml:3: key files.modify: new.go is not in the tree (name it under files.create"},
		{"read absent", "id = \"t1\"\n[files]\nread = [\"new.go\"]\n", "tasks/t1.toml:3: key files.read: new.go is not in the tree"},
		{"outside", "id = \"t1\"\n[files]\ncreate = [\"../x.go\"]\n", "tasks/t1.toml:3: key files.create: path \"../x.go\" is outside the repository"},
		{"two roles", "id = \"t1\"\n[files]\nmodify = [\"a.go\"]\nread = [\"a.go\"]\n", "tasks/t1.toml:4: key files.read: a.go is also in files.modify; give each file one role"},
		{"touched and created", "id = \"t1\"\nfiles_touched = [\"n.go\"]\n[files]\ncreate = [\"n.go\"]\n", "key files.create: n.go is also in files_touched; give each file one role"},
		{"unknown role", "id = \"t1\"\n[files]\ndelete = [\"a.go\"]\n", "tasks/t1.toml:3: key files.delete: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseTask("tasks/t1.toml", []byte(tc.body), exists)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	// files_touched of a path not in the tree stays a warning.
	if _, warns, err := ParseTask("tasks/t1.toml", []byte("id = \"t1\"\nfiles_touched = [\"n.go\"]\n"), exists); err != nil || len(warns) != 1 {
		t.Errorf("files_touched absent: %v %v", err, warns)
	}
}
