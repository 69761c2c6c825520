package scene

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var eqApprox = cmpopts.EquateApprox(0, 1e-9)

func mustPut(t testing.TB, s *Scene, name string, sh Shape) *Entity {
	t.Helper()
	e, err := s.Put(name, sh)
	if err != nil {
		t.Fatalf("Put(%q): %v", name, err)
	}
	return e
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func worldBounds(t *testing.T, s *Scene, name string) geom.Box {
	t.Helper()
	e, err := s.Get(name)
	must(t, err)
	return s.WorldBounds(e)
}

func box(x0, y0, x1, y1 float64) geom.Box {
	return geom.Box{Min: geom.Vec{X: x0, Y: y0}, Max: geom.Vec{X: x1, Y: y1}, NonEmpty: true}
}

func TestExactBounds(t *testing.T) {
	t.Parallel()
	r2 := math.Sqrt2
	tests := []struct {
		name  string
		shape Shape
		xf    func(s *Scene)
		want  geom.Box
	}{
		{"circle", Circle{Center: geom.Vec{X: 1, Y: 2}, Radius: 3}, nil, box(-2, -1, 4, 5)},
		{"rect", Rect{Center: geom.Vec{X: 0, Y: 0}, Width: 4, Height: 2}, nil, box(-2, -1, 2, 1)},
		{"rect rotated 45°", Rect{Width: 2, Height: 2}, func(s *Scene) { must(t, s.Rotate("x", math.Pi/4, SpaceWorld)) }, box(-r2, -r2, r2, r2)},
		// A rotated circle keeps its exact box (upstream samples 4 points and gets it wrong).
		{"circle rotated", Circle{Radius: 1}, func(s *Scene) { must(t, s.Rotate("x", 0.3, SpaceWorld)) }, box(-1, -1, 1, 1)},
		{"ellipse rotated 90°", Ellipse{RX: 3, RY: 1}, func(s *Scene) { must(t, s.Rotate("x", math.Pi/2, SpaceWorld)) }, box(-1, -3, 1, 3)},
		// Quarter arc from 0 to π/2: the box is the quarter, not the whole circle.
		{"arc quarter", Arc{Radius: 2, Start: 0, End: math.Pi / 2}, nil, box(0, 0, 2, 2)},
		// Arc from -π/4 to π/4 bulges to x=r.
		{"arc through 0", Arc{Radius: 1, Start: -math.Pi / 4, End: math.Pi / 4}, nil, box(math.Sqrt2/2, -math.Sqrt2/2, 1, math.Sqrt2/2)},
		{"line", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 3, Y: -1}, {X: 1, Y: 5}}}, nil, box(0, -1, 3, 5)},
		{"polygon scaled", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 1, Y: 1}}}}}, func(s *Scene) { must(t, s.Scale("x", 2, 3, SpaceWorld, nil)) }, box(-1, -1, 3, 2)},
		// The curve's extremum at t=0.5 is y=0.5, not the control point's y=1.
		{"quadratic path", &PathShape{Data: "M 0 0 Q 1 1 2 0"}, nil, box(0, 0, 2, 0.5)},
		{"cubic path", &PathShape{Data: "M 0 0 C 0 1 1 1 1 0"}, nil, box(0, 0, 1, 0.75)},
		{"rounded rect", RoundedRect{Width: 4, Height: 2, Radius: 0.5}, nil, box(-2, -1, 2, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := New()
			mustPut(t, s, "x", tt.shape)
			if tt.xf != nil {
				tt.xf(s)
			}
			if diff := cmp.Diff(tt.want, worldBounds(t, s, "x"), cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("bounds mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPutReplacesInPlace(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Radius: 1})
	mustPut(t, s, "b", Circle{Radius: 1})
	mustPut(t, s, "c", Circle{Radius: 1})
	_, err := s.CreateGroup("g", []string{"b", "c"})
	must(t, err)
	must(t, s.Translate("b", geom.Vec{X: 5, Y: 0}, SpaceWorld))
	mustPut(t, s, "b", Rect{Width: 2, Height: 2})
	b, _ := s.Get("b")
	if b.Parent() != "g" || s.ZRank(b) != 0 || b.Kind() != KindRect {
		t.Errorf("redrawn b: parent %q rank %d kind %s; want g 0 rect", b.Parent(), s.ZRank(b), b.Kind())
	}
	if b.Transform.Translate != (geom.Vec{}) {
		t.Errorf("redrawn b keeps translate %v; a redraw starts from a fresh transform", b.Transform.Translate)
	}
	if _, err := s.Put("g", Circle{Radius: 1}); !errors.Is(err, ErrBadName) {
		t.Errorf("drawing over a group: got %v, want ErrBadName", err)
	}
}

// TestPutOver pins that PutOver says whether the name was taken, as Exists asked before the
// draw would: for a new name, the same name again (just drawn, and after another), a group's
// name, and a draw refused before the name is looked at.
func TestPutOver(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "m", Circle{Radius: 1})
	_, err := s.CreateGroup("g", []string{"m"})
	must(t, err)
	for _, tc := range []struct {
		name    string
		shape   Shape
		over    bool
		wantErr error
	}{
		{"a", Circle{Radius: 1}, false, nil},
		{"a", Rect{Width: 1, Height: 1}, true, nil}, // the one just drawn
		{"b", Circle{Radius: 1}, false, nil},
		{"a", Circle{Radius: 2}, true, nil}, // found in the index
		{"m", Circle{Radius: 2}, true, nil}, // a group's member
		{"g", Circle{Radius: 1}, true, ErrBadName},
		{"", Circle{Radius: 1}, false, ErrBadName},
		{"c", Circle{Radius: math.Inf(1)}, false, ErrBadGeometry},
	} {
		exists := s.Exists(tc.name)
		_, over, err := s.PutOver(tc.name, tc.shape)
		if over != tc.over || over != (exists && tc.name != "") || !errors.Is(err, tc.wantErr) {
			t.Errorf("PutOver(%q, %v) = over %v, %v; want over %v (Exists said %v), %v", tc.name, tc.shape, over, err, tc.over, exists, tc.wantErr)
		}
	}
}

// The scene answers a look-up of the shape it drew last without its map (Scene.last); every
// way that entity leaves the scene or changes must be seen by the next look-up and by its
// local bounds.
func TestLookupOfTheLastDrawn(t *testing.T) {
	t.Parallel()
	s := New()
	gone := func(name string) {
		t.Helper()
		if e, ok := s.Lookup(name); ok || s.Exists(name) {
			t.Errorf("Lookup(%q) = %v, %v after it left the scene", name, e, ok)
		}
		_, err := s.Get(name)
		if diff := cmp.Diff(`no such entity: "`+name+`"`, fmt.Sprint(err)); diff != "" {
			t.Errorf("Get(%q) mismatch (-want +got):\n%s", name, diff)
		}
	}
	found := func(name string, want *Entity, bounds geom.Box) {
		t.Helper()
		e, ok := s.Lookup(name)
		if !ok || e != want {
			t.Fatalf("Lookup(%q) = %p, %v; want %p", name, e, ok, want)
		}
		if diff := cmp.Diff(bounds, s.LocalBounds(e)); diff != "" {
			t.Errorf("LocalBounds(%q) mismatch (-want +got):\n%s", name, diff)
		}
	}

	a := mustPut(t, s, "a", Circle{Radius: 1})
	found("a", a, box(-1, -1, 1, 1))
	must(t, s.Delete("a"))
	gone("a")
	a2 := mustPut(t, s, "a", Rect{Width: 4, Height: 2})
	if a2 == a {
		t.Fatal("a shape drawn after a delete reuses the deleted entity")
	}
	found("a", a2, box(-2, -1, 2, 1))
	b := mustPut(t, s, "b", Circle{Center: geom.Vec{X: 5, Y: 0}, Radius: 1})
	found("a", a2, box(-2, -1, 2, 1))
	found("b", b, box(4, -1, 6, 1))
	// Redrawn in place: the same entity, the new shape's bounds.
	if e := mustPut(t, s, "a", Circle{Radius: 3}); e != a2 {
		t.Fatal("a redraw made a new entity")
	}
	found("a", a2, box(-3, -3, 3, 3))
	found("b", b, box(4, -1, 6, 1))
	// Deleted with its group, and by a group dissolved.
	_, err := s.CreateGroup("g", []string{"a"})
	must(t, err)
	must(t, s.Delete("g"))
	gone("a")
	gone("g")
	_, err = s.CreateGroup("h", []string{"b"})
	must(t, err)
	must(t, s.Ungroup("h"))
	gone("h")
	found("b", b, box(4, -1, 6, 1))
}

// Each new shape owns its default colour: changing one shape's colour in place changes no other.
func TestNewShapesOwnTheirColour(t *testing.T) {
	t.Parallel()
	s := New()
	a := mustPut(t, s, "a", Circle{Radius: 1})
	b := mustPut(t, s, "b", Circle{Radius: 1})
	txt := &Text{Text: "A", Size: 1}
	if err := txt.validate(); err != nil {
		t.Fatal(err)
	}
	c := mustPut(t, s, "c", txt)
	if a.Style.Stroke == b.Style.Stroke || a.Style.Stroke == &Black || a.Style.Fill != nil {
		t.Fatalf("new shapes' styles %+v and %+v share a colour or have a fill", a.Style, b.Style)
	}
	if c.Style.Stroke != nil || c.Style.Fill == nil || *c.Style.Fill != Black {
		t.Errorf("new text's style = %+v; want a black fill and no stroke", c.Style)
	}
	a.Style.Stroke[0] = 1
	if *b.Style.Stroke != Black || *c.Style.Fill != Black || Black != (Color{0, 0, 0, 1}) {
		t.Errorf("changing a's colour changed another: b %v, text %v, Black %v", *b.Style.Stroke, *c.Style.Fill, Black)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "c", Circle{Radius: 1})
	mustPut(t, s, "d", Circle{Radius: 1})
	_, err := s.CreateGroup("g", []string{"d"})
	must(t, err)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"zero radius", put(s, "z", Circle{Radius: 0}), "bad geometry: radius must be a finite number > 0, got 0"},
		{"nan center", put(s, "z", Circle{Center: geom.Vec{X: math.NaN(), Y: 0}, Radius: 1}), "bad geometry: center must be finite, got NaN"},
		{"short line", put(s, "z", Line{Points: []geom.Vec{{X: 0, Y: 0}}}), "bad geometry: a line needs at least 2 points, got 1"},
		{"empty name", put(s, "", Circle{Radius: 1}), "bad entity name: a name must not be empty"},
		{"missing", s.Translate("nope", geom.Vec{X: 1, Y: 1}, SpaceWorld), `no such entity: "nope"`},
		{"zero scale", s.Scale("c", 0, 1, SpaceWorld, nil), "bad transform: scale by (0, 1): factors must be finite and non-zero (a negative factor mirrors)"},
		{"bad colour", s.SetFill("c", &Color{1, 2, 0, 1}), "bad geometry: colour channel 1 is 2; channels are RGBA in 0..1"},
		{"not a group", s.AddToGroup("c", "d"), `not a group: "c" is a circle`},
		{"cycle", s.AddToGroup("g", "g"), `group cycle: adding "g" to "g" would make it its own ancestor`},
		{"order mode", s.DrawOrder("c", "top"), `bad draw order: unknown mode "top"; use front, back, +N, -N, above:NAME or below:NAME`},
		{"order not sibling", s.DrawOrder("c", "above:d"), `bad draw order: "c" and "d" are not siblings (parents "" and "g"); z order applies within one group`},
		{"mirror axis", mirrorErr(s), "bad transform: mirror axis \"z\"; use 'x' (flip left-right) or 'y' (flip up-down)"},
		{"same arc angles", put(s, "z", Arc{Radius: 1, Start: 1, End: 1}), "bad geometry: start and end angle are equal (1); an arc must sweep"},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("%s: got error %v, want %q", tt.name, tt.err, tt.want)
		}
	}
	if s.Exists("z") {
		t.Error("a failed Put left an entity behind")
	}
}

