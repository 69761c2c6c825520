package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// initOrder runs the real binary with args and env added, GODEBUG=inittrace=1 making Go print a
// line for each package it initialises, and returns those packages in order.
func initOrder(t *testing.T, env []string, args ...string) []string {
	t.Helper()
	bin, err := cliBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil { // stdin is empty: a worker ends at once
		t.Fatalf("cadrun %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var inited []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			inited = append(inited, f[1])
		}
	}
	return inited
}

// unneeded reports which of pkgs were initialised.
func unneeded(inited []string, pkgs ...string) []string {
	var got []string
	for _, pkg := range pkgs {
		if slices.Contains(inited, pkg) {
			got = append(got, pkg)
		}
	}
	return got
}

// TestWorkerSkipsUnneededInit: each kind of worker process serves from its package's init (a
// script worker from internal/worker's, a schema checker from schemacheck's, an importer from
// tools/importer's), so the packages only the parent needs (the tools, MCP, SQLite, HTTP) are
// never initialised in it. The JSON Schema validator has nothing to initialise: it compiles a
// schema when a check asks for it.
func TestWorkerSkipsUnneededInit(t *testing.T) {
	t.Parallel()
	parentOnly := []string{
		"github.com/cadrun/cadrun/tools",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"modernc.org/sqlite",
		"net/http",
	}
	// Each worker exits 0 from its package's init (its stdin is empty), so Go never reports
	// that package initialised; the parent's main would have printed the usage and exited 2.
	for _, tc := range []struct {
		role   string // CADRUN_WORKER
		serves string // the package it serves from
		needs  string // a package it must have initialised first
		also   []string
	}{
		{"1", "github.com/cadrun/cadrun/internal/worker", "github.com/cadrun/cadrun/runtime",
			[]string{"github.com/cadrun/cadrun/modules"}},
		{"schema", "github.com/cadrun/cadrun/tools/internal/schemacheck", "github.com/cadrun/cadrun/modules", nil},
		{"import", "github.com/cadrun/cadrun/tools/importer", "github.com/cadrun/cadrun/tools/importer/svg", nil},
	} {
		t.Run(tc.role, func(t *testing.T) {
			t.Parallel()
			inited := initOrder(t, []string{"CADRUN_WORKER=" + tc.role})
			if !slices.Contains(inited, tc.needs) || slices.Contains(inited, tc.serves) {
				t.Fatalf("the worker did not serve from %s's init, after %s's; it initialised %q", tc.serves, tc.needs, inited)
			}
			got := unneeded(inited, append(slices.Clone(parentOnly), tc.also...)...)
			if diff := cmp.Diff([]string(nil), got); diff != "" {
				t.Errorf("packages the worker initialised but does not need mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunSkipsUnneededInit: `cadrun run` runs from internal/cli's init, so the parent never
// initialises the packages only the other commands need (the tools, MCP, SQLite, HTTP), and
// still writes its file.
func TestRunSkipsUnneededInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script, out := filepath.Join(dir, "main.js"), filepath.Join(dir, "out.svg")
	if err := os.WriteFile(script, []byte("drawRect('r', 0, 0, 10, 20)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inited := initOrder(t, nil, "run", script, "-o", out)
	if _, err := os.Stat(out); err != nil {
		t.Fatalf("run wrote no file: %v", err)
	}
	got := unneeded(inited,
		"github.com/cadrun/cadrun/tools",
		"github.com/modelcontextprotocol/go-sdk/mcp",
		"github.com/cadrun/cadrun/tools/internal/schemacheck",
		"modernc.org/sqlite",
		"net/http",
		"main",
	)
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("packages cadrun run initialised but does not need mismatch (-want +got):\n%s", diff)
	}
}

// TestPrestartRunsEarly: `cadrun run` starts its worker from internal/prestart's init, which
// Go runs before it initialises unicode (which strings and bytes need), the script engine or
// anything else of cadrun's: the worker's start-up then overlaps with nearly all of the
// parent's.
func TestPrestartRunsEarly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "main.js")
	if err := os.WriteFile(script, []byte("drawRect('r', 0, 0, 10, 20)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inited := initOrder(t, nil, "run", script)
	at := slices.Index(inited, "github.com/cadrun/cadrun/internal/prestart")
	if at < 0 {
		t.Fatalf("internal/prestart was not initialised; the parent initialised %q", inited)
	}
	var got []string
	for _, pkg := range inited[:at] {
		if pkg == "unicode" || strings.HasPrefix(pkg, "github.com/cadrun/") || pkg == "github.com/dop251/goja" {
			got = append(got, pkg)
		}
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("packages initialised before internal/prestart mismatch (-want +got):\n%s", diff)
	}
}

// TestVersionInitIsLight: what cadrun's own packages make as they initialise (regular
// expressions, the script describer, the API table's index, the tools' type schemas) is made
// at first use, so a process that needs none of it (`cadrun version`, a server until its
// first call) does not pay for it. Go reports each package's allocations at init, a figure
// that does not depend on the machine's speed or load. The packages cadrun stopped linking
// must not come back: the SVG colour names (a table of its own) and runtime/metrics (the
// workers read their heap with ReadMemStats), which a `run` parent initialised before it
// started its worker.
func TestVersionInitIsLight(t *testing.T) {
	t.Parallel()
	bin, err := cliBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cadrun version: %v\n%s", err, stderr.Bytes())
	}
	budget := map[string]int{ // bytes allocated by the package's initialisation
		"github.com/cadrun/cadrun/modules":            16 << 10,
		"github.com/cadrun/cadrun/runtime":            16 << 10,
		"github.com/cadrun/cadrun/scene":              32 << 10,
		"github.com/cadrun/cadrun/tools":              16 << 10,
		"github.com/cadrun/cadrun/tools/importer":     8 << 10,
		"github.com/cadrun/cadrun/tools/importer/svg": 8 << 10,
	}
	gone := []string{"golang.org/x/image/colornames", "runtime/metrics"}
	var over []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init PKG @T ms, C ms clock, B bytes, A allocs
		f := strings.Fields(line)
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		if slices.Contains(gone, f[1]) {
			over = append(over, f[1]+": linked again")
		}
		max, ok := budget[f[1]]
		if !ok {
			continue
		}
		delete(budget, f[1])
		if n, err := strconv.Atoi(f[7]); err != nil || n > max {
			over = append(over, fmt.Sprintf("%s: %s bytes, over %d", f[1], f[7], max))
		}
	}
	for pkg := range budget {
		over = append(over, pkg+": not initialised")
	}
	slices.Sort(over)
	if diff := cmp.Diff([]string(nil), over); diff != "" {
		t.Errorf("packages whose initialisation allocates more than their budget mismatch (-want +got):\n%s", diff)
	}
}
