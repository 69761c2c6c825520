package viewer

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// start serves a viewer over a fresh workspace on a loopback test server.
func start(t *testing.T, opt Options) (*Server, *httptest.Server, *modules.Workspace) {
	t.Helper()
	ws, err := modules.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if opt.Selection == nil {
		opt.Selection = ws
	}
	v := New(opt)
	ts := httptest.NewServer(v.Handler())
	t.Cleanup(func() { v.Close(); ts.Close() })
	return v, ts, ws
}

func circles(t testing.TB, names ...string) *scene.Scene {
	t.Helper()
	s := scene.New()
	for i, n := range names {
		if _, err := s.Put(n, scene.Circle{Center: geom.Vec{X: float64(10 * i)}, Radius: 2}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

type event struct{ ID, Name, Data string }

// stream reads server-sent events, and answers pings as the page does.
type stream struct {
	t      *testing.T
	r      *bufio.Reader
	body   io.Closer
	url    string
	header http.Header
}

func openEvents(t *testing.T, url string, header http.Header) *stream {
	t.Helper()
	req, err := http.NewRequest("GET", url+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("GET /events: %s %s", res.Status, b)
	}
	s := &stream{t: t, r: bufio.NewReader(res.Body), body: res.Body, url: url, header: header}
	t.Cleanup(func() { res.Body.Close() })
	return s
}

// next returns the next event, skipping retry lines and heartbeats, and answering pings.
func (s *stream) next() event {
	s.t.Helper()
	var e event
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			s.t.Fatalf("reading events: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && e.Name == "ping":
			s.answer(e.Data)
			e = event{}
		case line == "":
			if e.Name != "" {
				return e
			}
		case strings.HasPrefix(line, "id: "):
			e.ID = line[4:]
		case strings.HasPrefix(line, "event: "):
			e.Name = line[7:]
		case strings.HasPrefix(line, "data: "):
			e.Data = line[6:]
		}
	}
}

// answer answers a ping event's data, as the page does.
func (s *stream) answer(data string) {
	s.t.Helper()
	var p pingEvent
	if err := json.Unmarshal([]byte(data), &p); err != nil {
		s.t.Fatalf("ping %s: %v", data, err)
	}
	req, _ := http.NewRequest("POST", s.url+"/events/ack?ping="+p.Ping, nil)
	for k, v := range s.header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		s.t.Fatalf("answering ping %s: %s", p.Ping, res.Status)
	}
}

// sceneEvent is the data of a scene event without its clock fields.
func (s *stream) expect(want ...event) {
	s.t.Helper()
	var got []event
	for range want {
		e := s.next()
		if e.Name == "scene" {
			var d SceneEvent
			json.Unmarshal([]byte(e.Data), &d)
			e.Data = fmt.Sprintf("version=%d entities=%d", d.Version, d.Entities)
		}
		got = append(got, e)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		s.t.Errorf("events: mismatch (-want +got):\n%s", diff)
	}
}

const noSelection = `{"selected":[],"locked":[],"hidden":[]}`

func TestEventsFollowPublishedStates(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	es := openEvents(t, ts.URL, nil)
	es.expect(
		event{"0", "scene", "version=0 entities=0"},
		event{"0", "diagnostic", `{"version":0,"diagnostic":null}`},
		event{"0", "selection", noSelection},
	)
	if got := v.Publish(State{Scene: circles(t, "a", "b"), Run: 3 * time.Millisecond}); got != 1 {
		t.Errorf("Publish = %d; want version 1", got)
	}
	es.expect(
		event{"1", "scene", "version=1 entities=2"},
		event{"1", "diagnostic", `{"version":1,"diagnostic":null}`},
	)
	// A failed run: the diagnostic over the last good scene, which stays version 1.
	_, err := runtime.Run(context.Background(), runtime.Overlay{Base: emptySource{}, Name: "main", Content: []byte("drawCirle('x', 0, 0, 1)\n")}, "main", runtime.Options{})
	v.Publish(State{Diagnostic: DiagnosticOf(err)})
	e := es.next()
	var d DiagnosticEvent
	if err := json.Unmarshal([]byte(e.Data), &d); err != nil {
		t.Fatal(err)
	}
	want := &Diagnostic{File: "scene.code.js", Line: 1, Column: 1, Kind: "ReferenceError", Message: "drawCirle is not defined",
		Source: "drawCirle('x', 0, 0, 1)", Hint: d.Diagnostic.Hint, Text: err.Error()}
	if diff := cmp.Diff(event{"2", "diagnostic", ""}, event{e.ID, e.Name, ""}); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, d.Diagnostic); diff != "" || !strings.HasPrefix(d.Diagnostic.Hint, "did you mean drawCircle?") {
		t.Errorf("diagnostic: mismatch (-want +got):\n%s\nhint %q", diff, d.Diagnostic.Hint)
	}
	if b := get(t, ts.URL+"/api/scene.svg", 200); !strings.Contains(b, `data-name="b" data-kind="circle"`) {
		t.Errorf("after a failed run the SVG is not the last good scene:\n%s", b)
	}
	// The next good run clears it.
	v.Publish(State{Scene: circles(t, "c")})
	es.expect(
		event{"3", "scene", "version=3 entities=1"},
		event{"3", "diagnostic", `{"version":3,"diagnostic":null}`},
	)
	// A tab that reconnects gets the whole current state at once.
	again := openEvents(t, ts.URL, http.Header{"Last-Event-Id": {"1"}})
	again.expect(
		event{"3", "scene", "version=3 entities=1"},
		event{"3", "diagnostic", `{"version":3,"diagnostic":null}`},
		event{"3", "selection", noSelection},
	)
}

