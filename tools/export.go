package tools

// export writes the scene to a file an agent names, in the workspace's out/ folder: a DXF or
// PDF for a laser cutter or a print shop without the drawing passing through the agent's
// context (scene dxf answers the DXF's text, thousands of tokens for a plain part). The options
// are `cadrun run -o`'s flags, read by the same flag set (render.Options.Flags), so that the
// two accept and refuse the same values.

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
)

const exportDescription = "Write the scene to the workspace's out/NAME.EXT with run -o's options: svg, pdf, dxf, png, json, or its solids as stl, 3mf, step, glb; layers keeps only their shapes. Answers path, size, a DXF's entities by kind and layer, and what the file leaves out."

// ExportIn says what to write and where.
type ExportIn struct {
	Path       string        `json:"path" jsonschema:"out/NAME.EXT"`
	Format     string        `json:"format,omitempty" jsonschema:"when path has no extension"`
	Units      string        `json:"units,omitempty" jsonschema:"one scene unit: mm (default), cm, m, in or ft"`
	Page       string        `json:"page,omitempty" jsonschema:"PDF: fit (default), A4, A3 or Letter"`
	Scale      string        `json:"scale,omitempty" jsonschema:"PDF: 1:1 (default), 1:N, N:1 or fit"`
	DXFVersion string        `json:"dxf_version,omitempty" jsonschema:"DXF: 12 (default) or 2000"`
	DXFText    string        `json:"dxf_text,omitempty" jsonschema:"DXF: outlines (default) or entities"`
	Tolerance  float64       `json:"tolerance,omitempty" jsonschema:"DXF: curve tolerance (default 0.01)"`
	Width      int           `json:"width,omitempty" jsonschema:"PNG: pixels (default 1024)"`
	View       render.Camera `json:"view,omitzero"`
	Layers     []string      `json:"layers,omitempty" jsonschema:"only these layers' shapes"`
}

// ExportOut is what was written.
type ExportOut struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	Bytes  int    `json:"bytes"`
	// DXF counts a DXF's entities by kind and by layer.
	DXF *DXFCounts `json:"dxf,omitempty"`
	// Lint lists the texts under the lint's minimum height on this output's paper (a PDF at
	// its scale, a DXF at full size), which a write's lint, at 1:1 in millimetres, cannot see.
	Lint []string `json:"lint,omitempty"`
	// Warnings say what the file leaves out: the solids of a drawing, the 2D shapes of an STL,
	// a 3MF, a STEP or a glTF; and a STEP's which solids it wrote exact and which faceted
	// (render.Format.LeftOut).
	Warnings []string `json:"warnings,omitempty"`
}

// DXFCounts are the entities of a DXF's ENTITIES section by type and by layer.
type DXFCounts struct {
	Entities int            `json:"entities"`
	ByKind   map[string]int `json:"by_kind"`
	ByLayer  map[string]int `json:"by_layer"`
}

// defaultExportWidth is the PNG width of an export that names none.
const defaultExportWidth = 1024

// meshFileBytesPerTriangle is what writing an STL or a 3MF allocates a triangle of the scene's
// solids: an STL 57 bytes (its 50 and the world vertices), a 3MF 65 (the world vertices, the
// map that shares them, the compressed text), measured on a sphere of 522,240 triangles
// (render.BenchmarkSolidFiles); the estimate leaves room above both.
const meshFileBytesPerTriangle = 100

// glbBytesPerTriangle is what writing a GLB allocates a triangle of the scene's solids: 185
// bytes (the facets round each point, the vertices with their normals, the buffer), measured
// on render.BenchmarkSolidFiles's sphere of 522,240 triangles; the estimate leaves room above.
const glbBytesPerTriangle = 250

// stepBytesPerFacet is what writing a STEP allocates a triangle of its faceted solids: the
// shell's faces, edges and points and the file's text, 4,300 bytes (measured on
// render.BenchmarkSTEP's drilled block, 8,016 triangles); the estimate leaves room above it.
// An exact solid's few faces cost little beside the quarter of meshFileBytesPerTriangle each
// of its triangles is given.
const stepBytesPerFacet = 5000

