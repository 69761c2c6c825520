package main

// The README's facts that drift are checked against the code: the two commands it opens
// with, the number of example workspaces, the list of tools, the pages it links to, its
// length, and the script a newcomer pastes, which must run.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/tools"
)

func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeFacts(t *testing.T) {
	t.Parallel()
	r := readme(t)
	// It opens with the two commands, and the Makefile has both.
	first := regexp.MustCompile("(?s)^# cadrun\n\n```sh\n(make demo) .*\n(make test) .*\n```").FindStringSubmatch(r)
	if first == nil {
		t.Errorf("the README does not open with make demo and make test")
	}
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"demo", "test"} {
		if !regexp.MustCompile(`(?m)^` + target + `:`).Match(mk) {
			t.Errorf("the Makefile has no %s target", target)
		}
	}
	// The number of examples, in words.
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	n := len(examples.Workspaces())
	for _, m := range regexp.MustCompile(`(\w+) example workspaces`).FindAllStringSubmatch(r, -1) {
		if n >= len(words) || m[1] != words[n] {
			t.Errorf("the README says %q; there are %d", m[0], n)
		}
	}
	for _, name := range examples.Workspaces() {
		if !strings.Contains(r, "(`"+name+"`)") {
			t.Errorf("the README does not name the example %s", name)
		}
	}
	// The list of tools.
	var registry []string
	for _, tool := range tools.Tools() {
		registry = append(registry, tool.Name)
	}
	slices.Sort(registry)
	m := regexp.MustCompile("(?s)The tools are (.*?)[:.]").FindStringSubmatch(r)
	if m == nil {
		t.Fatal("the README does not list the tools")
	}
	listed := regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(m[1], -1)
	var names []string
	for _, l := range listed {
		names = append(names, l[1])
	}
	slices.Sort(names)
	if !slices.Equal(names, registry) {
		t.Errorf("the README lists the tools %v; the registry has %v", names, registry)
	}
	// Every page it links to exists.
	for _, l := range regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`).FindAllStringSubmatch(r, -1) {
		if _, err := os.Stat(filepath.Join("..", "..", l[1])); err != nil {
			t.Errorf("the README links to %s, which is missing", l[1])
		}
	}
	if w := len(strings.Fields(r)); w > 1500 {
		t.Errorf("the README is %d words; keep it under 1,500 and move reference to docs/", w)
	}
}

// TestReadmeScriptRuns runs the script the README has a newcomer paste.
func TestReadmeScriptRuns(t *testing.T) {
	t.Parallel()
	m := regexp.MustCompile("(?s)cat > ~/cadrun-ws/scene.code.js <<'JS'\n(.*?)\nJS\n").FindStringSubmatch(readme(t))
	if m == nil {
		t.Fatal("the README has no script to paste")
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "scene.code.js"), []byte(m[1]), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"run", "-workspace", ws}, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
		t.Errorf("the README's script: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "ok: 2 entities") {
		t.Errorf("the README's script drew %q; want the plate and its label", stdout.String())
	}
}
