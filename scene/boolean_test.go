package scene

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/internal/overlay"
	"github.com/cadrun/cadrun/scene/kernel"
)

// boolRect is an axis-aligned rectangle as a Polygon, corners (x0, y0) and (x1, y1).
func boolRect(x0, y0, x1, y1 float64) Polygon {
	return Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}}}}
}

func boolPut(t testing.TB, s *Scene, name string, sh Shape) {
	t.Helper()
	if _, err := s.Put(name, sh); err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
}

func boolArea(t testing.TB, s *Scene, name string) float64 {
	t.Helper()
	a, err := s.Area(name)
	if err != nil {
		t.Fatalf("Area(%q): %v", name, err)
	}
	return a
}

func boolPolygon(t testing.TB, e *Entity) Polygon {
	t.Helper()
	p, ok := e.Shape.(Polygon)
	if !ok {
		t.Fatalf("%q is a %s, want a polygon", e.Name, e.Kind())
	}
	return p
}

// flatPart is a part with arc edges as the area operations flatten it, a part without as it is.
func flatPart(part PolygonPart) PolygonPart {
	if !part.hasArcs() {
		return part
	}
	out := Polygon{Parts: []PolygonPart{part}}.Outline()
	pls := out.Flatten(curveTolerance(out.Bounds()))
	ring := func(pts []geom.Vec) []geom.Vec {
		var out []geom.Vec
		for _, p := range kernel.CleanRing(pts) {
			out = append(out, geom.Vec(p))
		}
		return out
	}
	flat := PolygonPart{Outer: ring(pls[0].Points)}
	for _, pl := range pls[1:] {
		flat.Holes = append(flat.Holes, ring(pl.Points))
	}
	return flat
}

// enginePolygon is a drawn polygon part in the engine's points.
func enginePolygon(part PolygonPart) overlay.Polygon {
	p := overlay.Polygon{Outer: enginePoints(part.Outer)}
	for _, h := range part.Holes {
		p.Holes = append(p.Holes, enginePoints(h))
	}
	return p
}

func enginePoints(r []geom.Vec) []overlay.Point {
	out := make([]overlay.Point, len(r))
	for i, p := range r {
		out[i] = overlay.Point(p)
	}
	return out
}

// libraryOffset is kernel.OffsetPolys done by simplefeatures alone, as the engine's fallback does.
func libraryOffset(area []overlay.Polygon, delta float64, join overlay.Join) ([]overlay.Polygon, error) {
	join.QuadSegments = kernel.OffsetQuadSegments(math.Abs(delta), kernel.AreaExtent(area))
	return overlay.LibraryOffset(area, delta, join)
}

// libraryBoolean is kernel.Boolean done by simplefeatures alone.
func libraryBoolean(op BoolOp, pa, pb []overlay.Polygon) ([]overlay.Polygon, error) {
	return overlay.LibraryBoolean([...]overlay.Op{Union: overlay.OpUnion, Difference: overlay.OpDifference,
		Intersect: overlay.OpIntersect, Xor: overlay.OpXor}[op], pa, pb)
}

func near(got, want, relTol float64) bool {
	return math.Abs(got-want) <= relTol*math.Max(1, math.Abs(want))
}

// checkValid checks the library's validity rules and this package's orientation promise on
// a result polygon: outer rings counter-clockwise, holes clockwise, no closing point.
func checkValid(t *testing.T, p Polygon) {
	t.Helper()
	polys := make([]overlay.Polygon, len(p.Parts))
	for i, part := range p.Parts {
		if geom.BulgedArea(part.Outer, part.OuterBulges) <= 0 {
			t.Errorf("part %d: outer ring is not counter-clockwise", i)
		}
		for j, h := range part.Holes {
			if geom.BulgedArea(h, part.holeBulges(j)) >= 0 {
				t.Errorf("part %d: hole %d is not clockwise", i, j)
			}
		}
		for _, r := range append([][]geom.Vec{part.Outer}, part.Holes...) {
			if r[0] == r[len(r)-1] {
				t.Errorf("part %d repeats its closing point", i)
			}
		}
		polys[i] = enginePolygon(flatPart(part))
	}
	if err := overlay.Validate(polys); err != nil {
		t.Errorf("result is not a valid multipolygon: %v", err)
	}
}