func exportTool(ctx context.Context, se *Session, in ExportIn) (*ExportOut, error) {
	name := in.Path
	ext := strings.TrimPrefix(path.Ext(name), ".")
	switch {
	case ext == "" && in.Format != "":
		name += "." + in.Format
	case in.Format != "" && !strings.EqualFold(in.Format, ext):
		return nil, fmt.Errorf("%w: export: format %q and path %q disagree; give one, or make them the same", ErrBadInput, in.Format, in.Path)
	}
	format, err := render.ByExt(name)
	if err != nil {
		return nil, fmt.Errorf("%w: export: %v", ErrBadInput, err)
	}
	var opts render.Options
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts.Flags(fs)
	for _, o := range []struct{ flag, param, value string }{
		{"units", "units", in.Units}, {"page", "page", in.Page}, {"scale", "scale", in.Scale}, {"dxf", "dxf_version", in.DXFVersion},
		{"dxf-text", "dxf_text", in.DXFText},
	} {
		if o.value == "" {
			continue
		}
		if err := fs.Set(o.flag, o.value); err != nil {
			return nil, fmt.Errorf("%w: export: %s: %v", ErrBadInput, o.param, err)
		}
	}
	if in.Tolerance != 0 {
		if err := fs.Set("tolerance", strconv.FormatFloat(in.Tolerance, 'g', -1, 64)); err != nil {
			return nil, fmt.Errorf("%w: export: tolerance: %v", ErrBadInput, err)
		}
	}
	if in.Width < 0 || in.Width > render.MaxPNGSide {
		return nil, fmt.Errorf("%w: export: width %d is out of range; give 1 to %d (MaxPNGSide)", ErrBadInput, in.Width, render.MaxPNGSide)
	}
	opts.PNG.Camera = in.View // checked as it was read
	opts.PNG.Width = defaultExportWidth
	if in.Width > 0 {
		opts.PNG.Width = in.Width
	}
	// The names are taken as given, not through -layers' commas: a layer's name may hold one.
	for _, l := range in.Layers {
		if l == "" {
			return nil, fmt.Errorf("%w: export: layers holds an empty name; give the names of the scene's layers", ErrBadInput)
		}
	}
	opts.Layers = in.Layers
	sc, err := render.SelectLayers(se.srv.Scene(), opts.Layers)
	if err != nil {
		return nil, fmt.Errorf("%w: export: %v", ErrBadInput, err)
	}
	opts.PNG.Context = ctx // a cancelled call stops drawing between shapes
	done, err := picture.Reserve(ctx, exportMemory(sc, format.Ext, opts.PNG.Width))
	if err != nil {
		return nil, err
	}
	data, err := format.Render(sc, opts)
	done()
	if err != nil {
		return nil, err
	}
	p, err := se.srv.ws.WriteOutput(name, data)
	if err != nil {
		return nil, err
	}
	out := &ExportOut{Path: p, Format: strings.TrimPrefix(format.Ext, "."), Bytes: len(data)}
	if l := format.LeftOut(sc); l != "" {
		out.Warnings = []string{l}
	}
	if format.Ext == ".dxf" {
		out.DXF = countDXF(data)
	}
	if mm, ok := render.PaperMM(sc, format.Ext, opts); ok {
		out.Lint = smallTexts(sc, mm)
	}
	return out, nil
}

// exportMemory estimates the memory of writing sc in the format of extension ext: its drawing
// (picture.DrawingMemory, picture.SVGBytesPerEntity an entity), an STL's or a 3MF's triangles
// (meshFileBytesPerTriangle each) and, for a PNG width pixels wide, its pixels at the height
// the scene's frame gives it, so that an export waits for the render budget every picture of
// the server shares (picture.RenderMemory) as scene png does.
func exportMemory(sc *scene.Scene, ext string, width int) int64 {
	switch ext {
	case ".stl", ".3mf":
		return int64(sc.SceneTriangles())*meshFileBytesPerTriangle + int64(sc.Len())*picture.SVGBytesPerEntity
	case ".glb":
		return int64(sc.SceneTriangles())*glbBytesPerTriangle + int64(sc.Len())*picture.SVGBytesPerEntity
	case ".step":
		return int64(render.STEPFacets(sc))*stepBytesPerFacet + int64(sc.SceneTriangles())*meshFileBytesPerTriangle/4 + int64(sc.Len())*picture.SVGBytesPerEntity
	case ".png":
	default:
		return picture.DrawingMemory(sc, picture.SVGBytesPerEntity)
	}
	n := picture.DrawingMemory(sc, picture.SVGBytesPerEntity)
	w, h := float64(width), float64(width)
	if sz := render.FitView(sc, render.DefaultMargin).Size(); sz.X > 0 && sz.Y > 0 {
		h = math.Min(render.MaxPNGSide, math.Max(1, math.Round(w*sz.Y/sz.X)))
	}
	return n + int64(math.Min(w*h*4, picture.RenderMemory))
}

// smallTexts are the lint's text-small findings on paper at mm millimetres a scene unit,
// at most MaxLintListed of them and a line saying how many more. Only that rule runs: it looks
// at each text once, so the export's lint costs no comparisons of shapes in the server.
func smallTexts(sc *scene.Scene, mm float64) []string {
	return engine.LintLines(lint.Check(sc, lint.Options{UnitMM: mm, Rules: []string{lint.RuleTextSmall}}), MaxLintListed)
}

// countDXF counts the entities of a DXF's ENTITIES section (group code 0 starts one, 8 is its
// layer); the entities inside a POLYLINE (VERTEX, SEQEND) are part of it.
func countDXF(b []byte) *DXFCounts {
	c := &DXFCounts{ByKind: map[string]int{}, ByLayer: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	inEntities, prevSection, current := false, false, ""
	for sc.Scan() {
		code := strings.TrimSpace(sc.Text())
		if !sc.Scan() {
			break
		}
		value := strings.TrimSpace(sc.Text())
		switch {
		case code == "2" && prevSection:
			inEntities = value == "ENTITIES"
		case code == "0" && value == "ENDSEC":
			inEntities = false
		case !inEntities:
		case code == "0" && (value == "VERTEX" || value == "SEQEND"):
			current = ""
		case code == "0":
			current = value
			c.Entities++
			c.ByKind[value]++
		case code == "8" && current != "":
			c.ByLayer[value]++
			current = ""
		}
		prevSection = code == "0" && value == "SECTION"
	}
	return c
}
