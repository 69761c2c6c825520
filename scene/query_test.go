package scene

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

func TestQueries(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "a", Circle{Center: geom.Vec{X: 1, Y: 1}, Radius: 1})
	mustPut(t, s, "b", Rect{Width: 2, Height: 4})
	_, err := s.CreateGroup("g", []string{"a", "b"})
	must(t, err)
	must(t, s.Translate("g", geom.Vec{X: 10, Y: 0}, SpaceWorld))

	d, err := s.Detail("a")
	must(t, err)
	got, err := json.Marshal(d)
	must(t, err)
	want := `{"name":"a","kind":"circle","parent":"g","zRank":0,"geometry":{"center":[1,1],"radius":1},` +
		`"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[1,1]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":0},` +
		`"localBounds":{"min":[0,0],"max":[2,2]},"worldBounds":{"min":[10,0],"max":[12,2]},"worldTransform":[1,0,0,1,10,0],` +
		// upstream's shape of the same facts
		`"type":"Circle","local":{"geometry":{"Circle":{"center":[1,1],"radius":1}},` +
		`"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[1,1]},"bounds":{"min":[0,0],"max":[2,2]},"pivot":[1,1]},` +
		`"world":{"bounds":{"min_x":10,"min_y":0,"max_x":12,"max_y":2},"center":[11,1]},"z_order":0}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("detail mismatch (-want +got):\n%s", diff)
	}

	info, err := json.Marshal(s.Info())
	must(t, err)
	if diff := cmp.Diff(`{"entities":3,"shapes":2,"groups":1,"bounds":{"min":[9,-2],"max":[12,2]}}`, string(info)); diff != "" {
		t.Errorf("info mismatch (-want +got):\n%s", diff)
	}
	wantTree := []Node{{Name: "g", Kind: KindGroup, Children: []Node{{Name: "a", Kind: KindCircle}, {Name: "b", Kind: KindRect}}}}
	if diff := cmp.Diff(wantTree, s.Tree()); diff != "" {
		t.Errorf("tree mismatch (-want +got):\n%s", diff)
	}
	wantGroups := []GroupInfo{{Name: "g", Children: []string{"a", "b"}}}
	if diff := cmp.Diff(wantGroups, s.Groups()); diff != "" {
		t.Errorf("groups mismatch (-want +got):\n%s", diff)
	}
	if _, err := s.Detail("zz"); err == nil || err.Error() != `no such entity: "zz"` {
		t.Errorf("missing entity: got %v", err)
	}
	empty, _ := json.Marshal(New().Info())
	if string(empty) != `{"entities":0,"shapes":0,"groups":0,"bounds":null}` {
		t.Errorf("empty info = %s", empty)
	}
}

// Every kind answers upstream's geometry shape; a path becomes a start point and cubic
// segments, its arcs split into quarter turns.
func TestUpstreamGeometry(t *testing.T) {
	t.Parallel()
	s := New()
	mustPut(t, s, "l", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 1, Y: 2}}})
	mustPut(t, s, "r", Rect{Center: geom.Vec{X: 1, Y: 2}, Width: 3, Height: 4})
	mustPut(t, s, "a", Arc{Center: geom.Vec{X: 0, Y: 0}, Radius: 2, Start: 0, End: math.Pi})
	mustPut(t, s, "p", Polygon{Parts: []PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 0, Y: 4}}, Holes: [][]geom.Vec{{{X: 1, Y: 1}, {X: 2, Y: 1}, {X: 1, Y: 2}}}}}})
	mustPut(t, s, "b", &PathShape{Data: "M 0 0 L 2 0 Q 2 3 0 3 Z"})
	_, err := s.CreateGroup("g", []string{"l"})
	must(t, err)
	want := map[string]string{
		"l": `{"Line":{"points":[[0,0],[1,2]]}}`,
		"r": `{"Rect":{"center":[1,2],"height":4,"width":3}}`,
		"a": `{"Arc":{"center":[0,0],"end_angle":3.141592653589793,"radius":2,"start_angle":0}}`,
		"p": `{"Polygon":{"holes":[[[1,1],[2,1],[1,2]]],"points":[[0,0],[4,0],[0,4]]}}`,
		"b": `{"Bezier":{"closed":true,"path":"M 0 0 L 2 0 Q 2 3 0 3 Z","segments":[[[0,0],[2,0],[2,0]],[[2,2],[1.3333333333333333,3],[0,3]]],"start":[0,0]}}`,
		"g": `"Empty"`,
	}
	for name, w := range want {
		d, err := s.Detail(name)
		must(t, err)
		got, err := json.Marshal(d.Local.Geometry)
		must(t, err)
		if diff := cmp.Diff(w, string(got)); diff != "" {
			t.Errorf("%s: geometry mismatch (-want +got):\n%s", name, diff)
		}
	}
	d, err := s.Detail("g")
	must(t, err)
	if d.Type != "Group" || d.World == nil || d.World.Center != (geom.Vec{X: 0.5, Y: 1}) {
		t.Errorf("group: type %q, world %+v; want Group centred at [0.5, 1]", d.Type, d.World)
	}
	_, err = s.CreateGroup("empty", nil)
	must(t, err)
	if d, _ := s.Detail("empty"); d.World != nil {
		t.Errorf("empty group: world = %+v; want null as upstream", d.World)
	}
	order, err := s.DrawOrderDetailOf("")
	must(t, err)
	wantOrder := DrawOrderDetail{Level: "root", Order: []string{"r", "a", "p", "b", "g", "empty"},
		Details: map[string]GroupCount{"g": {Type: "Group", Children: 1}, "empty": {Type: "Group", Children: 0}}}
	if diff := cmp.Diff(wantOrder, order); diff != "" {
		t.Errorf("draw order mismatch (-want +got):\n%s", diff)
	}
}

func TestSubset(t *testing.T) {
	s := New()
	for _, n := range []string{"a", "b", "c", "d"} {
		if _, err := s.Put(n, Circle{Radius: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGroup("g", []string{"b", "c"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGroup("outer", []string{"g"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Translate("outer", geom.Vec{X: 5}, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	names := func(s *Scene) []string {
		var out []string
		for d, e := range s.Walk() {
			out = append(out, fmt.Sprintf("%d:%s", d, e.Name))
		}
		return out
	}
	sub := s.Subset(func(e *Entity) bool { return e.Name == "c" || e.Name == "d" })
	if diff := cmp.Diff([]string{"0:a", "0:d", "0:outer", "1:g", "2:b", "2:c"}, names(s)); diff != "" {
		t.Errorf("the scene changed: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0:d", "0:outer", "1:g", "2:c"}, names(sub)); diff != "" {
		t.Errorf("subset mismatch (-want +got):\n%s", diff)
	}
	c, _ := sub.Get("c")
	orig, _ := s.Get("c")
	if diff := cmp.Diff(s.WorldBounds(orig), sub.WorldBounds(c)); diff != "" {
		t.Errorf("c moved: mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"0:outer", "1:g"}, names(s.Subset(func(e *Entity) bool { return e.Name == "g" }))); diff != "" {
		t.Errorf("a kept group alone: mismatch (-want +got):\n%s", diff)
	}
}

// TestSubsetKeepsLayers: a subset draws its shapes as the scene does: a shape on a layer of
// a red centre line is red and dashed in a picture of a region, not black and solid.
func TestSubsetKeepsLayers(t *testing.T) {
	s := New()
	red := &Color{1, 0, 0, 1}
	if err := s.CreateLayer(Layer{Name: "axis", Color: red, Linetype: "center", Plot: true}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"axis", "edge"} {
		if _, err := s.Put(n, Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetLayer("axis", "axis"); err != nil {
		t.Fatal(err)
	}
	sub := s.Subset(func(e *Entity) bool { return e.Name == "axis" })
	e, _ := s.Get("axis")
	se, _ := sub.Get("axis")
	if diff := cmp.Diff(s.Drawn(e), sub.Drawn(se)); diff != "" {
		t.Errorf("the subset draws axis otherwise (-scene +subset):\n%s", diff)
	}
	if diff := cmp.Diff(s.Layers(), sub.Layers()); diff != "" {
		t.Errorf("the subset's layers (-scene +subset):\n%s", diff)
	}
}
