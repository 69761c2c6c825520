// Package examples holds cadrun's example content: the example workspaces (embedded; see
// Workspaces), the reference workloads of the benchmarks, and a scene built in Go that the
// renderers' golden tests use.
package examples

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
)

// KindsScene builds a scene with every entity kind, a rotated group, z order changes and
// styles, without the sandbox: the renderers' golden tests draw it.
func KindsScene() (*scene.Scene, error) {
	s := scene.New()
	b := &builder{s: s}
	put, do := b.put, b.do
	put("line", scene.Line{Points: []scene.Vec{{X: -40, Y: -30}, {X: -20, Y: -20}, {X: 0, Y: -30}}})
	put("circle", scene.Circle{Center: scene.Vec{X: -30, Y: 10}, Radius: 8})
	put("rect", scene.Rect{Center: scene.Vec{X: 0, Y: 10}, Width: 16, Height: 10})
	put("ellipse", scene.Ellipse{Center: scene.Vec{X: 30, Y: 10}, RX: 10, RY: 5})
	put("rounded", scene.RoundedRect{Center: scene.Vec{X: 30, Y: -20}, Width: 18, Height: 10, Radius: 3})
	put("arc", scene.Arc{Center: scene.Vec{X: 0, Y: -20}, Radius: 8, Start: 0, End: 3 * math.Pi / 2})
	put("plate", scene.Polygon{Parts: []scene.PolygonPart{{
		Outer: []scene.Vec{{X: -45, Y: 25}, {X: -15, Y: 25}, {X: -15, Y: 40}, {X: -45, Y: 40}},
		Holes: [][]scene.Vec{{{X: -40, Y: 30}, {X: -40, Y: 35}, {X: -35, Y: 35}, {X: -35, Y: 30}}},
	}}})
	put("wave", &scene.PathShape{Data: "M -10 30 C -5 40 5 40 10 30 S 25 20 30 30 Q 35 35 40 30"})
	put("label", &scene.Text{Text: "cadrun 2D", Pos: scene.Vec{X: 0, Y: -45}, Size: 6, Align: scene.AlignCenter})
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
