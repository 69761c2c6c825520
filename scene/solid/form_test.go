package solid

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestFormsOfSweeps: a sweep of lines and circular arcs, and a primitive, keeps its exact
// form: the form's volume is the recipe's closed form, and the mesh's volume agrees with it
// to the facets; the form's profile is the 2D shape with its arcs, holes clockwise.
func TestFormsOfSweeps(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	put(t, sc, "outline", scene.RoundedRect{Center: geom.Vec{X: 30, Y: 10}, Width: 40, Height: 20, Radius: 4})
	put(t, sc, "hole", scene.Circle{Center: geom.Vec{X: 30, Y: 10}, Radius: 5})
	if _, err := sc.Boolean(scene.Difference, []string{"outline"}, []string{"hole"}, "plate"); err != nil {
		t.Fatal(err)
	}
	put(t, sc, "ring", scene.Circle{Center: geom.Vec{X: 20, Y: 5}, Radius: 3})
	make := map[string]func() (*scene.Solid, error){
		"extrude": func() (*scene.Solid, error) { return ss.Extrude(ctx, sc, "plate", 6, ExtrudeOptions{}) },
		"centred": func() (*scene.Solid, error) {
			return ss.Extrude(ctx, sc, "plate", 6, ExtrudeOptions{Center: true})
		},
		"revolve":  func() (*scene.Solid, error) { return ss.Revolve(ctx, sc, "ring", RevolveOptions{}) },
		"half":     func() (*scene.Solid, error) { return ss.Revolve(ctx, sc, "ring", RevolveOptions{Angle: math.Pi}) },
		"box":      func() (*scene.Solid, error) { return ss.Box(ctx, scene.Vec3{1, 2, 3}, 10, 20, 30) },
		"cylinder": func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{5, 0, 0}, 4, 4, 10, Facets{}) },
		"cone":     func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{0, 5, 0}, 4, 0, 10, Facets{}) },
		"frustum":  func() (*scene.Solid, error) { return ss.Cylinder(ctx, scene.Vec3{0, 0, 5}, 4, 2, 10, Facets{}) },
		"sphere":   func() (*scene.Solid, error) { return ss.Sphere(ctx, scene.Vec3{1, 1, 1}, 7, Facets{}) },
	}
	for name, mk := range make {
		t.Run(name, func(t *testing.T) {
			sd, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			if sd.Form == nil {
				t.Fatal("no form")
			}
			near(t, "the form's volume", sd.Form.Volume(), sd.Recipe.Volume, 1e-12)
			v, _ := meshMeasures(sd.Mesh, scene.Identity3)
			near(t, "the mesh's volume", v, sd.Form.Volume(), 1e-2) // the chords of small radii at the default tolerance
			b, err := json.Marshal(sd)
			if err != nil {
				t.Fatal(err)
			}
			var back scene.Solid
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if back.Form == nil || back.Form.Volume() != sd.Form.Volume() {
				t.Errorf("scene.json loses the form: %+v", back.Form)
			}
		})
	}
	sd, err := ss.Extrude(ctx, sc, "plate", 6, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	parts := sd.Form.Profile.Parts
	if len(parts) != 1 || len(parts[0].Holes) != 1 || !sd.Form.Profile.HasArcs() {
		t.Fatalf("the plate's profile: %+v", parts)
	}
	if len(parts[0].HoleBulges) != 1 || len(parts[0].Holes[0]) != 2 {
		t.Errorf("the hole is a circle, two half turns: %+v", parts[0])
	}
	// A rounded rectangle is four lines and four arcs: no edge of no length between them.
	put(t, sc, "rounded", scene.RoundedRect{Center: geom.Vec{X: 0.3}, Width: 10, Height: 10, Radius: 3})
	sq, err := ss.Extrude(ctx, sc, "rounded", 2, ExtrudeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sq.Form == nil || len(sq.Form.Profile.Parts) != 1 || len(sq.Form.Profile.Parts[0].Outer) != 8 {
		t.Errorf("a rounded rectangle's profile: %+v", sq.Form)
	}
}

// TestNoFormAfterBoolean: a 3D boolean, a hull, a twisted extrusion and a text's extrusion
// have only their mesh.
func TestNoFormAfterBoolean(t *testing.T) {
	ss := session(t)
	ctx := context.Background()
	sc := scene.New()
	put(t, sc, "sq", scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}}}})
	twisted, err := ss.Extrude(ctx, sc, "sq", 5, ExtrudeOptions{Twist: 1})
	if err != nil {
		t.Fatal(err)
	}
	if twisted.Form != nil {
		t.Error("a twisted extrusion has no form of a straight sweep")
	}
	a, err := ss.Box(ctx, scene.Vec3{}, 10, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ss.Sphere(ctx, scene.Vec3{5, 5, 5}, 4, Facets{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := ss.Boolean(ctx, Union, []Placed{{Solid: a, World: scene.Identity3}}, []Placed{{Solid: b, World: scene.Identity3}})
	if err != nil {
		t.Fatal(err)
	}
	if u.Form != nil {
		t.Error("a union has no form")
	}
}
