package render

// 3MF, the 3D Manufacturing Format's core: a zip holding an XML model, read by slicers
// (PrusaSlicer, Cura, Bambu Studio) and CAD programs. Unlike STL it says what a unit is and
// keeps each solid apart, with its name and its colour, so a print of several parts arrives
// as several objects. The bytes depend only on the scene: entries in a fixed order, a fixed
// time on each, numbers as the shortest text that reads back the same float32.

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/cadrun/cadrun/scene"
)

// ThreeMFOptions are the 3MF writer's options.
type ThreeMFOptions struct {
	Unit Unit // what one scene unit is; "" is DefaultUnit (millimetres)
}

// threeMFUnits names each unit as 3MF's model unit attribute does.
var threeMFUnits = map[Unit]string{
	UnitMM: "millimeter",
	UnitCM: "centimeter",
	UnitM:  "meter",
	UnitIn: "inch",
	UnitFt: "foot",
}

// zipTime is the time on every entry of a 3MF: the zip format's first day, so that the same
// scene makes the same bytes.
var zipTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

const threeMFContentTypes = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
 <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
 <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
</Types>
`

const threeMFRels = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
 <Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
`

// ThreeMF writes the scene's solids as a 3MF: one object of type model per solid, named after
// its entity, its vertices in world coordinates (shared by its triangles, each once), its
// colour a material of the model's basematerials (one per distinct colour), and a build item
// per object. A scene without a solid is refused (ErrNoSolids).
func ThreeMF(s *scene.Scene, opt ThreeMFOptions) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteThreeMF(&b, s, opt); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteThreeMF writes the 3MF that ThreeMF makes to w. The model is compressed as it is
// written, so that neither its text nor the whole file is ever held.
func WriteThreeMF(w io.Writer, s *scene.Scene, opt ThreeMFOptions) error {
	u := opt.Unit
	if u == "" {
		u = DefaultUnit
	}
	unit, ok := threeMFUnits[u]
	if !ok {
		_, err := ParseUnit(string(u))
		if err == nil {
			err = fmt.Errorf("%w: unit %q has no 3MF name", ErrExportOption, u)
		}
		return err
	}
	items, err := solidItems(s, "3MF")
	if err != nil {
		return err
	}
	// The zip writes in small pieces; w (a worker's pipe) gets them stlChunk at a time.
	out := bufio.NewWriterSize(w, stlChunk)
	zw := zip.NewWriter(out)
	// Deflate's fastest level: the default took six times as long on a large model (2.5 s
	// against 0.4 s for 522,240 triangles, BenchmarkSolidFiles) for a file a fifth smaller.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	entry := func(name string) (io.Writer, error) {
		return zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: zipTime})
	}
	for _, f := range []struct{ name, text string }{
		{"[Content_Types].xml", threeMFContentTypes},
		{"_rels/.rels", threeMFRels},
	} {
		ew, err := entry(f.name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(ew, f.text); err != nil {
			return err
		}
	}
	ew, err := entry("3D/3dmodel.model")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(ew, 64<<10)
	writeModel(bw, s, items, unit)
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return out.Flush()
}

// writeModel writes the model's XML to bw, whose error the caller reads at Flush.
func writeModel(bw *bufio.Writer, s *scene.Scene, items []scene.SolidItem, unit string) {
	// The colours first: the basematerials come before the objects that name them.
	colors := make([]string, len(items))
	index := map[string]int{}
	var distinct []string
	for i, it := range items {
		colors[i] = threeMFColor(solidColor(s, it.Entity))
		if _, ok := index[colors[i]]; !ok {
			index[colors[i]] = len(distinct)
			distinct = append(distinct, colors[i])
		}
	}
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(bw, `<model unit="%s" xml:lang="en-US" xmlns="http://schemas.microsoft.com/3dmanufacturing/core/2015/02">`+"\n", unit)
	bw.WriteString(" <metadata name=\"Application\">cadrun</metadata>\n <resources>\n  <basematerials id=\"1\">\n")
	for _, c := range distinct {
		fmt.Fprintf(bw, "   <base name=\"%s\" displaycolor=\"%s\"/>\n", c, c)
	}
	bw.WriteString("  </basematerials>\n")
	buf := make([]byte, 0, 128)
	for i, it := range items {
		fmt.Fprintf(bw, "  <object id=\"%d\" type=\"model\" name=\"", i+2)
		xml.EscapeText(bw, []byte(it.Entity.Name))
		fmt.Fprintf(bw, "\" pid=\"1\" pindex=\"%d\">\n   <mesh>\n    <vertices>\n", index[colors[i]])
		v, mirrored := worldVertices(it)
		// Vertices at the same float32 point are one vertex of the object.
		at, pts := weldWorld(v)
		for _, p := range pts {
			buf = append(buf[:0], "     <vertex x=\""...)
			buf = appendFloat32(buf, p[0])
			buf = append(buf, "\" y=\""...)
			buf = appendFloat32(buf, p[1])
			buf = append(buf, "\" z=\""...)
			buf = appendFloat32(buf, p[2])
			buf = append(buf, "\"/>\n"...)
			bw.Write(buf)
		}
		bw.WriteString("    </vertices>\n    <triangles>\n")
		tris := it.Entity.Shape.(*scene.Solid).Mesh.Triangles
		for t := range len(tris) / 3 {
			a, b, c := triangle(tris, t, mirrored)
			a, b, c = at[a], at[b], at[c]
			if a == b || b == c || a == c {
				continue // collapsed to a point or a line by the rounding: 3MF allows no such triangle
			}
			buf = append(buf[:0], "     <triangle v1=\""...)
			buf = strconv.AppendUint(buf, uint64(a), 10)
			buf = append(buf, "\" v2=\""...)
			buf = strconv.AppendUint(buf, uint64(b), 10)
			buf = append(buf, "\" v3=\""...)
			buf = strconv.AppendUint(buf, uint64(c), 10)
			buf = append(buf, "\"/>\n"...)
			bw.Write(buf)
		}
		bw.WriteString("    </triangles>\n   </mesh>\n  </object>\n")
	}
	bw.WriteString(" </resources>\n <build>\n")
	for i := range items {
		fmt.Fprintf(bw, "  <item objectid=\"%d\"/>\n", i+2)
	}
	bw.WriteString(" </build>\n</model>\n")
}

// appendFloat32 appends x as the shortest decimal that reads back as the same float32; -0
// is written 0.
func appendFloat32(b []byte, x float32) []byte {
	if x == 0 {
		return append(b, '0')
	}
	return strconv.AppendFloat(b, float64(x), 'g', -1, 32)
}

// solidColor is the colour a solid is drawn in: its fill as the layer and the groups leave
// it, else SolidColor.
func solidColor(s *scene.Scene, e *scene.Entity) scene.Color {
	if f := s.Drawn(e).Style.Fill; f != nil {
		return *f
	}
	return scene.SolidColor
}

// threeMFColor is c as 3MF writes a colour: #RRGGBBAA, sRGB.
func threeMFColor(c scene.Color) string {
	b := func(x float64) int {
		if !(x > 0) {
			return 0
		}
		return int(math.Round(math.Min(1, x) * 255))
	}
	return fmt.Sprintf("#%02X%02X%02X%02X", b(c[0]), b(c[1]), b(c[2]), b(c[3]))
}
