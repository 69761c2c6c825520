package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
)

// runDemo runs every example workspace (embedded in the binary) through the sandbox and
// writes NAME.svg, NAME.png, NAME.dxf and NAME.pdf for each drawing, NAME.stl, NAME.3mf, NAME.step, NAME.glb and NAME.png for
// each part made of solids.
func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("demo", "demo [-o DIR] [-dxf-text outlines|entities]", stderr)
	out := fs.String("o", "out", "directory to write NAME.svg, NAME.png, NAME.dxf and NAME.pdf (a part made of solids: NAME.stl, NAME.3mf, NAME.step, NAME.glb and NAME.png) into (created if missing)")
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
		files, err := demoFiles(name, res.Scene, dxfOpt)
		if err != nil {
			return err
		}
		exts := make([]string, len(files))
		for i, f := range files {
			path := filepath.Join(*out, name+f.ext)
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				return fmt.Errorf("writing %s: %w", path, err)
			}
			exts[i] = f.ext
		}
		base := filepath.Join(*out, name)
		fmt.Fprintf(stdout, "%-12s %5d entities in %6.1f ms -> %s%s\n", name, res.Scene.Len(),
			float64(res.Duration.Microseconds())/1000, base, strings.Join(exts, ", "))
	}
	return nil
}

type demoFile struct {
	ext  string
	data []byte
}

// demoFiles renders an example: a drawing to SVG, PNG, DXF (R12, as `cadrun run -o
// NAME.dxf` writes it, for a cutter or a CAD program) and PDF (1:1 on a page fitted to it, to
// print); a part made of solids to STL and 3MF, to print, STEP, for CAD and CAM programs,
// glTF binary, for viewers, and PNG, its shaded view.
func demoFiles(name string, sc *scene.Scene, dxfOpt render.DXFOptions) ([]demoFile, error) {
	png, err := render.PNG(sc, render.PNGOptions{Width: examples.DemoWidth})
	if err != nil {
		return nil, fmt.Errorf("rendering %s to PNG: %w", name, err)
	}
	if sc.HasSolids() {
		stl, err := render.STL(sc)
		if err != nil {
			return nil, fmt.Errorf("writing %s as STL: %w", name, err)
		}
		tmf, err := render.ThreeMF(sc, render.ThreeMFOptions{})
		if err != nil {
			return nil, fmt.Errorf("writing %s as 3MF: %w", name, err)
		}
		step, err := render.STEP(sc, render.STEPOptions{})
		if err != nil {
			return nil, fmt.Errorf("writing %s as STEP: %w", name, err)
		}
		glb, err := render.GLB(sc, render.GLTFOptions{})
		if err != nil {
			return nil, fmt.Errorf("writing %s as glTF: %w", name, err)
		}
		return []demoFile{{".stl", stl}, {".3mf", tmf}, {".step", step}, {".glb", glb}, {".png", png}}, nil
	}
	svg, err := render.SVG(sc, render.SVGOptions{})
	if err != nil {
		return nil, fmt.Errorf("rendering %s to SVG: %w", name, err)
	}
	dxf, err := render.DXF(sc, dxfOpt)
	if err != nil {
		return nil, fmt.Errorf("rendering %s to DXF: %w", name, err)
	}
	pdf, err := render.PDF(sc, render.PDFOptions{})
	if err != nil {
		return nil, fmt.Errorf("rendering %s to PDF: %w", name, err)
	}
	return []demoFile{{".svg", svg}, {".png", png}, {".dxf", dxf}, {".pdf", pdf}}, nil
}
