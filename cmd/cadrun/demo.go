package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
)

func runDemo(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("demo", "demo [-o DIR]", stderr)
	out := fs.String("o", "out", "directory to write demo.svg and demo.png into (created if missing)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	s, err := examples.DemoScene()
	if err != nil {
		return err
	}
	svg, err := render.SVG(s, render.SVGOptions{})
	if err != nil {
		return fmt.Errorf("rendering SVG: %w", err)
	}
	png, err := render.PNG(s, render.PNGOptions{Width: 1024})
	if err != nil {
		return fmt.Errorf("rendering PNG: %w", err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("creating the output directory: %w", err)
	}
	files := []struct {
		name string
		data []byte
	}{{"demo.svg", svg}, {"demo.png", png}}
	for _, f := range files {
		path := filepath.Join(*out, f.name)
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", path, len(f.data))
	}
	return nil
}
