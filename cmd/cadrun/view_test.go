package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
)

// TestRunView: `cadrun run -o x.png -view front` draws the solids from the front: an
// L-bracket 40 long and 30 high gives a picture as wide to high as 40 to 30 with its margins,
// where the iso view differs; a side no picture has is a usage error naming the sides.
func TestRunView(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "bracket.js")
	js := "drawBox('base', 20, 10, 2.5, 40, 20, 5)\ndrawBox('upright', 2.5, 10, 15, 5, 20, 30)\n"
	if err := os.WriteFile(script, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	size := func(name string, args ...string) (int, int) {
		t.Helper()
		out := filepath.Join(dir, name)
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"run", script, "-o", out}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("run -o %s %q: exit %d\n%s", name, args, code, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return img.Bounds().Dx(), img.Bounds().Dy()
	}
	// 40 × 30 with 5% of 40 around: 44 × 34, 1024 px wide.
	if w, h := size("front.png", "-view", "front"); w != 1024 || h != 791 {
		t.Errorf("run -view front: %d x %d px, want 1024 x 791", w, h)
	}
	if w, h := size("iso.png"); w == 1024 && h == 791 {
		t.Errorf("run without -view: %d x %d px, the front view's size", w, h)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", script, "-o", filepath.Join(dir, "x.png"), "-view", "fromt"}, &stdout, &stderr)
	want := `invalid value "fromt" for flag -view: bad view "fromt": give iso, front, top, right, back, left, bottom, sheet, or a direction [x, y, z] the camera looks from`
	if first, _, _ := strings.Cut(stderr.String(), "\n"); code != 2 || first != want {
		t.Errorf("run -view fromt: exit %d, stderr %q; want 2 and %q", code, first, want)
	}
}

// TestWatchOutputView: watch -out x.png -view top writes the top view, as render draws it.
func TestWatchOutputView(t *testing.T) {
	t.Parallel()
	s := scene.New()
	m := &scene.Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, Triangles: []uint32{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}}
	if _, err := s.Put("tetra", &scene.Solid{Mesh: m, Place: scene.Identity3}); err != nil {
		t.Fatal(err)
	}
	var opt render.Options
	if err := opt.PNG.Camera.Set("top"); err != nil {
		t.Fatal(err)
	}
	opt.PNG.Width = 300
	o, err := newOutput(filepath.Join(t.TempDir(), "top.png"), opt)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.write(s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(o.path)
	want, err := render.PNG(s, render.PNGOptions{Width: 300, Camera: render.Camera{Name: "top"}})
	if err != nil {
		t.Fatal(err)
	}
	iso, _ := render.PNG(s, render.PNGOptions{Width: 300})
	if !bytes.Equal(got, want) || bytes.Equal(got, iso) {
		t.Errorf("watch -out -view top: the top view's bytes %v, the iso view's %v", bytes.Equal(got, want), bytes.Equal(got, iso))
	}
}