func TestBooleanOverlappingSquares(t *testing.T) {
	t.Parallel()
	tests := []struct {
		op   BoolOp
		want Polygon
	}{
		{Union, boolRect(0, 0, 1.5, 1)},
		{Intersect, boolRect(0.5, 0, 1, 1)},
		{Difference, boolRect(0, 0, 0.5, 1)},
		{Xor, Polygon{Parts: []PolygonPart{
			{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 0.5, Y: 0}, {X: 0.5, Y: 1}, {X: 0, Y: 1}}},
			{Outer: []geom.Vec{{X: 1, Y: 0}, {X: 1.5, Y: 0}, {X: 1.5, Y: 1}, {X: 1, Y: 1}}},
		}}},
	}
	wantArea := map[BoolOp]float64{Union: 1.5, Intersect: 0.5, Difference: 0.5, Xor: 1}
	for _, tt := range tests {
		t.Run(tt.op.String(), func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "a", boolRect(0, 0, 1, 1))
			boolPut(t, s, "b", Rect{Center: geom.Vec{X: 1, Y: 0.5}, Width: 1, Height: 1})
			e, err := s.Boolean(tt.op, []string{"a"}, []string{"b"}, "r")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, boolPolygon(t, e), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", tt.op, diff)
			}
			if got := boolArea(t, s, "r"); got != wantArea[tt.op] {
				t.Errorf("area = %v, want %v", got, wantArea[tt.op])
			}
			if !s.Exists("a") || !s.Exists("b") {
				t.Error("an input was deleted")
			}
			if e.Parent() != "" || e.Style.Fill != nil || e.Style.Stroke == nil {
				t.Errorf("result is not a top-level shape with the default style: parent %q, style %+v", e.Parent(), e.Style)
			}
		})
	}
}

func TestBooleanCircleMinusCircle(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "disc", Circle{Radius: 10})
	boolPut(t, s, "bore", Circle{Center: geom.Vec{X: 1, Y: 0}, Radius: 3})
	e, err := s.Boolean(Difference, []string{"disc"}, []string{"bore"}, "washer")
	if err != nil {
		t.Fatal(err)
	}
	p := boolPolygon(t, e)
	if len(p.Parts) != 1 || len(p.Parts[0].Holes) != 1 {
		t.Fatalf("got %d parts (first with %d holes), want 1 part with 1 hole", len(p.Parts), len(p.Parts[0].Holes))
	}
	checkValid(t, p)
	// The circles stay circles: the area is exact.
	if got, want := boolArea(t, s, "washer"), 91*math.Pi; !near(got, want, 1e-14) {
		t.Errorf("area = %v, want %v", got, want)
	}
}

func TestBooleanDisjointAndDecompose(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "small", boolRect(10, 0, 11, 1))
	boolPut(t, s, "big", boolRect(0, 0, 2, 2))
	e, err := s.Boolean(Union, []string{"small", "big"}, nil, "both")
	if err != nil {
		t.Fatal(err)
	}
	want := Polygon{Parts: []PolygonPart{boolRect(0, 0, 2, 2).Parts[0], boolRect(10, 0, 11, 1).Parts[0]}}
	if diff := cmp.Diff(want, boolPolygon(t, e)); diff != "" {
		t.Errorf("union mismatch (-want +got):\n%s", diff)
	}
	names, err := s.Decompose("both", "piece")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"piece_0", "piece_1"}, names); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
	for i, wantArea := range []float64{4, 1} {
		if got := boolArea(t, s, names[i]); got != wantArea {
			t.Errorf("%s area = %v, want %v", names[i], got, wantArea)
		}
	}
}

func TestDecomposeRefusesGroup(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "a", boolRect(0, 0, 1, 1))
	boolPut(t, s, "b", boolRect(5, 0, 6, 1))
	boolPut(t, s, "inner", boolRect(0, 5, 1, 6))
	if _, err := s.CreateGroup("p_1", []string{"inner"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Boolean(Union, []string{"a", "b"}, nil, "ab"); err != nil {
		t.Fatal(err)
	}
	_, err := s.Decompose("ab", "p")
	want := `decomposing "ab": bad entity name: "p_1" is a group; delete it first or draw under another name`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %s", err, want)
	}
	if s.Exists("p_0") {
		t.Error("p_0 was drawn although the decomposition was refused")
	}
}

func TestAreaOfShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		shape  Shape
		want   float64
		relTol float64
	}{
		{"quarter arc is a pie slice", Arc{Radius: 10, Start: 0, End: math.Pi / 2}, 25 * math.Pi, 1e-15},
		{"circle", Circle{Center: geom.Vec{X: 3, Y: 4}, Radius: 2}, 4 * math.Pi, 1e-15},
		{"ellipse", Ellipse{Center: geom.Vec{X: 3, Y: 4}, RX: 3, RY: 1}, 3 * math.Pi, 1e-15},
		{"rect", Rect{Width: 3, Height: 2}, 6, 0},
		{"rounded rect", RoundedRect{Width: 10, Height: 4, Radius: 1}, 40 - (4 - math.Pi), 1e-15},
		{"polygon with hole", Polygon{Parts: []PolygonPart{{Outer: boolRect(0, 0, 4, 4).Parts[0].Outer, Holes: [][]geom.Vec{{{X: 1, Y: 1}, {X: 1, Y: 2}, {X: 2, Y: 2}, {X: 2, Y: 1}}}}}}, 15, 0},
		{"overlapping parts are unioned", Polygon{Parts: []PolygonPart{boolRect(0, 0, 2, 1).Parts[0], boolRect(1, 0, 3, 1).Parts[0]}}, 3, 0},
		// Nonzero fill: a square, a hole wound the other way, an island in the hole wound
		// like the square, as the ® and © glyphs are built.
		{"path island in a hole", &PathShape{Data: "M0 0 L10 0 L10 10 L0 10 Z M2 2 L2 8 L8 8 L8 2 Z M4 4 L6 4 L6 6 L4 6 Z"}, 100 - 36 + 4, 0},
		{"path inner ring wound the same way fills", &PathShape{Data: "M0 0 L10 0 L10 10 L0 10 Z M2 2 L8 2 L8 8 L2 8 Z"}, 100, 0},
		{"path overlapping rings union", &PathShape{Data: "M0 0 L2 0 L2 1 L0 1 Z M1 0 L3 0 L3 1 L1 1 Z"}, 3, 0},
		{"clockwise polygon", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 0, Y: 2}, {X: 2, Y: 2}, {X: 2, Y: 0}}}}}, 4, 0},
		{"degenerate subpath adds nothing", &PathShape{Data: "M0 0 L2 0 L2 2 L0 2 Z M5 5 L6 6 L7 7 Z"}, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "x", tt.shape)
			if got := boolArea(t, s, "x"); !near(got, tt.want, tt.relTol) {
				t.Errorf("area = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBooleanBakesTransforms(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "r", Rect{Center: geom.Vec{X: 5, Y: 5}, Width: 2, Height: 1})
	if err := s.Scale("r", 2, 2, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Rotate("r", 0.5, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if got := boolArea(t, s, "r"); !near(got, 8, 1e-12) {
		t.Errorf("area of the scaled rect = %v, want 8", got)
	}
	e, err := s.Boolean(Union, []string{"r"}, nil, "copy")
	if err != nil {
		t.Fatal(err)
	}
	wb, _ := s.Get("r")
	if diff := cmp.Diff(s.WorldBounds(wb), s.WorldBounds(e), cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("result bounds mismatch with the input's world bounds (-want +got):\n%s", diff)
	}

	// A shape inside a moved group is taken where it is seen.
	boolPut(t, s, "c", Circle{Radius: 1})
	if _, err := s.CreateGroup("g", []string{"c"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("g", geom.Vec{X: 10, Y: 0}, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	boolPut(t, s, "probe", Rect{Center: geom.Vec{X: 10, Y: 0}, Width: 1, Height: 1})
	if _, err := s.Boolean(Intersect, []string{"g"}, []string{"probe"}, "hit"); err != nil {
		t.Fatal(err)
	}
	if got := boolArea(t, s, "hit"); !near(got, 1, 1e-12) {
		t.Errorf("area of the group ∩ probe = %v, want 1", got)
	}
}

func TestBooleanResultReplacesInput(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "a", boolRect(0, 0, 2, 2))
	boolPut(t, s, "b", boolRect(1, 1, 3, 3))
	boolPut(t, s, "top", Circle{Center: geom.Vec{X: 10, Y: 10}, Radius: 1})
	if _, err := s.Boolean(Union, []string{"a"}, []string{"b"}, "a"); err != nil {
		t.Fatal(err)
	}
	if got := boolArea(t, s, "a"); got != 7 {
		t.Errorf("area of the replaced a = %v, want 7", got)
	}
	if diff := cmp.Diff([]string{"a", "b", "top"}, s.Roots()); diff != "" {
		t.Errorf("draw order mismatch (-want +got):\n%s", diff)
	}
}

func TestBooleanReplacesShapeInGroup(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "a", boolRect(0, 0, 2, 2))
	boolPut(t, s, "b", boolRect(1, 0, 3, 2))
	boolPut(t, s, "r", Circle{Radius: 1})
	if _, err := s.CreateGroup("g", []string{"r"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("g", geom.Vec{X: 100, Y: 50}, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if err := s.Scale("g", -2, 2, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	e, err := s.Boolean(Union, []string{"a"}, []string{"b"}, "r")
	if err != nil {
		t.Fatal(err)
	}
	if e.Parent() != "g" {
		t.Errorf("result parent = %q, want it kept in g", e.Parent())
	}
	if diff := cmp.Diff(box(0, 0, 3, 2), s.WorldBounds(e), cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("world bounds mismatch (-want +got):\n%s", diff)
	}
	if got := boolArea(t, s, "r"); !near(got, 6, 1e-12) {
		t.Errorf("area = %v, want 6", got)
	}
	checkValid(t, boolPolygon(t, e))
}

func TestTextRegion(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "o", &Text{Text: "o", Size: 10})
	if a := boolArea(t, s, "o"); a <= 0 {
		t.Fatalf("area of text = %v, want > 0", a)
	}
	e, err := s.Boolean(Union, []string{"o"}, nil, "letter")
	if err != nil {
		t.Fatal(err)
	}
	p := boolPolygon(t, e)
	if len(p.Parts) != 1 || len(p.Parts[0].Holes) != 1 {
		t.Fatalf("'o' has %d parts, the first with %d holes; want 1 part with its hole", len(p.Parts), len(p.Parts[0].Holes))
	}
	checkValid(t, p)

	// Mirroring reverses every contour; the nonzero fill does not care.
	boolPut(t, s, "mirrored", &Text{Text: "o", Size: 10})
	if err := s.Scale("mirrored", -1, 1, SpaceWorld, nil); err != nil {
		t.Fatal(err)
	}
	e, err = s.Boolean(Union, []string{"mirrored"}, nil, "m")
	if err != nil {
		t.Fatal(err)
	}
	if p := boolPolygon(t, e); len(p.Parts) != 1 || len(p.Parts[0].Holes) != 1 {
		t.Errorf("mirrored 'o' has %d parts, the first with %d holes; want 1 with 1", len(p.Parts), len(p.Parts[0].Holes))
	}
	if got, want := boolArea(t, s, "m"), boolArea(t, s, "o"); !near(got, want, 1e-12) {
		t.Errorf("mirrored area = %v, want %v", got, want)
	}

	boolPut(t, s, "word", &Text{Text: "Bag", Size: 10})
	e, err = s.Boolean(Union, []string{"word"}, nil, "w")
	if err != nil {
		t.Fatal(err)
	}
	p = boolPolygon(t, e)
	holes := 0
	for _, part := range p.Parts {
		holes += len(part.Holes)
	}
	if len(p.Parts) != 3 || holes != 4 {
		t.Errorf("'Bag' gives %d parts and %d holes, want 3 and 4 (B has 2, a and g 1 each)", len(p.Parts), holes)
	}
	checkValid(t, p)
}

func TestBooleanErrors(t *testing.T) {
	t.Parallel()
	setup := func(t *testing.T) *Scene {
		s := New()
		boolPut(t, s, "a", boolRect(0, 0, 1, 1))
		boolPut(t, s, "far", boolRect(5, 5, 6, 6))
		boolPut(t, s, "bow", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: -1, Y: -1}, {X: 1, Y: 1}, {X: 1, Y: -1}, {X: -1, Y: 1}}}}})
		boolPut(t, s, "l", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 1}}})
		boolPut(t, s, "l2", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 1}}})
		boolPut(t, s, "inner", boolRect(0, 0, 1, 1))
		if _, err := s.CreateGroup("g", []string{"inner", "l2"}); err != nil {
			t.Fatal(err)
		}
		boolPut(t, s, "loop", &PathShape{Data: "M0 0 L4 0 L4 4 L2 -1 L0 4 Z"})
		// Turns left at every vertex, as a convex ring does, but goes round twice.
		boolPut(t, s, "star", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 4, Y: 0}, {X: -3, Y: 2}, {X: 1, Y: -4}, {X: 1, Y: 4}, {X: -3, Y: -2}}}}})
		return s
	}
	tests := []struct {
		name    string
		op      BoolOp
		a, b    []string
		result  string
		want    string
		wantErr error
	}{
		{"bow tie", Union, []string{"a", "bow"}, nil, "r",
			`polygon "bow" is self-intersecting (at or near 0 0); fix the ring order or split it into two polygons`, ErrSelfIntersecting},
		{"self-crossing path", Union, []string{"loop"}, nil, "r",
			`path "loop" is self-intersecting (at or near 1.6 0); split the crossing subpath into separate closed subpaths`, ErrSelfIntersecting},
		{"pentagram", Union, []string{"star"}, nil, "r",
			`polygon "star" is self-intersecting (at or near -0.76 1.36); fix the ring order or split it into two polygons`, ErrSelfIntersecting},
		{"line", Difference, []string{"a"}, []string{"l"}, "r",
			`line "l": shape is not closed: a line is an open polyline; draw a polygon instead`, ErrNotClosed},
		{"line in a group", Union, []string{"g"}, nil, "r",
			`reading group "g": line "l2": shape is not closed: a line is an open polyline; draw a polygon instead`, ErrNotClosed},
		{"no overlap", Intersect, []string{"a"}, []string{"far"}, "r",
			`intersect of "a" and "far": the result would be empty: the shapes do not overlap; move them so that they do, or use union`, ErrEmptyResult},
		{"all cut away", Difference, []string{"inner"}, []string{"a", "far"}, "r",
			`difference of "inner" and "a", "far": the result would be empty: the second shapes cover all of the first; check their positions with getEntity`, ErrEmptyResult},
		{"same area", Xor, []string{"a"}, []string{"inner"}, "r",
			`xor of "a" and "inner": the result would be empty: the shapes cover exactly the same area`, ErrEmptyResult},
		{"unknown op", BoolOp(7), []string{"a"}, []string{"far"}, "r",
			`bad option: unknown boolean operation 7; use union, difference, intersect, xor`, ErrBadOption},
		{"empty b", Difference, []string{"a"}, nil, "r",
			`bad option: difference needs at least one shape in its second list`, ErrBadOption},
		{"missing", Union, []string{"a", "nope"}, nil, "r", `no such entity: "nope"`, ErrNotFound},
		{"result is a group", Union, []string{"a"}, nil, "g",
			`bad entity name: "g" is a group; delete it first or draw under another name`, ErrBadName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := setup(t)
			before := s.Len()
			_, err := s.Boolean(tt.op, tt.a, tt.b, tt.result)
			if err == nil {
				t.Fatalf("no error, want %s", tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v is not %v", err, tt.wantErr)
			}
			if s.Len() != before {
				t.Errorf("a failed boolean changed the scene: %d entities, had %d", s.Len(), before)
			}
		})
	}
}

