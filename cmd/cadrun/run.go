package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
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
	out := fs.String("o", "", "output file; the extension picks the format: "+strings.Join(outputFormats(), ", ")+" (none: print a summary)")
	timeout := fs.Duration("timeout", runtime.DefaultLimits.Timeout, "wall-clock limit for the script")
	width := fs.Int("width", 0, "PNG width in pixels (default: longest side 1024)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return errUsage
	}
	if len(positional) > 1 || (len(positional) == 1 && *ws != "") {
		fmt.Fprintln(stderr, "cadrun run: give a workspace or one FILE.js, not both")
		fs.Usage()
		return errUsage
	}
	var enc encoder
	if *out != "" {
		if enc, err = encoderFor(*out); err != nil {
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
	res, err := pool.Run(context.Background(), src, runtime.MainModule, runtime.Options{Limits: runtime.Limits{Timeout: *timeout}})
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
	if err != nil {
		return err
	}
	if enc == nil {
		info := res.Scene.Info()
		fmt.Fprintf(stdout, "ok: %d entities in %v\n", info.Entities, res.Duration.Round(10_000))
		return nil
	}
	data, err := enc(res.Scene, *width)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
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

// encoder renders a scene to an output file's bytes; width is the PNG width (0: default).
type encoder func(s *scene.Scene, width int) ([]byte, error)

// encoders maps an output file's extension to its format: the one place that choice is made.
var encoders = map[string]encoder{
	".svg":  func(s *scene.Scene, _ int) ([]byte, error) { return render.SVG(s, render.SVGOptions{}) },
	".png":  func(s *scene.Scene, width int) ([]byte, error) { return render.PNG(s, render.PNGOptions{Width: width}) },
	".json": func(s *scene.Scene, _ int) ([]byte, error) { return s.MarshalJSON() },
}

// encoderFor picks the encoder for an output path by its extension, in any case.
func encoderFor(out string) (encoder, error) {
	if enc, ok := encoders[strings.ToLower(filepath.Ext(out))]; ok {
		return enc, nil
	}
	return nil, fmt.Errorf("output %q must end in %s", out, strings.Join(outputFormats(), ", "))
}

// outputFormats lists the extensions -o accepts, sorted.
func outputFormats() []string {
	return slices.Sorted(maps.Keys(encoders))
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
