// Package examples holds cadrun's example content: the example workspaces (embedded; see
// Workspaces), the reference workloads of the benchmarks, and a scene built in Go that the
// renderers' golden tests use.
package examples

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// KindsScene builds a scene with every entity kind, a rotated group, z order changes and
// styles, without the sandbox: the renderers' golden tests draw it.
func KindsScene() (*scene.Scene, error) {
	s := scene.New()
	b := &builder{s: s}
	put, do := b.put, b.do
	put("line", scene.Line{Points: []geom.Vec{{X: -40, Y: -30}, {X: -20, Y: -20}, {X: 0, Y: -30}}})
	put("circle", scene.Circle{Center: geom.Vec{X: -30, Y: 10}, Radius: 8})
	put("rect", scene.Rect{Center: geom.Vec{X: 0, Y: 10}, Width: 16, Height: 10})
	put("ellipse", scene.Ellipse{Center: geom.Vec{X: 30, Y: 10}, RX: 10, RY: 5})
	put("rounded", scene.RoundedRect{Center: geom.Vec{X: 30, Y: -20}, Width: 18, Height: 10, Radius: 3})
	put("arc", scene.Arc{Center: geom.Vec{X: 0, Y: -20}, Radius: 8, Start: 0, End: 3 * math.Pi / 2})
	put("plate", scene.Polygon{Parts: []scene.PolygonPart{{
		Outer: []geom.Vec{{X: -45, Y: 25}, {X: -15, Y: 25}, {X: -15, Y: 40}, {X: -45, Y: 40}},
		Holes: [][]geom.Vec{{{X: -40, Y: 30}, {X: -40, Y: 35}, {X: -35, Y: 35}, {X: -35, Y: 30}}},
	}}})
	put("wave", &scene.PathShape{Data: "M -10 30 C -5 40 5 40 10 30 S 25 20 30 30 Q 35 35 40 30"})
	put("label", &scene.Text{Text: "cadrun 2D", Pos: geom.Vec{X: 0, Y: -45}, Size: 6, Align: text.AlignCenter})
	do(s.SetFill("circle", &scene.Color{0.2, 0.5, 0.9, 1}))
	do(s.SetFill("rect", &scene.Color{0.9, 0.4, 0.1, 0.8}))
	do(s.SetFill("plate", &scene.Color{0.6, 0.6, 0.6, 1}))
	do(s.SetStroke("wave", &scene.Color{0.8, 0, 0.4, 1}, 1.5))
	do(s.Rotate("rect", math.Pi/6, scene.SpaceWorld))
	do(s.DrawOrder("circle", "front"))
	b.then(func() error { _, err := s.CreateGroup("shapes", []string{"ellipse", "rounded"}); return err })
	do(s.Rotate("shapes", 0.2, scene.SpaceWorld))
	if b.err != nil {
		return nil, fmt.Errorf("building the demo scene: %w", b.err)
	}
	return s, nil
}

// builder draws a scene in Go and keeps the first error, so that a scene reads as its calls:
// after a failure the rest are skipped.
type builder struct {
	s   *scene.Scene
	err error
}

// put draws a shape.
func (b *builder) put(name string, sh scene.Shape) {
	b.then(func() error { _, err := b.s.Put(name, sh); return err })
}

// do keeps the error of a call already made, when it is the first.
func (b *builder) do(err error) {
	if b.err == nil {
		b.err = err
	}
}

// then makes a call unless an earlier one failed.
func (b *builder) then(f func() error) {
	if b.err == nil {
		b.err = f()
	}
}

// DraftingScene builds a scene of the drafting entities and properties: a dimension of every
// type, a plate hatched with each pattern, and dashed and centre lines, some as hairlines.
// The readers' tests draw it through librsvg, Chromium and poppler beside cadrun's PNG.
func DraftingScene() (*scene.Scene, error) {
	s := scene.New()
	b := &builder{s: s}
	put, do := b.put, b.do
	for i, pattern := range []string{"solid", "ansi31", "ansi37", "dots"} {
		name := "plate_" + pattern
		x := float64(i) * 30
		put(name, scene.Polygon{Parts: []scene.PolygonPart{{
			Outer: []geom.Vec{{X: x, Y: 0}, {X: x + 24, Y: 0}, {X: x + 24, Y: 16}, {X: x, Y: 16}},
			Holes: [][]geom.Vec{{{X: x + 8, Y: 8}, {X: x + 16, Y: 8}}}, HoleBulges: [][]float64{{1, 1}},
		}}})
		b.then(func() error { return s.SetHatch(name, pattern, 0, 1, &scene.Color{0.1, 0.3, 0.65, 1}) })
	}
	const size = 3
	put("d_aligned", &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{{X: 0, Y: 16}, {X: 24, Y: 16}}, Offset: 6, Precision: 2, Size: size})
	put("d_vertical", &scene.Dimension{Type: scene.DimVertical, Points: []geom.Vec{{X: 114, Y: 0}, {X: 114, Y: 16}}, Offset: -8, Precision: 2, Size: size})
	put("d_horizontal", &scene.Dimension{Type: scene.DimHorizontal, Points: []geom.Vec{{X: 30, Y: 0}, {X: 84, Y: 0}}, Offset: -8, Precision: 2, Size: size})
	put("hole", scene.Circle{Center: geom.Vec{X: 20, Y: -40}, Radius: 10})
	put("d_diameter", &scene.Dimension{Type: scene.DimDiameter, Points: []geom.Vec{{X: 20, Y: -40}}, Radius: 10, Angle: 0.5, Text: "<> H7", Precision: 2, Size: size})
	put("d_radius", &scene.Dimension{Type: scene.DimRadius, Points: []geom.Vec{{X: 20, Y: -40}}, Radius: 10, Angle: -2.2, Precision: 2, Size: size})
	put("legs", scene.Line{Points: []geom.Vec{{X: 90, Y: -30}, {X: 60, Y: -50}, {X: 95, Y: -55}}})
	put("d_angle", &scene.Dimension{Type: scene.DimAngle, Points: []geom.Vec{{X: 60, Y: -50}, {X: 95, Y: -55}, {X: 90, Y: -30}}, Radius: 25, Precision: 1, Size: size})
	put("dashed", scene.Line{Points: []geom.Vec{{X: 0, Y: -70}, {X: 110, Y: -70}}})
	do(s.SetLinetype("dashed", "dashed", 1))
	put("center", scene.Line{Points: []geom.Vec{{X: 0, Y: -76}, {X: 110, Y: -76}}})
	do(s.SetStroke("center", &scene.Color{0.75, 0.2, 0.2, 1}, 0.4))
	do(s.SetLinetype("center", "center", 0.5))
	put("hidden_circle", scene.Circle{Center: geom.Vec{X: 20, Y: -40}, Radius: 14})
	do(s.SetLinetype("hidden_circle", "hidden", 0.5))
	if b.err != nil {
		return nil, fmt.Errorf("building the drafting scene: %w", b.err)
	}
	return s, nil
}