func TestOffset(t *testing.T) {
	t.Parallel()
	cut := func(reach float64) float64 { // corner lost by cutting a 90° miter at reach
		h := math.Sqrt2 - reach
		return h * h
	}
	tests := []struct {
		name  string
		delta float64
		opt   OffsetOptions
		want  float64
	}{
		{"grow round", 1, OffsetOptions{}, 100 + 40 + math.Pi},
		{"grow round explicit", 1, OffsetOptions{Join: JoinRound}, 100 + 40 + math.Pi},
		{"grow miter", 1, OffsetOptions{Join: JoinMiter}, 144},
		{"grow miter limit 1.2", 1, OffsetOptions{Join: JoinMiter, MiterLimit: 1.2}, 144 - 4*cut(1.2)},
		{"grow square", 1, OffsetOptions{Join: JoinSquare}, 144 - 4*cut(1)},
		{"shrink round", -1, OffsetOptions{}, 64},
		{"shrink miter", -1, OffsetOptions{Join: JoinMiter}, 64},
		{"zero", 0, OffsetOptions{}, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "sq", boolRect(0, 0, 10, 10))
			e, err := s.Offset("sq", tt.delta, "o", tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkValid(t, boolPolygon(t, e))
			if got := boolArea(t, s, "o"); !near(got, tt.want, 1e-12) {
				t.Errorf("area = %v, want %v", got, tt.want)
			}
			// The library's buffer, the fallback, agrees within its chords: 32 to a circle,
			// which lose 0.63% of a round join's area.
			join, _ := tt.opt.resolve()
			lib, err := libraryOffset([]overlay.Polygon{enginePolygon(boolRect(0, 0, 10, 10).Parts[0])}, tt.delta, join)
			if err != nil {
				t.Fatal(err)
			}
			if got := lib[0].Area(); math.Abs(got-tt.want) > 0.007*math.Pi*tt.delta*tt.delta+1e-9*tt.want {
				t.Errorf("library area = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOffsetHoles(t *testing.T) {
	t.Parallel()
	s := New()
	frame := Polygon{Parts: []PolygonPart{{Outer: boolRect(0, 0, 10, 10).Parts[0].Outer, Holes: [][]geom.Vec{boolRect(4, 4, 6, 6).Parts[0].Outer}}}}
	boolPut(t, s, "frame", frame)
	e, err := s.Offset("frame", 0.5, "thick", OffsetOptions{Join: JoinMiter})
	if err != nil {
		t.Fatal(err)
	}
	if got := boolPolygon(t, e).Parts[0].Holes; len(got) != 1 {
		t.Fatalf("grown frame has %d holes, want 1", len(got))
	}
	if got := boolArea(t, s, "thick"); !near(got, 121-1, 1e-12) {
		t.Errorf("area = %v, want 120", got)
	}
	e, err = s.Offset("frame", 1.5, "closed", OffsetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := boolPolygon(t, e).Parts[0].Holes; len(got) != 0 {
		t.Errorf("the hole survived growing by more than half its width: %d holes", len(got))
	}
	e, err = s.Offset("frame", -0.5, "thin", OffsetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkValid(t, boolPolygon(t, e))
}

func TestOffsetErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		delta   float64
		opt     OffsetOptions
		want    string
		wantErr error
	}{
		{"vanishes", -1.5, OffsetOptions{}, `offsetting "sq" by -1.5: the result would be empty: the shape is nowhere thicker than 3; use a smaller inset`, ErrEmptyResult},
		{"vanishes exactly", -1, OffsetOptions{Join: JoinMiter}, `offsetting "sq" by -1: the result would be empty: the shape is nowhere thicker than 2; use a smaller inset`, ErrEmptyResult},
		{"unknown join", 1, OffsetOptions{Join: "bevel"}, `bad option: unknown join "bevel"; use "round", "square" or "miter"`, ErrBadOption},
		{"bad miter limit", 1, OffsetOptions{Join: JoinMiter, MiterLimit: 0.5}, `bad option: miter limit must be a finite number >= 1 (or 0 for the default 2), got 0.5`, ErrBadOption},
		{"not finite", math.Inf(1), OffsetOptions{}, `bad geometry: offset distance must be finite, got +Inf`, ErrBadGeometry},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			boolPut(t, s, "sq", boolRect(0, 0, 2, 2))
			_, err := s.Offset("sq", tt.delta, "o", tt.opt)
			if err == nil {
				t.Fatalf("no error, want %s", tt.want)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v is not %v", err, tt.wantErr)
			}
		})
	}
}

func TestConvexHullOfL(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "L", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 1}, {X: 1, Y: 1}, {X: 1, Y: 2}, {X: 0, Y: 2}}}}})
	e, err := s.ConvexHull("L", "hull")
	if err != nil {
		t.Fatal(err)
	}
	want := Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 1}, {X: 1, Y: 2}, {X: 0, Y: 2}}}}}
	if diff := cmp.Diff(want, boolPolygon(t, e)); diff != "" {
		t.Errorf("hull mismatch (-want +got):\n%s", diff)
	}
	if got := boolArea(t, s, "hull"); got != 3.5 {
		t.Errorf("hull area = %v, want 3.5", got)
	}
}

