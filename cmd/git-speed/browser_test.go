package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/net/html"

	"github.com/git-speed/git-speed/layers/report"
)

// chromium is the headless browser report pages are loaded in (Debian's
// package chromium; .ci/run installs it when it can), or "" when there is
// none: the scripts that need it skip ([!chromium] skip).
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browserPage is the PAGE argument of the browsercheck command: the page
// as the browser drew it (its DOM) and as written (the file).
type browserPage struct {
	ts   *testscript.TestScript
	file []byte
	dom  *html.Node
}

// browserCheck is the script command `browsercheck PAGE [SHOT.png]`: it
// loads PAGE in headless Chromium and fails unless the page's script drew
// it with no console message at all (it logs nothing unless it fails) and
// the rendered DOM shows what the JSON embedded in the page says (each
// delivered file with its tier and tokens, each cut, each pack item in
// rank order, a failed scope's reason); given SHOT.png, it also takes a
// screenshot there and fails if it is blank. (Each browser start costs a
// second or more: one screenshot a script is enough.)
func browserCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: browsercheck PAGE [SCREENSHOT.png]")
	}
	bin := chromium()
	if bin == "" {
		ts.Fatalf("no chromium: guard the script with [!chromium] skip")
	}
	page := ts.MkAbs(args[0])
	file, err := os.ReadFile(page)
	ts.Check(err)
	profile := ts.MkAbs(".chromium-" + filepath.Base(page))
	common := []string{"--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", "--user-data-dir=" + profile}

	var dom, logs bytes.Buffer
	browse(ts, bin, &dom, &logs, append(common, "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)...)
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			ts.Fatalf("the page wrote on the console: %s", l)
		}
	}
	root, err := html.Parse(&dom)
	ts.Check(err)
	p := &browserPage{ts: ts, file: file, dom: root}
	htmlEl := p.find(func(n *html.Node) bool { return n.Data == "html" })
	if got := attr(htmlEl, "data-rendered"); got != "ok" {
		ts.Fatalf("the page's script did not finish drawing (data-rendered=%q); %s", got, text(p.byID("status")))
	}
	ts.Logf("rendered in %s ms after navigation", attr(htmlEl, "data-render-ms"))
	switch kind := attr(p.find(func(n *html.Node) bool { return n.Data == "body" }), "data-kind"); {
	case kind == "pack":
		p.checkPack()
	case kind == "scope" && p.byID("failure") != nil:
		p.checkFailure()
	case kind == "scope":
		p.checkScope()
	default:
		ts.Fatalf("the page is of no kind drawn here: %q", kind)
	}

	if len(args) < 2 {
		return
	}
	shot := ts.MkAbs(args[1])
	browse(ts, bin, nil, nil, append(common, "--window-size=1280,900", "--screenshot="+shot, "file://"+page)...)
	f, err := os.Open(shot)
	ts.Check(err)
	defer f.Close()
	img, err := png.Decode(f)
	ts.Check(err)
	if n := colours(img); n < 16 {
		ts.Fatalf("the screenshot of %s is blank: %d colours", args[0], n)
	}
}

