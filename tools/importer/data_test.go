package importer

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/internal/racebuild"
	"github.com/cadrun/cadrun/runtime"
)

// largeDXF writes an R2000 DXF of about size bytes as a CAD program writes one: handles,
// subclass markers, layers, and numbers to the full precision of a float64. Most of it is
// LWPOLYLINEs of 4 to 400 vertices (contours, outlines, exploded text), with LINEs, ARCs,
// CIRCLEs and TEXTs between them.
func largeDXF(size int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("0\nSECTION\n2\nHEADER\n9\n$ACADVER\n1\nAC1015\n9\n$INSUNITS\n70\n4\n0\nENDSEC\n")
	b.WriteString("0\nSECTION\n2\nTABLES\n0\nTABLE\n2\nLAYER\n70\n4\n")
	layers := []string{"0", "CONTOUR", "OUTLINE", "TEXT"}
	for i, l := range layers {
		fmt.Fprintf(&b, "0\nLAYER\n5\n%X\n100\nAcDbSymbolTableRecord\n100\nAcDbLayerTableRecord\n2\n%s\n70\n0\n62\n%d\n6\nCONTINUOUS\n", 0x10+i, l, i+1)
	}
	b.WriteString("0\nENDTAB\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n")
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	handle := 0x100
	head := func(kind, layer, sub string) {
		handle++
		fmt.Fprintf(&b, "0\n%s\n5\n%X\n330\n1F\n100\nAcDbEntity\n8\n%s\n100\n%s\n", kind, handle, layer, sub)
	}
	for b.Len() < size {
		x, y := r.Float64()*1000, r.Float64()*700
		switch k := r.IntN(20); {
		case k < 12:
			n := 4 + r.IntN(397)
			head("LWPOLYLINE", layers[1+r.IntN(2)], "AcDbPolyline")
			fmt.Fprintf(&b, "90\n%d\n70\n%d\n43\n0.0\n", n, r.IntN(2))
			for range n {
				x += r.Float64()*2 - 1
				y += r.Float64()*2 - 1
				fmt.Fprintf(&b, "10\n%s\n20\n%s\n", f(x), f(y))
			}
		case k < 16:
			head("LINE", "OUTLINE", "AcDbLine")
			fmt.Fprintf(&b, "10\n%s\n20\n%s\n30\n0.0\n11\n%s\n21\n%s\n31\n0.0\n", f(x), f(y), f(x+r.Float64()*50), f(y+r.Float64()*50))
		case k < 18:
			head("ARC", "OUTLINE", "AcDbCircle")
			fmt.Fprintf(&b, "10\n%s\n20\n%s\n30\n0.0\n40\n%s\n100\nAcDbArc\n50\n%s\n51\n%s\n", f(x), f(y), f(1+r.Float64()*20), f(r.Float64()*360), f(r.Float64()*360))
		case k < 19:
			head("CIRCLE", "0", "AcDbCircle")
			fmt.Fprintf(&b, "10\n%s\n20\n%s\n30\n0.0\n40\n%s\n", f(x), f(y), f(1+r.Float64()*20))
		default:
			head("TEXT", "TEXT", "AcDbText")
			fmt.Fprintf(&b, "10\n%s\n20\n%s\n30\n0.0\n40\n2.5\n1\nPT %d\n100\nAcDbText\n", f(x), f(y), handle)
		}
	}
	b.WriteString("0\nENDSEC\n0\nEOF\n")
	return []byte(b.String())
}

// TestLargeDrawingAsData: a 1 MB DXF as a CAD program writes one, most of it the vertices of
// polylines, made a module of 945 KB, over MaxSourceBytes however folded, and was refused. Its
// longest point lists now go to data files the module reads, and module and data draw the
// same scene, to the byte of its JSON, as the module with every list in its call.
func TestLargeDrawingAsData(t *testing.T) {
	if racebuild.On {
		t.Skip("a 1 MB drawing's conversion under the race detector passes MaxImportTime; make test runs this without it")
	}
	t.Parallel()
	for _, size := range []int{1 << 20, 2 << 20} {
		data := largeDXF(size, 1)
		code, rep, err := DXF(data, Options{Source: "big.dxf"})
		if err != nil {
			t.Fatalf("%d bytes of DXF: %v", len(data), err)
		}
		if len(code) > runtime.DefaultLimits.MaxSourceBytes {
			t.Errorf("the module is %d bytes, over MaxSourceBytes", len(code))
		}
		if len(rep.DataFiles) == 0 || len(rep.DataFiles) != len(rep.Data) {
			t.Fatalf("data files %v, %d held", rep.DataFiles, len(rep.Data))
		}
		var lists []json.RawMessage
		src := importedSource(code)
		for _, name := range rep.DataFiles {
			d := rep.Data[name]
			if len(d) > MaxDataFileBytes {
				t.Errorf("%s is %d bytes, over MaxDataFileBytes", name, len(d))
			}
			var part []json.RawMessage
			if err := json.Unmarshal([]byte(d), &part); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			lists = append(lists, part...)
			src[name] = d
		}
		if !strings.Contains(code, "const data = [...readJSON('big/1')") {
			t.Errorf("the module does not read its data:\n%.600s", code)
		}
		// The module with each data[k] written back in its call, as before, under a limit that
		// lets it run.
		inline := regexp.MustCompile(`\bdata\[([0-9]+)\]`).ReplaceAllStringFunc(code, func(ref string) string {
			k, _ := strconv.Atoi(ref[5 : len(ref)-1])
			return string(lists[k])
		})
		inline = regexp.MustCompile(`(?m)^  const data = .*$`).ReplaceAllString(inline, "")
		lim := runtime.DefaultLimits
		lim.MaxSourceBytes = 4 << 20
		scene := func(src runtime.MapSource) string {
			t.Helper()
			res, err := runtime.Run(context.Background(), src, runtime.MainModule, runtime.Options{Limits: lim})
			if err != nil {
				t.Fatal(err)
			}
			b, err := res.Scene.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		}
		if scene(src) != scene(importedSource(inline)) {
			t.Errorf("%d bytes of DXF: the module with data draws another scene than with its lists in its calls", len(data))
		}
	}
}
