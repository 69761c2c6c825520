package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

// runDemo runs every example workspace (embedded in the binary) through the sandbox and
// writes NAME.svg, NAME.png and NAME.dxf for each.
func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("demo", "demo [-o DIR] [-dxf-text outlines|entities]", stderr)
	out := fs.String("o", "out", "directory to write NAME.svg, NAME.png and NAME.dxf into (created if missing)")
	var dxfOpt render.DXFOptions
	fs.Func("dxf-text", "DXF text: outlines (the default, for cutting) or entities (TEXT and MTEXT with a STYLE, for editing)", func(s string) error {
		t, err := render.ParseDXFText(s)
		dxfOpt.Text = t
		return err
	})
	if err := fs.Parse(args); err != nil {
		return cli.ErrUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cli.ErrUsage
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	pool := cli.NewPool()
	defer pool.Close()
	for _, name := range examples.Workspaces() {
		src, err := examples.Workspace(name)
		if err != nil {
			return err
		}
		res, err := pool.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
		if d, ok := err.(*runtime.Diagnostic); ok {
			fmt.Fprintf(stderr, "example %s:\n%s", name, d.Render())
			return cli.ErrReported
		}
		if err != nil {
			return err
		}
		svg, err := render.SVG(res.Scene, render.SVGOptions{})
		if err != nil {
			return fmt.Errorf("rendering %s to SVG: %w", name, err)
		}
		png, err := render.PNG(res.Scene, render.PNGOptions{Width: examples.DemoWidth})
		if err != nil {
			return fmt.Errorf("rendering %s to PNG: %w", name, err)
		}
		// A DXF too, as a cutter or a CAD program would take the drawing (R12, as
		// `cadrun run -o NAME.dxf` writes it).
		dxf, err := render.DXF(res.Scene, dxfOpt)
		if err != nil {
			return fmt.Errorf("rendering %s to DXF: %w", name, err)
		}
		for _, f := range []struct {
			ext  string
			data []byte
		}{{".svg", svg}, {".png", png}, {".dxf", dxf}} {
			path := filepath.Join(*out, name+f.ext)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
		}
		base := filepath.Join(*out, name)
		fmt.Fprintf(stdout, "%-10s %5d entities in %6.1f ms -> %s.svg, .png, .dxf\n", name, res.Scene.Len(),
			float64(res.Duration.Microseconds())/1000, base)
	}
	return nil
}