func put(s *Scene, name string, sh Shape) error { _, err := s.Put(name, sh); return err }

func mirrorErr(s *Scene) error { _, err := s.Mirror("c", "m", "z"); return err }

func TestWorldSpaceInsideRotatedGroup(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "r", Rect{Center: geom.Vec{X: 10, Y: 0}, Width: 2, Height: 2})
	_, err := s.CreateGroup("g", []string{"r"})
	must(t, err)
	must(t, s.SetPivot("g", geom.Vec{X: 0, Y: 0}))
	must(t, s.Rotate("g", math.Pi/2, SpaceWorld))
	must(t, s.Scale("g", 2, 2, SpaceLocal, nil))
	// r now sits at (0, 20) in the world, 4 wide.
	if diff := cmp.Diff(box(-2, 18, 2, 22), worldBounds(t, s, "r"), eqApprox); diff != "" {
		t.Fatalf("placement mismatch (-want +got):\n%s", diff)
	}
	// A world move goes where the caller sees it, whatever the group's rotation and scale.
	must(t, s.Translate("r", geom.Vec{X: 5, Y: 0}, SpaceWorld))
	if diff := cmp.Diff(box(3, 18, 7, 22), worldBounds(t, s, "r"), eqApprox); diff != "" {
		t.Errorf("world translate mismatch (-want +got):\n%s", diff)
	}
	// A local move is in the group's frame: +x local is +y world here, scaled by 2.
	must(t, s.Translate("r", geom.Vec{X: 1, Y: 0}, SpaceLocal))
	if diff := cmp.Diff(box(3, 20, 7, 24), worldBounds(t, s, "r"), eqApprox); diff != "" {
		t.Errorf("local translate mismatch (-want +got):\n%s", diff)
	}
}

