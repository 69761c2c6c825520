package viewer

// The 3D view's data. GET /api/solids sends the page every solid of the scene as it lies in
// the world (its placement and its groups' maps applied), with its colours and feature edges,
// for the page to draw with WebGL (page/solids3d.js). The format is binary, so that a large
// part does not pass through a JSON parser:
//
//	"CDS1", a little-endian uint32 n, n bytes of a JSON header (solidsHeader), zero bytes to
//	a multiple of 4; then for each solid, its vertices (x, y, z as float32), its triangles
//	(three uint32 vertex indices, counter-clockwise seen from outside) and its edges (two
//	uint32 vertex indices each); then for each 2D shape, its lines in the plane z = 0 (x, y
//	of both ends of each segment, as float32).
//
// It is made once per scene version and shared by every tab, as the SVG is.

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"

	"github.com/cadrun/cadrun/internal/front"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
)

// DefaultMaxViewerTriangles caps the triangles GET /api/solids sends (Options.MaxTriangles):
// about 36 MB of mesh, which a browser draws without stalling. Over it the page shows the
// shaded picture (api/scene.png) instead, and says why.
const DefaultMaxViewerTriangles = 2_000_000

// MaxViewerSegments caps the segments of the 2D shapes the 3D view draws in the plane z = 0
// (16 MB); over it the 3D view leaves them to the plan and says so (flatLeftOut).
const MaxViewerSegments = 1_000_000

// viewerChords is the chord tolerance of the 2D shapes' curves in the 3D view, as a fraction
// of the scene's larger side: a circle that fills the window has about 70 sides.
const viewerChords = 1.0 / 2000

// solidsMagic opens the 3D view's data.
const solidsMagic = "CDS1"

// solidsHeader is the JSON at the head of the 3D view's data.
type solidsHeader struct {
	Solids []solidHead `json:"solids"`
	// Bounds is the world box of every solid, {min: [x, y, z], max: [x, y, z]}.
	Bounds scene.Box3 `json:"bounds"`
	// Flat are the 2D shapes drawn as lines in the plane z = 0, as the pictures draw them;
	// FlatLeftOut says they were over MaxViewerSegments and are left to the plan.
	Flat        []flatHead `json:"flat"`
	FlatLeftOut bool       `json:"flatLeftOut,omitempty"`
}

// flatHead is one 2D shape in the header: its name, colour and segment count.
type flatHead struct {
	Name     string      `json:"name"`
	Color    scene.Color `json:"color"`
	Segments int         `json:"segments"`
}

// solidHead is one solid in the header: its name, its face and edge colours (RGBA, 0..1; no
// face colour draws the faces in the background's), and the counts of what follows.
type solidHead struct {
	Name      string       `json:"name"`
	Face      *scene.Color `json:"face,omitempty"`
	Edge      scene.Color  `json:"edge"`
	Vertices  int          `json:"vertices"`
	Triangles int          `json:"triangles"`
	Edges     int          `json:"edges"`
}

