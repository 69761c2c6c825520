package importer

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// TestDXFRoundTrip exports every example workspace to DXF (R12 and R2000) with cadrun's
// writer, imports the file as `cadrun import` does (Format, then Import) and runs the module,
// with ezdxf (testdata/dxfbounds.py) as the referee of the file in between:
//
//   - the importer draws one shape per entity the writer wrote: a shape is written as one
//     entity per subpath (a text's outlines one per contour, a polygon with holes one per
//     ring), and each comes back as a shape of its own in the group of its layer;
//   - the imported scene's world bounds, and each layer group's, equal the file's within 1e-9
//     of the drawing's size: the importer adds no error of its own;
//   - the file's bounds, and each layer's, equal the example's within the writer's flattening
//     tolerance plus its rounding quantum (DefaultDXFTolerance, a millionth of the size).
func TestDXFRoundTrip(t *testing.T) {
	t.Parallel()
	ref := startReferee(t)
	type trip struct {
		name    string
		version render.DXFVersion
		file    string
		want    *scene.Scene
		written int // entities the writer wrote
		shapes  int // shapes they import as: a DIMENSION's are its block's
	}
	dir := t.TempDir()
	var trips []trip
	for _, name := range examples.Workspaces() {
		src, err := examples.Workspace(name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Scene.HasSolids() {
			continue // a part made of solids has no drawing to go round; render checks its STL and 3MF
		}
		for _, v := range []render.DXFVersion{render.DXF12, render.DXF2000} {
			b, err := render.DXF(res.Scene, render.DXFOptions{Version: v})
			if err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, fmt.Sprintf("%s-R%d.dxf", name, v))
			if err := os.WriteFile(f, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ref.send(f, []string{"LINE", "CIRCLE", "ARC", "LWPOLYLINE", "POLYLINE", "HATCH", "DIMENSION"})
			shapes := subpaths(res.Scene) + hatchEntities(t, res.Scene, v)
			written := shapes
			if v == render.DXF2000 { // a dimension is one DIMENSION, its subpaths in its block
				dims, in := dimensionSubpaths(res.Scene)
				written += dims - in
			}
			trips = append(trips, trip{name: name, version: v, file: f, want: res.Scene, written: written, shapes: shapes})
		}
	}
	got := ref.results(t)
	var worstImport, worstWriter float64 // the largest offsets seen, as fractions of the size
	shapesIn := 0
	for _, tr := range trips {
		label := fmt.Sprintf("%s R%d", tr.name, tr.version)
		file := got[tr.file]
		if file.Error != "" {
			t.Errorf("%s: ezdxf cannot read the file: %s", label, file.Error)
			continue
		}
		s, rep := importFile(t, tr.file)
		if s == nil {
			continue
		}
		entities := 0
		for _, n := range file.Entities {
			entities += n
		}
		if n := shapes(s); entities != tr.written || n != tr.shapes || len(rep.Skipped) > 0 {
			t.Errorf("%s: %d entities written, want %d; %d shapes imported, want %d (skipped %v)", label, entities, tr.written, n, tr.shapes, rep.Skipped)
		}
		size := boxSize(tr.want.Bounds())
		quantum := math.Pow(10, math.Floor(math.Log10(size))-6)
		writerTol := render.DefaultDXFTolerance + quantum
		fileBox := asBox(file.Box)
		shapesIn += entities
		worstImport = math.Max(worstImport, boxOffEmpty(s.Bounds(), fileBox)/size)
		worstWriter = math.Max(worstWriter, boxOffEmpty(tr.want.Bounds(), fileBox)/size)
		if d := boxOffEmpty(s.Bounds(), fileBox); d > 1e-9*size {
			t.Errorf("%s: imported bounds %v, the file's %v (off by %g)", label, s.Bounds(), fileBox, d)
		}
		if d := boxOffEmpty(tr.want.Bounds(), fileBox); d > writerTol {
			t.Errorf("%s: the file's bounds %v, the example's %v (off by %g, over %g)", label, fileBox, tr.want.Bounds(), d, writerTol)
		}
		want := layerBounds(tr.want)
		imported := layerBounds(s)
		for l, b := range file.Layers {
			got, ok := imported[l]
			if !ok {
				t.Errorf("%s: layer %s: no shape of the import is on it (%v)", label, l, slices.Sorted(maps.Keys(imported)))
				continue
			}
			if d := boxOffEmpty(got, asBox(b)); d > 1e-9*size {
				t.Errorf("%s: layer %s: imported bounds %v, the file's %v (off by %g)", label, l, got, asBox(b), d)
			}
			if w, ok := want[l]; !ok {
				t.Errorf("%s: layer %s is none of the example's (%v)", label, l, want)
			} else if d := boxOffEmpty(w, asBox(b)); d > writerTol {
				t.Errorf("%s: layer %s: the file's bounds %v, the example's %v (off by %g)", label, l, asBox(b), w, d)
			}
		}
	}
	t.Logf("%d files, %d entities: imported bounds off the file's by at most %.3g of the size, the file's off the example's by %.3g",
		len(trips), shapesIn, worstImport, worstWriter)
}

// importFile imports a DXF file as `cadrun import` does and runs the module; nil when it fails.
func importFile(t *testing.T, file string) (*scene.Scene, *Report) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	format, err := Format("", file, data)
	if err != nil {
		t.Fatal(err)
	}
	code, rep, err := Import(format, data, Options{Source: filepath.Base(file)})
	if err != nil {
		t.Errorf("%s: %v", file, err)
		return nil, nil
	}
	s, err := runModule(code)
	if err != nil {
		t.Errorf("%s: the imported module fails: %v", file, err)
		return nil, nil
	}
	return s, rep
}

