// Package manifold runs manifold, the mesh-boolean kernel, inside the pure Go binary: its
// WebAssembly build (from the npm package manifold-3d, pinned in npm/package-lock.json and
// embedded by `make build`) under wazero, with a host of our own for the Emscripten and embind
// calls the build imports. It is the only package that knows WebAssembly or manifold's calls;
// the solids' package above it (scene/solid) is the only one that may import it.
//
// Start with [New], which compiles the wasm once per process (and keeps the compiled code in
// an on-disk cache), then make solids with the Kernel's methods and free each with
// [Solid.Free]. A Kernel is one wasm instance: its methods are safe for concurrent use but run
// one at a time.
package manifold

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"io/fs"
)

// Version is the manifold-3d npm package the wasm comes from (npm/package-lock.json pins it
// with its integrity hash), and WasmSHA256 the SHA-256 of its manifold.wasm. A test checks
// the embedded wasm against both, so a changed wasm is a reviewed change.
const (
	Version    = "3.5.4"
	WasmSHA256 = "73e3b419ad31294f6b1cc478173944e50efc4a34bfdeeff0107bdfc12975f11c"
)

// The folder holds a committed README beside the gitignored wasm, so that a checkout without
// the wasm still compiles (and then says how to get it).
//
//go:embed wasm
var wasmFS embed.FS

// wasmSource is where wasmBytes reads; a test swaps in a folder without the wasm.
var wasmSource fs.FS = wasmFS

// ErrNoKernel is returned by New when the binary was built without manifold.wasm (a plain
// `go build` of a fresh checkout, where make did not fetch it).
var ErrNoKernel = errors.New("this binary was built without the solids kernel (manifold.wasm is missing); build it with `make build`, which fetches manifold-3d " + Version + " from npm")

// wasmBytes returns the embedded wasm, or ErrNoKernel.
func wasmBytes() ([]byte, error) {
	b, err := fs.ReadFile(wasmSource, "wasm/manifold.wasm")
	if err != nil || len(b) == 0 {
		return nil, ErrNoKernel
	}
	return b, nil
}

// wasmDigest is the hex SHA-256 of the embedded wasm ("" without one).
func wasmDigest() string {
	b, err := wasmBytes()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
