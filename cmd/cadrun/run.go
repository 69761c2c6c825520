package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

func runRun(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("run", "run [-workspace DIR | FILE.js] [-timeout D] -o out.svg|out.png|out.json", stderr)
	ws := fs.String("workspace", "", "workspace directory (scene.code.js and modules/); default $CADRUN_HOME, else ~/.cadrun")
	out := fs.String("o", "", "output file; the extension picks the format: .svg, .png or .json")
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
	format := strings.ToLower(filepath.Ext(*out))
	if *out != "" && format != ".svg" && format != ".png" && format != ".json" {
		fmt.Fprintf(stderr, "cadrun run: output %q must end in .svg, .png or .json\n", *out)
		return errUsage
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
	data, err := encode(res.Scene, format, *width)
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

func encode(s *scene.Scene, format string, width int) ([]byte, error) {
	switch format {
	case ".svg":
		return render.SVG(s, render.SVGOptions{})
	case ".png":
		return render.PNG(s, render.PNGOptions{Width: width})
	default:
		return s.MarshalJSON()
	}
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