// subpaths counts the subpaths of a scene's shapes in world space that draw something, each
// of which the DXF writer writes as one entity. A subpath of a move and a close alone (a
// glyph's empty contour) draws nothing and is not written.
func subpaths(s *scene.Scene) int {
	n := 0
	for it := range s.Paint() {
		n += pathSubpaths(it.Path)
	}
	return n
}

// pathSubpaths is the number of a path's subpaths that draw something.
func pathSubpaths(p geom.Path) int {
	n := 0
	drawn := false
	for _, seg := range p {
		switch seg.Kind {
		case geom.SegMove:
			drawn = false
		case geom.SegClose:
		default:
			if !drawn {
				n++
			}
			drawn = true
		}
	}
	return n
}

// dimensionSubpaths is the number of the scene's dimensions and of the subpaths they draw,
// which R2000 writes into each DIMENSION's block.
func dimensionSubpaths(s *scene.Scene) (dims, subpaths int) {
	for it := range s.Paint() {
		if _, ok := it.Entity.Shape.(*scene.Dimension); ok {
			dims++
			subpaths += pathSubpaths(it.Path)
		}
	}
	return dims, subpaths
}

// hatchEntities is the number of entities of the scene's hatches the DXF writer writes: in
// R2000 a HATCH each, in R12 the hatch's lines as LINEs (its dots are POINTs, which the
// referee does not count and the importer does not draw). Each imports as one shape.
func hatchEntities(t *testing.T, s *scene.Scene, v render.DXFVersion) int {
	t.Helper()
	hs, err := s.Hatches()
	if err != nil {
		t.Fatal(err)
	}
	if v == render.DXF2000 {
		return len(hs)
	}
	n := 0
	for _, h := range hs {
		for _, seg := range h.Segments {
			if seg[0] != seg[1] {
				n++
			}
		}
	}
	return n
}

// layerBounds is the world bounds of a scene's shapes by the DXF layer the writer puts them
// on: the shape's scene layer, else its top-level group, else "0".
func layerBounds(s *scene.Scene) map[string]geom.Box {
	out := map[string]geom.Box{}
	for it := range s.Paint() {
		layer := s.Drawn(it.Entity).Style.Layer
		if layer == "" {
			layer = "0"
			if top := topGroup(s, it.Entity); top != it.Entity {
				layer = top.Name
			}
		}
		b := out[layer]
		b.Union(it.Path.Bounds())
		out[layer] = b
	}
	return out
}

// topGroup is the top-level ancestor of e (e itself at the top level).
func topGroup(s *scene.Scene, e *scene.Entity) *scene.Entity {
	for e.Parent() != "" {
		p, err := s.Get(e.Parent())
		if err != nil {
			break
		}
		e = p
	}
	return e
}
