// Package testws makes workspace directories for tests. A multi-file case reads best as a
// txtar archive: a prose header saying what the case pins, then each file under its path in
// the workspace:
//
//	dir := testws.Dir(t, `a module main does not import is still checked
//	-- scene.code.js --
//	drawCircle('c', 0, 0, 1)
//	-- modules/house.js --
//	drawRect('h', 0, 0, 2, 2)
//	`)
//
// Files writes the same from a map, for tests that build the file set in code, and Archive
// turns an archive into such a map for helpers that take one. The package
// only writes files: each test package opens the directory its own way (modules.Open), so
// that the modules package can use it too.
package testws

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Archive is the files of a txtar archive by path, for helpers that take a map.
func Archive(archive string) map[string]string {
	files := map[string]string{}
	for _, f := range txtar.Parse([]byte(archive)).Files {
		files[f.Name] = string(f.Data)
	}
	return files
}

// Dir writes the files of a txtar archive into a new t.TempDir() and returns the directory.
// An archive with no files, or a file name that is absolute or climbs out with "..", fails
// the test.
func Dir(t testing.TB, archive string) string {
	t.Helper()
	a := txtar.Parse([]byte(archive))
	if len(a.Files) == 0 {
		t.Fatalf("testws: the archive holds no files; add a line such as -- scene.code.js --")
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		write(t, dir, f.Name, f.Data)
	}
	return dir
}

// Files writes files (workspace path -> content) into a new t.TempDir() and returns the
// directory.
func Files(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}

// Write writes files (workspace path -> content) into the workspace dir, creating folders as
// needed and replacing files in place: as an editor that writes in place would.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		write(t, dir, name, []byte(content))
	}
}

func write(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	if name == "" || filepath.IsAbs(name) || strings.HasPrefix(filepath.Clean(filepath.FromSlash(name)), "..") {
		t.Fatalf("testws: %q is not a path inside the workspace", name)
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
