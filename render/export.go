package render

// What the fabrication writers (DXF and PDF) share: the drawing unit, the colour and the
// stroke of a shape read in one place, and the choice of writer by file extension that
// `cadrun run -o` and `cadrun watch -out` both use.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// ErrExportOption is returned for an export option out of its domain (an unknown unit,
// version, page size or scale); the message names the value and the accepted ones.
var ErrExportOption = errors.New("bad export option")

// Unit is the length one scene unit stands for in a DXF ($INSUNITS) or on PDF paper.
type Unit string

// The units a drawing can be in.
const (
	UnitMM Unit = "mm"
	UnitCM Unit = "cm"
	UnitM  Unit = "m"
	UnitIn Unit = "in"
	UnitFt Unit = "ft"
)

// DefaultUnit is the unit of a drawing when none is given.
const DefaultUnit = UnitMM

// unitTable gives each unit its DXF $INSUNITS code and its length in millimetres.
var unitTable = []struct {
	unit     Unit
	insUnits int
	mm       float64
}{
	{UnitMM, 4, 1},
	{UnitCM, 5, 10},
	{UnitM, 6, 1000},
	{UnitIn, 1, 25.4},
	{UnitFt, 2, 304.8},
}

// ParseUnit reads a unit name (mm, cm, m, in, ft; case-insensitive).
func ParseUnit(s string) (Unit, error) {
	for _, u := range unitTable {
		if strings.EqualFold(s, string(u.unit)) {
			return u.unit, nil
		}
	}
	return "", fmt.Errorf("%w: unit %q: use mm, cm, m, in or ft", ErrExportOption, s)
}

// unitInfo resolves "" to DefaultUnit and refuses unknown units.
func unitInfo(u Unit) (insUnits int, mm float64, err error) {
	if u == "" {
		u = DefaultUnit
	}
	for _, e := range unitTable {
		if e.unit == u {
			return e.insUnits, e.mm, nil
		}
	}
	_, err = ParseUnit(string(u))
	return 0, 0, err
}

// strokeOf is the one place the exporters read how a shape is outlined: its colour and its
// width in scene units, or nil when the shape has no visible stroke. A stroke without a width
// of its own (scene.Style.Hairline) answers width 0: PDF's `0 w` is the thinnest line the
// device draws, and DXF has no width at all, so both draw it as a hairline.
func strokeOf(st scene.Style) (*scene.Color, float64) {
	if st.Stroke == nil || st.Stroke[3] <= 0 || st.StrokeWidth < 0 {
		return nil, 0
	}
	if st.Hairline() {
		return st.Stroke, 0
	}
	return st.Stroke, st.StrokeWidth
}

// fillOf is the shape's visible fill, or nil.
func fillOf(st scene.Style) *scene.Color {
	if st.Fill == nil || st.Fill[3] <= 0 {
		return nil
	}
	return st.Fill
}

// Options gather the options of every writer, so that one set of command-line flags (see
// Flags) serves any output format; each writer reads only its own part.
type Options struct {
	PNG     PNGOptions
	DXF     DXFOptions
	PDF     PDFOptions
	ThreeMF ThreeMFOptions
	STEP    STEPOptions
	GLTF    GLTFOptions
	// Layers, when not empty, keeps only the shapes on these layers of the scene's table
	// (SelectLayers), so that one scene gives a cut-only DXF and a dimensioned PDF. The
	// caller selects them before it renders, and says what the file leaves out of the
	// selection (Format.LeftOut), not of the scene.
	Layers []string `json:",omitempty"`
}

// Format is an output format chosen by a file's extension.
type Format struct {
	Ext    string // ".svg", ".png", ".json", ".dxf", ".pdf", ".stl", ".3mf", ".step" or ".glb"
	Render func(*scene.Scene, Options) ([]byte, error)
	// write, when set, writes what Render makes in pieces as they are made (Export).
	write func(io.Writer, *scene.Scene, Options) error
	holds holds // what the format holds of a scene (LeftOut)
	// note, when set, says how the file holds what it holds (a STEP's exact and faceted
	// solids); LeftOut adds it.
	note func(*scene.Scene) string
}

