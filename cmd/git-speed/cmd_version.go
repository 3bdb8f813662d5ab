package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/redact"
	"github.com/git-speed/git-speed/layers/world"
	"github.com/git-speed/git-speed/layers/world/extract"
)

func cmdVersion() *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print git-speed's version and its format versions",
		Flags: []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			v := map[string]any{"version": versionString(), "format": world.FormatVersion, "extractor": extract.Version, "go": runtime.Version(), "languages": extract.Languages(),
				"redact_rules": redact.RulesVersion, "redact_digest": redact.Default().Digest()}
			if c.Bool("json") {
				return printJSON(c.App.Writer, v)
			}
			_, err := fmt.Fprintf(c.App.Writer, "git-speed %s (format %d, extractor %d, redaction rules %d, %s)\n", versionString(), world.FormatVersion, extract.Version, redact.RulesVersion, runtime.Version())
			return err
		},
	}
}

func versionString() string {
	v := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return v
}