// emptySource is a workspace with no files.
type emptySource struct{}

func (emptySource) Read(name string) ([]byte, string, error) {
	return nil, runtime.PathOf(name), fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
}
func (emptySource) Names() []string { return nil }

func get(t *testing.T, url string, status int) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		t.Fatalf("GET %s: %s %s; want %d", url, res.Status, b, status)
	}
	return string(b)
}

// apiError is the body of a refusal under /api/, in the front door's one form.
func apiError(msg string) string {
	b, err := json.Marshal(map[string]string{"error": msg})
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

func post(t *testing.T, url, body string, status int) string {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		t.Fatalf("POST %s: %s %s; want %d", url, res.Status, b, status)
	}
	return string(b)
}

func TestAPI(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	s := circles(t, "gear", "bolt")
	if _, err := s.CreateGroup("part", []string{"gear"}); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: s})

	svg := get(t, ts.URL+"/api/scene.svg", 200)
	for _, want := range []string{`<g data-name="part" data-kind="group">`, `<path data-name="gear" data-kind="circle"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("scene.svg lacks %s:\n%s", want, svg)
		}
	}
	if got := get(t, ts.URL+"/api/scene", 200); !json.Valid([]byte(got)) || !strings.Contains(got, `"bolt"`) {
		t.Errorf("scene JSON: %.200s", got)
	}
	img, err := png.Decode(strings.NewReader(get(t, ts.URL+"/api/scene.png?width=64", 200)))
	if err != nil || img.Bounds().Dx() != 64 {
		t.Errorf("scene.png?width=64: %v, %v", err, img)
	}
	for _, w := range []string{"0", "4097", "x"} {
		want := apiError(fmt.Sprintf("bad width %q: give a whole number of pixels from 1 to 4096 (MaxPNGWidth)", w))
		if got := get(t, ts.URL+"/api/scene.png?width="+w, 400); got != want {
			t.Errorf("width %s: %q; want %q", w, got, want)
		}
	}
	if got, want := get(t, ts.URL+"/api/scene.png?view=nope", 400), apiError(`bad view "nope": give iso, front, top, right, back, left, bottom, sheet, or a direction [x, y, z] the camera looks from`); got != want {
		t.Errorf("view nope: %q; want %q", got, want)
	}
	got := get(t, ts.URL+"/api/entity?name=gear", 200)
	want := `{"name":"gear","kind":"circle","parent":"part","zRank":0,"worldBounds":{"min":[-2,-2],"max":[2,2]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":0}}`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entity: mismatch (-want +got):\n%s", diff)
	}
	if got := get(t, ts.URL+"/api/entity?name=nope", 404); got != apiError("no entity \"nope\" in scene version 1") {
		t.Errorf("missing entity: %q", got)
	}
	for _, path := range []string{"/", "/viewer.js", "/viewer.css"} {
		if b := get(t, ts.URL+path, 200); len(b) < 100 {
			t.Errorf("%s: %q", path, b)
		}
	}
	get(t, ts.URL+"/nope", 404)
}

