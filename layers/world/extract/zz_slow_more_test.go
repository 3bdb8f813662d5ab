package extract

import (
	"bytes"
	"testing"
	"time"
)

func TestZZSlowMore(t *testing.T) {
	inputs := map[string][]byte{
		"braces":  bytes.Repeat([]byte("class A {\n function f-x { ( [x] \n"), 3000),
		"ruby":    bytes.Repeat([]byte("foo do |x|\n  bar { |y| y }\n"), 3000),
		"quotes":  bytes.Repeat([]byte("# c\n'a' \"b\" <# x #> @'\nq\n'@\n$x.M(1)\n"), 3000),
		"classps": append([]byte("class C {\n"), bytes.Repeat([]byte("  [int] $x = 1\n  [void] M() { Get-Item }\n"), 3000)...),
		"ini":     bytes.Repeat([]byte("[s]\nk = v\n  cont\n;c\n"), 5000),
	}
	for name, src := range inputs {
		for _, lang := range moreLangs {
			start := time.Now()
			ParseOnly(lang, src)
			p := time.Since(start)
			start = time.Now()
			extractMore(lang, src)
			if d := time.Since(start); d > 300*time.Millisecond {
				t.Logf("%s/%s: parse %v extract %v for %d bytes", name, lang, p, d, len(src))
			}
		}
	}
}
