package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

// runSynopsis is run's usage line and what it does.
const runSynopsis = `run [-workspace DIR | FILE.js] [-timeout D] [-o OUT [-width N]]

Runs main (scene.code.js of the workspace, or FILE.js with the modules/ beside it) in a
worker process, under the same limits as the MCP server. With -o it writes the scene to OUT,
in the format its extension names (see -o); without -o it only runs the program and prints a one-line
summary ("ok: N entities in T"). Console output and warnings go to stderr; a failure prints
the diagnostic and exits 1.`

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", runSynopsis, stderr)
	ws := fs.String("workspace", "", "workspace directory (scene.code.js and modules/); default $CADRUN_HOME, else ~/.cadrun")
	out := fs.String("o", "", "output file; the extension picks the format: "+render.Extensions()+" (none: print a summary)")
	timeout := fs.Duration("timeout", runtime.DefaultLimits.Timeout, "wall-clock limit for the script")
	width := fs.Int("width", 0, "PNG width in pixels (default: longest side 1024)")
	var export render.Options
	export.Flags(fs)
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return errUsage
	}
	if len(positional) > 1 || (len(positional) == 1 && *ws != "") {
		fmt.Fprintln(stderr, "cadrun run: give a workspace or one FILE.js, not both")
		fs.Usage()
		return errUsage
	}
	var format render.Format
	if *out != "" {
		if format, err = render.ByExt(*out); err != nil {
			fmt.Fprintf(stderr, "cadrun run: %v\n", err)
			return errUsage
		}
	}
	file := ""
	if len(positional) == 1 {
		file = positional[0]
	}
	src, err := source(*ws, file)
	if err != nil {
		return err
	}
	pool := newPool()
	defer pool.Close()
	opt := runtime.Options{Limits: runtime.Limits{Timeout: *timeout}}
	if *out == "" {
		res, n, err := pool.Count(context.Background(), src, runtime.MainModule, opt)
		if err := report(res, err, stderr); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "ok: %d entities in %v\n", n, res.Duration.Round(10_000))
		return nil
	}
	export.PNG.Width = *width
	var data []byte
	if request, jerr := json.Marshal(render.Request{Ext: format.Ext, Options: export}); jerr == nil {
		// The worker writes the file's bytes (see Pool.Export): the scene stays where it was made.
		res, b, err := pool.Export(context.Background(), src, runtime.MainModule, opt, request)
		if err := report(res, err, stderr); err != nil {
			return err
		}
		data = b
	} else {
		// Options JSON cannot carry (a scale that overflowed to +Inf) are refused by the
		// writer itself, here, after the run, as they always were.
		res, err := pool.Run(context.Background(), src, runtime.MainModule, opt)
		if err := report(res, err, stderr); err != nil {
			return err
		}
		if data, err = format.Render(res.Scene, export); err != nil {
			return err
		}
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
}

// report prints a run's console output and warnings to stderr, and its diagnostic if it
// failed (then errReported); other errors come back as they are.
func report(res *runtime.Result, err error, stderr io.Writer) error {
	if res != nil {
		for _, l := range res.Logs {
			fmt.Fprintln(stderr, l)
		}
		for _, w := range res.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	if d, ok := err.(*runtime.Diagnostic); ok {
		fmt.Fprint(stderr, d.Render())
		return errReported
	}
	return err
}

// newPool is the worker pool of a one-shot command: scripts run in a worker process, as under
// `cadrun mcp`, so that a script that exhausts memory or the Go stack ends the worker with a
// diagnostic, never this process. The worker starts when the first run needs it (no warm-up
// in the background) and is reused for later runs of the same command.
func newPool() *runtime.Pool {
	return runtime.NewPool(runtime.PoolOptions{Lazy: true})
}

// source picks the scripts: one file as main (its folder's modules/ beside it), or a workspace.
func source(ws, file string) (runtime.Source, error) {
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
	dir, err := workspaceDir(ws)
	if err != nil {
		return nil, err
	}
	return modules.Open(dir)
}

// workspaceDir resolves the workspace: the flag, else $CADRUN_HOME, else ~/.cadrun.
func workspaceDir(flagValue string) (string, error) {
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

// parseInterleaved parses flags given before and after positional arguments
// (`cadrun run drawing.js -o out.png`), which the flag package alone stops at.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
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
