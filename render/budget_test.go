package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestWritersRefuseDashesOverBudget draws a dotted line the sandbox allowed and then scaled up
// 10,000 times (3e8 dots, which the SVG and PNG writers cut into gigabytes before the budget):
// every writer refuses it naming MaxDashSegments and the shape, before it cuts a dash, as a
// hatch past MaxHatchSegments is refused; the line as drawn is written by all of them.
func TestWritersRefuseDashesOverBudget(t *testing.T) {
	t.Parallel()
	s := scene.New()
	put(t, s, "l", scene.Line{Points: []geom.Vec{{}, {X: 1e5}}})
	do(t, s.SetLinetype("l", "dot", 0))
	writers := []struct {
		name  string
		write func(*scene.Scene) ([]byte, error)
	}{
		{"svg", func(s *scene.Scene) ([]byte, error) { return SVG(s, SVGOptions{}) }},
		{"png", func(s *scene.Scene) ([]byte, error) { return PNG(s, PNGOptions{Width: 64}) }},
		{"pdf", func(s *scene.Scene) ([]byte, error) {
			return PDF(s, PDFOptions{Page: "A4", Scale: PDFScale{Fit: true}})
		}},
		{"dxf R12", func(s *scene.Scene) ([]byte, error) { return DXF(s, DXFOptions{Version: DXF12}) }},
		{"dxf R2000", func(s *scene.Scene) ([]byte, error) { return DXF(s, DXFOptions{Version: DXF2000}) }},
	}
	for _, w := range writers {
		if _, err := w.write(s); err != nil {
			t.Errorf("%s of the line as drawn: %v", w.name, err)
		}
	}
	do(t, s.Scale("l", 1e4, 1e4, scene.SpaceWorld, nil))
	for _, w := range writers {
		_, err := w.write(s)
		if !errors.Is(err, scene.ErrLimit) || !strings.Contains(err.Error(), `dashing "l" with dot`) || !strings.Contains(err.Error(), "(MaxDashSegments)") {
			t.Errorf("%s: %v; want the MaxDashSegments limit naming the line", w.name, err)
		}
	}
}
