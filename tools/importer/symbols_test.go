package importer

// Ø, ° and ± come in whichever way a file writes them: as the %% codes every CAD program
// writes (and cadrun's writer now does), or as \U+XXXX, in TEXT and in MTEXT alike.

import (
	"context"
	"slices"
	"testing"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// texts are the texts of a scene's text shapes, in order.
func texts(s *scene.Scene) []string {
	var out []string
	for _, e := range s.Walk() {
		if t, ok := e.Shape.(*scene.Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// TestSymbolsBothForms: %%c, %%d, %%p and \U+00D8, \U+00B0, \U+00B1 read as Ø, ° and ± in a
// TEXT and in an MTEXT; %%% is a percent sign, and \U+005C a backslash that starts nothing.
func TestSymbolsBothForms(t *testing.T) {
	t.Parallel()
	line := `%%c8 \U+00D88 30%%d \U+00B0 %%p0.1 \U+00B1 5%%%%%c \U+005CU+0041`
	data := "0\nSECTION\n2\nENTITIES\n" +
		"0\nTEXT\n8\n0\n10\n0\n20\n0\n40\n2\n1\n" + line + "\n" +
		"0\nMTEXT\n8\n0\n10\n0\n20\n10\n40\n2\n1\n" + `\\U+0041 ` + line + "\n" +
		"0\nENDSEC\n0\nEOF\n"
	s, _, code := importRun(t, []byte(data))
	want := []string{`Ø8 Ø8 30° ° ±0.1 ± 5%Ø \U+0041`, `\U+0041 Ø8 Ø8 30° ° ±0.1 ± 5%Ø \U+0041`}
	if diff := cmp.Diff(want, texts(s)); diff != "" {
		t.Errorf("texts mismatch (-want +got):\n%s\n%s", diff, code)
	}
}

// TestSymbolsRoundTrip: texts with Ø, ° and ± written by cadrun's DXF writer as TEXT and
// MTEXT entities (R12 and R2000) import as the same texts.
func TestSymbolsRoundTrip(t *testing.T) {
	t.Parallel()
	s := scene.New()
	want := []string{"Ø8 ±0.1 30° 5%Ø", "Ø30 H7\n2× 45° ±0.05"}
	for i, text := range want {
		if _, err := s.Put("t"+string(rune('a'+i)), &scene.Text{Text: text, Pos: geom.Vec{Y: float64(10 * i)}, Size: 3}); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []render.DXFVersion{render.DXF12, render.DXF2000} {
		b, err := render.DXF(s, render.DXFOptions{Version: v, Text: render.DXFTextEntities})
		if err != nil {
			t.Fatal(err)
		}
		code, _, err := DXF(b, Options{Source: "test.dxf"})
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Fatalf("running the imported module: %v\n%s", err, code)
		}
		got := texts(res.Scene)
		if v == render.DXF12 {
			// R12 writes a text's lines as a TEXT each.
			got = []string{got[0], got[1] + "\n" + got[2]}
		}
		slices.Sort(got)
		if diff := cmp.Diff(slices.Sorted(slices.Values(want)), got); diff != "" {
			t.Errorf("R%d: texts mismatch (-want +got):\n%s\n%s", v, diff, code)
		}
	}
}
