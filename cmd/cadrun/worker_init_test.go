package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWorkerSkipsUnneededInit: a worker process serves from internal/worker's init, so the
// packages only the parent needs (the tools, MCP, the JSON Schema validator, SQLite, HTTP)
// are never initialised in it. GODEBUG=inittrace=1 makes Go print a line for each package
// it initialises.
func TestWorkerSkipsUnneededInit(t *testing.T) {
	t.Parallel()
	bin, err := cliBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CADRUN_WORKER=1", "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil { // stdin is empty: the worker ends at once
		t.Fatalf("worker: %v\n%s", err, stderr.Bytes())
	}
	inited := map[string]bool{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			inited[f[1]] = true
		}
	}
	if !inited["github.com/cadrun/cadrun/runtime"] {
		t.Fatalf("the worker did not initialise runtime; its trace:\n%s", stderr.Bytes())
	}
	var got []string
	for _, pkg := range []string{
		"github.com/cadrun/cadrun/modules",
		"github.com/cadrun/cadrun/tools",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"github.com/santhosh-tekuri/jsonschema/v6",
		"modernc.org/sqlite",
		"net/http",
	} {
		if inited[pkg] {
			got = append(got, pkg)
		}
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("packages the worker initialised but does not need mismatch (-want +got):\n%s", diff)
	}
}
