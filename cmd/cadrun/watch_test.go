package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/watch"
)

// TestWatchEndToEnd builds the binary and runs `cadrun watch` on a workspace: a good save
// prints one line and writes the -out files, a broken save prints the diagnostic and leaves
// them (and the file) alone, a fix brings them up to date; Ctrl-C ends it with status 0.
func TestWatchEndToEnd(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := buildCadrun(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(ws, "scene.code.js")
	save := func(content string) { t.Helper(); saveAsEditor(t, main, content) }
	save("drawCircle('a', 0, 0, 1)\n")
	svg, png, js := filepath.Join(dir, "scene.svg"), filepath.Join(dir, "scene.png"), filepath.Join(ws, "scene.json")

	cmd := exec.Command(bin, "watch", "-workspace", ws, "-out", svg, "-out", png, "-out", js)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("cadrun watch ended; stderr:\n%s", stderr.String())
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatalf("no output from cadrun watch; stderr:\n%s", stderr.String())
		}
		return ""
	}
	okLine := regexp.MustCompile(`^ok  (\d+) entities  \d+\.\d ms$`)
	expectOK := func(entities string) {
		t.Helper()
		l := next()
		if m := okLine.FindStringSubmatch(l); m == nil || m[1] != entities {
			t.Fatalf("got %q, want `ok  %s entities  N.N ms`", l, entities)
		}
	}
	expectOK("1")
	for _, p := range []string{svg, png, js} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("after a good run: %v", err)
		}
	}

	save("drawCircle('a', 0, 0, 1)\ndrawRect('b', 0, 0, 4, 2)\n")
	expectOK("2")
	goodSVG, _ := os.ReadFile(svg)

	broken := "drawCircle('a', 0, 0, 1)\ndrawCirle('b', 0, 0, 1)\n"
	save(broken)
	var got []string
	for range 4 {
		got = append(got, next())
	}
	want := []string{
		"scene.code.js:2:1: ReferenceError: drawCirle is not defined",
		"    2 | drawCirle('b', 0, 0, 1)",
		"        ^",
		"hint: did you mean drawCircle? (drawCircle(name: string, cx: number, cy: number, radius: number): boolean)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostic mismatch (-want +got):\n%s", diff)
	}
	save("drawRect('b', 0, 0, 4, 2)\ndrawRect('c', 9, 0, 4, 2)\ndrawRect('d', 0, 9, 4, 2)\n")
	expectOK("3")
	if after, _ := os.ReadFile(svg); bytes.Equal(after, goodSVG) || !bytes.Contains(after, []byte("<svg")) {
		t.Errorf("scene.svg was not brought up to date after the fix")
	}
	var sc *scene.Scene
	if b, err := os.ReadFile(js); err != nil {
		t.Error(err)
	} else if sc, err = scene.ReadJSON(b); err != nil || sc.Len() != 3 {
		t.Errorf("scene.json: %v, want 3 entities", err)
	}

	entries, _ := os.ReadDir(ws)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"scene.code.js", "scene.json"}, names); diff != "" {
		t.Errorf("workspace files mismatch (-want +got):\n%s", diff) // no temp file left, nothing else written
	}

	// Another process changing the files through the tools (as an agent over MCP would).
	tool := exec.Command(bin, "tool", "write", "--workspace", ws, "--params", `{"file":"main","code":"drawCircle('t', 0, 0, 1)\n"}`)
	if out, err := tool.CombinedOutput(); err != nil {
		t.Fatalf("cadrun tool write: %v\n%s", err, out)
	}
	expectOK("1")

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var rest []string
	for l := range lines { // read to the end before Wait, which closes the pipe
		rest = append(rest, l)
	}
	if len(rest) > 0 {
		t.Errorf("more output after the tool's write: %q", rest)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("cadrun watch after Ctrl-C: %v; stderr:\n%s", err, stderr.String())
	}
	if want := "watching " + ws + " for changes; Ctrl-C stops\n"; stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant %q", stderr.String(), want)
	}
}

