package tools

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const modulePath = "github.com/cadrun/cadrun"

// goja stays behind runtime: neither tools nor any cadrun package it depends on imports a
// goja package, except runtime itself (and runtime's internal packages, whose tests may), so
// that `go list -deps ./tools | grep goja` finds goja only through runtime. The walk reads
// import lines with go/build; it runs no go command.
func TestGojaOnlyThroughRuntime(t *testing.T) {
	t.Parallel()
	var got []string
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] || path == modulePath+"/runtime" || strings.HasPrefix(path, modulePath+"/runtime/") {
			return
		}
		seen[path] = true
		dir := filepath.Join("..", filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(path, modulePath), "/")))
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("reading the imports of %s: %v", path, err)
		}
		imports := pkg.Imports
		if path == modulePath+"/tools" {
			imports = append(append(imports, pkg.TestImports...), pkg.XTestImports...)
		}
		for _, imp := range imports {
			switch {
			case strings.HasPrefix(imp, "github.com/dop251/goja"):
				got = append(got, path+" imports "+imp)
			case strings.HasPrefix(imp, modulePath+"/"):
				walk(imp)
			}
		}
	}
	walk(modulePath + "/tools")
	if !seen[modulePath+"/modules"] {
		t.Fatalf("the walk did not reach %s/modules: it no longer follows tools' imports", modulePath)
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("goja imported outside runtime, mismatch (-want +got):\n%s", diff)
	}
}
