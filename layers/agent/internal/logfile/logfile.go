// Package logfile is the append-only JSON-lines file the session log and the
// memory store are kept in: one JSON object per line, appended under an
// exclusive file lock with O_APPEND so two processes never interleave, and
// read back tolerantly: a line that is not a complete object (a crash
// mid-append) is a warning and is skipped, and nothing else is lost.
package logfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Line is one decoded line of a log.
type Line struct {
	No  int             // 1-based line number
	Raw json.RawMessage // the object
}

// Read returns the complete lines of r, and a warning for each line that is
// not a JSON object. name is how warnings name the file.
func Read(r io.Reader, name string) ([]Line, []string) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lines []Line
	var warns []string
	for no := 1; ; no++ {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 {
			last := b[len(b)-1] != '\n'
			t := bytes.TrimSpace(b)
			switch {
			case len(t) == 0:
			case t[0] == '{' && json.Valid(t):
				lines = append(lines, Line{No: no, Raw: append(json.RawMessage(nil), t...)})
			case last:
				warns = append(warns, fmt.Sprintf("%s:%d: the last line is not a complete entry (a crash while it was written?); skipped", name, no))
			default:
				warns = append(warns, fmt.Sprintf("%s:%d: not a JSON object; skipped", name, no))
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				warns = append(warns, fmt.Sprintf("%s:%d: %v; the rest is unreadable", name, no, err))
			}
			return lines, warns
		}
	}
}

// ReadFile reads the log at file; a missing file is an empty log.
func ReadFile(file, name string) ([]Line, []string, error) {
	f, err := os.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	lines, warns := Read(f, name)
	return lines, warns, nil
}

// Appender is a log opened for appending, held under its exclusive lock
// until Close.
type Appender struct {
	f *os.File
}

// Lock opens (creating it and its folder) the log at file for appending
// and takes its exclusive lock, waiting for another holder to finish.
func Lock(file string) (*Appender, error) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(file, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %v", file, err)
	}
	return &Appender{f: f}, nil
}

// Last returns the last complete JSON object of the log, or nil when it
// has none; it reads only the end of the file.
func (a *Appender) Last() (json.RawMessage, error) {
	st, err := a.f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	for win := int64(64 << 10); ; win *= 4 {
		off := max(size-win, 0)
		buf := make([]byte, size-off)
		if _, err := a.f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		// Walk complete lines backwards; the first may be partial unless off is 0.
		rest := buf
		for len(rest) > 0 {
			rest = bytes.TrimRight(rest, "\n")
			i := bytes.LastIndexByte(rest, '\n')
			if i < 0 && off > 0 {
				break // the line may start before the window
			}
			t := bytes.TrimSpace(rest[i+1:])
			if len(t) > 0 && t[0] == '{' && json.Valid(t) {
				return append(json.RawMessage(nil), t...), nil
			}
			if i < 0 {
				break
			}
			rest = rest[:i]
		}
		if off == 0 {
			return nil, nil
		}
	}
}

// Append writes v as one line. A log whose last line was cut short (a
// crash mid-append) first gets a newline, so the new entry stands on a
// line of its own and the broken one stays a single skipped line.
func (a *Appender) Append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	st, err := a.f.Stat()
	if err != nil {
		return err
	}
	var out []byte
	if st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := a.f.ReadAt(last, st.Size()-1); err != nil {
			return err
		}
		if last[0] != '\n' {
			out = append(out, '\n')
		}
	}
	out = append(append(out, b...), '\n')
	_, err = a.f.Write(out)
	return err
}

// Close releases the lock.
func (a *Appender) Close() error { return a.f.Close() }