func TestWatchPrinter(t *testing.T) {
	t.Parallel()
	d := &runtime.Diagnostic{File: "scene.code.js", Line: 2, Column: 3, Kind: "ReferenceError",
		Message: "x is not defined", Source: "  x()", Hint: "define x"}
	for _, tc := range []struct {
		name  string
		color bool
		u     watch.RunUpdate
		want  string
	}{
		{"ok", false, watch.RunUpdate{Entities: 42, Duration: 3140 * time.Microsecond, Logs: []string{"hello"}},
			"hello\nok  42 entities  3.1 ms\n"},
		{"ok in colour", true, watch.RunUpdate{Entities: 1, Duration: time.Millisecond},
			"\x1b[32mok\x1b[0m  1 entities  \x1b[2m1.0 ms\x1b[0m\n"},
		{"diagnostic", false, watch.RunUpdate{Diagnostic: d},
			"scene.code.js:2:3: ReferenceError: x is not defined\n    2 |   x()\n          ^\nhint: define x\n"},
		{"diagnostic in colour", true, watch.RunUpdate{Diagnostic: d, Warnings: []string{"w"}},
			"\x1b[1;31mwarning:\x1b[0m w\n\x1b[1;31mscene.code.js:2:3: ReferenceError: x is not defined\x1b[0m\n    2 |   x()\n          \x1b[1;31m^\x1b[0m\nhint: define x\n"},
		{"other failure", false, watch.RunUpdate{Err: errors.New("starting a worker: no memory")},
			"error: starting a worker: no memory\n"},
	} {
		var b strings.Builder
		printer{out: &b, color: tc.color}.print(tc.u)
		if diff := cmp.Diff(tc.want, b.String()); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestWatchUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"watch", "-workspace", dir, "-out", "scene.gif"}, `cadrun watch: -out "scene.gif": the extension picks the format; use .svg, .png, .json, .dxf, .pdf, .stl, .3mf, .step or .glb`},
		{[]string{"watch", "-workspace", dir, "-out", dir + "/none/scene.svg"}, `cadrun watch: -out "` + dir + `/none/scene.svg": the directory ` + dir + `/none does not exist; create it first`},
		{[]string{"watch", "-workspace", dir, "-poll", "5ms"}, "cadrun watch: -poll: bad poll interval: 5ms; give between 20ms (MinPoll) and 1m0s (MaxPoll)"},
		{[]string{"watch", "-workspace", dir, "-timeout", "0s"}, "cadrun watch: -timeout 0s: give a positive duration"},
		{[]string{"watch", dir}, `cadrun watch: unexpected argument "` + dir + `"; the workspace is given with -workspace`},
		// The token rules are those of cadrun mcp.
		{[]string{"watch", "-workspace", dir, "-serve", ":0", "-token", "   "}, "cadrun watch: -token: the token is only whitespace; choose a token of visible characters (for example: openssl rand -hex 32)"},
		{[]string{"watch", "-workspace", dir, "-token", "secret"}, "cadrun watch: -token needs -serve"},
		{[]string{"watch", "-workspace", dir, "-serve", ":0", "-serve-max-conns", "0"}, "cadrun watch: -serve-max-conns must be positive (got 0)"},
		{[]string{"watch", "-workspace", dir, "-serve", "0.0.0.0:0"}, `cadrun watch: -serve "0.0.0.0:0" is not a loopback address: anyone who reaches it could see the scene and change the selection; set a token with -token T or $CADRUN_MCP_TOKEN (then open http://ADDR/?token=T), or listen on 127.0.0.1`},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", tc.args, code)
		}
		if first, _, _ := strings.Cut(stderr.String(), "\n"); first != tc.want {
			t.Errorf("run(%q) stderr:\n%s\nwant first line %q", tc.args, stderr.String(), tc.want)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "scene.svg")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic("", p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	st, _ := os.Stat(p)
	if string(b) != "new" || st.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v, want \"new\" mode 0600 (kept)", b, st.Mode().Perm())
	}
	if err := os.Mkdir(filepath.Join(dir, "d.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic("", filepath.Join(dir, "d.svg"), []byte("x")); err == nil || err.Error() != "not a regular file" {
		t.Errorf("writing over a directory: %v, want \"not a regular file\"", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

// TestWatchOutNotAWorkspaceFile: an -out file in the workspace's modules/, data/ or .cadrun/
// is refused before anything runs: in data/ it would overwrite the user's data file (or become
// one) with the scene. Elsewhere in the workspace, as scene.json or out/, it is fine.
func TestWatchOutNotAWorkspaceFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{"data/catalog", "modules", ".cadrun"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(ws, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(ws, "data", "bracket.json")
	if err := os.WriteFile(data, []byte(`{"width": 120}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{data, `cadrun watch: -out "` + data + `" is in the workspace's data/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/bracket.json)`},
		{filepath.Join(dir, "link", "data", "catalog", "x.json"), `cadrun watch: -out "` + filepath.Join(dir, "link", "data", "catalog", "x.json") + `" is in the workspace's data/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/x.json)`},
		{filepath.Join(ws, "modules", "scene.svg"), `cadrun watch: -out "` + filepath.Join(ws, "modules", "scene.svg") + `" is in the workspace's modules/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/scene.svg)`},
		{filepath.Join(ws, ".cadrun", "scene.png"), `cadrun watch: -out "` + filepath.Join(ws, ".cadrun", "scene.png") + `" is in the workspace's .cadrun/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/scene.png)`},
	} {
		var stdout, stderr bytes.Buffer
		args := []string{"watch", "-workspace", ws, "-out", tc.out}
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		if first, _, _ := strings.Cut(stderr.String(), "\n"); first != tc.want {
			t.Errorf("run(%q) stderr:\n%s\nwant first line %q", args, stderr.String(), tc.want)
		}
	}
	if b, _ := os.ReadFile(data); string(b) != `{"width": 120}` {
		t.Errorf("the data file holds %.80q", b)
	}
	for _, out := range []string{filepath.Join(ws, "scene.json"), filepath.Join(dir, "scene.svg")} {
		if err := modules.CheckOutputPlace(ws, "-out", out); err != nil {
			t.Errorf("CheckOutputPlace(%s): %v", out, err)
		}
	}
	// A link outside the workspace to a data file: the file written is the data file.
	if err := os.Symlink(data, filepath.Join(dir, "out.json")); err != nil {
		t.Fatal(err)
	}
	if err := modules.CheckOutputPlace(ws, "-out", filepath.Join(dir, "out.json")); err == nil {
		t.Errorf("CheckOutputPlace(a link to %s) = nil", data)
	}
}

// TestWatchWidthChecked: a -width no PNG can have is a usage error at the start, not an error
// printed after every good run while the PNG stays as it was.
func TestWatchWidthChecked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, w := range []string{"-5", "100000"} {
		var stdout, stderr bytes.Buffer
		args := []string{"watch", "-workspace", dir, "-width", w, "-out", filepath.Join(dir, "scene.png")}
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		want := "cadrun watch: -width " + w + ": give 1 to 8192 pixels (MaxPNGSide), or leave it out for 1024 on the longest side"
		if first, _, _ := strings.Cut(stderr.String(), "\n"); first != want {
			t.Errorf("run(%q) stderr:\n%s\nwant first line %q", args, stderr.String(), want)
		}
	}
}

// TestWriteFileAtomicThroughLink: an -out that is a symbolic link (to a folder a web server
// or another tool reads) is written through: the target gets each picture, and the link
// stays a link.
func TestWriteFileAtomicThroughLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "www"), 0o755); err != nil {
		t.Fatal(err)
	}
	target, link := filepath.Join(dir, "www", "scene.svg"), filepath.Join(dir, "scene.svg")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("www", "scene.svg"), link); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{"new", "newer"} {
		if err := writeFileAtomic("", link, []byte(content)); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(target)
		st, _ := os.Stat(target)
		if string(b) != content || st.Mode().Perm() != 0o600 {
			t.Errorf("the target holds %q mode %v, want %q mode 0600", b, st.Mode().Perm(), content)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link is gone: %v %v", st.Mode(), err)
		}
	}
}

