package picture

// Budgets. Every picture is built from a scene of any size for an agent that pays for every
// byte it reads, so a picture has a byte budget and is drawn smaller until it fits; and every
// render (a picture, a drawing, an export) waits for its estimated memory in one budget shared
// by the process (Reserve), so that concurrent requests queue rather than add up, and the
// memory of a large render is given back to the system as soon as it is done.

import (
	"context"
	"runtime/debug"

	"golang.org/x/sync/semaphore"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
)

// Answer budgets, in bytes.
const (
	// DefaultTextBudget is the default budget of a text view (everything but png).
	DefaultTextBudget = 64 << 10
	// DefaultImageBudget is the default budget of a png.
	DefaultImageBudget = 1 << 20
	// MaxAnswerBudget is the largest budget a call may ask for (max_bytes).
	MaxAnswerBudget = 4 << 20
)

// minPNGSide is the narrowest picture a png over its budget is redrawn at.
const minPNGSide = 64

// RenderMemory is the memory the server lets drawings and pictures take at once: one
// picture of the largest size (MaxPNGSide² pixels, 4 bytes each). Each render holds its
// estimated size until it is done.
const RenderMemory = render.MaxPNGSide * render.MaxPNGSide * 4

// freeAfter is the size of a render after which its memory is given back to the system at
// once, rather than kept by the Go runtime for later allocations.
const freeAfter = 32 << 20

// renders is the memory budget of the renders in progress, shared by every server in the
// process.
var renders = semaphore.NewWeighted(RenderMemory)

// SVGBytesPerEntity and JSONBytesPerEntity estimate a drawing's memory before it is made.
const (
	SVGBytesPerEntity  = 400
	JSONBytesPerEntity = 600
)

// textBytesPerSegment is what a picture takes for each outline segment of its texts, over
// the bytes of its entity: a text is one entity of any number of segments (up to
// text.MaxTextSegments), each drawn from a world outline of its own (72 bytes), flattened,
// and written out or rasterised: SVG allocates about 260 bytes a segment, PNG 280, and the
// estimate leaves room above both.
const textBytesPerSegment = 350

// vertexBytes is what a picture takes for each vertex of its lines, polygons and paths (a
// path's segment counts as one), over the bytes of its entity: a polyline of a million
// vertices is one entity drawn from a world outline of 72 bytes a segment, written out or
// rasterised: SVG and PDF allocate about 180 bytes a vertex, PNG 260 to 280, DXF 380, and the
// estimate leaves room above them all.
const vertexBytes = 400

// dashBytes is what a picture takes for each dash or dot of its linetypes
// (scene.MaxDashSegments), which the SVG writer cuts as geometry for hairlines and the PNG
// writer for every dashed stroke: about 1,000 bytes allocated a dash in SVG, 1,100 in PNG.
const dashBytes = 1100

// DrawingMemory estimates the memory of drawing sc, perEntity bytes an entity, vertexBytes a
// vertex of its shapes, textBytesPerSegment a segment of its texts' outlines, dashBytes a
// dash and triangleBytes a triangle of its solids, so that a scene of a few polylines of a
// million vertices, of few texts in a font of 11,000-point letters, of a few long dotted lines
// or of a few large solids, waits for as much of the render budget as it takes.
func DrawingMemory(sc *scene.Scene, perEntity int64) int64 {
	return int64(sc.Len())*perEntity + int64(vertices(sc))*vertexBytes +
		int64(sc.TextSegments())*textBytesPerSegment + int64(sc.DashSegments())*dashBytes +
		int64(sc.SceneTriangles())*triangleBytes
}

// triangleBytes is what a picture takes for each triangle of the scene's solids: their
// shaded view allocates about 60 bytes a triangle while it is drawn (a sphere of a million
// triangles, 63 MB at 800 px), scene.json holds 24, and a solid is one entity of up to
// scene.MaxSolidTriangles.
const triangleBytes = 64

