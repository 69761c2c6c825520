package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
)

const diffBeforeJS = `drawRect('keep', 0, 0, 20, 20); setFill('keep', [0, 0, 0, 1])
drawCircle('gone', 50, 0, 5); setFill('gone', [0, 0, 0, 1])
drawRect('mover', 0, 50, 10, 10); setFill('mover', [0, 0, 0, 1])
drawCircle('paint', -50, 0, 5); setFill('paint', [0, 0, 0, 1])
`

const diffAfterJS = `drawRect('keep', 0, 0, 20, 20); setFill('keep', [0, 0, 0, 1])
drawRect('mover', 0, 50, 10, 10); setFill('mover', [0, 0, 0, 1]); translate('mover', 30, 0)
drawCircle('paint', -50, 0, 5); setFill('paint', [1, 0, 0, 1])
drawCircle('new', 50, 50, 6); setFill('new', [0, 0, 0, 1])
`

// diffSession is a session whose history holds diffBeforeJS (entry 2, the snapshot "v1")
// and then diffAfterJS (entry 3, current).
func diffSession(t *testing.T) *Session {
	t.Helper()
	s, _ := newSession(t, nil)
	mustCall[any](t, s, "write", map[string]any{"file": "main", "code": diffBeforeJS})
	mustCall[any](t, s, "scene", map[string]any{"command": "snapshot", "name": "v1"})
	mustCall[any](t, s, "write", map[string]any{"file": "main", "code": diffAfterJS})
	return s
}

// The diff against a snapshot names what was added, removed and changed, and what changed
// of each; the default and -1 compare with the entry before, here the same one.
func TestSceneDiffAnswer(t *testing.T) {
	t.Parallel()
	s := diffSession(t)
	want := &DiffOut{
		Against: DiffAgainst{Entry: 2, Snapshot: "v1", Steps: -1, Current: 3},
		Counts:  DiffCounts{Added: 1, Removed: 1, Changed: 2, Unchanged: 1},
		Added:   []string{"new"},
		Removed: []string{"gone"},
		Changed: []EntityChange{
			{Name: "mover", Kind: scene.KindRect, What: []string{"transform"}, Moved: []float64{30, 0}},
			{Name: "paint", Kind: scene.KindCircle, What: []string{"style"}},
		},
		Legend: picture.DiffLegend,
	}
	wantImage := &ImageInfo{Width: 1024, Height: 647, Scale: 8.3865684, Origin: []float64{-60.55, 61.5736}, Region: []float64{-60.55, -15.5736, 61.55, 61.5736},
		Mapping: "scene (x, y) is at pixel ((x + 60.55) * 8.3865684, (61.5736 - y) * 8.3865684); scene y points up, image y points down; origin is the scene point at pixel (0, 0), the top-left corner"}
	for _, against := range []any{nil, "v1", -1, "-1"} {
		params := map[string]any{"command": "diff"}
		if against != nil {
			params["against"] = against
		}
		out, err := call[SceneOut](t, s, "scene", params)
		if err != nil {
			t.Fatalf("against %v: %v", against, err)
		}
		if against != "v1" {
			want.Against.Snapshot = "v1" // the entry before has that name too
		}
		if diff := cmp.Diff(want, out.Diff); diff != "" {
			t.Errorf("against %v: mismatch (-want +got):\n%s", against, diff)
		}
		if out.Omitted != nil {
			t.Errorf("against %v: omitted %+v, want none", against, out.Omitted)
		}
		wantImage.Bytes = len(out.PNG)
		if diff := cmp.Diff(wantImage, out.Image); diff != "" {
			t.Errorf("against %v: image: mismatch (-want +got):\n%s", against, diff)
		}
	}
}

