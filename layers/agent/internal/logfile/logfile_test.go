package logfile

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type entry struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

func TestTruncatedLastLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "log.jsonl")
	a, err := Lock(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3; i++ {
		if err := a.Append(entry{i, "x"}); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	// A crash mid-append leaves half a line.
	f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n":4,"te`)
	f.Close()
	a, _ = Lock(file)
	last, err := a.Last()
	if err != nil || string(last) != `{"n":3,"text":"x"}` {
		t.Fatalf("Last = %s, %v", last, err)
	}
	if err := a.Append(entry{5, "y"}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	lines, warns, err := ReadFile(file, "log.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 4 || len(warns) != 1 || !strings.Contains(warns[0], "log.jsonl:4: not a JSON object") {
		t.Fatalf("lines %d warns %q", len(lines), warns)
	}
	var e entry
	json.Unmarshal(lines[3].Raw, &e)
	if e.N != 5 || lines[3].No != 5 {
		t.Errorf("last entry %+v at line %d", e, lines[3].No)
	}
	// And a cut-short last line with nothing after it.
	f, _ = os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"n":6`)
	f.Close()
	lines, warns, _ = ReadFile(file, "log.jsonl")
	if len(lines) != 4 || len(warns) != 2 || !strings.Contains(warns[1], "log.jsonl:6: the last line is not a complete entry") {
		t.Fatalf("lines %d warns %q", len(lines), warns)
	}
}

func TestLastLongLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "log.jsonl")
	a, _ := Lock(file)
	defer a.Close()
	a.Append(entry{1, "short"})
	long := strings.Repeat("z", 300<<10)
	a.Append(entry{2, long})
	last, err := a.Last()
	if err != nil {
		t.Fatal(err)
	}
	var e entry
	if json.Unmarshal(last, &e); e.N != 2 || e.Text != long {
		t.Fatalf("Last = %d", e.N)
	}
}

// Two processes appending at once lose nothing and interleave no bytes.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv("LOGFILE_CHILD") != "" {
		a, err := Lock(os.Getenv("LOGFILE_CHILD"))
		if err != nil {
			os.Exit(1)
		}
		a.Close()
		for i := 0; i < 200; i++ {
			a, _ := Lock(os.Getenv("LOGFILE_CHILD"))
			a.Append(entry{i, strings.Repeat(os.Getenv("LOGFILE_TAG"), 5000)})
			a.Close()
		}
		return
	}
	file := filepath.Join(t.TempDir(), "log.jsonl")
	var wg sync.WaitGroup
	for _, tag := range []string{"a", "b"} {
		wg.Add(1)
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
		cmd.Env = append(os.Environ(), "LOGFILE_CHILD="+file, "LOGFILE_TAG="+tag)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child: %v\n%s", err, out)
			}
		}()
	}
	wg.Wait()
	lines, warns, _ := ReadFile(file, "log")
	if len(lines) != 400 || len(warns) != 0 {
		t.Fatalf("%d lines, warnings %v", len(lines), warns)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("{\"n\":1}\n{\"n\":2}\n"))
	f.Add([]byte("{\"n\":1}\n{\"n\":"))
	f.Add([]byte("\n\n[1,2]\n{}\r\n\x00\xff{\"a\":\"\\u0000\"}"))
	f.Add([]byte(`{"kind":"note","text":"` + strings.Repeat("é", 100) + `"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines, warns := Read(strings.NewReader(string(data)), "log")
		prev := 0
		for _, l := range lines {
			if !json.Valid(l.Raw) || l.Raw[0] != '{' || l.No <= prev {
				t.Fatalf("bad line %d %q", l.No, l.Raw)
			}
			prev = l.No
		}
		if n := strings.Count(string(data), "\n") + 1; len(lines)+len(warns) > n {
			t.Fatalf("%d lines and %d warnings from %d lines", len(lines), len(warns), n)
		}
		// Appending after any content keeps every complete line and adds one.
		file := filepath.Join(t.TempDir(), "l")
		os.WriteFile(file, data, 0o644)
		a, err := Lock(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Append(entry{7, fmt.Sprint(len(data))}); err != nil {
			t.Fatal(err)
		}
		last, _ := a.Last()
		a.Close()
		var e entry
		if json.Unmarshal(last, &e); e.N != 7 {
			t.Fatalf("Last after append = %s", last)
		}
		after, _, _ := ReadFile(file, "l")
		if len(after) < len(lines)+1 {
			t.Fatalf("append lost lines: %d then %d", len(lines), len(after))
		}
	})
}
