package manifold

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWazeroOnlyHere: this package is the only one in the module that imports wazero, so
// WebAssembly stays behind the solids' room (and Go's internal rule keeps this package behind
// scene/solid). The walk reads import lines with go/build; it runs no go command.
func TestWazeroOnlyHere(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root is not at %s: %v", root, err)
	}
	var got []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := d.Name()
		if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			return nil // no Go files here
		}
		for _, imp := range append(append(pkg.Imports, pkg.TestImports...), pkg.XTestImports...) {
			if strings.HasPrefix(imp, "github.com/tetratelabs/wazero") {
				rel, _ := filepath.Rel(root, path)
				got = append(got, filepath.ToSlash(rel))
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"scene/solid/internal/manifold"}, got); diff != "" {
		t.Errorf("packages importing wazero, mismatch (-want +got):\n%s", diff)
	}
}
