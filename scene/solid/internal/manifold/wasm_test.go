package manifold

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// requireKernel skips a test on a binary built without the wasm (a plain `go test` of a fresh
// checkout), and fails it where the test setup promised every tool (CADRUN_REQUIRE_TOOLS=1,
// as make test sets after make has fetched the wasm).
func requireKernel(t testing.TB) {
	t.Helper()
	if _, err := wasmBytes(); errors.Is(err, ErrNoKernel) {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%v (CADRUN_REQUIRE_TOOLS=1)", err)
		}
		t.Skip(err)
	}
}

// TestEmbeddedWasm pins the wasm: its hash is WasmSHA256, and the lock file it comes from
// pins manifold-3d at Version with npm's integrity hash, so a changed wasm is a reviewed
// change of both constants.
func TestEmbeddedWasm(t *testing.T) {
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	b, err := os.ReadFile("npm/package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	pkg := lock.Packages["node_modules/manifold-3d"]
	if pkg.Version != Version || pkg.Integrity == "" {
		t.Errorf("npm/package-lock.json pins manifold-3d %q (integrity %q), want %q with its integrity hash", pkg.Version, pkg.Integrity, Version)
	}
	requireKernel(t)
	if got := wasmDigest(); got != WasmSHA256 {
		t.Errorf("embedded manifold.wasm has SHA-256 %s, want %s (WasmSHA256, manifold-3d %s); run make kernel", got, WasmSHA256, Version)
	}
}

// TestNoKernel: a binary built without the wasm says so, and how to build one with it.
func TestNoKernel(t *testing.T) {
	wasmSource = fstest.MapFS{"wasm/README.md": {Data: []byte("no wasm here")}}
	defer func() { wasmSource = wasmFS }()
	_, err := compile(context.Background(), "", true)
	if !errors.Is(err, ErrNoKernel) || !strings.Contains(err.Error(), "make build") {
		t.Errorf("compiling without the wasm: %v, want ErrNoKernel saying to run make build", err)
	}
}