// vertices counts the points the shapes of sc are drawn through: a line's points, a polygon's
// rings, a path's segments. Shapes of a fixed size (circles, rectangles, arcs) count none, as
// their entity's bytes cover them; texts and dimensions are counted by their outline segments
// (scene.Scene.TextSegments).
func vertices(sc *scene.Scene) int {
	n := 0
	for _, e := range sc.Walk() {
		points, segs := ShapeVertices(e.Shape)
		n += points + segs
	}
	return n
}

// ShapeVertices counts the points of a line or a polygon, and the segments of a path.
func ShapeVertices(sh scene.Shape) (points, segs int) {
	polygon := func(g scene.Polygon) int {
		n := 0
		for _, p := range g.Parts {
			n += len(p.Outer)
			for _, h := range p.Holes {
				n += len(h)
			}
		}
		return n
	}
	switch sh := sh.(type) {
	case scene.Line:
		return len(sh.Points), 0
	case *scene.Line:
		return len(sh.Points), 0
	case scene.Polygon:
		return polygon(sh), 0
	case *scene.Polygon:
		return polygon(*sh), 0
	case *scene.PathShape:
		return 0, len(sh.Outline()) // the path held, not a copy
	}
	return 0, 0
}

// Omitted says what an answer left out, and how to get it.
type Omitted struct {
	Shown int `json:"shown" jsonschema:"items in this answer (entities, groups or names)"`
	Total int `json:"total" jsonschema:"items there are"`
	// NextOffset is where the next page starts (0: no next page).
	NextOffset int    `json:"nextOffset,omitempty" jsonschema:"the offset of the next page"`
	Note       string `json:"note" jsonschema:"what was left out and how to get it"`
}

// ImageInfo describes a picture sent as an image.
type ImageInfo struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	Bytes  int `json:"bytes"`
	// Scale is pixels per scene unit, along both axes.
	Scale float64 `json:"scale,omitempty" jsonschema:"pixels per scene unit, along both axes"`
	// Origin is the scene point at pixel (0, 0), the picture's top-left corner.
	Origin []float64 `json:"origin,omitempty" jsonschema:"the scene point [x, y] at pixel (0, 0), the top-left corner"`
	// Region is the scene window the whole picture shows.
	Region []float64 `json:"region,omitempty" jsonschema:"the visible region [minX, minY, maxX, maxY] in scene units"`
	// Mapping is the pixel of a scene point, in words.
	Mapping string `json:"mapping,omitempty" jsonschema:"how a scene point maps to a pixel"`
	// Grid is the grid's step in scene units, when a grid is drawn.
	Grid float64 `json:"grid,omitempty" jsonschema:"the grid step in scene units"`
	// Highlighted counts the shapes highlighted; Highlight says why none are, when so.
	Highlighted int    `json:"highlighted,omitempty" jsonschema:"how many shapes are highlighted"`
	Highlight   string `json:"highlight,omitempty" jsonschema:"a note on what is highlighted"`
	// Blank says, in words, that the picture shows nothing of the scene, and why.
	Blank string `json:"blank,omitempty" jsonschema:"set when the picture shows nothing of the scene: why"`
	// Legible names the smallest text when it is under LegibleTextPx high, and how to read it.
	Legible string `json:"legible,omitempty" jsonschema:"set when the smallest text is too small to read: which, and how to read it"`
}

// Reserve waits for n bytes of the render budget (at most all of it).
func Reserve(ctx context.Context, n int64) (func(), error) {
	n = max(1, min(n, RenderMemory))
	if err := renders.Acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() {
		// Give the memory back before the next render may take it, so that it is reused
		// rather than added to.
		if n >= freeAfter {
			debug.FreeOSMemory()
		}
		renders.Release(n)
	}, nil
}

// PNGInfo reads a PNG's size from its header.
func PNGInfo(b []byte) ImageInfo {
	info := ImageInfo{Bytes: len(b)}
	if len(b) >= 24 {
		be := func(p []byte) int { return int(p[0])<<24 | int(p[1])<<16 | int(p[2])<<8 | int(p[3]) }
		info.Width, info.Height = be(b[16:20]), be(b[20:24])
	}
	return info
}

// join joins notes with "; ", skipping empty ones.
func Join(notes ...string) string {
	out := ""
	for _, n := range notes {
		if n == "" {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += n
	}
	return out
}
