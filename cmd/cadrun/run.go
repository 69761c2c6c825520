package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "run [-workspace DIR | FILE.js] [-timeout D] -o out.svg|out.png|out.json|out.dxf|out.pdf [export flags]", stderr)
	ws := fs.String("workspace", "", "workspace directory (scene.code.js and modules/); default $CADRUN_HOME, else ~/.cadrun")
	out := fs.String("o", "", "output file; the extension picks the format: .svg, .png, .json, .dxf or .pdf")
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
	res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{Limits: runtime.Limits{Timeout: *timeout}})
	for _, l := range res.Logs {
		fmt.Fprintln(stderr, l)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if d, ok := err.(*runtime.Diagnostic); ok {
		fmt.Fprint(stderr, d.Render())
		return errReported
	}
	if err != nil {
		return err
	}
	if *out == "" {
		info := res.Scene.Info()
		fmt.Fprintf(stdout, "ok: %d entities in %v\n", info.Entities, res.Duration.Round(10_000))
		return nil
	}
	export.PNG.Width = *width
	data, err := format.Render(res.Scene, export)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
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
