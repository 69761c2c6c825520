package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/internal/browsertest"
)

// syncBuffer is a bytes.Buffer a child process writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestViewerWatchesAnAgent runs the real `cadrun mcp -serve` with an MCP client on its stdio
// and a headless Chromium on its viewer, and plays both parts: the agent writes, the person
// hovers and selects, the agent sees the selection, a broken write shows the overlay and the
// fix clears it. Screenshots go to $CADRUN_SCREENSHOTS when set.
func TestViewerWatchesAnAgent(t *testing.T) {
	t.Parallel()
	tab := browsertest.Tab(t, 1000, 700)
	dir := t.TempDir()
	bin := buildCadrun(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stderr := &syncBuffer{}
	cmd := exec.Command(bin, "mcp", "-workspace", filepath.Join(dir, "ws"), "-serve", "127.0.0.1:0")
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\nstderr:\n%s", err, stderr)
	}
	closed := false
	defer func() {
		if !closed {
			cs.Close()
		}
	}()
	// The log line travels through a pipe: it may come just after the client connected.
	urlRE := regexp.MustCompile(`msg="serving the viewer" url=(http://\S+)`)
	var m []string
	for deadline := time.Now().Add(10 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m = urlRE.FindStringSubmatch(stderr.String())
	}
	if m == nil {
		t.Fatalf("no viewer URL in the log:\n%s", stderr)
	}
	url := m[1]

	tool := func(name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	texts := func(res *mcp.CallToolResult) []string {
		var out []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				out = append(out, tc.Text)
			}
		}
		return out
	}
	// wait polls a JS expression in the page until it is true.
	wait := func(what, expr string) {
		t.Helper()
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			body, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.body.innerText + '\nerror: ' + window.cadrunError + '\nstate: ' + JSON.stringify(window.cadrunState()) + '\n' + document.getElementById('world').innerHTML.slice(0, 500)`))
			t.Fatalf("waiting for %s (%s): %v\npage text:\n%s\nserver log:\n%s", what, expr, err, body, stderr)
		}
	}
	eval := func(expr string) string {
		t.Helper()
		s, err := chromedp.Run(tab, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return s
	}
	shots := os.Getenv("CADRUN_SCREENSHOTS")
	screenshot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if shots != "" {
			if err := os.WriteFile(filepath.Join(shots, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	wait("the connection", `document.body.dataset.conn === 'up' && document.body.dataset.version !== undefined`)

	// The agent draws; the page shows the new entities.
	code := "drawCircle('gear_1', 0, 0, 20)\ndrawRect('bolt_3', 45, 0, 16, 16)\nsetFill('bolt_3', [0.85, 0.4, 0.2, 1])\ncreateGroup('part', ['gear_1'])\n"
	if res := tool("write", map[string]any{"file": "main", "code": code}); res.IsError {
		t.Fatalf("write: %q", texts(res))
	}
	wait("the new entity", `!!document.querySelector('#world [data-name="bolt_3"]')`)
	if got := eval(`document.getElementById('st-count').textContent`); got != "3 entities" {
		t.Errorf("status line count %q; want 3 entities", got)
	}
	if got := eval(`document.getElementById('tree').innerText.trim()`); got != "part" {
		t.Errorf("tree of groups %q; want part", got)
	}

	// The person hovers the bolt and clicks it, then shift-clicks the gear's rim.
	var at []float64
	if at, err = chromedp.Run(tab, chromedp.Evaluate[[]float64](`(() => {
		const r = document.querySelector('#world [data-name="bolt_3"]').getBoundingClientRect();
		const g = document.querySelector('#world [data-name="gear_1"]').getBoundingClientRect();
		return [r.x + r.width / 2, r.y + r.height / 2, g.x, g.y + g.height / 2];
	})()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.MouseEvent(chromedp.MouseMoved, at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	wait("the hover tip", `!document.getElementById('tip').hidden && document.getElementById('tip').textContent === 'bolt_3 · rect'`)
	if err := chromedp.Do(tab, chromedp.MouseClickXY(at[0], at[1])); err != nil {
		t.Fatal(err)
	}
	wait("the details", `document.getElementById('props').innerText.includes('bolt_3')`)
	if err := chromedp.Do(tab, chromedp.MouseClickXY(at[2], at[3], chromedp.ButtonModifiers(chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	wait("two selected", `document.querySelectorAll('#world .sel').length === 2`)
	wait("the gear's details", `document.getElementById('props').innerText.includes('gear_1')`)
	props := eval(`document.getElementById('props').innerText`)
	for _, want := range []string{"gear_1", "circle", "part", "-20, -20 … 20, 20", "z rank\n0"} {
		if !strings.Contains(props, want) {
			t.Errorf("details lack %q:\n%s", want, props)
		}
	}
	screenshot("viewer-selected.png")

	// The agent sees the selection: in its next answer and through scene selection.
	res := tool("scene", map[string]any{"command": "info"})
	if got := texts(res); len(got) != 2 || got[1] != "the user selected bolt_3, gear_1 (in the viewer; scene selection lists it)" {
		t.Errorf("the next answer: %q; want the selection note", got)
	}
	res = tool("scene", map[string]any{"command": "selection"})
	b, _ := json.Marshal(res.StructuredContent)
	var got struct{ Selection map[string][]string }
	json.Unmarshal(b, &got)
	if diff := cmp.Diff(map[string][]string{"selected": {"bolt_3", "gear_1"}, "locked": {}, "hidden": {}}, got.Selection); diff != "" {
		t.Errorf("scene selection: mismatch (-want +got):\n%s", diff)
	}

	// The person zooms; the camera is kept across the next update.
	if err := chromedp.Do(tab, chromedp.MouseEvent(chromedp.MouseWheel, 500, 350, func(p *input.DispatchMouseEventParams) {
		p.DeltaY = -240
		p.DeltaX = 1e-3 // the protocol wants both, and a zero is left out of the message
	})); err != nil {
		t.Fatal(err)
	}
	camera := eval(`document.getElementById('world').getAttribute('transform')`)

	// A broken write: the overlay names the place and keeps the last good scene.
	if res := tool("write", map[string]any{"file": "main", "code": "drawCirle('gear_1', 0, 0, 20)\n"}); !res.IsError {
		t.Fatal("a broken write landed")
	}
	wait("the overlay", `!document.getElementById('overlay').hidden`)
	overlay := eval(`document.getElementById('overlay').innerText`)
	for _, want := range []string{"scene.code.js:1:1", "ReferenceError: drawCirle is not defined", "drawCirle('gear_1', 0, 0, 20)", "did you mean drawCircle?", "showing the last good scene"} {
		if !strings.Contains(overlay, want) {
			t.Errorf("overlay lacks %q:\n%s", want, overlay)
		}
	}
	if eval(`String(!!document.querySelector('#world [data-name="bolt_3"]'))`) != "true" {
		t.Error("the last good scene is gone under the overlay")
	}
	screenshot("viewer-error.png")

	// The fix clears it; the camera stayed where the person put it.
	fixed := code + "drawCircle('washer', 45, 30, 6)\n"
	if res := tool("write", map[string]any{"file": "main", "code": fixed}); res.IsError {
		t.Fatalf("fix: %q", texts(res))
	}
	wait("the overlay to go", `document.getElementById('overlay').hidden && !!document.querySelector('#world [data-name="washer"]')`)
	if got := eval(`document.getElementById('world').getAttribute('transform')`); got != camera {
		t.Errorf("camera moved on update: %s, was %s", got, camera)
	}
	wait("the selection kept", `document.querySelectorAll('#world .sel').length === 2`)
	screenshot("viewer-fixed.png")

	// Closing the client ends the server, viewer included, cleanly.
	closed = true
	if err := cs.Close(); err != nil {
		t.Errorf("closing: %v\nstderr:\n%s", err, stderr)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Errorf("cadrun mcp -serve did not exit cleanly: %v\nstderr:\n%s", cmd.ProcessState, stderr)
	}
}

func TestServeAddr(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ addr, token, want, err string }{
		{":8766", "", "127.0.0.1:8766", ""},
		{"localhost:0", "", "localhost:0", ""},
		{"0.0.0.0:8766", "t", "0.0.0.0:8766", ""},
		{"0.0.0.0:8766", "", "", `-serve "0.0.0.0:8766" is not a loopback address: anyone who reaches it could see the scene and change the selection; set a token with -token T or $CADRUN_MCP_TOKEN (then open http://ADDR/?token=T), or listen on 127.0.0.1`},
		{"8766", "", "", `-serve "8766": want host:port or :port (address 8766: missing port in address)`},
	} {
		got, err := serveAddr(c.addr, c.token)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("serveAddr(%q, %q) = %q, %v; want %q, %q", c.addr, c.token, got, err, c.want, c.err)
		}
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"mcp", "-serve", "10.1.2.3:80"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "is not a loopback address") {
		t.Errorf("cadrun mcp -serve 10.1.2.3:80 = %d, %q; want 2 and the refusal", code, stderr.String())
	}
}

// TestListenAddressInUse: a port another program holds is refused saying what to do.
func TestListenAddressInUse(t *testing.T) {
	t.Parallel()
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	_, err = listen(addr, "the viewer")
	want := "listening for the viewer: " + addr + " is in use by another program: stop it, or give another port (port 0 takes a free one): "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("listen on a held port = %v; want it to start %q", err, want)
	}
}
