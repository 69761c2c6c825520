package lint

// TestLintFindingsPinned pins what the lint finds in seeded random drawings that give every
// rule something to find: labels beside holes, plates and slots, texts and dimensions over
// each other and over outlines, shapes drawn twice (exactly, from another corner, or a hair
// apart), open lines on cut layers, inputs left under boolean results, turned and scaled
// groups. The lint's speed work keeps testdata/lint_findings.txt unchanged; a change of
// behaviour shows there, to be looked at before UPDATE_GOLDEN=1 rewrites it.

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// randomDrawing draws n entities of every kind the lint reads, at random on a sheet of about
// size units, some of them in groups (cut layers among them), and the boolean operations a
// run could have reported.
func randomDrawing(t testing.TB, rng *rand.Rand, n int, size float64) (*scene.Scene, []BooleanOp) {
	t.Helper()
	s := scene.New()
	var names []string
	put := func(sh scene.Shape) string {
		name := fmt.Sprintf("e%d", len(names))
		if _, err := s.Put(name, sh); err != nil {
			t.Fatalf("drawing %s %#v: %v", name, sh, err)
		}
		names = append(names, name)
		return name
	}
	at := func() geom.Vec {
		return geom.Vec{X: math.Round(rng.Float64()*size*10) / 10, Y: math.Round(rng.Float64()*size*10) / 10}
	}
	labels := []string{"Ø%d", "⌀%d", "R%d", "%d x %d", "%d×%d mm", "%d mm", "6 HOLES Ø%d EQ SP", "R%d TYP", "PART %d", "4x Ø%d", "NOTE"}
	var booleans []BooleanOp
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for len(names) < n {
		c, r := at(), float64(1+rng.IntN(12))
		var name string
		switch k := rng.IntN(14); k {
		case 0, 1:
			name = put(scene.Circle{Center: c, Radius: r})
		case 2:
			name = put(scene.Rect{Center: c, Width: 2 * r, Height: r + float64(rng.IntN(5))})
		case 3:
			name = put(scene.RoundedRect{Center: c, Width: 3 * r, Height: 2 * r, Radius: float64(1 + rng.IntN(int(r)))})
		case 4:
			name = put(scene.Ellipse{Center: c, RX: r, RY: r * float64(1+rng.IntN(2))})
		case 5:
			name = put(scene.Arc{Center: c, Radius: r, Start: float64(rng.IntN(4)) * math.Pi / 2, End: float64(4+rng.IntN(4)) * math.Pi / 2})
		case 6:
			pts := []geom.Vec{c}
			for range 1 + rng.IntN(3) {
				pts = append(pts, pts[len(pts)-1].Add(geom.Vec{X: float64(rng.IntN(21) - 10), Y: float64(rng.IntN(21) - 10)}))
			}
			if rng.IntN(5) == 0 {
				pts = append(pts, c) // closes on itself
			}
			name = put(scene.Line{Points: pts})
		case 7:
			w, h := 2*r, r
			outer := []geom.Vec{c, c.Add(geom.Vec{X: w, Y: 0}), c.Add(geom.Vec{X: w, Y: h}), c.Add(geom.Vec{X: 0, Y: h})}
			var bulges []float64
			if rng.IntN(2) == 0 {
				bulges = []float64{0, 1, 0, 1} // a slot
			}
			name = put(scene.Polygon{Parts: []scene.PolygonPart{{Outer: outer, OuterBulges: bulges}}})
		case 8:
			name = put(&scene.PathShape{Data: fmt.Sprintf("M %g %g c %g 0 %g %g 0 %g", c.X, c.Y, r, r, r, r)})
		case 9, 10:
			l := labels[rng.IntN(len(labels))]
			var text string
			switch strings.Count(l, "%d") {
			case 0:
				text = l
			case 1:
				text = fmt.Sprintf(l, 2*int(r)+rng.IntN(2))
			default:
				text = fmt.Sprintf(l, 2*int(r), int(r)+rng.IntN(5))
			}
			name = put(&scene.Text{Text: text, Pos: c, Size: float64(1+rng.IntN(4)) * 1.25, NoLint: rng.IntN(10) == 0})
		case 11:
			d := &scene.Dimension{Type: scene.DimAligned, Points: []geom.Vec{c, c.Add(geom.Vec{X: float64(5 + rng.IntN(30)), Y: float64(rng.IntN(10))})}, Offset: float64(rng.IntN(11) - 5), Precision: rng.IntN(3), Size: 2.5}
			switch rng.IntN(3) {
			case 0:
				d.Type, d.Points, d.Radius, d.Angle = scene.DimDiameter, []geom.Vec{c}, r, rng.Float64()*math.Pi
			case 1:
				d.Text = fmt.Sprintf("%d", rng.IntN(40))
			}
			name = put(d)
		case 12: // drawn again: exactly, or a hair off, or moved there
			if len(names) == 0 {
				continue
			}
			e, _ := s.Lookup(names[rng.IntN(len(names))])
			if e.IsGroup() || e.Kind() == scene.KindText || e.Kind() == scene.KindDimension {
				continue
			}
			name = put(e.Shape)
			m := e.Transform
			switch rng.IntN(3) {
			case 0:
				m.Translate = m.Translate.Add(geom.Vec{X: size * 1e-7, Y: 0})
			case 1:
				m.Translate = m.Translate.Add(geom.Vec{X: size * 1e-5, Y: 0})
			}
			ne, _ := s.Lookup(name)
			ne.Transform = m
		case 13: // a boolean's result over its inputs
			if len(names) < 2 {
				continue
			}
			a, b := names[rng.IntN(len(names))], names[rng.IntN(len(names))]
			name = put(scene.Rect{Center: c, Width: 4 * r, Height: 4 * r})
			booleans = append(booleans, BooleanOp{Fn: "booleanUnion", Inputs: []string{a, b}, Result: name})
		}
		switch rng.IntN(6) {
		case 0:
			must(s.Rotate(name, float64(rng.IntN(8))*math.Pi/4+float64(rng.IntN(3))*0.1, scene.SpaceWorld))
		case 1:
			must(s.SetFill(name, &scene.Color{0.5, 0.5, 0.5, 1}))
		case 2:
			if rng.IntN(4) == 0 {
				must(s.SetStroke(name, nil, 0))
			}
		}
	}
	layers := []string{"cut", "engrave", "laser_cut", "notes"}
	for i := 0; i+8 < len(names); i += 8 + rng.IntN(40) {
		var members []string
		for _, nm := range names[i : i+1+rng.IntN(8)] {
			if e, ok := s.Lookup(nm); ok && e.Parent() == "" {
				members = append(members, nm)
			}
		}
		if len(members) == 0 {
			continue
		}
		g := fmt.Sprintf("%s%d", layers[rng.IntN(len(layers))], i)
		if _, err := s.CreateGroup(g, members); err != nil {
			t.Fatal(err)
		}
		switch rng.IntN(4) {
		case 0:
			must(s.Rotate(g, math.Pi/6, scene.SpaceWorld))
		case 1:
			must(s.Scale(g, 2, 2, scene.SpaceWorld, nil))
		}
	}
	return s, booleans
}

