package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// newWorkspace opens a workspace in a temporary directory holding files (path -> content).
func newWorkspace(t testing.TB, files map[string]string) (*modules.Workspace, string) {
	t.Helper()
	dir := testws.Files(t, files)
	ws, err := modules.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

// newServer is a tools server over a fresh workspace holding files, running scripts in
// this process.
func newServer(t testing.TB, files map[string]string) *tools.Server {
	t.Helper()
	ws, _ := newWorkspace(t, files)
	return tools.NewServer(context.Background(), ws, runtime.InProcess{}, runtime.Options{})
}

// fileBytes is a workspace file's content.
func fileBytes(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