func TestBooleanDeterministic(t *testing.T) {
	t.Parallel()
	run := func() []byte {
		s := New()
		boolPut(t, s, "disc", Circle{Radius: 5})
		boolPut(t, s, "bar", Rect{Width: 14, Height: 2})
		boolPut(t, s, "dot", Circle{Center: geom.Vec{X: 20, Y: 0}, Radius: 1})
		e, err := s.Boolean(Xor, []string{"disc", "dot"}, []string{"bar"}, "r")
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(e.Shape)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first, second := run(), run()
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Errorf("two runs differ (-first +second):\n%s", diff)
	}
}

func TestBooleanPartOrder(t *testing.T) {
	t.Parallel()
	s := New()
	boolPut(t, s, "right", boolRect(5, 0, 6, 1))
	boolPut(t, s, "upper", boolRect(0, 5, 1, 6))
	boolPut(t, s, "left", boolRect(0, 0, 1, 1))
	boolPut(t, s, "big", boolRect(10, 10, 13, 13))
	e, err := s.Boolean(Union, []string{"right", "upper", "left", "big"}, nil, "r")
	if err != nil {
		t.Fatal(err)
	}
	var got []geom.Vec
	for _, part := range boolPolygon(t, e).Parts {
		got = append(got, part.Outer[0])
	}
	// Largest first, then by lowest x, then lowest y.
	if diff := cmp.Diff([]geom.Vec{{X: 10, Y: 10}, {X: 0, Y: 0}, {X: 0, Y: 5}, {X: 5, Y: 0}}, got); diff != "" {
		t.Errorf("part order mismatch (-want +got):\n%s", diff)
	}
}