func TestSelectionAPI(t *testing.T) {
	t.Parallel()
	v, ts, ws := start(t, Options{})
	es := openEvents(t, ts.URL, nil)
	es.expect(event{"0", "scene", "version=0 entities=0"}, event{"0", "diagnostic", `{"version":0,"diagnostic":null}`}, event{"0", "selection", noSelection})

	got := post(t, ts.URL+"/api/selection", `{"selected":["gear","bolt","gear"],"hidden":["grid"]}`, 200)
	want := `{"selected":["gear","bolt"],"locked":[],"hidden":["grid"]}`
	if got != want {
		t.Errorf("POST answer %s; want %s", got, want)
	}
	es.expect(event{"0", "selection", want})
	if sel, err := ws.LoadSelection(); err != nil || string(selectionJSON(sel)) != want {
		t.Errorf("the workspace holds %s, %v; want %s", selectionJSON(sel), err, want)
	}
	if got := get(t, ts.URL+"/api/selection", 200); got != want {
		t.Errorf("GET %s; want %s", got, want)
	}
	// Another process on the same workspace changes it: the viewer notices.
	other, err := modules.Open(ws.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.SaveSelection(modules.Selection{Locked: []string{"gear"}}); err != nil {
		t.Fatal(err)
	}
	es.expect(event{"0", "selection", `{"selected":[],"locked":["gear"],"hidden":[]}`})
	if !v.Selection().Equal(modules.Selection{Selected: []string{}, Locked: []string{"gear"}, Hidden: []string{}}) {
		t.Errorf("Selection() = %v", v.Selection())
	}

	for _, c := range []struct{ body, want string }{
		{`{"selected":[""]}`, "bad selection: selected[0] is empty; give entity names"},
		{`{"selected":["a"]} {}`, `bad selection: want {"selected":[...],"locked":[...],"hidden":[...]} (entity names): there is more after the JSON value (at offset 18: "{}"); send exactly one value`},
		{`{"picked":[]}`, `bad selection: want {"selected":[...],"locked":[...],"hidden":[...]} (entity names): unknown key "picked"; the keys are hidden, locked, selected`},
	} {
		if got := post(t, ts.URL+"/api/selection", c.body, 400); got != apiError(c.want) {
			t.Errorf("POST %s: %q; want %q", c.body, got, c.want)
		}
	}
	big := `{"selected":["` + strings.Repeat("x", MaxBodyBytes) + `"]}`
	if got := post(t, ts.URL+"/api/selection", big, 413); got != apiError("the body is over 1048576 bytes (MaxBodyBytes)") {
		t.Errorf("big body: %q", got)
	}
}

// TestBodiesOneInputRule: POST /api/selection and POST /api/sketch read their bodies by the
// one rule for JSON input (docs/decisions.md, "One input check"): a name that is not UTF-8,
// a body of null, a key given twice (or twice in another case) are answered 400 with what to
// send, and change nothing. The selection had stored "\ufffd", cleared everything (its locks
// too) for null, and kept the last of a repeated key.
func TestBodiesOneInputRule(t *testing.T) {
	t.Parallel()
	_, ts, ws := start(t, Options{})
	post(t, ts.URL+"/api/selection", `{"selected":["r1"],"locked":["r1"]}`, 200)
	post(t, ts.URL+"/api/sketch", `{"points":[[0,0],[1,1]]}`, 200)
	const sel = `bad selection: want {"selected":[...],"locked":[...],"hidden":[...]} (entity names): `
	const stroke = `bad stroke: want {"points":[[x,y],...]} in scene units: `
	for _, tc := range []struct{ path, body, want string }{
		{"/api/selection", "{\"selected\":[\"\xff\"]}", sel + "not valid UTF-8 (offset 14: byte 0xff); send UTF-8 text"},
		{"/api/selection", `{"selected":["\udc00"]}`, sel + `not valid UTF-8 (offset 14: \udc00 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`},
		{"/api/selection", `null`, sel + "want a JSON object ({...}), not null"},
		{"/api/selection", ` [] `, sel + "want a JSON object ({...}), not an array"},
		{"/api/selection", `{"selected":["a"],"selected":["b"]}`, sel + `the key "selected" appears twice in one object; send it once`},
		{"/api/selection", `{"selected":["a"],"Selected":["b"]}`, sel + `unknown key "Selected"; did you mean "selected"? (keys are case-sensitive)`},
		{"/api/sketch", `{"points":[[0,0],[1,1]],"points":[[2,2],[3,3]]}`, stroke + `the key "points" appears twice in one object; send it once`},
		{"/api/sketch", `null`, stroke + "want a JSON object ({...}), not null"},
	} {
		res, err := http.Post(ts.URL+tc.path, "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || string(b) != apiError(tc.want) {
			t.Errorf("POST %s %q: %d %q; want 400 %q", tc.path, tc.body, res.StatusCode, b, tc.want)
		}
	}
	want := `{"selected":["r1"],"locked":["r1"],"hidden":[]}`
	if got, err := ws.LoadSelection(); err != nil || string(selectionJSON(got)) != want {
		t.Errorf("after the refusals the selection is %s, %v; want %s", selectionJSON(got), err, want)
	}
	if sk, err := ws.LoadSketch(); err != nil || len(sk.Strokes) != 1 || sk.Points() != 2 {
		t.Errorf("after the refusals the sketch is %+v, %v; want the one stroke", sk, err)
	}
}

func TestGuard(t *testing.T) {
	t.Parallel()
	_, ts, _ := start(t, Options{Token: "s3cret"})
	do := func(path string, h http.Header) (int, string, *http.Response) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		for k, v := range h {
			req.Header[k] = v
		}
		if host := h.Get("Host"); host != "" {
			req.Host = host
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res
	}
	for _, c := range []struct {
		name   string
		path   string
		h      http.Header
		status int
		body   string
	}{
		{"no token", "/api/selection", nil, 401, `{"error":"unauthorized: open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN"}` + "\n"},
		{"no token, page", "/", nil, 401, "unauthorized: open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN\n"},
		{"wrong token", "/api/selection", http.Header{"Authorization": {"Bearer nope"}}, 401, `{"error":"unauthorized: open the viewer as /?token=TOKEN, or send Authorization: Bearer TOKEN"}` + "\n"},
		{"bearer", "/api/selection", http.Header{"Authorization": {"Bearer s3cret"}}, 200, noSelection},
		{"cookie", "/api/selection", http.Header{"Cookie": {tokenCookie + "=" + cookieValue("s3cret")}}, 200, noSelection},
		{"foreign host", "/api/selection", http.Header{"Authorization": {"Bearer s3cret"}, "Host": {"evil.example:80"}}, 403,
			`{"error":"forbidden: host \"evil.example:80\" is not loopback, and this server listens on loopback; use 127.0.0.1 or localhost"}` + "\n"},
		{"foreign origin", "/api/selection", http.Header{"Authorization": {"Bearer s3cret"}, "Origin": {"http://evil.example"}}, 403,
			`{"error":"forbidden: origin \"http://evil.example\" is not this server"}` + "\n"},
		{"null origin, page", "/", http.Header{"Authorization": {"Bearer s3cret"}, "Origin": {"null"}}, 403,
			"forbidden: origin \"null\" is not this server\n"},
	} {
		status, body, _ := do(c.path, c.h)
		if status != c.status || body != c.body {
			t.Errorf("%s: %d %q; want %d %q", c.name, status, body, c.status, c.body)
		}
	}
	// The page opened with ?token= sets the cookie the page's own requests carry.
	status, _, res := do("/?token=s3cret", nil)
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == tokenCookie {
			cookie = c
		}
	}
	if status != 200 || cookie == nil || cookie.Value != cookieValue("s3cret") || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Errorf("?token=: %d, cookie %+v", status, cookie)
	}
}

