// Package render turns a scene into bytes: SVG (vector, byte-stable) and PNG (anti-aliased
// raster). Both are pure functions of the scene and their options, and both frame the scene
// the same way (see View), so a PNG is a faithful picture of the SVG. DXF (for laser cutters
// and CNC) and PDF (for print, to scale) are pure functions too; ByExt picks any of the
// writers from an output file's name.
package render

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// DefaultMargin is the fraction of the larger side of the scene's bounds added around it.
const DefaultMargin = 0.05

// View is the window of the world a picture shows. World Y points up; pictures have Y down,
// so a view flips Y.
type View struct {
	Min, Max geom.Vec // world coordinates of the lower-left and upper-right corners
}

// FitView frames the scene's world bounds, grown by margin (a fraction of the larger side,
// at least one unit so that a single point or line still shows). Half the largest stroke is
// added first so that strokes are not clipped. An empty scene gets the view -50..50.
func FitView(s *scene.Scene, margin float64) View { return fitFrame(s.Frame(false), margin) }

// fitFrame is FitView for a scene's frame, already known.
func fitFrame(f scene.Frame, margin float64) View {
	b := f.Bounds
	if !b.NonEmpty {
		return View{Min: geom.Vec{X: -50, Y: -50}, Max: geom.Vec{X: 50, Y: 50}}
	}
	stroke := f.StrokeWidth / 2
	size := b.Size()
	pad := math.Max(math.Max(size.X, size.Y)*margin, 1) + stroke
	return View{Min: b.Min.Sub(geom.Vec{X: pad, Y: pad}), Max: b.Max.Add(geom.Vec{X: pad, Y: pad})}
}

// Size is the view's width and height in world units.
func (v View) Size() geom.Vec { return v.Max.Sub(v.Min) }

// Check refuses a view with no area or non-finite corners.
func (v View) Check() error {
	sz := v.Size()
	for _, f := range []float64{v.Min.X, v.Min.Y, v.Max.X, v.Max.Y} {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("view corners must be finite, got %v..%v", v.Min, v.Max)
		}
	}
	if !(sz.X > 0 && sz.Y > 0) {
		return fmt.Errorf("view must have a positive width and height, got %v x %v", sz.X, sz.Y)
	}
	return nil
}

// ToPixels maps world coordinates to a w×h picture showing the view, Y down, preserving the
// aspect ratio (the view is centred when the picture's shape differs).
func (v View) ToPixels(w, h float64) geom.Affine {
	sz := v.Size()
	k := math.Min(w/sz.X, h/sz.Y)
	ox := (w - sz.X*k) / 2
	oy := (h - sz.Y*k) / 2
	// x' = (x - minX)·k + ox ; y' = (maxY - y)·k + oy
	return geom.Affine{A: k, D: -k, E: ox - v.Min.X*k, F: oy + v.Max.Y*k}
}

// Shown is the scene window a w×h picture of v shows whole (v widened along one axis when the
// picture's shape differs from it), and the picture's scale in pixels per scene unit: the
// scene point (x, y) is at pixel ((x-Min.X)·scale, (Max.Y-y)·scale).
func (v View) Shown(w, h int) (shown View, scale float64) {
	tr := v.ToPixels(float64(w), float64(h))
	k := tr.A
	return View{
		Min: geom.Vec{X: -tr.E / k, Y: (tr.F - float64(h)) / k},
		Max: geom.Vec{X: (float64(w) - tr.E) / k, Y: tr.F / k},
	}, k
}