func TestGroupingKeepsWorldPlacement(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Rect{Center: geom.Vec{X: 1, Y: 1}, Width: 2, Height: 1})
	must(t, s.Rotate("a", 0.4, SpaceWorld))
	mustPut(t, s, "anchor", Circle{Center: geom.Vec{X: -5, Y: 3}, Radius: 1})
	_, err := s.CreateGroup("g", []string{"anchor"})
	must(t, err)
	must(t, s.Rotate("g", 1.1, SpaceWorld))
	must(t, s.Scale("g", -1.5, 1.5, SpaceWorld, nil))
	must(t, s.Translate("g", geom.Vec{X: 7, Y: -2}, SpaceWorld))

	before := worldBounds(t, s, "a")
	must(t, s.AddToGroup("g", "a"))
	if diff := cmp.Diff(before, worldBounds(t, s, "a"), eqApprox); diff != "" {
		t.Errorf("addToGroup moved the entity (-before +after):\n%s", diff)
	}
	must(t, s.RemoveFromGroup("g", "a"))
	if diff := cmp.Diff(before, worldBounds(t, s, "a"), eqApprox); diff != "" {
		t.Errorf("removeFromGroup moved the entity (-before +after):\n%s", diff)
	}
	anchor := worldBounds(t, s, "anchor")
	must(t, s.Ungroup("g"))
	if s.Exists("g") {
		t.Error("ungroup left the group")
	}
	if diff := cmp.Diff(anchor, worldBounds(t, s, "anchor"), eqApprox); diff != "" {
		t.Errorf("ungroup moved a member (-before +after):\n%s", diff)
	}
}