func TestBooleanW2(t *testing.T) {
	t.Parallel()
	t.Run("A", func(t *testing.T) {
		t.Parallel()
		s, names := w2aScene(t)
		e, err := s.Boolean(Union, names, nil, "u")
		if err != nil {
			t.Fatal(err)
		}
		p := boolPolygon(t, e)
		if len(p.Parts) != 1 || len(p.Parts[0].Holes) != 1 {
			t.Errorf("got %d outlines, the first with %d holes; want 1 outline with 1 hole", len(p.Parts), len(p.Parts[0].Holes))
		}
		if got := boolArea(t, s, "u"); !near(got, 5992.9246, 1e-4) {
			t.Errorf("area = %.4f, want 5,992.9246 (±0.01%%)", got)
		}
		checkValid(t, p)
	})
	t.Run("B", func(t *testing.T) {
		t.Parallel()
		s, names := w2bScene(t)
		e, err := s.Boolean(Difference, []string{"plate"}, names, "d")
		if err != nil {
			t.Fatal(err)
		}
		p := boolPolygon(t, e)
		contours := 0
		for _, part := range p.Parts {
			contours += 1 + len(part.Holes)
		}
		if contours != 2501 {
			t.Errorf("got %d contours, want 2,501", contours)
		}
		if got := boolArea(t, s, "d"); got != 7500 {
			t.Errorf("area = %v, want exactly 7500", got)
		}
		checkValid(t, p)
	})
}

