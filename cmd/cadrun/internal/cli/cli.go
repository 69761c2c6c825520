// Package cli holds what cadrun's commands share (flags, exit statuses, the workspace, the
// worker pool) and the one command that needs nothing else, `cadrun run`.
//
// Why run lives here, and serves from this package's init function rather than from main:
// by the time main runs, Go has initialised every package the binary links, among them the
// MCP server, SQLite and the JSON Schema validator the tools check data files with, whose
// meta-schemas alone are a large share of a small run's whole process to compile. Go
// initialises packages in import-path order among those whose imports are done (the
// language specification, "Package initialization"); this package imports only modules,
// runtime and render of cadrun's, so its init runs right after they are ready, before the
// packages only the other commands use, and a `cadrun run` process runs its script and exits
// from there. It is the same code main would run: main's command table calls Run too (the
// tests, `cadrun help`). cmd/cadrun's TestRunSkipsUnneededInit keeps it so.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// ErrUsage marks a bad command line: the usage is printed and the exit status is 2.
var ErrUsage = errors.New("usage")

// ErrReported marks a failure already explained on stderr: the exit status is 1.
var ErrReported = errors.New("reported")

// Status is the exit status of command name after it returned err; an error not yet
// explained is printed to stderr as "cadrun NAME: error".
func Status(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrUsage), errors.Is(err, flag.ErrHelp):
		return 2
	case errors.Is(err, ErrReported):
		return 1
	}
	fmt.Fprintf(stderr, "cadrun %s: %v\n", name, err)
	return 1
}

// NewFlags returns a flag set that reports errors to stderr and does not exit.
// The synopsis may go on, after a blank line, with what the command does.
func NewFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: cadrun %s\n", synopsis)
		if strings.Contains(synopsis, "\n") {
			fmt.Fprintln(stderr, "\nflags:")
		}
		fs.PrintDefaults()
	}
	return fs
}

// NewPool is the worker pool of a one-shot command: scripts run in a worker process, as under
// `cadrun mcp`, so that a script that exhausts memory or the Go stack ends the worker with a
// diagnostic, never this process. The worker starts when the first run needs it (no warm-up
// in the background) and is reused for later runs of the same command.
func NewPool() *runtime.Pool {
	return runtime.NewPool(runtime.PoolOptions{Lazy: true})
}

// Source picks the scripts: one file as main (its folder's modules/ beside it), or a workspace.
func Source(ws, file string) (runtime.Source, error) {
	if file != "" {
		content, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", file, err)
		}
		w, err := modules.Open(filepath.Dir(file))
		if err != nil {
			return nil, err
		}
		return runtime.Overlay{Base: w, Name: runtime.MainModule, Content: content, Path: file}, nil
	}
	dir, err := WorkspaceDir(ws)
	if err != nil {
		return nil, err
	}
	return modules.Open(dir)
}

// WorkspaceDir resolves the workspace: the flag, else $CADRUN_HOME, else ~/.cadrun.
func WorkspaceDir(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	if env := os.Getenv("CADRUN_HOME"); env != "" {
		return env, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the default workspace: %w; pass -workspace DIR", err)
	}
	return filepath.Join(home, ".cadrun"), nil
}

// ParseInterleaved parses flags given before and after positional arguments
// (`cadrun run drawing.js -o out.png`), which the flag package alone stops at.
func ParseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
