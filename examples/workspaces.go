package examples

import (
	"embed"
	"io/fs"
	"slices"

	"github.com/cadrun/cadrun/runtime"
)

// DemoWidth is the width in pixels of the PNGs `cadrun demo` renders; every example's text is
// legible at that size (legible_test.go).
const DemoWidth = 1024

// The example workspaces, embedded so that `cadrun demo` needs nothing on disk.
//
//go:embed */scene.code.js */modules/*.js */fonts/*.ttf */data/*.json
var workspaces embed.FS

// Workspaces lists the example workspaces by name, sorted.
func Workspaces() []string {
	entries, _ := fs.ReadDir(workspaces, ".")
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// Workspace returns an example workspace as a read-only source.
func Workspace(name string) (runtime.Source, error) {
	sub, err := fs.Sub(workspaces, name)
	if err != nil {
		return nil, err
	}
	if _, err := fs.Stat(sub, "scene.code.js"); err != nil {
		return nil, err
	}
	return runtime.FSSource{FS: sub}, nil
}
