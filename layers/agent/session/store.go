package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/git-speed/git-speed/layers/agent/internal/logfile"
)

// Store is a folder of session logs, <id>.jsonl each, plus "current",
// which names the session started last.
type Store struct {
	Dir   string
	Count func(string) int // exact token counter; required
	Now   func() time.Time // nil means time.Now
	// WindowTokens and CompactAt: an append that brings the context to
	// CompactAt × WindowTokens compacts the session (0 disables it).
	WindowTokens int
	CompactAt    float64
	// Tail is how many compacted events a summary keeps verbatim.
	Tail int
}

// ErrNoSession is returned for a session id without a log.
var ErrNoSession = errors.New("no such session")

const currentFile = "current"

// ValidID reports whether id can name a session: letters, digits, '.',
// '_' and '-', not starting with '.', at most 64 bytes.
func ValidID(id string) bool {
	if id == "" || len(id) > 64 || id[0] == '.' || id == currentFile {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) file(id string) string { return filepath.Join(s.Dir, id+".jsonl") }

// Name is how messages name a session's log.
func (s *Store) Name(id string) string { return "sessions/" + id + ".jsonl" }

// StartOptions name a new session and its first task.
type StartOptions struct {
	ID    string   // "" picks one from the time: 20261124-004512
	Task  string   // when set, the first event is task_started with it
	Paths []string // the task's files
}

// Start creates a session and makes it the current one.
func (s *Store) Start(o StartOptions) (string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return "", err
	}
	id := o.ID
	if id != "" && !ValidID(id) {
		return "", fmt.Errorf("session id %q: use letters, digits, '.', '_' and '-' (at most 64, not starting with '.')", id)
	}
	base := id
	if base == "" {
		base = s.now().Format("20060102-150405")
	}
	for n := 1; ; n++ {
		id = base
		if n > 1 {
			if o.ID != "" {
				return "", fmt.Errorf("session %s already exists", o.ID)
			}
			id = fmt.Sprintf("%s-%d", base, n)
		}
		f, err := os.OpenFile(s.file(id), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		f.Close()
		break
	}
	if err := os.WriteFile(filepath.Join(s.Dir, currentFile), []byte(id+"\n"), 0o644); err != nil {
		return "", err
	}
	if o.Task != "" {
		if _, err := s.Append(id, Event{Kind: TaskStarted, Text: o.Task, Paths: o.Paths}, ""); err != nil {
			return "", err
		}
	}
	return id, nil
}

// Current returns the session started last, or ErrNoSession.
func (s *Store) Current() (string, error) {
	b, err := os.ReadFile(filepath.Join(s.Dir, currentFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%w: none started yet (git speed session start)", ErrNoSession)
	}
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(b))
	if !ValidID(id) {
		return "", fmt.Errorf("%s/%s does not name a session", s.Dir, currentFile)
	}
	return id, nil
}

func (s *Store) exists(id string) error {
	if !ValidID(id) {
		return fmt.Errorf("%w: %q is not a session id", ErrNoSession, id)
	}
	if _, err := os.Stat(s.file(id)); errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNoSession, id)
	} else if err != nil {
		return err
	}
	return nil
}

// Appended is the outcome of an append.
type Appended struct {
	Event     Event  `json:"event"`
	Compacted *Event `json:"compacted,omitempty"` // when the threshold compacted the session
}

// Append adds e to session id: its sequence number, time and token counts
// are set here (content is what the event put in the agent's context
// besides its text: a file's bytes, a tool's output; it is counted, not
// stored). When the session's context reaches the threshold, the session
// is compacted right after, in the same lock.
func (s *Store) Append(id string, e Event, content string) (*Appended, error) {
	if err := s.exists(id); err != nil {
		return nil, err
	}
	if !ValidKind(e.Kind) {
		return nil, fmt.Errorf("unknown event kind %q (want one of %s)", e.Kind, strings.Join(Kinds, ", "))
	}
	a, err := logfile.Lock(s.file(id))
	if err != nil {
		return nil, err
	}
	defer a.Close()
	last, err := lastEvent(a)
	if err != nil {
		return nil, err
	}
	e.Seq = last.Seq + 1
	e.Time = s.now().Format(time.RFC3339)
	e.Tokens = s.Count(e.Text) + s.Count(content)
	if content != "" {
		e.Bytes = int64(len(content))
	}
	e.Context = last.Context + e.Tokens
	e.Summary, e.Upto, e.Auto = nil, 0, false
	if err := a.Append(e); err != nil {
		return nil, err
	}
	res := &Appended{Event: e}
	if s.WindowTokens > 0 && s.CompactAt > 0 && float64(e.Context) >= s.CompactAt*float64(s.WindowTokens) {
		c, err := s.compactLocked(a, id, true)
		if err != nil {
			return res, err
		}
		res.Compacted = c
	}
	return res, nil
}

func lastEvent(a *logfile.Appender) (Event, error) {
	var e Event
	raw, err := a.Last()
	if err != nil || raw == nil {
		return e, err
	}
	if json.Unmarshal(raw, &e) != nil {
		return Event{}, nil
	}
	return e, nil
}

