package clientconfig

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// tomlKey is name as a TOML key: bare when it can be, else quoted.
func tomlKey(name string) string {
	if bareKey.MatchString(name) {
		return name
	}
	return jsonString(name) // a JSON string is a TOML basic string
}

type edit struct {
	from, to int
	text     string
}

// mergeTOML writes e as the table [mcp_servers.NAME] of Codex's
// config.toml: command, args, cwd and startup_timeout_sec are set in the
// table where it is (keys it has are replaced where they stand, missing
// ones added after its last key), or the table is appended at the end.
func mergeTOML(file string, old []byte, e Entry) ([]byte, error) {
	var before map[string]any
	if err := toml.Unmarshal(old, &before); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, _ := de.Position()
			return nil, fmt.Errorf("%s line %d: not valid TOML (%s); nothing was written", file, row, de.Error())
		}
		return nil, fmt.Errorf("%s: not valid TOML (%v); nothing was written", file, err)
	}
	want := []member{{"command", jsonString(e.Command)}, {"args", jsonStrings(e.Args)}}
	if e.Cwd != "" {
		want = append(want, member{"cwd", jsonString(e.Cwd)})
	}

	var p unstable.Parser
	p.Reset(old)
	ours, found := false, false
	headerEnd, lastEnd := -1, -1
	have := map[string]unstable.Range{}
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, end := keyOf(&p, n.Key())
			ours = n.Kind == unstable.Table && len(parts) == 2 && parts[0] == "mcp_servers" && parts[1] == e.Name
			if ours {
				found, headerEnd = true, end
			}
		case unstable.KeyValue:
			if !ours {
				continue
			}
			parts, _ := keyOf(&p, n.Key())
			if len(parts) == 1 {
				have[parts[0]] = n.Raw
			}
			lastEnd = int(n.Raw.Offset + n.Raw.Length)
		}
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("%s: not valid TOML (%v); nothing was written", file, err)
	}
	if e.StartupTimeout > 0 {
		if _, ok := have["startup_timeout_sec"]; !ok {
			want = append(want, member{"startup_timeout_sec", strconv.Itoa(e.StartupTimeout)})
		}
	}

	var edits []edit
	var add bytes.Buffer
	for _, m := range want {
		if r, ok := have[m.key]; ok {
			edits = append(edits, edit{int(r.Offset), int(r.Offset + r.Length), m.key + " = " + m.raw})
			continue
		}
		add.WriteString(m.key + " = " + m.raw + "\n")
	}
	out := old
	if found {
		at := headerEnd
		if lastEnd > at {
			at = lastEnd
		}
		if add.Len() > 0 {
			// After the end of that line (past a comment on it).
			nl := bytes.IndexByte(old[at:], '\n')
			text := add.String()
			if nl < 0 {
				at, text = len(old), "\n"+text
			} else {
				at += nl + 1
			}
			edits = append(edits, edit{at, at, text})
		}
		sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
		for _, ed := range edits {
			out = append(append(append([]byte{}, out[:ed.from]...), ed.text...), out[ed.to:]...)
		}
	} else {
		var b bytes.Buffer
		b.Write(old)
		if len(old) > 0 && old[len(old)-1] != '\n' {
			b.WriteByte('\n')
		}
		if len(bytes.TrimSpace(old)) > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("[mcp_servers." + tomlKey(e.Name) + "]\n")
		b.Write(add.Bytes())
		out = b.Bytes()
	}

	// The entry must read back as written; a server defined with dotted
	// keys or an inline table is not edited here.
	var after struct {
		MCPServers map[string]struct {
			Command string   `toml:"command"`
			Args    []string `toml:"args"`
		} `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(out, &after); err != nil || after.MCPServers[e.Name].Command != e.Command ||
		!reflect.DeepEqual(after.MCPServers[e.Name].Args, append([]string{}, e.Args...)) {
		return nil, fmt.Errorf("%s: mcp_servers.%s is written in a form git-speed does not edit (dotted keys or an inline table); change it by hand or remove it; nothing was written", file, e.Name)
	}
	return out, nil
}

// keyOf is the parts of a key and the offset just past its last part.
func keyOf(p *unstable.Parser, it unstable.Iterator) ([]string, int) {
	var parts []string
	end := 0
	for it.Next() {
		k := it.Node()
		parts = append(parts, string(k.Data))
		end = int(k.Raw.Offset + k.Raw.Length)
	}
	return parts, end
}