// TestWatchPrinterControlCharacters: a script's console output and error message reach the
// terminal with their control characters escaped, so that a script (an agent's, say) cannot
// clear the person's terminal, retitle it or set their clipboard; the printer's own colours
// stay.
func TestWatchPrinterControlCharacters(t *testing.T) {
	t.Parallel()
	d := &runtime.Diagnostic{File: "scene.code.js", Line: 1, Column: 1, Kind: "Error", Message: "E\x1b[2Jx"}
	var b strings.Builder
	printer{out: &b, color: true}.print(watch.RunUpdate{Diagnostic: d,
		Logs: []string{"A\x1b]52;c;aGk=\x07B\tC\u009b"}, Warnings: []string{"w\r"}})
	want := "A\\x1b]52;c;aGk=\\x07B\tC\\x9b\n\x1b[1;31mwarning:\x1b[0m w\\x0d\n\x1b[1;31mscene.code.js:1:1: Error: E\\x1b[2Jx\x1b[0m\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	b.Reset()
	printer{out: &b}.print(watch.RunUpdate{Err: errors.New("bad \x1b[31m")})
	if got, want := b.String(), "error: bad \\x1b[31m\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestWatchOutNotAFile: an -out that is a directory or a FIFO is a usage error at the start,
// not a failed write after every good run.
func TestWatchOutNotAFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := filepath.Join(dir, "scene.svg")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "scene.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for out, kind := range map[string]string{d: "a directory", fifo: "a named pipe (FIFO)"} {
		var stdout, stderr bytes.Buffer
		args := []string{"watch", "-workspace", dir, "-out", out}
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		want := `cadrun watch: -out "` + out + `" is ` + kind + `; give the name of a file to write`
		if first, _, _ := strings.Cut(stderr.String(), "\n"); first != want {
			t.Errorf("run(%q) stderr:\n%s\nwant first line %q", args, stderr.String(), want)
		}
	}
}

// TestWatchOutCheckedAtEveryWrite: an -out that passed at the start and is then swapped for a
// link into .cadrun/ (the history log) is not written through; the log keeps its bytes.
func TestWatchOutCheckedAtEveryWrite(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for _, d := range []string{".cadrun/history", "out"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(ws, ".cadrun", "history", "log.jsonl")
	if err := os.WriteFile(log, []byte("{\"version\":2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(ws, "out", "scene.svg")
	o, err := newOutput(out, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o.ws = ws
	s := scene.New()
	if _, err := s.Put("r", scene.Rect{Width: 1, Height: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := o.write(s); err != nil {
		t.Fatalf("the first write: %v", err)
	}
	if err := os.Remove(out); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.cadrun/history/log.jsonl", out); err != nil {
		t.Fatal(err)
	}
	_, err = o.write(s)
	if err == nil || !strings.Contains(err.Error(), `is in the workspace's .cadrun/, where it would overwrite or become a workspace file`) {
		t.Errorf("the write through the swapped link: %v", err)
	}
	if b, _ := os.ReadFile(log); string(b) != "{\"version\":2}\n" {
		t.Errorf("the history log now holds %.40q", b)
	}
}