func TestDeleteGroupTakesSubtree(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Radius: 1})
	mustPut(t, s, "b", Circle{Radius: 1})
	_, err := s.CreateGroup("inner", []string{"a"})
	must(t, err)
	_, err = s.CreateGroup("outer", []string{"inner", "b"})
	must(t, err)
	must(t, s.Delete("outer"))
	if s.Len() != 0 {
		t.Errorf("after deleting outer, %d entities remain: %v", s.Len(), s.Roots())
	}
}

func TestDrawOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, mode string
		want       []string
	}{
		{"B", "front", []string{"A", "C", "D", "B"}},
		{"C", "back", []string{"C", "A", "B", "D"}},
		{"A", "+2", []string{"B", "C", "A", "D"}},
		{"A", "2", []string{"B", "C", "A", "D"}},
		{"D", "-1", []string{"A", "B", "D", "C"}},
		{"D", "-9", []string{"D", "A", "B", "C"}},
		{"A", "above:C", []string{"B", "C", "A", "D"}},
		{"D", "below:B", []string{"A", "D", "B", "C"}},
		{"A", "below:D", []string{"B", "C", "A", "D"}},
		{"D", "above:A", []string{"A", "D", "B", "C"}},
	}
	for _, tt := range tests {
		s := New()
		for _, n := range []string{"A", "B", "C", "D"} {
			mustPut(t, s, n, Circle{Radius: 1})
		}
		must(t, s.DrawOrder(tt.name, tt.mode))
		got, err := s.DrawOrderOf("")
		must(t, err)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("drawOrder(%s, %s) mismatch (-want +got):\n%s", tt.name, tt.mode, diff)
		}
	}
}

