package tools

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
)

const measureDescription = "Measure in world units: distance (name to to, or a point), clearance (nearest gaps from name), overlaps (shared areas), bounds, area, perimeter, centroid; solids: volume, surfaceArea, and distance, clearance, overlaps (shared volumes) between them. " +
	"A group is the union of its members, a closed shape its inside (0 when one holds the other); a is on name, b on the other. Arcs are exact."

var measureOps = []string{"distance", "clearance", "overlaps", "bounds", "area", "perimeter", "centroid", "volume", "surfaceArea"}

// defaultMeasureLimit is how many gaps or overlaps an answer lists unless limit says otherwise.
const defaultMeasureLimit = 10

// MeasureIn selects a measurement.
type MeasureIn struct {
	Op     string    `json:"op" jsonschema:"an op the description names"`
	Name   string    `json:"name,omitempty" jsonschema:"the entity measured"`
	To     string    `json:"to,omitempty" jsonschema:"distance: the other entity"`
	Point  []float64 `json:"point,omitempty" jsonschema:"distance: [x, y], or [x1, y1, x2, y2] alone"`
	Others []string  `json:"others,omitempty" jsonschema:"clearance: against these only"`
	// Boundary and From measure a distance between outlines: a shape inside a closed other
	// is otherwise at 0 from it.
	Boundary bool   `json:"boundary,omitempty" jsonschema:"distance: outline to outline"`
	From     string `json:"from,omitempty" jsonschema:"distance: edge (default) or center"`
	Limit    int    `json:"limit,omitempty" jsonschema:"how many to list (default 10, at most 100)"`
}

// MeasureGap is a distance and its closest points: A on name (or the first point), B on the
// other.
type MeasureGap struct {
	Name     string    `json:"name,omitempty"`
	Distance float64   `json:"distance"`
	A        []float64 `json:"a"`
	B        []float64 `json:"b"`
}

// MeasureOverlap is a shape sharing area with name, or a solid sharing volume with it.
type MeasureOverlap struct {
	Name   string  `json:"name"`
	Area   float64 `json:"area,omitempty"`
	Volume float64 `json:"volume,omitempty"`
}

// MeasureOut holds the field the op fills. Lists are capped; Count is how many there were.
type MeasureOut struct {
	Op       string           `json:"op"`
	Gap      *MeasureGap      `json:"gap,omitempty"`
	Gaps     []MeasureGap     `json:"gaps,omitempty"`
	Overlaps []MeasureOverlap `json:"overlaps,omitempty"`
	Count    *int             `json:"count,omitempty"`
	Bounds   []float64        `json:"bounds,omitempty"` // [minX, minY, maxX, maxY]
	// Bounds3 is a solid's (or a group's solids') world box: [minX, minY, minZ, maxX, maxY, maxZ].
	Bounds3     []float64 `json:"bounds3,omitempty"`
	Volume      *float64  `json:"volume,omitempty"`
	SurfaceArea *float64  `json:"surfaceArea,omitempty"`
	Area        *float64  `json:"area,omitempty"`
	Perimeter   *float64  `json:"perimeter,omitempty"`
	Centroid    []float64 `json:"centroid,omitempty"`
	Note        string    `json:"note,omitempty"`
}