var formats = []Format{
	{Ext: ".svg", Render: func(s *scene.Scene, _ Options) ([]byte, error) { return SVG(s, SVGOptions{}) },
		write: func(w io.Writer, s *scene.Scene, _ Options) error { return WriteSVG(w, s, SVGOptions{}) }, holds: holdsFlat},
	{Ext: ".png", Render: func(s *scene.Scene, o Options) ([]byte, error) { return PNG(s, o.PNG) }},
	{Ext: ".json", Render: func(s *scene.Scene, _ Options) ([]byte, error) { return s.MarshalJSON() }},
	{Ext: ".dxf", Render: func(s *scene.Scene, o Options) ([]byte, error) { return DXF(s, o.DXF) }, holds: holdsFlat},
	{Ext: ".pdf", Render: func(s *scene.Scene, o Options) ([]byte, error) { return PDF(s, o.PDF) }, holds: holdsFlat},
	{Ext: ".stl", Render: func(s *scene.Scene, _ Options) ([]byte, error) { return STL(s) },
		write: func(w io.Writer, s *scene.Scene, _ Options) error { return WriteSTL(w, s) }, holds: holdsSolids},
	{Ext: ".3mf", Render: func(s *scene.Scene, o Options) ([]byte, error) { return ThreeMF(s, o.ThreeMF) },
		write: func(w io.Writer, s *scene.Scene, o Options) error { return WriteThreeMF(w, s, o.ThreeMF) }, holds: holdsSolids},
	{Ext: ".step", Render: func(s *scene.Scene, o Options) ([]byte, error) { return STEP(s, o.STEP) },
		write: func(w io.Writer, s *scene.Scene, o Options) error { return WriteSTEP(w, s, o.STEP) }, holds: holdsSolids, note: stepNote},
	{Ext: ".glb", Render: func(s *scene.Scene, o Options) ([]byte, error) { return GLB(s, o.GLTF) },
		write: func(w io.Writer, s *scene.Scene, o Options) error { return WriteGLB(w, s, o.GLTF) }, holds: holdsSolids},
}

// ByExt picks the writer for an output file by its extension (case-insensitive). A command
// that writes files declares the export flags with Options.Flags and then:
//
//	f, err := render.ByExt(path) // refuse the command line when err != nil
//	data, err := f.Render(sc, opts)
func ByExt(path string) (Format, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range formats {
		if f.Ext == ext {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%w: output %q must end in %s", ErrExportOption, path, Extensions())
}

// Extensions lists the output extensions ByExt knows, for messages: ".svg, .png, .json,
// .dxf, .pdf, .stl, .3mf, .step or .glb".
func Extensions() string {
	var b strings.Builder
	for i, f := range formats {
		switch {
		case i == len(formats)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(f.Ext)
	}
	return b.String()
}

// Flags registers the export flags on fs, writing into o: -dxf, -dxf-text, -units,
// -tolerance, -page, -scale, -layers and -view. The PNG width stays with each command.
func (o *Options) Flags(fs *flag.FlagSet) {
	fs.Var(&o.PNG.Camera, "view", "PNG of solids: the side they are seen from: "+strings.Join(StandardViews(), ", ")+
		" (the views of drafting, Z up), sheet (front, top, right and iso in one picture), or x,y,z, the direction the camera looks from; a drawing without solids is drawn as its plan")
	fs.Func("layers", "write only the shapes on these layers of the scene (createLayer), names separated by commas: -layers cut for a laser's DXF", func(s string) error {
		l, err := ParseLayers(s)
		o.Layers = l
		return err
	})
	fs.Func("dxf", "DXF version: 12 (R12, the default: POLYLINE with bulges) or 2000 (R2000: LWPOLYLINE and $INSUNITS)", func(s string) error {
		v, err := ParseDXFVersion(s)
		o.DXF.Version = v
		return err
	})
	fs.Func("dxf-text", "DXF text: outlines (the default: glyph outlines, for cutting) or entities (TEXT and MTEXT with a STYLE naming the font, for editing; a mirrored, unevenly scaled or sheared text stays outlines)", func(s string) error {
		t, err := ParseDXFText(s)
		o.DXF.Text = t
		return err
	})
	fs.Func("units", "what one scene unit is, for DXF $INSUNITS, PDF scale and the 3MF's, STEP's and glTF's unit: mm (default), cm, m, in or ft", func(s string) error {
		u, err := ParseUnit(s)
		o.DXF.Unit, o.PDF.Unit, o.ThreeMF.Unit, o.STEP.Unit, o.GLTF.Unit = u, u, u, u, u
		return err
	})
	fs.Func("tolerance", "DXF: largest distance in scene units between a Bézier or ellipse and the polyline written for it (default 0.01)", func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: tolerance %q must be a number > 0", ErrExportOption, s)
		}
		o.DXF.Tolerance = v
		return nil
	})
	fs.Func("page", "PDF page: fit (the page is the drawing at its scale, the default), A4, A3 or Letter", func(s string) error {
		p, err := ParsePage(s)
		o.PDF.Page = p
		return err
	})
	fs.Func("scale", "PDF scale: 1:1 (one scene unit is one -units on paper, the default), 1:N, N:1, or fit (fill a named page)", func(s string) error {
		v, err := ParseScale(s)
		o.PDF.Scale = v
		return err
	})
}