func TestLintFindingsPinned(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	for i := range 26 {
		rng := rand.New(rand.NewPCG(uint64(i), 38))
		n, size := 40+rng.IntN(400), 50+rng.Float64()*300
		if i >= 24 { // larger ones, where the lint's grid has many cells
			n, size = 3000, 1500
		}
		s, booleans := randomDrawing(t, rng, n, size)
		opts := Options{Booleans: booleans}
		if i%4 == 3 {
			opts.UnitMM, opts.Scale = 10, 0.5
		}
		found := Check(s, opts)
		rules := map[string]int{}
		h := sha256.New()
		for _, f := range found {
			rules[f.Rule]++
			fmt.Fprintf(h, "%s %q\n", f, f.Entities)
		}
		fmt.Fprintf(&out, "drawing %d: %d entities, %d findings", i, s.Len(), len(found))
		for _, r := range append(slicesOfRules(), RuleLintLimit) {
			if rules[r] > 0 {
				fmt.Fprintf(&out, ", %s %d", r, rules[r])
			}
		}
		fmt.Fprintf(&out, "; %x\n", h.Sum(nil)[:12])
		if i < 4 { // a few in full, to read
			for _, f := range found {
				fmt.Fprintf(&out, "\t%s %q\n", f, f.Entities)
			}
		}
	}
	golden.Check(t, "testdata/lint_findings.txt", []byte(out.String()))
}

// slicesOfRules are the rules' names in the order they run.
func slicesOfRules() []string {
	var out []string
	for _, r := range lintRules {
		out = append(out, r.name)
	}
	return out
}