func TestOffsetW3(t *testing.T) {
	t.Parallel()
	s := w3Scene(t)
	if got := boolArea(t, s, "star"); !near(got, 2827414.7845, 1e-10) {
		t.Errorf("star area = %.4f, want 2,827,414.7845", got)
	}
	star := boolPolygon(t, mustGet(t, s, "star")).Parts[0].Outer
	for _, delta := range []float64{2, -2} {
		t.Run(fmt.Sprint(delta), func(t *testing.T) {
			e, err := s.Offset("star", delta, "o", OffsetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// The round joins are exact arcs, so the area is the closed form's.
			if got, want := boolArea(t, s, "o"), roundOffsetArea(star, delta); !near(got, want, 1e-12) {
				t.Errorf("area = %.6f, want %.6f", got, want)
			}
			p := boolPolygon(t, e)
			if len(p.Parts) != 1 || len(p.Parts[0].Holes) != 0 {
				t.Errorf("got %d outlines, the first with %d holes; want one outline", len(p.Parts), len(p.Parts[0].Holes))
			}
			checkValid(t, p)
		})
	}
}

func TestPutAreaLimit(t *testing.T) {
	t.Parallel()
	s := New()
	huge := regularPolygon(geom.Vec{}, 1000, MaxVertices+1)
	_, err := s.putArea("r", []overlay.Polygon{enginePolygon(PolygonPart{Outer: huge})}, nil)
	want := fmt.Sprintf("limit exceeded: the result has %d vertices; the limit is %d (MaxVertices)", MaxVertices+1, MaxVertices)
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %s", err, want)
	}
}

