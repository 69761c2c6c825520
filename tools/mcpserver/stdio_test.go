package mcpserver

// The stdio framing, driven the way a client process drives `cadrun mcp`: raw lines in,
// raw lines out, over pipes.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/cadrun/cadrun/runtime"

	"github.com/cadrun/cadrun/tools"
)

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// stdioServer serves a workspace holding files over a StdioTransport whose messages are at
// most maxBytes. The test writes lines to in and reads answers from lines; done reports the
// end of the server's Run; stop ends the server's context (as a signal does).
type stdioServer struct {
	in    *io.PipeWriter
	lines chan string
	done  chan error
	st    *StdioTransport
	stop  context.CancelFunc
	dir   string
}

func newStdioServer(t *testing.T, opt runtime.Options, maxBytes int, files map[string]string) *stdioServer {
	t.Helper()
	ws, dir := newWorkspace(t, files)
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	ms := New(tools.NewServer(ctx, ws, runtime.InProcess{}, opt), "test")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioServer{in: inW, lines: make(chan string, 16), done: make(chan error, 1), stop: stop, dir: dir}
	s.st = NewStdioTransport(inR, outW, maxBytes, slog.New(slog.DiscardHandler))
	go func() {
		err := ms.Run(context.Background(), s.st)
		outW.Close()
		s.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return s
}

func (s *stdioServer) send(t *testing.T, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(s.in, l+"\n"); err != nil {
			t.Fatalf("writing %.80q: %v", l, err)
		}
	}
}

// next is the next answer, decoded.
func (s *stdioServer) next(t *testing.T) map[string]any {
	t.Helper()
	l, ok := <-s.lines
	if !ok {
		t.Fatal("the server's output ended")
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(l), &m); err != nil {
		t.Fatalf("answer %.200q: %v", l, err)
	}
	return m
}

// rest collects every answer until the output ends.
func (s *stdioServer) rest(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for l := range s.lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("answer %.200q: %v", l, err)
		}
		out = append(out, m)
	}
	return out
}

func callLine(id int, tool string, args map[string]any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	return string(b)
}

// TestStdioOversizeMessageIsSkipped: a message over the cap gets a JSON-RPC error with its
// id (found after the large part, where some clients put it) and the limit, and the server
// goes on serving; so does a line that is not JSON.
func TestStdioOversizeMessageIsSkipped(t *testing.T) {
	t.Parallel()
	const max = 1000
	s := newStdioServer(t, runtime.Options{}, max, nil)
	s.send(t, initLine, initializedLine)
	s.next(t)

	big := `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"write","arguments":{"file":"main","code":"` + strings.Repeat("x", 5000) + `"}},"id":7}`
	s.send(t, big)
	want := map[string]any{"jsonrpc": "2.0", "id": float64(7), "error": map[string]any{"code": float64(-32600),
		"message": "the message is 5110 bytes, over the 1000-byte limit on one message (MaxMessageBytes); it was skipped. Send smaller messages: a file is at most 500 KiB"}}
	if diff := cmp.Diff(want, s.next(t)); diff != "" {
		t.Errorf("oversize message: mismatch (-want +got):\n%s", diff)
	}

	s.send(t, `{"jsonrpc":"2.0","id":8,"method":`)
	want = map[string]any{"jsonrpc": "2.0", "id": float64(8), "error": map[string]any{"code": float64(-32700),
		"message": "the line is not valid JSON; send one JSON-RPC message per line"}}
	if diff := cmp.Diff(want, s.next(t)); diff != "" {
		t.Errorf("broken line: mismatch (-want +got):\n%s", diff)
	}

	s.send(t, callLine(9, "glob", map[string]any{}))
	got := s.next(t)
	if got["id"] != float64(9) || got["result"] == nil {
		t.Errorf("the call after the refusals: %v", got)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "scene.code.js")); err == nil {
		t.Errorf("the skipped write wrote %s", fileBytes(t, s.dir, "scene.code.js"))
	}
}

// TestStdioAnswersAfterStdinCloses: a client that sends its requests and closes stdin gets
// every answer before the server ends.
func TestStdioAnswersAfterStdinCloses(t *testing.T) {
	t.Parallel()
	s := newStdioServer(t, runtime.Options{}, 0, nil)
	s.send(t, initLine, initializedLine,
		callLine(2, "write", map[string]any{"file": "main", "code": "drawCircle('a', 0, 0, 1)\n"}),
		callLine(3, "glob", map[string]any{}))
	s.in.Close()
	answers := s.rest(t)
	if err := <-s.done; err != nil && err != io.EOF {
		t.Errorf("Run: %v", err)
	}
	var ids []float64
	for _, a := range answers {
		if a["error"] != nil {
			t.Errorf("answer %v", a)
		}
		ids = append(ids, a["id"].(float64))
	}
	slices.Sort(ids) // calls are handled concurrently
	if diff := cmp.Diff([]float64{1, 2, 3}, ids); diff != "" {
		t.Errorf("answered ids: mismatch (-want +got):\n%s", diff)
	}
}

