// Command git-speed is the git subcommand `git speed`: it indexes a
// repository into a world model (Layer 1), scopes one task's context under
// a token budget (Layer 2) and renders stage prompts (Layer 3).
//
// Exit codes: 0 success, 1 failure, 2 bad usage (flag, argument or config),
// 3 verify found differences.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/git-speed/git-speed/internal/app"
)

func main() { os.Exit(Main()) }

// Main runs git-speed with the process's arguments and returns its exit code.
func Main() int {
	// GIT_SPEED_CPUPROFILE=file writes a CPU profile of the run (for benchmarks).
	if p := os.Getenv("GIT_SPEED_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			defer f.Close()
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	// GIT_SPEED_GOTRACE=file writes an execution trace of the run (go tool
	// trace: where a core sits idle).
	if p := os.Getenv("GIT_SPEED_GOTRACE"); p != "" {
		if f, err := os.Create(p); err == nil {
			defer f.Close()
			if trace.Start(f) == nil {
				defer trace.Stop()
			}
		}
	}
	// GIT_SPEED_HEAPPROFILE=file writes a heap profile taken when the live
	// heap was at its largest (for benchmarks).
	if p := os.Getenv("GIT_SPEED_HEAPPROFILE"); p != "" {
		defer watchHeap(p)()
	}
	return run(os.Args, os.Stdout, os.Stderr)
}

// watchHeap writes a heap profile to p each time the live heap grows by a
// tenth past its largest size so far, until the returned stop is called.
func watchHeap(p string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var peak uint64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak+peak/10 {
				peak = v
				if f, err := os.Create(p); err == nil {
					_ = pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// Exit codes.
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitMismatch = 3
)

// usagef is a mistake in how git-speed was called (exit 2).
func usagef(format string, args ...any) error { return app.Usagef(format, args...) }

// run runs one command line and maps its error to a message on stderr and
// an exit code: the one place that does.
func run(args []string, stdout, stderr io.Writer) int {
	cli := newApp(stdout, stderr)
	err := cli.Run(interspersed(cli, args))
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "git-speed: %s\n", err)
	var ue *app.UsageError
	var me *app.MismatchError
	switch {
	case errors.As(err, &me):
		return exitMismatch
	case errors.As(err, &ue), app.IsConfigError(err):
		return exitUsage
	}
	return exitFailure
}
func newApp(stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "git-speed",
		HelpName:  "git speed",
		Usage:     "token-budgeted, reproducible context for coding agents, from git",
		UsageText: "git speed <command> [flags] [args]",
		Description: "git-speed indexes a repository into a world model (project map, code symbol graph,\n" +
			"skeletons), stored under refs/speed and keyed by tree; scopes one task's context under a\n" +
			"token budget into .speed/features/<feature>/context/task-<id>/; and renders stage prompts.\n" +
			"Run `git speed <command> -h` for a command's flags. Exit codes: 0 ok, 1 failure,\n" +
			"2 bad usage or config, 3 verify found differences.",
		Version:         versionString(),
		Writer:          stdout,
		ErrWriter:       stderr,
		HideHelpCommand: true,
		// Errors are printed once, by run, and mapped to exit codes there.
		ExitErrHandler: func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usagef("%v", err)
		},
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "speed-dir", EnvVars: []string{"SPEED_DIR"}, Value: ".speed",
				Usage: "folder of features and template overrides, relative to the top of the work tree"},
		},
		Commands: commands(),
	}
	return app
}