func TestDuplicateAndMirror(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 0, Y: 2}}}}})
	mustPut(t, s, "b", Circle{Center: geom.Vec{X: 10, Y: 0}, Radius: 1})
	_, err := s.CreateGroup("g", []string{"a", "b"})
	must(t, err)
	must(t, s.Translate("g", geom.Vec{X: 0, Y: 5}, SpaceWorld))
	_, err = s.Duplicate("g", "h")
	must(t, err)
	h, _ := s.Get("h")
	if diff := cmp.Diff([]string{"h_0", "h_1"}, h.Children()); diff != "" {
		t.Errorf("copy members mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(worldBounds(t, s, "a"), worldBounds(t, s, "h_0"), eqApprox); diff != "" {
		t.Errorf("copy moved (-want +got):\n%s", diff)
	}
	if got := s.Roots(); !cmp.Equal(got, []string{"g", "h"}) {
		t.Errorf("roots = %v; want the copy right above the source", got)
	}

	_, err = s.Mirror("a", "ma", "x")
	must(t, err)
	// a's world box is x 0..4, y 5..7; mirrored left-right about x=2, the right angle moves
	// from the left end to the right end.
	if diff := cmp.Diff(worldBounds(t, s, "a"), worldBounds(t, s, "ma"), eqApprox); diff != "" {
		t.Errorf("mirror changed the box (-want +got):\n%s", diff)
	}
	ma, _ := s.Get("ma")
	corner := s.WorldMatrix(ma).Apply(geom.Vec{X: 0, Y: 0})
	if diff := cmp.Diff(geom.Vec{X: 4, Y: 5}, corner, eqApprox); diff != "" {
		t.Errorf("mirrored corner mismatch (-want +got):\n%s", diff)
	}
}

func TestScaleAroundPoint(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "r", Rect{Center: geom.Vec{X: 5, Y: 5}, Width: 2, Height: 2})
	must(t, s.Rotate("r", 0.7, SpaceWorld))
	p := geom.Vec{X: 0, Y: 0}
	e, _ := s.Get("r")
	inv, _ := s.WorldMatrix(e).Invert()
	local := inv.Apply(p)
	must(t, s.Scale("r", 3, 0.5, SpaceWorld, &p))
	if diff := cmp.Diff(p, s.WorldMatrix(e).Apply(local), eqApprox); diff != "" {
		t.Errorf("the point scaled around moved (-want +got):\n%s", diff)
	}
}