// The picture shows each kind of difference in its colour where it is: the added circle
// green, the removed one red, the moved rectangle blue where it is and light blue where it
// was, the restyled circle blue, the unchanged rectangle faint grey.
func TestSceneDiffPicture(t *testing.T) {
	t.Parallel()
	s := diffSession(t)
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": "v1"})
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(out.PNG))
	if err != nil {
		t.Fatal(err)
	}
	// A see-through fill (alpha 0.45) of colour c over white.
	over := func(c scene.Color, alpha float64) color.RGBA {
		ch := func(v float64) uint8 { return uint8(math.Round(255 * (1 - alpha + v*alpha))) }
		return color.RGBA{ch(c[0]), ch(c[1]), ch(c[2]), 255}
	}
	for _, tc := range []struct {
		what string
		x, y float64
		want color.RGBA
	}{
		{"added new", 50, 50, over(scene.Color{0, 0.65, 0}, 0.45)},
		{"removed gone", 50, 0, over(scene.Color{0.9, 0, 0}, 0.45)},
		{"mover now", 30, 50, over(scene.Color{0, 0.35, 1}, 0.45)},
		{"mover before", 0, 50, over(scene.Color{0.5, 0.7, 1}, 0.45)},
		{"paint restyled", -50, 0, over(scene.Color{0, 0.35, 1}, 0.45)},
		{"keep unchanged", 0, 0, over(scene.Color{0.5, 0.5, 0.5}, 0.45*0.45)},
		{"background", 20, 25, color.RGBA{255, 255, 255, 255}},
	} {
		got := pixelAtScene(img, out.Image, tc.x, tc.y)
		if !nearColour(got, tc.want, 2) {
			t.Errorf("%s at (%v, %v): pixel %v, want %v", tc.what, tc.x, tc.y, got, tc.want)
		}
	}
}

// pixelAtScene is the picture's colour at the scene point (x, y), by the answer's mapping.
func pixelAtScene(img image.Image, info *ImageInfo, x, y float64) color.RGBA {
	px := int(math.Floor((x - info.Origin[0]) * info.Scale))
	py := int(math.Floor((info.Origin[1] - y) * info.Scale))
	return color.RGBAModel.Convert(img.At(px, py)).(color.RGBA)
}

