package examples

// The scenes the independent readers are checked on. A golden file compares a writer with its
// own earlier output; these scenes are drawn by cadrun and by a reader it did not write, and
// the two pictures must agree (package internal/inkcheck says how closely).

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// CurvesScene is a scene of the curves a writer can get wrong: arcs both ways and across the
// axes, rounded corners, a rotated and a mirrored ellipse, Béziers of every command, text,
// pie slices cut by a boolean, and a group that mirrors its children.
func CurvesScene() (*scene.Scene, error) {
	s := scene.New()
	b := &builder{s: s}
	put, do := b.put, b.do
	red, blue, green := &scene.Color{0.85, 0.1, 0.1, 1}, &scene.Color{0.1, 0.3, 0.9, 1}, &scene.Color{0.1, 0.6, 0.2, 1}
	put("rr", scene.RoundedRect{Center: geom.Vec{X: -60, Y: 30}, Width: 40, Height: 25, Radius: 8})
	do(s.SetFill("rr", blue))
	put("arc-ccw", scene.Arc{Center: geom.Vec{X: -10, Y: 30}, Radius: 12, Start: 0.2, End: 2.6})
	do(s.SetStroke("arc-ccw", red, 2))
	put("arc-cw", scene.Arc{Center: geom.Vec{X: 25, Y: 30}, Radius: 12, Start: 2.6, End: 0.2})
	do(s.SetStroke("arc-cw", green, 2))
	put("arc-big", scene.Arc{Center: geom.Vec{X: 60, Y: 30}, Radius: 10, Start: -0.5, End: 4.2})
	do(s.SetStroke("arc-big", blue, 1.5))
	put("ell", scene.Ellipse{Center: geom.Vec{X: -60, Y: -10}, RX: 18, RY: 7})
	do(s.SetFill("ell", green))
	do(s.Rotate("ell", 0.6, scene.SpaceWorld))
	put("ell-m", scene.Ellipse{Center: geom.Vec{X: -20, Y: -10}, RX: 14, RY: 6})
	do(s.SetFill("ell-m", red))
	do(s.Rotate("ell-m", -0.4, scene.SpaceWorld))
	do(s.Scale("ell-m", -1, 1, scene.SpaceWorld, nil))
	put("bez", &scene.PathShape{Data: "M 0 -20 C 10 0 20 -30 30 -10 S 45 0 50 -20 Q 60 -35 70 -20 T 80 -15 L 80 -25 A 6 4 30 0 1 70 -30 Z"})
	do(s.SetFill("bez", &scene.Color{0.9, 0.7, 0.1, 1}))
	put("slice", scene.Arc{Center: geom.Vec{X: -50, Y: -45}, Radius: 14, Start: 0.4, End: 2.2})
	put("disc", scene.Circle{Center: geom.Vec{X: -40, Y: -45}, Radius: 9})
	b.then(func() error {
		_, err := s.Boolean(scene.Difference, []string{"slice"}, []string{"disc"}, "cut")
		return err
	})
	do(s.SetFill("cut", blue))
	do(s.Delete("slice"))
	do(s.Delete("disc"))
	put("label", &scene.Text{Text: "R8 Ø12 arc", Pos: geom.Vec{X: 10, Y: -50}, Size: 9})
	put("g-arc", scene.Arc{Center: geom.Vec{X: 60, Y: -45}, Radius: 9, Start: 0, End: 1.9})
	do(s.SetStroke("g-arc", red, 2))
	put("g-rr", scene.RoundedRect{Center: geom.Vec{X: 60, Y: -45}, Width: 14, Height: 9, Radius: 3})
	b.then(func() error { _, err := s.CreateGroup("g", []string{"g-arc", "g-rr"}); return err })
	do(s.Scale("g", 1, -1, scene.SpaceWorld, nil))
	do(s.Rotate("g", 0.3, scene.SpaceWorld))
	if b.err != nil {
		return nil, fmt.Errorf("building the curve probe: %w", b.err)
	}
	return s, nil
}

// ReaderScenes are the scenes every reader cadrun did not write (librsvg, Chromium, MuPDF,
// the viewer's page) is checked on against cadrun's own PNG: the curve probe, the scene of
// every entity kind, and each example workspace's expected scene, read from examples, the
// examples folder (os.DirFS of it in a test). Keys are "curves", "kinds" and
// "example NAME".
func ReaderScenes(examples fs.FS) (map[string]*scene.Scene, error) {
	curves, err := CurvesScene()
	if err != nil {
		return nil, err
	}
	kinds, err := KindsScene()
	if err != nil {
		return nil, err
	}
	drafting, err := DraftingScene()
	if err != nil {
		return nil, err
	}
	out := map[string]*scene.Scene{"curves": curves, "kinds": kinds, "drafting": drafting}
	ex, err := exampleScenes(examples)
	if err != nil {
		return nil, err
	}
	for name, s := range ex {
		if !s.HasSolids() {
			out[name] = s
		}
	}
	return out, nil
}

// SolidScenes are the example workspaces' expected scenes that hold solids, keyed "example
// NAME": the STL and 3MF readers are checked on them beside meshes made by hand. ReaderScenes
// leaves them out: their pictures are shaded views of solids, which no 2D reader draws.
func SolidScenes(examples fs.FS) (map[string]*scene.Scene, error) {
	ex, err := exampleScenes(examples)
	if err != nil {
		return nil, err
	}
	out := map[string]*scene.Scene{}
	for name, s := range ex {
		if s.HasSolids() {
			out[name] = s
		}
	}
	return out, nil
}

// exampleScenes reads each example workspace's expected scene, with the fonts it brings.
func exampleScenes(examples fs.FS) (map[string]*scene.Scene, error) {
	out := map[string]*scene.Scene{}
	files, err := fs.Glob(examples, "*/expected.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no example scenes (*/expected.json) found: %v", err)
	}
	for _, p := range files {
		dir := path.Dir(p)
		b, err := fs.ReadFile(examples, p)
		if err != nil {
			return nil, err
		}
		fonts := map[string]*text.Font{}
		ttfs, _ := fs.Glob(examples, dir+"/fonts/*.ttf")
		for _, f := range ttfs {
			data, err := fs.ReadFile(examples, f)
			if err != nil {
				return nil, err
			}
			name := strings.TrimSuffix(path.Base(f), ".ttf")
			if fonts[name], err = text.LoadFont(name, data); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
		s, err := scene.ReadJSONWithFonts(b, fonts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out["example "+dir] = s
	}
	return out, nil
}
