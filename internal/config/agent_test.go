package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAgentExampleIsDefault(t *testing.T) {
	file := filepath.Join("..", "..", "speed.toml.example")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(file, data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Agent, Default().Agent) {
		t.Errorf("[agent] of speed.toml.example differs from the defaults:\n%+v\n%+v", c.Agent, Default().Agent)
	}
	for _, key := range []string{"instruction_files", "instruction_max_bytes", "global_instructions", "ancestor_instructions",
		"render_instructions", "context_budget", "window_tokens", "compact_at", "window_events", "preserved_tail", "memory_top",
		"embed_command", "instructions", "memories", "session"} {
		if !strings.Contains(string(data), "\n"+key+" =") {
			t.Errorf("speed.toml.example does not document agent key %s", key)
		}
	}
}

func TestAgentErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"[agent]\ncompact_at = 1.5\n", "speed.toml:2: key agent.compact_at: must be above 0"},
		{"[agent]\ninstruction_files = [\"a/b.md\"]\n", "key agent.instruction_files: \"a/b.md\" is not a file name"},
		{"[agent.shares]\nsession = 0.9\n", "key agent.shares: shares must add up to at most 1"},
		{"[agent]\nwindow_event = 3\n", "speed.toml:2: key agent.window_event: unknown key"},
	} {
		_, err := Parse("speed.toml", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}