func nearColour(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { return math.Abs(float64(x)-float64(y)) <= float64(tol) }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

// Steps back count from the current state; a group moved counts as its change, and its
// members are drawn as moved; restacking alone is a change of z.
func TestSceneDiffSteps(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	for _, code := range []string{
		"drawCircle('a', 0, 0, 5); drawCircle('b', 20, 0, 5); createGroup('g', ['a', 'b'])",
		"drawCircle('a', 0, 0, 5); drawCircle('b', 20, 0, 5); createGroup('g', ['a', 'b']); translate('g', 0, 10)",
		"drawCircle('a', 0, 0, 5); drawCircle('b', 20, 0, 5); createGroup('g', ['a', 'b']); translate('g', 0, 10); drawOrder('a', 'front')",
	} {
		mustCall[any](t, s, "write", map[string]any{"file": "main", "code": code})
	}
	for _, tc := range []struct {
		against any
		want    *DiffOut
	}{
		{-1, &DiffOut{
			Against: DiffAgainst{Entry: 3, Steps: -1, Current: 4},
			Counts:  DiffCounts{Changed: 2, Unchanged: 1},
			Added:   []string{}, Removed: []string{},
			Changed: []EntityChange{{Name: "b", Kind: scene.KindCircle, What: []string{"z"}}, {Name: "a", Kind: scene.KindCircle, What: []string{"z"}}},
		}},
		{"-2", &DiffOut{
			Against: DiffAgainst{Entry: 2, Steps: -2, Current: 4},
			Counts:  DiffCounts{Changed: 3},
			Added:   []string{}, Removed: []string{},
			Changed: []EntityChange{
				{Name: "g", Kind: scene.KindGroup, What: []string{"transform"}, Moved: []float64{0, 10}},
				{Name: "b", Kind: scene.KindCircle, What: []string{"z"}, Moved: []float64{0, 10}},
				{Name: "a", Kind: scene.KindCircle, What: []string{"z"}, Moved: []float64{0, 10}},
			},
		}},
		{-3, &DiffOut{
			Against: DiffAgainst{Entry: 1, Steps: -3, Current: 4},
			Counts:  DiffCounts{Added: 3},
			Added:   []string{"g", "b", "a"}, Removed: []string{}, Changed: []EntityChange{},
		}},
	} {
		out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": tc.against})
		if err != nil {
			t.Fatalf("against %v: %v", tc.against, err)
		}
		got := *out.Diff
		got.Legend = ""
		if diff := cmp.Diff(tc.want, &got); diff != "" {
			t.Errorf("against %v: mismatch (-want +got):\n%s", tc.against, diff)
		}
	}
}

// Every bad against gets an error that says what to give instead.
func TestSceneDiffErrors(t *testing.T) {
	t.Parallel()
	empty, _ := newSession(t, nil)
	_, err := call[SceneOut](t, empty, "scene", map[string]any{"command": "diff"})
	want := "bad input: there is no history yet to compare with; every change that lands is recorded, so make one (or take a snapshot) and diff after the next"
	if err == nil || err.Error() != want || !errors.Is(err, ErrBadInput) {
		t.Errorf("no history: error %v, want %q", err, want)
	}
	// A damaged history log is no history, and the error says why.
	broken, dir := newSession(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, ".cadrun", "history"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".cadrun", "history", "log.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = call[SceneOut](t, broken, "scene", map[string]any{"command": "diff"})
	want = "bad input: there is no history yet to compare with; every change that lands is recorded, so make one (or take a snapshot) and diff after the next (the build history in .cadrun/history/log.json could not be read (unexpected end of JSON input); it starts again from this change, and the old log is kept as .cadrun/history/log.bad.json)"
	if err == nil || err.Error() != want {
		t.Errorf("damaged log: error %v, want %q", err, want)
	}
	s := diffSession(t)
	for _, tc := range []struct {
		against any
		want    string
	}{
		{"v2", `bad input: against "v2": no snapshot has that name; the snapshots are "v1"; or give a number of steps back (-1 is the entry before the current state)`},
		{1, "bad input: against 1: give a negative number of steps back (-1 is the entry before the current state), or a snapshot name"},
		{0, "bad input: against 0: give a negative number of steps back (-1 is the entry before the current state), or a snapshot name"},
		{-4, "bad input: against -4: the history has 2 entries before the current state; give -1..-2 or a snapshot name"},
		{1.5, "bad input: against 1.5: give a whole negative number of steps back (-1 is the entry before the current state) or a snapshot name"},
		{true, "bad input: against true: give a snapshot name or a negative number of steps back (-1 is the entry before the current state)"},
	} {
		_, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": tc.against})
		if err == nil || err.Error() != tc.want {
			t.Errorf("against %v: error %v, want %q", tc.against, err, tc.want)
		}
	}
}

// Over MCP the lists come as text and the picture as an image; long lists are capped with
// counts.
func TestSceneDiffOverMCP(t *testing.T) {
	t.Parallel()
	ws, _ := newWorkspace(t, nil)
	srv := NewServer(context.Background(), ws, runtime.InProcess{}, slowRuns)
	cs := connectMCP(t, srv)
	for _, code := range []string{"drawCircle('a', 0, 0, 5)", "for (let i = 0; i < 30; i++) drawCircle('c' + i, 10 * i, 0, 4)"} {
		if res := callMCP(t, cs, "write", map[string]any{"file": "main", "code": code}); res.IsError {
			t.Fatal(text(t, res))
		}
	}
	res := callMCP(t, cs, "scene", map[string]any{"command": "diff"})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("diff: error %v, %d contents, want 2", res.IsError, len(res.Content))
	}
	if img, ok := res.Content[0].(*mcp.ImageContent); !ok || img.MIMEType != "image/png" {
		t.Errorf("first content %T, want a png image", res.Content[0])
	}
	var got struct {
		Diff    DiffOut  `json:"diff"`
		Image   any      `json:"image"`
		Omitted *Omitted `json:"omitted"`
	}
	if err := json.Unmarshal([]byte(res.Content[1].(*mcp.TextContent).Text), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Diff.Added) != engine.MaxListed || got.Diff.Counts != (DiffCounts{Added: 30, Removed: 1}) || got.Image == nil {
		t.Errorf("diff: %d added listed, counts %+v, image %v; want %d listed of 30 added, 1 removed", len(got.Diff.Added), got.Diff.Counts, got.Image, engine.MaxListed)
	}
	wantNote := "added lists 20 of 30 (counts has them all; the picture shows every one; scene entity with name shows one as it is now)"
	if got.Omitted == nil || got.Omitted.Note != wantNote {
		t.Errorf("omitted %+v, want the note %q", got.Omitted, wantNote)
	}
}

// Removing an entity does not restack the ones drawn above it: their place among the
// entities both scenes have is the same.
func TestRemovingIsNotRestacking(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	write(t, s, "main", "drawCircle('a', 0, 0, 5); drawCircle('b', 10, 0, 5); drawCircle('c', 20, 0, 5)")
	got := write(t, s, "main", "drawCircle('b', 10, 0, 5); drawCircle('c', 20, 0, 5)")
	want := &ChangeResult{ChangeResult: &engine.ChangeResult{File: "main", Entities: 2, Bounds: got.Bounds, Removed: []string{"a"}, Entry: 3, Millis: got.Millis}}
	if diff := cmp.Diff(want.ChangeResult, got.ChangeResult, cmpopts.IgnoreUnexported(engine.ChangeResult{}), cmpopts.IgnoreFields(engine.ChangeResult{}, "Files")); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// A text in a workspace font that did not change is not listed: the old scene is read with
// the workspace's fonts.
func TestSceneDiffWorkspaceFont(t *testing.T) {
	t.Parallel()
	font, err := os.ReadFile(filepath.Join("..", "scene", "text", "fonts", "DejaVuSans-Oblique.ttf"))
	if err != nil {
		t.Fatal(err)
	}
	s, dir := newSession(t, nil)
	if err := os.MkdirAll(filepath.Join(dir, "fonts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fonts", "slanted.ttf"), font, 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, s, "main", "drawText('label', 'Hello', 0, 0, 10, {font: 'slanted'}); drawCircle('c', 0, 20, 3)")
	write(t, s, "main", "drawText('label', 'Hello', 0, 0, 10, {font: 'slanted'}); drawCircle('c', 5, 20, 3)")
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff"})
	if err != nil {
		t.Fatal(err)
	}
	want := []EntityChange{{Name: "c", Kind: scene.KindCircle, What: []string{"geometry", "transform"}, Moved: []float64{5, 0}}}
	if diff := cmp.Diff(want, out.Diff.Changed); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// The text gone, the old scene still reads in its font.
	write(t, s, "main", "drawCircle('c', 5, 20, 3)")
	out, err = call[SceneOut](t, s, "scene", map[string]any{"command": "diff"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"label"}, out.Diff.Removed); diff != "" {
		t.Errorf("removed: mismatch (-want +got):\n%s", diff)
	}
}

// A diff picture over max_bytes is drawn narrower until it fits, and the answer says how wide
// and how large the first one was.
func TestSceneDiffPictureNarrowed(t *testing.T) {
	t.Parallel()
	s := diffSession(t)
	full, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": "v1"})
	if err != nil {
		t.Fatal(err)
	}
	budget := len(full.PNG) / 3
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": "v1", "max_bytes": budget})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.PNG) > budget || out.Image.Width >= full.Image.Width || out.Image.Bytes != len(out.PNG) {
		t.Errorf("%d bytes %d px wide (image says %d bytes); want at most %d bytes, narrower than %d px", len(out.PNG), out.Image.Width, out.Image.Bytes, budget, full.Image.Width)
	}
	want := &Omitted{Note: fmt.Sprintf("%d px wide the picture was %d bytes, over the budget of %d; this one is %d px wide (a larger max_bytes, up to %d, gives a wider one)",
		full.Image.Width, len(full.PNG), budget, out.Image.Width, MaxAnswerBudget)}
	if diff := cmp.Diff(want, out.Omitted); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if out.Image.Scale >= full.Image.Scale || out.Image.Mapping == "" {
		t.Errorf("the narrower picture's mapping: scale %v (full %v), %q", out.Image.Scale, full.Image.Scale, out.Image.Mapping)
	}
}

// A diff of scenes of solids answers as any other, and its picture is the current scene's
// shaded view, the changed solid highlighted (orange over the faded rest), with the mapping of a
// picture of solids and a note saying what is drawn.
func TestSceneDiffOfSolids(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t, nil)
	mustCall[any](t, s, "write", map[string]any{"file": "main", "code": "drawBox('a', 0, 0, 0, 10, 10, 10); drawBox('b', 20, 0, 0, 10, 10, 10)"})
	mustCall[any](t, s, "scene", map[string]any{"command": "snapshot", "name": "v1"})
	mustCall[any](t, s, "write", map[string]any{"file": "main", "code": "drawBox('a', 0, 0, 0, 10, 10, 10); drawBox('b', 20, 0, 0, 10, 10, 10); translate('b', 0, 0, 5)"})
	out, err := call[SceneOut](t, s, "scene", map[string]any{"command": "diff", "against": "v1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []EntityChange{{Name: "b", Kind: scene.KindSolid, What: []string{"geometry"}}}
	if diff := cmp.Diff(want, out.Diff.Changed); diff != "" {
		t.Errorf("changed: mismatch (-want +got):\n%s", diff)
	}
	if out.Image == nil || out.Image.Origin != nil || out.Image.Mapping != (render.Camera{}).Describe()+picture.SolidsMapping {
		t.Errorf("image info %+v, want the mapping of a picture of solids", out.Image)
	}
	if out.Omitted == nil || out.Omitted.Note != "a scene of solids: the picture is its shaded view now, added and changed entities highlighted; removed ones are listed, not drawn" {
		t.Errorf("omitted %+v", out.Omitted)
	}
	img, err := png.Decode(bytes.NewReader(out.PNG))
	if err != nil {
		t.Fatal(err)
	}
	orange := 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			if c.R > 180 && c.G > 60 && c.G < 170 && c.B < 90 {
				orange++
			}
		}
	}
	if orange == 0 {
		t.Error("the changed solid is not highlighted")
	}
}
