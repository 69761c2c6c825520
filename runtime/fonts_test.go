package runtime

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/text"
)

// koreanFont reads a Korean font from Debian's fonts-nanum (.ci/debian-packages); without it
// the test is skipped, or fails when the setup promised every tool (make test).
func koreanFont(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/usr/share/fonts/truetype/nanum/NanumGothic.ttf")
	if err != nil {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%v: install fonts-nanum (.ci/deps does)", err)
		}
		t.Skipf("%v: install fonts-nanum (.ci/deps does)", err)
	}
	return string(b)
}

const koreanScript = `drawText('title', '안녕', 0, 0, 24, {font: 'nanum', align: 'center'})
const a = getTextMetrics('안녕', 24, {font: 'nanum'})
const b = getTextMetrics('안녕', 24, 'nanum')
console.log(a.width > 20, a.width === b.width, getEntity('title').geometry.font)
`

// Upstream's documented Korean examples work once the workspace brings a font that has
// Hangul: drawText with {font}, getTextMetrics with the name or {font}.
func TestWorkspaceFontDrawsKorean(t *testing.T) {
	t.Parallel()
	src := MapSource{MainModule: koreanScript, "fonts/nanum.ttf": koreanFont(t)}
	res, err := Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"true true nanum"}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
}

// Without a font that has a character (U+10FFFD, private use, in no font), the error says
// what to do; a font that does not exist names the embedded fonts and the workspace's own.
func TestWorkspaceFontErrors(t *testing.T) {
	t.Parallel()
	font := koreanFont(t)
	for _, tc := range []struct {
		name string
		src  MapSource
		want string
	}{
		{"no font", MapSource{MainModule: "drawText('title', '안\\u{10FFFD}', 0, 0, 24)"},
			`scene.code.js:1:1: Error: drawText: font "sans" has no glyph for "\U0010fffd" (U+10FFFD); add a font that has U+10FFFD to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}`},
		{"metrics", MapSource{MainModule: "getTextMetrics('\\u{10FFFD}', 24)", "fonts/nanum.ttf": font},
			`scene.code.js:1:1: Error: getTextMetrics: font "sans" has no glyph for "\U0010fffd" (U+10FFFD); add a font that has U+10FFFD to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}`},
		{"unknown", MapSource{MainModule: "drawText('t', 'x', 0, 0, 2, {font: 'nanun'})", "fonts/nanum.ttf": font},
			`scene.code.js:1:1: Error: drawText: unknown font "nanun": not an embedded font (go-sans, go-sans-bold, go-sans-bold-italic, go-sans-italic, mono, mono-bold, sans, sans-bold, sans-bold-italic, sans-italic) and no fonts/nanun.ttf, .otf or .ttc (the workspace has nanum)`},
		{"not a font", MapSource{MainModule: "drawText('t', 'x', 0, 0, 2, {font: 'junk'})", "fonts/junk.otf": "this is not a font, only text"},
			`scene.code.js:1:1: Error: drawText: bad font file: font "junk": sfnt: invalid font; use a TrueType or OpenType file (.ttf, .otf) or a collection (.ttc)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Run(context.Background(), tc.src, MainModule, Options{})
			if err == nil {
				t.Fatal("the run succeeded")
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A worker asks its parent for the font and the parent reads the worker's scene with it.
func TestPoolWorkspaceFont(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	src := MapSource{MainModule: koreanScript, "fonts/nanum.ttf": koreanFont(t)}
	// The 4.7 MB font crosses the pipe as JSON inside the run's time: 0.1 s, but seconds under
	// the race detector on a busy machine. The timeout is not what this tests.
	opt := Options{Limits: Limits{Timeout: time.Minute}}
	want, err := Run(context.Background(), src, MainModule, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Run(context.Background(), src, MainModule, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := want.Scene.MarshalJSON()
	b, _ := got.Scene.MarshalJSON()
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("scene mismatch (-in process +worker):\n%s", diff)
	}
	if diff := cmp.Diff(string(b), string(got.SceneJSON)); diff != "" { // stored as it is
		t.Errorf("scene JSON mismatch (-encoded +sent):\n%s", diff)
	}
	if diff := cmp.Diff(want.Logs, got.Logs); diff != "" {
		t.Errorf("logs mismatch (-in process +worker):\n%s", diff)
	}
}

// Upstream's Korean examples, with no font in the workspace, draw in a system font (Debian's
// fonts-nanum here), which the run names; through a worker, the parent reads the scene back
// with the same font.
func TestSystemFontDrawsKorean(t *testing.T) {
	t.Parallel()
	koreanFont(t)
	src := MapSource{MainModule: `drawText('title', '안녕', 0, 0, 24)
const m = getTextMetrics('안녕', 24)
console.log(m.width > 20, getEntity('title').geometry.fallback[0].startsWith('system:'))
`}
	p := newTestPool(t, 0)
	for name, run := range map[string]func() (*Result, error){
		"in process": func() (*Result, error) { return Run(context.Background(), src, MainModule, Options{}) },
		"worker":     func() (*Result, error) { return p.Run(context.Background(), src, MainModule, Options{}) },
	} {
		res, err := run()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff([]string{"true true"}, res.Logs); diff != "" {
			t.Errorf("%s: logs mismatch (-want +got):\n%s", name, diff)
		}
		e, ok := res.Scene.Lookup("title")
		if !ok {
			t.Fatalf("%s: no title", name)
		}
		txt := e.Shape.(*scene.Text)
		path := text.SystemFontPath(txt.Fallback[0])
		want := fmt.Sprintf(`drawText (scene.code.js:1:1): font "sans" lacks characters, drawn "안녕" in the system font %s (%s); another machine may have another font or none: put the font in fonts/ and pass {font: 'NAME'} to draw the same everywhere`, txt.Fallback[0], path)
		if diff := cmp.Diff([]string{want}, res.Warnings); diff != "" {
			t.Errorf("%s: warnings mismatch (-want +got):\n%s", name, diff)
		}
		if b := res.Scene.WorldBounds(e); !b.NonEmpty || b.Size().X < 30 {
			t.Errorf("%s: bounds %+v; want two glyphs' width", name, b)
		}
	}
}

// The workspace's fonts come before the machine's, in name order, and the run says which
// drew what; a character the workspace lacks still falls back to the machine.
func TestWorkspaceFontsFallBackFirst(t *testing.T) {
	t.Parallel()
	src := MapSource{MainModule: `drawText('t', 'Hi 안녕', 0, 0, 5, {font: 'mono'})
console.log(JSON.stringify(getEntity('t').geometry.fallback))`, "fonts/nanum.ttf": koreanFont(t)}
	res, err := Run(context.Background(), src, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`["nanum"]`}, res.Logs); diff != "" {
		t.Errorf("logs mismatch (-want +got):\n%s", diff)
	}
	want := `drawText (scene.code.js:1:1): font "mono" lacks characters, drawn "안녕" in the workspace font nanum`
	if diff := cmp.Diff([]string{want}, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}