// TestStdioStopAnswersTheWriteInFlight: told to stop (a signal) in the middle of a write,
// the server cancels it, answers it, and only then ends; the file is unchanged.
func TestStdioStopAnswersTheWriteInFlight(t *testing.T) {
	t.Parallel()
	const before = "drawCircle('a', 0, 0, 1)\n"
	s := newStdioServer(t, longRun, 0, map[string]string{"scene.code.js": before})
	s.send(t, initLine, initializedLine)
	s.next(t)
	s.send(t, callLine(2, "write", map[string]any{"file": "main", "code": stuck}))
	id, _ := jsonrpc.MakeID(float64(2))
	waitFor(t, "the write to be read", func() bool {
		s.st.conn.mu.Lock()
		defer s.st.conn.mu.Unlock()
		return s.st.conn.pending[id]
	})
	s.st.Drain()
	s.stop()
	answers := s.rest(t)
	<-s.done
	if len(answers) != 1 {
		t.Fatalf("answers after the stop: %v, want the write's", answers)
	}
	res, _ := answers[0]["result"].(map[string]any)
	if answers[0]["id"] != float64(2) || res["isError"] != true {
		t.Errorf("the write's answer: %v; want a tool error", answers[0])
	}
	if got := fileBytes(t, s.dir, "scene.code.js"); got != before {
		t.Errorf("main after the stopped write: %q", got)
	}
}

func TestIDScanner(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		want any
	}{
		{`{"jsonrpc":"2.0","id":5,"method":"x"}`, int64(5)},
		{`{"method":"x","params":{"id":1,"a":[{"id":2}]},"id":"abc"}`, "abc"},
		{`{"params":{"s":"a \" \\ \"id\":3 }"},"id":4}`, int64(4)},
		{` { "id" : "x\"y" , "method":"m"}`, `x"y`},
		{`{"id":{"a":1}}`, nil},
		{`{"id":[1]}`, nil},
		{`{"method":"notify"}`, nil},
		{`[{"id":1}]`, nil},
		{`{"id":` + strings.Repeat("1", 300) + `}`, nil},
		{`{"idx":1,"xid":2}`, nil},
	} {
		var s idScanner
		// Fed one byte at a time: the scanner must not depend on how the line is cut.
		for i := range len(tc.line) {
			s.write([]byte{tc.line[i]})
		}
		if got := s.id().Raw(); got != tc.want {
			t.Errorf("id of %s = %#v, want %#v", tc.line, got, tc.want)
		}
	}
}

// FuzzReadLine: any input splits into the same lines bufio.Scanner would see, lines over the
// cap are dropped with their true size, and the id found agrees with a JSON decoder's.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte(initLine+"\n"+initializedLine+"\r\n"), 64)
	f.Add([]byte(`{"params":{"id":1,"s":"\"id\":2"},"id":"x"}`+"\n{"), 10)
	f.Add([]byte("\n\n[1,2]\n"), 1)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		max = 1 + abs(max)%200
		br := bufio.NewReaderSize(bytes.NewReader(in), 16)
		var want []string
		for l := range strings.Lines(string(in)) {
			want = append(want, l)
		}
		for i := 0; ; i++ {
			line, size, id, err := readLine(br, max)
			if i >= len(want) {
				if err != io.EOF || size != 0 {
					t.Fatalf("after the last line: %q, %d, %v", line, size, err)
				}
				return
			}
			text := want[i]
			if t, ok := strings.CutSuffix(text, "\n"); ok {
				text = strings.TrimSuffix(t, "\r")
			}
			if size != len(text) {
				t.Fatalf("line %d: size %d, want %d", i, size, len(text))
			}
			if len(text) > max {
				if line != nil {
					t.Fatalf("line %d of %d bytes over %d kept", i, len(text), max)
				}
			} else if string(line) != text {
				t.Fatalf("line %d: %q, want %q", i, line, text)
			}
			var obj map[string]json.RawMessage
			if json.Unmarshal([]byte(text), &obj) == nil && obj != nil {
				var v any
				wantID := jsonrpc.ID{}
				if raw, ok := obj["id"]; ok && json.Unmarshal(raw, &v) == nil && len(raw) <= maxIDBytes && bytes.Count(bytes.TrimSpace([]byte(text)), []byte(`"id"`)) == 1 {
					wantID, _ = jsonrpc.MakeID(v)
				}
				if bytes.Count([]byte(text), []byte(`"id"`)) == 1 && id != wantID {
					t.Fatalf("line %q: id %v, want %v", text, id.Raw(), wantID.Raw())
				}
			}
			if err != nil {
				return
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