func TestSetPivotKeepsPlacement(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "r", Rect{Center: geom.Vec{X: 5, Y: 5}, Width: 2, Height: 4})
	must(t, s.Rotate("r", 0.7, SpaceWorld))
	must(t, s.Scale("r", 2, 1, SpaceWorld, nil))
	before := worldBounds(t, s, "r")
	must(t, s.SetPivot("r", geom.Vec{X: 0, Y: 0}))
	if diff := cmp.Diff(before, worldBounds(t, s, "r"), eqApprox); diff != "" {
		t.Errorf("setPivot moved the entity (-before +after):\n%s", diff)
	}
	// Rotating now turns about the new pivot, which stays put in the world.
	e, _ := s.Get("r")
	at := s.WorldMatrix(e).Apply(geom.Vec{X: 0, Y: 0})
	must(t, s.Rotate("r", 1, SpaceWorld))
	if diff := cmp.Diff(at, s.WorldMatrix(e).Apply(geom.Vec{X: 0, Y: 0}), eqApprox); diff != "" {
		t.Errorf("pivot moved under rotation (-want +got):\n%s", diff)
	}
}

func TestStyleOnGroupPaintsMembers(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Radius: 1})
	must(t, s.SetStroke("a", &Black, 0.5))
	_, err := s.CreateGroup("g", []string{"a"})
	must(t, err)
	red := Color{1, 0, 0, 1}
	must(t, s.SetFill("g", &red))
	must(t, s.SetStroke("g", nil, -1))
	a, _ := s.Get("a")
	if a.Style.Fill == nil || *a.Style.Fill != red || a.Style.Stroke != nil || a.Style.StrokeWidth != 0.5 {
		t.Errorf("member style = %+v; want red fill, no stroke, width kept", a.Style)
	}
}

// A shape turns about the centre of its bounds; a group about its own origin, as upstream's
// groups do, so that upstream libraries that scale a new group "like the body" line up.
func TestDefaultPivots(t *testing.T) {
	t.Parallel()
	s := New()
	e := mustPut(t, s, "l", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 4, Y: 2}}})
	if diff := cmp.Diff(geom.Vec{X: 2, Y: 1}, e.Transform.Pivot); diff != "" {
		t.Errorf("pivot mismatch (-want +got):\n%s", diff)
	}
	mustPut(t, s, "c", Circle{Center: geom.Vec{X: 10, Y: 10}, Radius: 1})
	g, err := s.CreateGroup("g", []string{"l", "c"})
	must(t, err)
	if diff := cmp.Diff(geom.Vec{X: 0, Y: 0}, g.Transform.Pivot); diff != "" {
		t.Errorf("group pivot mismatch (-want +got):\n%s", diff)
	}
	must(t, s.Scale("g", 2, 2, SpaceWorld, nil))
	c, _ := s.Get("c")
	if diff := cmp.Diff(geom.Box{Min: geom.Vec{X: 18, Y: 18}, Max: geom.Vec{X: 22, Y: 22}, NonEmpty: true}, s.WorldBounds(c)); diff != "" {
		t.Errorf("scaled member bounds mismatch (-want +got):\n%s", diff)
	}
}

// Members keep their stacking whatever order their names are listed in.
func TestCreateGroupKeepsStacking(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "bg", Rect{Width: 100, Height: 100})
	mustPut(t, s, "mid", Rect{Width: 10, Height: 10})
	mustPut(t, s, "fg", Circle{Radius: 5})
	_, err := s.CreateGroup("inner", []string{"mid"})
	must(t, err)
	must(t, s.DrawOrder("inner", "back"))
	_, err = s.CreateGroup("pic", []string{"fg", "inner", "bg"})
	must(t, err)
	got, err := s.DrawOrderOf("pic")
	must(t, err)
	if diff := cmp.Diff([]string{"inner", "bg", "fg"}, got); diff != "" {
		t.Errorf("group order mismatch (-want +got):\n%s", diff)
	}
	// Members from different groups keep the order the scene painted them in.
	s2 := New()
	for _, n := range []string{"a", "b", "c", "d"} {
		mustPut(t, s2, n, Circle{Radius: 1})
	}
	_, err = s2.CreateGroup("g1", []string{"a", "c"})
	must(t, err)
	_, err = s2.CreateGroup("g2", []string{"b", "d"})
	must(t, err)
	_, err = s2.CreateGroup("all", []string{"d", "c", "b", "a"})
	must(t, err)
	got, err = s2.DrawOrderOf("all")
	must(t, err)
	if diff := cmp.Diff([]string{"a", "c", "b", "d"}, got); diff != "" {
		t.Errorf("mixed-parent order mismatch (-want +got):\n%s", diff)
	}
}