// browse runs the browser once; a guard (not a measure) stops one that hangs.
func browse(ts *testscript.TestScript, bin string, stdout, stderr *bytes.Buffer, args ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if err := cmd.Run(); err != nil {
		ts.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	if stderr != nil {
		stderr.Write(errb.Bytes())
	}
}

func (p *browserPage) checkScope() {
	var m struct {
		Files []struct {
			Path   string `json:"path"`
			Tier   string `json:"tier"`
			Tokens int    `json:"tokens"`
		} `json:"files"`
	}
	var b struct {
		Cuts []struct {
			Path        string `json:"path"`
			From        string `json:"from"`
			To          string `json:"to"`
			TokensSaved int    `json:"tokens_saved"`
		} `json:"cuts"`
		Dimensions map[string]struct {
			Limit int `json:"limit"`
		} `json:"dimensions"`
	}
	p.embedded(report.ManifestID, &m)
	p.embedded(report.BudgetID, &b)
	rows := map[string]*html.Node{}
	for _, tr := range p.all(withClass("file")) {
		rows[attr(tr, "data-path")] = tr
	}
	delivered := 0
	for _, f := range m.Files {
		tr := rows[f.Path]
		if f.Tier == "dropped" {
			if tr != nil {
				p.ts.Fatalf("%s is dropped, yet drawn while dropped candidates are hidden", f.Path)
			}
			continue
		}
		delivered++
		if tr == nil {
			p.ts.Fatalf("manifest.json delivers %s, the page does not show it", f.Path)
		}
		if got := text(p.in(tr, withClass("tier"))); got != f.Tier {
			p.ts.Fatalf("%s: the page shows tier %q, manifest.json %q", f.Path, got, f.Tier)
		}
		if got := text(p.in(tr, withClass("tokens"))); got != thousands(f.Tokens) {
			p.ts.Fatalf("%s: the page shows %q tokens, manifest.json %d", f.Path, got, f.Tokens)
		}
	}
	if len(rows) != delivered {
		p.ts.Fatalf("the page shows %d files, manifest.json delivers %d", len(rows), delivered)
	}
	cuts := p.all(withClass("cut"))
	if want := min(len(b.Cuts), 200); len(cuts) != want {
		p.ts.Fatalf("the page shows %d cuts, budget.json has %d", len(cuts), len(b.Cuts))
	}
	for i, tr := range cuts {
		c := b.Cuts[i]
		got := fmt.Sprintf("%s %s %s %s", text(p.in(tr, withClass("path"))), attr(tr, "data-from"), attr(tr, "data-to"), text(p.in(tr, withClass("saved"))))
		if want := fmt.Sprintf("%s %s %s %s", c.Path, c.From, c.To, thousands(c.TokensSaved)); !strings.HasPrefix(got, want) {
			p.ts.Fatalf("cut %d: the page shows %q, budget.json %q", i, got, want)
		}
	}
	for name, d := range b.Dimensions {
		tr := p.find(func(n *html.Node) bool { return attr(n, "data-dimension") == name })
		if tr == nil || text(p.in(tr, withClass("limit"))) != thousands(d.Limit) {
			p.ts.Fatalf("dimension %s: the page does not show its limit %d", name, d.Limit)
		}
	}
}

func (p *browserPage) checkFailure() {
	var f struct {
		Error string `json:"error"`
	}
	p.embedded(report.FailureID, &f)
	if got := text(p.byID("failure-message")); got != f.Error || f.Error == "" {
		p.ts.Fatalf("the failure page shows %q, its JSON says %q", got, f.Error)
	}
}

func (p *browserPage) checkPack() {
	var pk struct {
		Items []struct {
			Path  string  `json:"path"`
			Score float64 `json:"score"`
		} `json:"items"`
	}
	p.embedded(report.PackID, &pk)
	rows := p.all(withClass("item"))
	if len(rows) != len(pk.Items) || len(rows) == 0 {
		p.ts.Fatalf("the page shows %d pack items, its JSON %d", len(rows), len(pk.Items))
	}
	for i, tr := range rows {
		it := pk.Items[i]
		if got := text(p.in(tr, withClass("path"))); got != it.Path || attr(tr, "data-rank") != strconv.Itoa(i+1) {
			p.ts.Fatalf("rank %d: the page shows %s, the pack %s", i+1, got, it.Path)
		}
		if got, _ := strconv.ParseFloat(text(p.in(tr, withClass("score"))), 64); got != it.Score {
			p.ts.Fatalf("%s: the page shows score %v, the pack %v", it.Path, got, it.Score)
		}
	}
}

// embedded decodes the JSON document the page embeds under id into v.
func (p *browserPage) embedded(id string, v any) {
	data, ok := report.Decode(p.file, id)
	if !ok {
		p.ts.Fatalf("the page embeds no %s", id)
	}
	p.ts.Check(json.Unmarshal(data, v))
}

func (p *browserPage) byID(id string) *html.Node {
	return p.find(func(n *html.Node) bool { return attr(n, "id") == id })
}

func (p *browserPage) find(match func(*html.Node) bool) *html.Node { return p.in(p.dom, match) }

func (p *browserPage) all(match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(p.dom)
	return out
}

// in is the first element under n that matches.
func (p *browserPage) in(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n == nil {
		return nil
	}
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := p.in(c, match); m != nil {
			return m
		}
	}
	return nil
}

func withClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool {
		for _, c := range strings.Fields(attr(n, "class")) {
			if c == class {
				return true
			}
		}
		return false
	}
}

func attr(n *html.Node, key string) string {
	if n == nil {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// thousands is how the page writes a number of tokens: 37,620.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// colours counts the distinct colours of an image, up to 256.
func colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
			if len(seen) >= 256 {
				return len(seen)
			}
		}
	}
	return len(seen)
}