// Compact folds every event since the last compaction into a new rolling
// summary and appends it as a compacted event. With nothing new to fold it
// returns the last compaction unchanged (nil when there is none).
func (s *Store) Compact(id string) (*Event, error) {
	if err := s.exists(id); err != nil {
		return nil, err
	}
	a, err := logfile.Lock(s.file(id))
	if err != nil {
		return nil, err
	}
	defer a.Close()
	return s.compactLocked(a, id, false)
}

func (s *Store) compactLocked(a *logfile.Appender, id string, auto bool) (*Event, error) {
	l, err := s.read(id, true)
	if err != nil {
		return nil, err
	}
	prev, since := l.Split()
	var prevSum *Summary
	if prev != nil {
		prevSum = prev.Summary
	}
	if len(since) == 0 {
		return prev, nil
	}
	if auto {
		// When the summary itself fills the window, compacting again on
		// every event would not shrink it: wait until the events since
		// hold a tenth of the threshold.
		n := 0
		for _, e := range since {
			n += e.Tokens
		}
		if float64(n) < s.CompactAt*float64(s.WindowTokens)/10 {
			return nil, nil
		}
	}
	sum := Compact(prevSum, since, s.Tail)
	last := l.Events[len(l.Events)-1]
	text := sum.Render()
	e := Event{Seq: last.Seq + 1, Time: s.now().Format(time.RFC3339), Kind: Compacted, Summary: sum, Upto: sum.LastSeq, Auto: auto,
		Text: fmt.Sprintf("compacted events %d-%d", since[0].Seq, sum.LastSeq)}
	e.Tokens = s.Count(text)
	e.Context = e.Tokens
	if err := a.Append(e); err != nil {
		return nil, err
	}
	return &e, nil
}

// Log is a session's events as read, with a warning per skipped line.
type Log struct {
	ID       string   `json:"id"`
	Events   []Event  `json:"events"`
	Warnings []string `json:"warnings,omitempty"`
}

// Read reads session id's log.
func (s *Store) Read(id string) (*Log, error) { return s.read(id, false) }

// ReadWindow reads session id's log from its last compaction on: enough
// for the window and for usage, however long the session.
func (s *Store) ReadWindow(id string) (*Log, error) { return s.read(id, true) }

func (s *Store) read(id string, fromLastCompaction bool) (*Log, error) {
	if err := s.exists(id); err != nil {
		return nil, err
	}
	lines, warns, err := logfile.ReadFile(s.file(id), s.Name(id))
	if err != nil {
		return nil, err
	}
	if fromLastCompaction {
		for i := len(lines) - 1; i >= 0; i-- {
			if bytes.Contains(lines[i].Raw, []byte(`"kind":"compacted"`)) {
				lines = lines[i:]
				break
			}
		}
	}
	return decode(id, s.Name(id), lines, warns), nil
}

func decode(id, name string, lines []logfile.Line, warns []string) *Log {
	l := &Log{ID: id, Warnings: warns}
	for _, ln := range lines {
		var e Event
		if err := json.Unmarshal(ln.Raw, &e); err != nil || e.Kind == "" || (e.Kind == Compacted && e.Summary == nil) {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s:%d: not a session event; skipped", name, ln.No))
			continue
		}
		l.Events = append(l.Events, e)
	}
	return l
}

// Split returns the last compaction (nil when none) and the events after it.
func (l *Log) Split() (*Event, []Event) {
	for i := len(l.Events) - 1; i >= 0; i-- {
		if l.Events[i].Kind == Compacted {
			c := l.Events[i]
			return &c, l.Events[i+1:]
		}
	}
	return nil, l.Events
}

// Info describes one session for list.
type Info struct {
	ID          string `json:"id"`
	Current     bool   `json:"current"`
	Events      int    `json:"events"`
	Compactions int    `json:"compactions"`
	Started     string `json:"started,omitempty"`
	Last        string `json:"last,omitempty"`
	Context     int    `json:"context_tokens"`
	Goal        string `json:"goal,omitempty"`
}

// List describes every session, oldest id first.
func (s *Store) List() ([]Info, []string, error) {
	ents, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	cur, _ := s.Current()
	var out []Info
	var warns []string
	for _, de := range ents {
		id, ok := strings.CutSuffix(de.Name(), ".jsonl")
		if !ok || !ValidID(id) {
			continue
		}
		l, err := s.Read(id)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%s: %v", s.Name(id), err))
			continue
		}
		warns = append(warns, l.Warnings...)
		in := Info{ID: id, Current: id == cur}
		for _, e := range l.Events {
			if e.Kind == Compacted {
				in.Compactions++
				continue
			}
			in.Events++
			if in.Goal == "" && e.Kind == TaskStarted {
				in.Goal = oneLine(e.Text)
			}
		}
		if n := len(l.Events); n > 0 {
			in.Started, in.Last, in.Context = l.Events[0].Time, l.Events[n-1].Time, l.Events[n-1].Context
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, warns, nil
}