// TestCookieIsNotTheToken: the cookie /?token=T sets opens the viewer and is not T, which is
// MCP's bearer too: a browser sends the cookie to every port of the host name. It is no bearer
// for the viewer either, and a cookie that still holds T (an older version's) is replaced.
func TestCookieIsNotTheToken(t *testing.T) {
	t.Parallel()
	_, ts, _ := start(t, Options{Token: "s3cret"})
	do := func(path string, h http.Header) (int, *http.Cookie) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header = h
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		for _, c := range res.Cookies() {
			if c.Name == tokenCookie {
				return res.StatusCode, c
			}
		}
		return res.StatusCode, nil
	}
	status, cookie := do("/?token=s3cret", http.Header{})
	if status != 200 || cookie == nil {
		t.Fatalf("?token=: %d, cookie %+v", status, cookie)
	}
	if strings.Contains(cookie.Value, "s3cret") {
		t.Errorf("the cookie holds the token: %q", cookie.Value)
	}
	for _, c := range []struct {
		name      string
		h         http.Header
		status    int
		newCookie bool
	}{
		{"the cookie", http.Header{"Cookie": {tokenCookie + "=" + cookie.Value}}, 200, false},
		{"the cookie as a bearer", http.Header{"Authorization": {"Bearer " + cookie.Value}}, 401, false},
		{"the token in a cookie", http.Header{"Cookie": {tokenCookie + "=s3cret"}}, 200, true},
	} {
		status, set := do("/api/selection", c.h)
		if status != c.status || (set != nil) != c.newCookie || set != nil && set.Value != cookie.Value {
			t.Errorf("%s: status %d, cookie set %+v; want %d, set %v", c.name, status, set, c.status, c.newCookie)
		}
	}
}

