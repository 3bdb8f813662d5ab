// Package memory keeps notes an agent or its user wants across sessions,
// in an append-only JSON-lines file (adds and forgets, so nothing is
// rewritten), and finds the ones most similar to a task: by BM25 over words
// and identifiers split at camelCase and snake_case by default, or by the
// cosine of dense vectors when the caller supplies an embedding function.
// The same store and query always give the same ranking.
package memory

import (
	"encoding/json"
	"fmt"
	"github.com/git-speed/git-speed/internal/lex"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/git-speed/git-speed/layers/agent/internal/logfile"
)

// Memory is one note.
type Memory struct {
	ID      string   `json:"id"`
	Time    string   `json:"time"`
	Text    string   `json:"text"`
	Tags    []string `json:"tags,omitempty"`
	Session string   `json:"session,omitempty"`
}

// record is one line of the store: an add (with the memory) or a forget.
type record struct {
	Op   string  `json:"op"` // "add" or "forget"
	N    int     `json:"n"`  // add: the memory's number (its id is m<n>)
	ID   string  `json:"id"`
	Mem  *Memory `json:"memory,omitempty"`
	Time string  `json:"time,omitempty"`
}

// Store is a memory file in Dir (memories.jsonl).
type Store struct {
	Dir string
	Now func() time.Time // nil means time.Now
}

const fileName = "memories.jsonl"

func (s *Store) file() string { return filepath.Join(s.Dir, fileName) }

func (s *Store) now() string {
	t := time.Now()
	if s.Now != nil {
		t = s.Now()
	}
	return t.UTC().Format(time.RFC3339)
}

// Add stores a memory and returns it with its id.
func (s *Store) Add(text string, tags []string, sessionID string) (*Memory, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("a memory needs some text")
	}
	a, err := logfile.Lock(s.file())
	if err != nil {
		return nil, err
	}
	defer a.Close()
	// The next number comes from the whole file, since the last line may
	// be a forget or a broken line.
	lines, _, err := logfile.ReadFile(s.file(), fileName)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, l := range lines {
		var r record
		if json.Unmarshal(l.Raw, &r) == nil && r.N > n {
			n = r.N
		}
	}
	m := &Memory{ID: "m" + strconv.Itoa(n+1), Time: s.now(), Text: text, Tags: tags, Session: sessionID}
	if err := a.Append(record{Op: "add", N: n + 1, ID: m.ID, Mem: m}); err != nil {
		return nil, err
	}
	return m, nil
}

// Forget removes a memory from lists and searches (the add stays in the
// file, followed by the forget).
func (s *Store) Forget(id string) error {
	a, err := logfile.Lock(s.file())
	if err != nil {
		return err
	}
	defer a.Close()
	ms, _, err := s.List()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.ID == id {
			return a.Append(record{Op: "forget", ID: id, Time: s.now()})
		}
	}
	return fmt.Errorf("no memory %s (git speed memory list shows them)", id)
}

// List returns the memories not forgotten, oldest first, with a warning
// per line of the file it could not read.
func (s *Store) List() ([]Memory, []string, error) {
	lines, warns, err := logfile.ReadFile(s.file(), fileName)
	if err != nil {
		return nil, nil, err
	}
	var order []string
	live := map[string]Memory{}
	for _, l := range lines {
		var r record
		if err := json.Unmarshal(l.Raw, &r); err != nil || r.ID == "" || (r.Op == "add" && (r.Mem == nil || r.Mem.ID != r.ID)) || (r.Op != "add" && r.Op != "forget") {
			warns = append(warns, fmt.Sprintf("%s:%d: not a memory record; skipped", fileName, l.No))
			continue
		}
		if r.Op == "forget" {
			delete(live, r.ID)
			continue
		}
		if _, ok := live[r.ID]; !ok {
			order = append(order, r.ID)
		}
		live[r.ID] = *r.Mem
	}
	var out []Memory
	for _, id := range order {
		if m, ok := live[id]; ok {
			out = append(out, m)
			delete(live, id)
		}
	}
	return out, warns, nil
}

// Hit is a memory with its similarity to a query.
type Hit struct {
	Memory
	Score float64 `json:"score"`
}

// SearchOptions choose the model and how many hits to return.
type SearchOptions struct {
	Top int // 0 means 5
	// Embed, when set, returns a text's dense vector; hits are then ranked
	// by cosine. Without it, BM25 over words and identifier parts.
	Embed func(text string) ([]float64, error)
}

// Method names the ranking a search used.
func (o SearchOptions) Method() string {
	if o.Embed != nil {
		return "dense-cosine"
	}
	return "bm25"
}

// Search ranks ms by similarity to query and returns the top hits with a
// score above zero, best first (ties in id order).
func Search(ms []Memory, query string, o SearchOptions) ([]Hit, error) {
	if o.Top <= 0 {
		o.Top = 5
	}
	var scores []float64
	if o.Embed != nil {
		q, err := o.Embed(query)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			v, err := o.Embed(m.Text)
			if err != nil {
				return nil, fmt.Errorf("memory %s: %v", m.ID, err)
			}
			if len(v) != len(q) {
				return nil, fmt.Errorf("memory %s: the embedding has %d dimensions, the query's %d", m.ID, len(v), len(q))
			}
			scores = append(scores, cosine(q, v))
		}
	} else {
		scores = bm25(ms, query)
	}
	var hits []Hit
	for i, m := range ms {
		if scores[i] > 0 {
			hits = append(hits, Hit{Memory: m, Score: math.Round(scores[i]*10000) / 10000})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return idNum(hits[i].ID) < idNum(hits[j].ID)
	})
	if len(hits) > o.Top {
		hits = hits[:o.Top]
	}
	return hits, nil
}

func idNum(id string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "m"))
	return n
}

func cosine(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// BM25's usual constants.
const (
	k1 = 1.2
	b  = 0.75
)

func bm25(ms []Memory, query string) []float64 {
	docs := make([]map[string]int, len(ms))
	lens := make([]int, len(ms))
	df := map[string]int{}
	total := 0
	for i, m := range ms {
		docs[i] = map[string]int{}
		for _, t := range Terms(m.Text + " " + strings.Join(m.Tags, " ")) {
			if docs[i][t] == 0 {
				df[t]++
			}
			docs[i][t]++
			lens[i]++
		}
		total += lens[i]
	}
	scores := make([]float64, len(ms))
	if len(ms) == 0 {
		return scores
	}
	avg := float64(total) / float64(len(ms))
	if avg == 0 {
		avg = 1
	}
	seen := map[string]bool{}
	n := float64(len(ms))
	for _, t := range Terms(query) {
		if seen[t] || df[t] == 0 {
			continue
		}
		seen[t] = true
		idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
		for i := range ms {
			tf := float64(docs[i][t])
			if tf == 0 {
				continue
			}
			scores[i] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*float64(lens[i])/avg))
		}
	}
	return scores
}

// Terms splits text into the terms search compares: each word lowercased,
// and for an identifier also its parts (parseHTTPRequest → parsehttprequest,
// parse, http, request; max_file_bytes → max_file_bytes, max, file, bytes).
// Terms shorter than two letters and stop words (lex.IsStop) are left out.
func Terms(text string) []string {
	var out []string
	add := func(t string) {
		if len(t) >= 2 && !lex.IsStop(t) {
			out = append(out, t)
		}
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		w = strings.Trim(w, "_")
		lw := strings.ToLower(w)
		add(lw)
		if parts := lex.Split(w); len(parts) > 1 {
			for _, p := range parts {
				add(p)
			}
		}
	}
	return out
}