func TestCloneIsDeep(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Radius: 1})
	c := s.Clone()
	must(t, c.Translate("a", geom.Vec{X: 1, Y: 0}, SpaceWorld))
	red := Color{1, 0, 0, 1}
	must(t, c.SetFill("a", &red))
	a, _ := s.Get("a")
	if a.Transform.Translate != (geom.Vec{}) || a.Style.Fill != nil {
		t.Errorf("changing the clone changed the original: %+v", a)
	}
}

// A new shape's stroke is a hairline (no width of its own); a width set with SetStroke is kept
// in scene units, and width 0 is the hairline again, as in PDF.
func TestDefaultStrokeIsHairline(t *testing.T) {
	t.Parallel()
	s := New()
	e := mustPut(t, s, "a", Rect{Width: 4, Height: 3})
	if !e.Style.Hairline() || e.Style.Stroke == nil || *e.Style.Stroke != Black {
		t.Errorf("new shape style = %+v; want a black hairline", e.Style)
	}
	must(t, s.SetStroke("a", &Black, 0.02))
	if e.Style.Hairline() || e.Style.StrokeWidth != 0.02 {
		t.Errorf("after setStroke(0.02): %+v", e.Style)
	}
	must(t, s.SetStroke("a", &Black, 0))
	if !e.Style.Hairline() {
		t.Errorf("after setStroke(0): %+v; want a hairline", e.Style)
	}
}

// TestGroupingKeepsTransforms: moving an entity between frames that place alike (into a new
// group, out of an untransformed one, an ungrouped member) keeps its transform's very numbers,
// where working them out again through the world matrix gave a rotation of 0.3 back as
// 0.29999999999999993 and a scale of 1.7 a rounding off; into a transformed group, it is
// worked out again, and its world placement kept.
func TestGroupingKeepsTransforms(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "r", Rect{Width: 6, Height: 4})
	must(t, s.Rotate("r", 0.3, SpaceWorld))
	must(t, s.Translate("r", geom.Vec{X: 10.1, Y: 20.7}, SpaceWorld))
	must(t, s.Scale("r", 1.7, 1.7, SpaceWorld, nil))
	mustPut(t, s, "c", Circle{Radius: 1})
	must(t, s.Rotate("c", 6.0214, SpaceWorld)) // past a half turn: it stays so
	want := map[string]Transform{"r": mustGet(t, s, "r").Transform, "c": mustGet(t, s, "c").Transform}
	check := func(step string) {
		t.Helper()
		for name, tr := range want {
			if got := mustGet(t, s, name).Transform; got != tr {
				t.Errorf("%s: %s's transform is %+v; want %+v", step, name, got, tr)
			}
		}
	}
	_, err := s.CreateGroup("g", []string{"r", "c"})
	must(t, err)
	check("createGroup")
	must(t, s.RemoveFromGroup("g", "c"))
	check("removeFromGroup")
	must(t, s.AddToGroup("g", "c"))
	check("addToGroup")
	must(t, s.Ungroup("g"))
	check("ungroup")

	_, err = s.CreateGroup("turned", []string{"c"})
	must(t, err)
	must(t, s.Rotate("turned", 1, SpaceWorld))
	before := worldBounds(t, s, "r")
	must(t, s.AddToGroup("turned", "r"))
	if got := mustGet(t, s, "r").Transform; got == want["r"] {
		t.Error("r kept its transform in a turned group: it must be worked out again")
	}
	if diff := cmp.Diff(before, worldBounds(t, s, "r"), eqApprox); diff != "" {
		t.Errorf("r moved into a turned group (-before +after):\n%s", diff)
	}
}
