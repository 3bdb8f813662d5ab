// Command tokcount prints the tokens and characters of its stdin under
// git-speed's default tokenizer, for the bench scripts that measure what
// an output costs an agent (bench/pack-output.sh).
package main

import (
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/tokens"
)

func main() {
	b, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tokcount:", err)
		os.Exit(1)
	}
	c, err := tokens.New(config.Default().Tokens.Tokenizer)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tokcount:", err)
		os.Exit(1)
	}
	fmt.Printf("%d %d\n", c.Count(string(b)), utf8.RuneCount(b))
}