func TestParseBoolOp(t *testing.T) {
	t.Parallel()
	for op := Union; op <= Xor; op++ {
		got, err := ParseBoolOp(op.String())
		if err != nil || got != op {
			t.Errorf("ParseBoolOp(%q) = %v, %v; want %v", op.String(), got, err, op)
		}
	}
	_, err := ParseBoolOp("subtract")
	want := `bad option: unknown boolean operation "subtract"; use union, difference, intersect, xor`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestBooleanFoldedRing: a copy of a shape with one vertex moved by 9e-10 (just over the
// precision) is cut at the original's vertex, and folds back on itself there; the two
// halves of the fold must cancel, not leave the copy's area uncounted.
func TestBooleanFoldedRing(t *testing.T) {
	t.Parallel()
	a := []geom.Vec{{X: -1.796827537198261, Y: -3.2260818384342125}, {X: -2.588286568381504, Y: -1.8290026203192515}, {X: -2.9887088393460757, Y: -2.687825502282673},
		{X: -4.514111806464131, Y: -3.467654158963083}, {X: -3.2479280024122748, Y: -4.539081617094187}, {X: -2.816951510820416, Y: -5.30777704263358}, {X: -1.6540763101853586, Y: -3.733749825091146}}
	b := slices.Clone(a)
	b[3] = geom.Vec{X: -4.514111807368002, Y: -3.4676541589009666}
	s := New()
	for n, r := range map[string][]geom.Vec{"a": a, "b": b} {
		if _, err := s.Put(n, Polygon{Parts: []PolygonPart{{Outer: r}}}); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.Boolean(Difference, []string{"a"}, []string{"b"}, "r")
	want := `difference of "a" and "b": the result would be empty: the second shapes cover all of the first; check their positions with getEntity`
	if err == nil || err.Error() != want {
		t.Errorf("a - b: error mismatch (-want +got):\n%s", cmp.Diff(want, fmt.Sprint(err)))
	}
}

// TestBooleanThinRingIsEmpty: a square minus a copy inset by less than twice the precision
// (2·2^-32 of its size) leaves a ring narrower than the precision, which is no result; a
// wider ring is one.
func TestBooleanThinRingIsEmpty(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		gap   float64
		parts int
	}{{3e-9, 0}, {4.5e-9, 0}, {5e-9, 1}, {1e-6, 1}} {
		s := New()
		boolPut(t, s, "a", boolRect(0, 0, 10, 10))
		boolPut(t, s, "b", boolRect(tt.gap, tt.gap, 10-tt.gap, 10-tt.gap))
		e, err := s.Boolean(Difference, []string{"a"}, []string{"b"}, "r")
		parts := 0
		if err == nil {
			parts = len(e.Shape.(Polygon).Parts)
		} else if !errors.Is(err, ErrEmptyResult) {
			t.Fatal(err)
		}
		if parts != tt.parts {
			t.Errorf("square minus its copy inset by %v: %d parts, want %d", tt.gap, parts, tt.parts)
		}
	}
}

// roundOffsetArea is the closed-form area of a simple counter-clockwise polygon grown (delta >
// 0) or shrunk by |delta| with round joins, where the offset only overlaps itself at corners:
// the polygon, a strip of width delta along every edge (added or taken away), a sector of the
// distance at every corner that turns away from the offset (its turn θ adds or takes θ·δ²/2),
// and the overlap of the strips at every corner that turns towards it (δ²·tan(θ/2), counted
// twice by the strips).
func roundOffsetArea(pts []geom.Vec, delta float64) float64 {
	n := len(pts)
	area, per, corners := overlay.Area(pts), 0.0, 0.0
	for i := range n {
		a, b, c := pts[(i+n-1)%n], pts[i], pts[(i+1)%n]
		per += c.Sub(b).Len()
		u, v := b.Sub(a), c.Sub(b)
		turn := math.Atan2(u.X*v.Y-u.Y*v.X, u.X*v.X+u.Y*v.Y) // > 0: a convex corner
		if turn*delta > 0 {
			corners += math.Copysign(math.Abs(turn)/2, delta)
		} else {
			corners -= math.Copysign(math.Tan(math.Abs(turn)/2), delta)
		}
	}
	return area + per*delta + corners*delta*delta
}

func mustGet(t *testing.T, s *Scene, name string) *Entity {
	t.Helper()
	e, err := s.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