func measureTool(ctx context.Context, se *Session, in MeasureIn) (MeasureOut, error) {
	sc := se.srv.Scene()
	out := MeasureOut{Op: in.Op}
	known := false
	for _, op := range measureOps {
		known = known || op == in.Op
	}
	if !known {
		return out, fmt.Errorf("%w: unknown measure op %q; use %s", ErrBadInput, in.Op, strings.Join(measureOps, ", "))
	}
	twoPoints := in.Op == "distance" && len(in.Point) == 4 && in.Name == "" && in.To == ""
	if in.Name == "" && !twoPoints {
		return out, fmt.Errorf("%w: measure %s needs name, the entity to measure", ErrBadInput, in.Op)
	}
	limit := in.Limit
	if limit == 0 {
		limit = defaultMeasureLimit
	}
	if limit < 1 || limit > scene.MaxMeasureResults {
		return out, fmt.Errorf("%w: limit %d is out of range; give 1 to %d", ErrBadInput, in.Limit, scene.MaxMeasureResults)
	}
	for _, v := range in.Point {
		if math.Abs(v) > scene.MaxCoord {
			return out, fmt.Errorf("%w: point coordinate %g is outside the supported range -1e+15..1e+15 (MaxCoord); measure in larger units", ErrBadInput, v)
		}
	}
	// Each figure is rounded to the size of what it measures, not of the whole scene: in a
	// scene 2e6 wide, a gap of 0.4 between two small parts is 0.4. The step is a millionth of
	// the larger side of the measured shapes' (and points') bounds, as a power of ten.
	q := measureQuantum(sc, in)
	len1 := func(v float64) float64 { return engine.RoundTo(v, q) }
	pt := func(p geom.Vec) []float64 { return []float64{len1(p.X), len1(p.Y)} }
	gap := func(g scene.Gap) MeasureGap {
		return MeasureGap{Name: g.Name, Distance: len1(g.Distance), A: pt(g.A), B: pt(g.B)}
	}
	if (in.Boundary || in.From != "") && (in.Op != "distance" || twoPoints) {
		return out, fmt.Errorf("%w: boundary and from are options of distance between an entity and another or a point; leave them out of %s", ErrBadInput, in.Op)
	}
	if done, err := measureSolids(ctx, sc, in, limit, len1, &out); done || err != nil {
		return out, err
	}
	switch in.Op {
	case "distance":
		var g scene.Gap
		var err error
		opt := scene.DistanceOptions{Boundary: in.Boundary, From: scene.DistanceFrom(in.From)}
		switch {
		case twoPoints:
			a, b := geom.Vec{X: in.Point[0], Y: in.Point[1]}, geom.Vec{X: in.Point[2], Y: in.Point[3]}
			g = scene.Gap{Distance: b.Sub(a).Len(), A: a, B: b}
		case in.To != "" && len(in.Point) == 0:
			g, err = sc.DistanceWith(in.Name, in.To, opt)
		case in.To == "" && len(in.Point) == 2:
			g, err = sc.DistanceToPointWith(in.Name, geom.Vec{X: in.Point[0], Y: in.Point[1]}, opt)
		default:
			return out, fmt.Errorf("%w: measure distance takes name and to (two entities), name and point [x, y], or point [x1, y1, x2, y2] alone", ErrBadInput)
		}
		if err != nil {
			return out, err
		}
		mg := gap(g)
		out.Gap = &mg
	case "clearance":
		gaps, n, err := sc.Clearance(in.Name, in.Others, limit)
		if err != nil {
			return out, err
		}
		out.Gaps = make([]MeasureGap, 0, len(gaps))
		for _, g := range gaps {
			out.Gaps = append(out.Gaps, gap(g))
		}
		out.Count = &n
		if n > len(gaps) {
			out.Note = fmt.Sprintf("the %d nearest of %d shapes; limit lists more (at most %d)", len(gaps), n, scene.MaxMeasureResults)
		}
	case "overlaps":
		list, n, err := sc.Overlaps(in.Name)
		if err != nil {
			return out, err
		}
		out.Overlaps = []MeasureOverlap{}
		for _, o := range list[:min(limit, len(list))] {
			out.Overlaps = append(out.Overlaps, MeasureOverlap{Name: o.Name, Area: roundSignificant(o.Area)})
		}
		out.Count = &n
		if n > len(out.Overlaps) {
			out.Note = fmt.Sprintf("the %d largest of %d overlaps; limit lists more (at most %d)", len(out.Overlaps), n, scene.MaxMeasureResults)
		}
	case "bounds":
		e, err := sc.Get(in.Name)
		if err != nil {
			return out, err
		}
		b := sc.WorldBounds(e)
		if !b.NonEmpty {
			out.Note = fmt.Sprintf("%q is an empty group: it has no bounds", in.Name)
			break
		}
		out.Bounds = []float64{len1(b.Min.X), len1(b.Min.Y), len1(b.Max.X), len1(b.Max.Y)}
		if b3 := sc.WorldBounds3(e); b3.NonEmpty {
			out.Bounds3 = []float64{len1(b3.Min[0]), len1(b3.Min[1]), len1(b3.Min[2]), len1(b3.Max[0]), len1(b3.Max[1]), len1(b3.Max[2])}
		}
	case "area":
		a, err := sc.Area(in.Name)
		if err != nil {
			return out, err
		}
		a = roundSignificant(a)
		out.Area = &a
	case "perimeter":
		p, err := sc.Perimeter(in.Name)
		if err != nil {
			return out, err
		}
		p = len1(p)
		out.Perimeter = &p
	case "centroid":
		c, err := sc.Centroid(in.Name)
		if err != nil {
			return out, err
		}
		out.Centroid = pt(c)
	}
	return out, nil
}

// measureQuantum is the rounding step of a measure's figures: quantumOf the world bounds of
// the entities it names and the points it gives.
func measureQuantum(sc *scene.Scene, in MeasureIn) float64 {
	var b geom.Box
	for _, name := range append([]string{in.Name, in.To}, in.Others...) {
		if e, err := sc.Get(name); err == nil {
			if eb := sc.WorldBounds(e); eb.NonEmpty {
				b.Extend(eb.Min)
				b.Extend(eb.Max)
			}
		}
	}
	for i := 0; i+1 < len(in.Point); i += 2 {
		b.Extend(geom.Vec{X: in.Point[i], Y: in.Point[i+1]})
	}
	return engine.Quantum(b)
}

// roundSignificant keeps significantDigits of v.
func roundSignificant(v float64) float64 { return engine.RoundSignificant(v) }
