package prompt

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-speed/git-speed/internal/tokens"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/golden")

// counter is the real o200k counter, the default of speed.toml.
func counter(t testing.TB) func(string) int {
	t.Helper()
	c, err := tokens.New(tokens.O200k)
	if err != nil {
		t.Fatal(err)
	}
	return c.Count
}

func loadFixture(t testing.TB) *Context {
	t.Helper()
	c, err := Load(filepath.Join("testdata", "task-T3"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./layers/prompt -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update and review the diff):\n%s", name, UnifiedDiff(FileDiff{Path: name, Old: string(want), New: string(got)}))
	}
}

// fixtureInput is the stage material a caller would read from git and the
// feature's task files, for the task-T3 fixture.
func fixtureInput(t testing.TB, c *Context) Input {
	tasks := []TaskSummary{
		{ID: "T1", Title: "Injectable clock for backoff", Status: "done", Requirements: []string{"REQ-2"}, FilesTouched: []string{"internal/fetch/fetch.go"}},
		{ID: "T2", Title: "Typed HTTP errors", Status: "done", Requirements: []string{"REQ-3"}, FilesTouched: []string{"internal/httpx/client.go", "internal/httpx/errors.go"}},
		{ID: "T3", Title: "Retry failed fetches with exponential backoff", Status: "todo", Requirements: []string{"REQ-2", "REQ-4"}, FilesTouched: []string{"internal/fetch/fetch.go", "internal/fetch/fetch_test.go"}},
		{ID: "T4", Title: "Expose retry counts as metrics", Status: "todo", FilesTouched: []string{"internal/fetch/fetch.go", "internal/metrics/metrics.go"}},
		{ID: "T10", Title: "Document retry settings", Status: "todo", Requirements: []string{"REQ-9"}, FilesTouched: []string{"README.md"}},
	}
	reqs := []Requirement{
		{ID: "REQ-1", Title: "Fetched documents are cached"},
		{ID: "REQ-2", Title: "Transient failures are retried"},
		{ID: "REQ-3", Title: "Errors say what failed"},
		{ID: "REQ-4", Title: "Cancellation is prompt"},
		{ID: "REQ-5", Title: "Retries are observable"},
	}
	oldFetch := c.Material.Files[0].Content
	newFetch := strings.Replace(oldFetch, `	resp, err := f.Client.Do(ctx, "GET", url)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", url, err)
	}
	if resp.Status >= 500 {
		return nil, fmt.Errorf("fetch %s: server error %d", url, resp.Status)
	}
`, `	var resp *httpx.Response
	var err error
	delay := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		resp, err = f.Client.Do(ctx, "GET", url)
		if err == nil && resp.Status < 500 {
			break
		}
		if attempt == f.maxRetries() {
			if err == nil {
				err = fmt.Errorf("server error %d", resp.Status)
			}
			return nil, fmt.Errorf("fetch %s: %w", url, err)
		}
		if err := f.sleep(ctx, delay); err != nil {
			return nil, err
		}
		delay *= 2
	}
`, 1)
	newFetch = strings.Replace(newFetch, "\t\"fmt\"\n", "\t\"fmt\"\n\t\"time\"\n", 1)
	return Input{
		Context: c,
		Counter: counter(t),
		Diffs: []FileDiff{
			{Path: "internal/fetch/fetch.go", Old: oldFetch, New: newFetch},
			{Path: "internal/fetch/fetch_test.go", Old: c.Material.Files[1].Content, New: c.Material.Files[1].Content},
			{Path: "internal/fetch/backoff.go", New: "package fetch\n\n// DefaultMaxRetries is used when Fetcher.MaxRetries is 0.\nconst DefaultMaxRetries = 3\n", Created: true},
		},
		RepoMap: "## internal/fetch\n- fetch.go: type Fetcher; func (*Fetcher) Fetch(ctx, url) ([]byte, error)\n## internal/httpx\n- client.go: type Client; type Response; func (*Client) Do(ctx, method, url) (*Response, error)\n## internal/cache\n- cache.go: type Cache; func New(n int) *Cache; Get; Put",
		Clusters: []Cluster{
			{Name: "storage", Files: []string{"internal/store/store.go", "internal/cache/cache.go"}},
			{Name: "network", Files: []string{"internal/httpx/client.go", "internal/fetch/fetch.go"}},
		},
		Alignment: []Alignment{
			{ID: "REQ-1", Title: "Fetched documents are cached", Status: "met", Evidence: []string{"internal/fetch/fetch.go:19 Fetcher.Fetch"}},
			{ID: "REQ-2", Title: "Transient failures are retried", Status: "partial", Evidence: []string{"internal/fetch/fetch.go:25"}},
			{ID: "REQ-5", Title: "Retries are observable", Status: "missing"},
		},
		Tasks:        tasks,
		Requirements: reqs,
		Symbols: map[string][]string{
			"T3": {"Fetcher.Fetch", "Fetcher.MaxRetries"},
			"T4": {"Fetcher.Fetch", "metrics.Counter"},
		},
		Decisions: []Decision{
			{Task: "T1", Summary: "Backoff timing goes through an injectable clock", Files: []string{"internal/fetch/fetch.go"}},
			{Task: "T4", Summary: "Fetch reports each attempt to a metrics.Counter passed in the Fetcher", Files: []string{"internal/fetch/fetch.go"}},
			{Task: "T2", Summary: "HTTP errors carry the status code", Files: []string{"internal/httpx/client.go"}},
		},
		FailureLog: "# example.com/fetchd/internal/fetch\n" +
			"internal/fetch/fetch.go:27:13: undefined: cache.ErrEvicted\n" +
			"internal/fetch/fetch.go:40:9: f.Cache.PutTTL undefined (type *cache.Cache has no field or method PutTTL)\n" +
			"FAIL\texample.com/fetchd/internal/fetch [build failed]\n",
	}
}

func TestRenderGolden(t *testing.T) {
	c := loadFixture(t)
	for _, stage := range Stages {
		t.Run(stage, func(t *testing.T) {
			in := fixtureInput(t, c)
			out, err := Render(stage, in)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, stage+".md", []byte(out.Text))
			rep, err := json.MarshalIndent(out.Report, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, stage+".report.json", append(rep, '\n'))
			if out.Classification != nil {
				cl, _ := json.MarshalIndent(out.Classification, "", "  ")
				golden(t, stage+".classification.json", append(cl, '\n'))
			}
			// Same input, same bytes.
			again, err := Render(stage, fixtureInput(t, c))
			if err != nil {
				t.Fatal(err)
			}
			if again.Text != out.Text {
				t.Error("second render differs from the first")
			}
		})
	}
}