// solidsData is the 3D view's data for a scene, or an error naming the limit it is over.
func solidsData(s *scene.Scene, maxTriangles int) ([]byte, error) {
	items := s.Solids()
	var head solidsHeader
	head.Solids = []solidHead{}
	type body struct {
		verts []float32
		tris  []uint32
		edges []uint32
	}
	bodies := make([]body, 0, len(items))
	total := 0
	for _, it := range items {
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue
		}
		sd := it.Entity.Shape.(*scene.Solid)
		total += sd.Mesh.NumTriangles()
		if total > maxTriangles {
			return nil, fmt.Errorf("the scene's solids have over %d triangles (the viewer's MaxTriangles), more than the 3D view draws: it shows the shaded picture instead; a coarser tolerance or fewer segments make fewer", maxTriangles)
		}
		var b body
		b.verts = make([]float32, len(sd.Mesh.Vertices))
		for i := range uint32(sd.Mesh.NumVertices()) {
			p := it.World.Apply(sd.Mesh.Vertex(i))
			head.Bounds.Extend(p)
			b.verts[3*i], b.verts[3*i+1], b.verts[3*i+2] = float32(p[0]), float32(p[1]), float32(p[2])
		}
		b.tris = sd.Mesh.Triangles
		if it.World.Det() < 0 {
			// A mirror turns the triangles inside out: turn them back, so that the page's
			// culling keeps the faces that face it.
			b.tris = make([]uint32, len(sd.Mesh.Triangles))
			for t := 0; t < len(b.tris); t += 3 {
				b.tris[t], b.tris[t+1], b.tris[t+2] = sd.Mesh.Triangles[t], sd.Mesh.Triangles[t+2], sd.Mesh.Triangles[t+1]
			}
		}
		b.edges = sd.Mesh.FeatureEdges(scene.FeatureAngle)
		st := drawn.Style
		h := solidHead{Name: it.Entity.Name, Edge: render.SolidEdgeColor(st),
			Vertices: sd.Mesh.NumVertices(), Triangles: sd.Mesh.NumTriangles(), Edges: len(b.edges) / 2}
		if st.Fill != nil && st.Fill[3] > 0 {
			c := *st.Fill
			h.Face = &c
		}
		head.Solids = append(head.Solids, h)
		bodies = append(bodies, b)
	}
	flat, segs := flatLines(s)
	if segs > MaxViewerSegments {
		head.FlatLeftOut = true
		flat = nil
	}
	head.Flat = []flatHead{}
	for _, f := range flat {
		head.Flat = append(head.Flat, f.head)
	}
	hj, err := json.Marshal(&head)
	if err != nil {
		return nil, err
	}
	size := 8 + len(hj) + 3
	for _, b := range bodies {
		size += 4 * (len(b.verts) + len(b.tris) + len(b.edges))
	}
	for _, f := range flat {
		size += 4 * len(f.xy)
	}
	out := make([]byte, 0, size)
	out = append(out, solidsMagic...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(hj)))
	out = append(out, hj...)
	for len(out)%4 != 0 {
		out = append(out, 0)
	}
	for _, b := range bodies {
		for _, x := range b.verts {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
		}
		for _, i := range b.tris {
			out = binary.LittleEndian.AppendUint32(out, i)
		}
		for _, i := range b.edges {
			out = binary.LittleEndian.AppendUint32(out, i)
		}
	}
	for _, f := range flat {
		for _, x := range f.xy {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
		}
	}
	return out, nil
}

// flatShape is one 2D shape's lines: its header, and x, y of both ends of each segment.
type flatShape struct {
	head flatHead
	xy   []float32
}

// flatLines is the scene's plotted 2D shapes as segments in their stroke's colour (else their
// fill's), as the pictures draw them beside solids, and the count of segments; it stops
// counting past MaxViewerSegments.
func flatLines(s *scene.Scene) ([]flatShape, int) {
	sz := s.Bounds().Size()
	tol := max(sz.X, sz.Y) * viewerChords
	if !(tol > 0) {
		tol = 1e-3
	}
	var out []flatShape
	total := 0
	for it := range s.Paint() {
		if _, ok := it.Entity.Shape.(*scene.Solid); ok || len(it.Path) == 0 {
			continue
		}
		drawn := s.Drawn(it.Entity)
		if !drawn.Plot {
			continue
		}
		c := drawn.Style.Stroke
		if c == nil || c[3] == 0 {
			c = drawn.Style.Fill
		}
		if c == nil || c[3] == 0 {
			continue
		}
		if total += it.Path.FlattenPoints(tol); total > MaxViewerSegments {
			return nil, total
		}
		f := flatShape{head: flatHead{Name: it.Entity.Name, Color: *c}}
		for _, l := range it.Path.Flatten(tol) {
			pts := l.Points
			if l.Closed && len(pts) > 1 {
				pts = append(pts, pts[0])
			}
			for i := 1; i < len(pts); i++ {
				f.xy = append(f.xy, float32(pts[i-1].X), float32(pts[i-1].Y), float32(pts[i].X), float32(pts[i].Y))
			}
		}
		f.head.Segments = len(f.xy) / 4
		out = append(out, f)
	}
	return out, total
}

func (v *Server) serveSolids(w http.ResponseWriter, r *http.Request) {
	s := v.current()
	b, err := s.Solids3D(v.maxTriangles())
	if err != nil {
		front.APIError(w, http.StatusRequestEntityTooLarge, err.Error())
		return
	}
	answer(w, s, "application/octet-stream", b)
}

func (v *Server) maxTriangles() int {
	if v.opt.MaxTriangles > 0 {
		return v.opt.MaxTriangles
	}
	return DefaultMaxViewerTriangles
}
