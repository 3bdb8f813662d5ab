package report

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/base64"
	"html/template"
	"io"
	"strconv"
	"strings"
)

//go:embed page.html.tmpl page.css page.js
var files embed.FS

var (
	pageTmpl = template.Must(template.ParseFS(files, "page.html.tmpl"))
	pageCSS  = mustRead("page.css")
	pageJS   = mustRead("page.js")
)

func mustRead(name string) string {
	b, err := files.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// view is what the page template draws.
type view struct {
	Kind  string // "scope" or "pack": which tables the script draws
	Title string
	// Facts are the header's rows: what was reported, at which tree.
	Facts []fact
	// Failure, when set, is why there is nothing else to show.
	Failure string
	// Notes are lines said beside the picture (an over-budget, the cuts).
	Notes   []string
	Picture *svg
	Legend  []legend
	Data    []blob
	CSS     template.CSS
	JS      template.JS
}

type fact struct{ Key, Value string }

type legend struct{ Class, Label string }

// blob is one embedded JSON document: gzip (no name, no time, so the bytes
// are the same on every run), then base64, written as a JSON string so
// that the block holds valid JSON. Base64 needs no escaping in a script.
type blob struct {
	ID   string
	Text template.JS
}

func newBlob(id string, data []byte) (blob, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return blob{}, err
	}
	if _, err := zw.Write(data); err != nil {
		return blob{}, err
	}
	if err := zw.Close(); err != nil {
		return blob{}, err
	}
	return blob{ID: id, Text: template.JS(`"` + base64.StdEncoding.EncodeToString(b.Bytes()) + `"`)}, nil
}

// Decode returns the JSON document a page embeds under id (the bytes
// given to it), or false when the page has none: for tests and for users
// checking a page against the artifacts it shows.
func Decode(page []byte, id string) ([]byte, bool) {
	open := []byte(`<script type="application/json" id="` + id + `" data-encoding="gzip+base64">`)
	i := bytes.Index(page, open)
	if i < 0 {
		return nil, false
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil, false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Trim(string(bytes.TrimSpace(rest[:j])), `"`))
	if err != nil {
		return nil, false
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, false
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, false
	}
	return out, true
}

func (v *view) write(w io.Writer) error {
	v.CSS, v.JS = template.CSS(pageCSS), template.JS(pageJS)
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// svg is a picture drawn from shapes the Go side places, so that it shows
// without the script and its bytes are fixed by the inputs.
type svg struct {
	Width, Height string
	Rects         []rect
	Texts         []text
	Lines         []line
}

type rect struct {
	X, Y, W, H string
	Class      string
	Title      string
}

type text struct {
	X, Y   string
	Class  string
	Anchor string
	Text   string
}

type line struct {
	X1, Y1, X2, Y2 string
	Class          string
}

// num formats a coordinate with one decimal, the same on every platform.
func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// thousands writes n with thin separators every three digits: 37,620.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return neg + string(b)
}