// TestMaxClients: past MaxClients streams that read (they answered their ping) the next one is
// refused naming the limit.
func TestMaxClients(t *testing.T) {
	t.Parallel()
	_, ts, _ := start(t, Options{MaxClients: 2})
	for range 2 {
		openEvents(t, ts.URL, nil).next() // answers the ping that comes first
	}
	if got := get(t, ts.URL+"/events", 503); got != "too many viewer tabs: 2 event streams are open and reading (MaxClients); close a tab and reload\n" {
		t.Errorf("third stream: %q", got)
	}
}

// TestNonReadersMakeRoom: MaxClients connections that ask for the stream and never read it
// (the events are too small to fill their socket buffers, so no write blocks) do not keep a
// tab out: each new tab takes the place of the oldest stream that never answered its ping, and
// once the tabs have answered theirs, only they are left.
func TestNonReadersMakeRoom(t *testing.T) {
	t.Parallel()
	const max = 8
	v := New(Options{MaxClients: max})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.Serve(ctx, ln)
	url := "http://" + ln.Addr().String()
	for range max {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, err := c.Write([]byte("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
	}
	for v.Clients() < max { // wait for the server to take them all
		time.Sleep(time.Millisecond)
	}
	for i := range max {
		es := openEvents(t, url, nil)
		if e := es.next(); e.Name != "scene" { // the ping before it is answered
			t.Fatalf("tab %d: first event %+v", i, e)
		}
		if got := v.Clients(); got != max {
			t.Fatalf("tab %d: %d streams open, want %d", i, got, max)
		}
	}
	v.mu.Lock()
	answered := 0
	for c := range v.clients {
		if c.answered {
			answered++
		}
	}
	v.mu.Unlock()
	if answered != max {
		t.Errorf("%d of the %d streams left answered their ping; want the tabs alone", answered, max)
	}
	if got := get(t, url+"/events", 503); !strings.HasPrefix(got, "too many viewer tabs") {
		t.Errorf("one more stream: %q", got)
	}
}

func TestServeStopsOnCancel(t *testing.T) {
	t.Parallel()
	v := New(Options{})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- v.Serve(ctx, ln) }()
	es := openEvents(t, "http://"+ln.Addr().String(), nil)
	es.next()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve = %v", err)
	}
	// The stream ended with the server.
	if _, err := es.r.ReadString('\n'); err == nil {
		for {
			if _, err = es.r.ReadString('\n'); err != nil {
				break
			}
		}
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("the server still answers after Serve returned")
	}
}

