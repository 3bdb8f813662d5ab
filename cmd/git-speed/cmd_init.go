package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	gitspeed "github.com/git-speed/git-speed"
	"github.com/git-speed/git-speed/internal/config"
	"github.com/git-speed/git-speed/internal/hooks"
)

func cmdInit() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write speed.toml and .speed/ from the examples and install the hooks",
		UsageText: "git speed init [--no-hooks]",
		Description: "Writes speed.toml (every key with its default) and .speed/ (a sample feature showing\n" +
			"the spec and task formats) at the top of the work tree, then installs the hooks.\n" +
			"It refuses to overwrite either.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "no-hooks", Usage: "do not install the hooks"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			e, err := openEnv(c)
			if err != nil && !isConfigError(err) {
				return err
			}
			if e == nil || e.top == "" {
				if e != nil && e.top == "" {
					return errors.New("init needs a work tree; this is a bare repository")
				}
				return err
			}
			cfgFile := filepath.Join(e.top, config.FileName)
			speedDir := filepath.Join(e.top, ".speed")
			for _, p := range []string{cfgFile, speedDir} {
				if _, err := os.Lstat(p); err == nil {
					return fmt.Errorf("%s already exists; not overwriting it (move it away to start afresh)", rel(e.top, p))
				}
			}
			example, err := gitspeed.Examples.ReadFile("speed.toml.example")
			if err != nil {
				return err
			}
			if err := os.WriteFile(cfgFile, example, 0o644); err != nil {
				return err
			}
			err = fs.WalkDir(gitspeed.Examples, ".speed.example", func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				dst := filepath.Join(speedDir, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, ".speed.example"), "/")))
				if d.IsDir() {
					return os.MkdirAll(dst, 0o755)
				}
				if path.Base(p) == ".gitignore" || strings.Contains(p, "/context/") {
					return nil
				}
				data, err := gitspeed.Examples.ReadFile(p)
				if err != nil {
					return err
				}
				return os.WriteFile(dst, data, 0o644)
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "git-speed: wrote %s and %s/\n", config.FileName, ".speed")
			if c.Bool("no-hooks") {
				return nil
			}
			rep, err := hooks.Install(e.top, hooks.Options{})
			if err != nil {
				return err
			}
			return reportHooks(c, rep, nil)
		},
	}
}

func rel(top, p string) string {
	if r, err := filepath.Rel(top, p); err == nil {
		return r
	}
	return p
}