func TestDiagnosticOf(t *testing.T) {
	t.Parallel()
	if DiagnosticOf(nil) != nil {
		t.Error("DiagnosticOf(nil) is not nil")
	}
	err := fmt.Errorf("wrapped: %w", errors.New("plain failure"))
	want := &Diagnostic{Message: "wrapped: plain failure", Text: "wrapped: plain failure"}
	if diff := cmp.Diff(want, DiagnosticOf(err)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// A diagnostic's notes reach the page in its JSON, each with its own location and line.
func TestDiagnosticOfNotes(t *testing.T) {
	t.Parallel()
	_, err := runtime.Run(context.Background(), runtime.MapSource{
		"main": "import 'a'\nconst SIZE = 3\n",
		"a":    "let W = 1; const SIZE = 2\n",
	}, "main", runtime.Options{})
	b, jerr := json.Marshal(DiagnosticOf(err))
	if jerr != nil {
		t.Fatal(jerr)
	}
	want := `{"file":"scene.code.js","line":2,"column":7,"kind":"SyntaxError",` +
		`"message":"'SIZE' is declared in both modules/a.js:1 and scene.code.js:2","source":"const SIZE = 3",` +
		`"hint":"all modules share one scope: rename one, or declare it once and import that module",` +
		`"notes":[{"file":"modules/a.js","line":1,"column":18,"message":"'SIZE' is first declared here","source":"let W = 1; const SIZE = 2"}],` +
		`"text":"scene.code.js:2:7: SyntaxError: 'SIZE' is declared in both modules/a.js:1 and scene.code.js:2"}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestMaxHeaderBytes: a request header over front.MaxHeaderBytes is answered 431, not read on.
func TestMaxHeaderBytes(t *testing.T) {
	t.Parallel()
	v := New(Options{})
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go v.Serve(ctx, ln)
	for _, tc := range []struct{ size, status int }{{front.MaxHeaderBytes / 2, http.StatusOK}, {front.MaxHeaderBytes + 8192, http.StatusRequestHeaderFieldsTooLarge}} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/selection", nil)
		req.Header.Set("X-Padding", strings.Repeat("x", tc.size))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Errorf("a %d-byte header: status %d, want %d", tc.size, res.StatusCode, tc.status)
		}
	}
}

// TestGuardSlowsWrongTokens: the viewer's door is MCP's: from a remote address, the sixth
// wrong token in a row refuses the address for a while (429 with Retry-After), the right
// token included, and the refusal is JSON under /api/.
func TestGuardSlowsWrongTokens(t *testing.T) {
	t.Parallel()
	v := New(Options{Token: "s3cret", Logger: slog.New(slog.DiscardHandler)})
	h := v.Handler()
	do := func(token string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/api/selection", nil)
		req.RemoteAddr = "203.0.113.7:4242"
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for i := range 6 {
		if rec := do("guess"); rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := do("s3cret")
	want := `{"error":"too many requests: 6 wrong tokens in a row from this address; try again in 1s"}` + "\n"
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" || rec.Body.String() != want {
		t.Errorf("the right token during the refusal: %d, Retry-After %q, %q; want 429, 1, %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body, want)
	}
}

// TestScenePNGViews: scene.png draws the solids from the side ?view= names, as `scene png`
// does (the same bytes as render.PNG with that camera); each side is kept apart, so that two
// tabs asking for two sides get each its own. The 8 x 6 x 4 box is wider from the front
// (8:4) than from the top (8:6).
func TestScenePNGViews(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	s := scene.New()
	if _, err := s.Put("box", boxSolid(scene.Vec3{0, 0, 0}, scene.Vec3{8, 6, 4})); err != nil {
		t.Fatal(err)
	}
	v.Publish(State{Scene: s})
	ratio := map[string]float64{}
	for _, view := range []string{"front", "top", "0,-1,0", "front", "sheet"} {
		got := get(t, ts.URL+"/api/scene.png?width=400&view="+view, 200)
		cam, err := render.ParseCamera(view)
		if err != nil {
			t.Fatal(err)
		}
		want, err := render.PNG(s, render.PNGOptions{Width: 400, Camera: cam})
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: the picture is not render.PNG's from that side", view)
		}
		img, err := png.Decode(strings.NewReader(got))
		if err != nil {
			t.Fatalf("%s: %v", view, err)
		}
		ratio[view] = float64(img.Bounds().Dx()) / float64(img.Bounds().Dy())
	}
	if !(ratio["front"] > ratio["top"]+0.2) || ratio["front"] != ratio["0,-1,0"] {
		t.Errorf("width:height from the front %.2f, from the top %.2f, from 0,-1,0 %.2f: want the front wider than the top, and as 0,-1,0", ratio["front"], ratio["top"], ratio["0,-1,0"])
	}
}
