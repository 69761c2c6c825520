package text

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/geom"
)

// textApprox compares layouts computed along different float paths (scaling, shifting).
var textApprox = cmpopts.EquateApprox(0, 1e-9)

// textUsedPoints compares segments by the points their kind uses: Path.Transform also moves the
// unused zero points of a line or a move.
var textUsedPoints = cmp.Transformer("textUsedPoints", func(s geom.Seg) geom.Seg {
	for j := segPointCount(s.Kind); j < len(s.P); j++ {
		s.P[j] = geom.Vec{}
	}
	return s
})

func mustLayout(t testing.TB, text string, size float64, align Align, font string) Layout {
	t.Helper()
	l, err := LayoutString(text, size, align, font)
	if err != nil {
		t.Fatalf("LayoutString(%q, %v, %q, %q): %v", text, size, align, font, err)
	}
	return l
}

func TestLayoutTextScalesLinearly(t *testing.T) {
	t.Parallel()
	for _, font := range FontNames() {
		unit := mustLayout(t, "Ø12 ±0.05\nM6×1", 1, AlignCenter, font)
		for _, size := range []float64{0.5, 2.5, 10, 1000} {
			t.Run(fmt.Sprintf("%s/%v", font, size), func(t *testing.T) {
				t.Parallel()
				got := mustLayout(t, "Ø12 ±0.05\nM6×1", size, AlignCenter, font)
				want := Layout{
					Path:    unit.Path.Transform(geom.Scaling(size, size)),
					Width:   unit.Width * size,
					Height:  unit.Height * size,
					Ascent:  unit.Ascent * size,
					Descent: unit.Descent * size,
					Lines:   2,
				}
				if diff := cmp.Diff(want, got, textApprox, textUsedPoints); diff != "" {
					t.Errorf("mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}

func TestLayoutTextMetrics(t *testing.T) {
	t.Parallel()
	// The Go fonts have ascent 1935 and descent 432 in 2048 units per em; "H" is 1479 units
	// wide; DejaVu Sans (the default) has 1901, 483 and 1540. Glyph positions are exact in
	// em units, so these are exact.
	for font, want := range map[string]Layout{
		"go-sans": {Width: 2 * 1479, Height: 1935 + 432, Ascent: 1935, Descent: 432, Lines: 1},
		"":        {Width: 2 * 1540, Height: 1901 + 483, Ascent: 1901, Descent: 483, Lines: 1},
	} {
		got, err := MeasureString("HH", 2048, font)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", font, diff)
		}
	}
}

func TestLayoutTextAlign(t *testing.T) {
	t.Parallel()
	const text, size = "Hello", 10
	left := mustLayout(t, text, size, AlignLeft, "")
	lb := left.Path.Bounds()
	// Left-aligned ink starts just right of the anchor (H has a positive side bearing) and
	// stays within the advance width.
	if !lb.NonEmpty || lb.Min.X <= 0 || lb.Min.X > 0.2*size || lb.Max.X > left.Width {
		t.Fatalf("left bounds %+v, width %v: ink should lie within [0, width]", lb, left.Width)
	}
	for _, tc := range []struct {
		align Align
		shift float64 // the line moves left by shift*width
	}{
		{"", 0},
		{AlignLeft, 0},
		{AlignCenter, 0.5},
		{AlignRight, 1},
	} {
		t.Run(string(tc.align), func(t *testing.T) {
			t.Parallel()
			l := mustLayout(t, text, size, tc.align, "")
			d := geom.Vec{X: -tc.shift * left.Width, Y: 0}
			want := geom.Box{Min: lb.Min.Add(d), Max: lb.Max.Add(d), NonEmpty: true}
			if diff := cmp.Diff(want, l.Path.Bounds(), textApprox); diff != "" {
				t.Errorf("bounds mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(left.Width, l.Width); diff != "" {
				t.Errorf("width mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLayoutTextAlignPerLine(t *testing.T) {
	t.Parallel()
	// Each line is aligned by its own width: right-aligned lines all end at x=0.
	l := mustLayout(t, "HHHH\nH", 1, AlignRight, "mono")
	polys := l.Path.Flatten(geom.DefaultTolerance)
	var maxX [2]float64
	for i := range maxX {
		maxX[i] = math.Inf(-1)
	}
	for _, p := range polys {
		line := 0
		if p.Points[0].Y < -0.6 {
			line = 1
		}
		for _, q := range p.Points {
			maxX[line] = math.Max(maxX[line], q.X)
		}
	}
	if diff := cmp.Diff(maxX[0], maxX[1], textApprox); diff != "" {
		t.Errorf("right edges of the two lines differ (-line1 +line2):\n%s", diff)
	}
	if maxX[0] >= 0 || maxX[0] < -0.2 {
		t.Errorf("right-aligned ink ends at %v, want just left of 0", maxX[0])
	}
}

func textSignedArea(pts []geom.Vec) float64 {
	var a float64
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		a += p.X*q.Y - q.X*p.Y
	}
	return a / 2
}

func TestLayoutTextContourOrientation(t *testing.T) {
	t.Parallel()
	// Outer contours wind counter-clockwise (positive area with Y up) like Rect, and holes
	// clockwise, so that a nonzero fill leaves the holes of "o" and "A" open.
	for _, font := range FontNames() {
		for _, text := range []string{"o", "A"} {
			t.Run(font+"/"+text, func(t *testing.T) {
				t.Parallel()
				l := mustLayout(t, text, 100, AlignLeft, font)
				polys := l.Path.Flatten(geom.DefaultTolerance)
				if len(polys) != 2 {
					t.Fatalf("got %d contours, want 2", len(polys))
				}
				outer, hole := textSignedArea(polys[0].Points), textSignedArea(polys[1].Points)
				if math.Abs(hole) > math.Abs(outer) {
					outer, hole = hole, outer
				}
				if outer <= 0 || hole >= 0 {
					t.Errorf("signed areas: outer %v, hole %v; want outer > 0 > hole", outer, hole)
				}
				for i, p := range polys {
					if !p.Closed {
						t.Errorf("contour %d is not closed", i)
					}
				}
			})
		}
	}
}

func TestLayoutTextErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		text  string
		size  float64
		align Align
		font  string
		want  string
		is    error
	}{
		{"diameter", "⌀10", 5, "", "go-sans", `font "go-sans" has no glyph for "⌀" (U+2300); try "Ø"`, ErrMissingGlyph},
		{"empty set", "∅10", 5, "", "mono", `font "mono" has no glyph for "∅" (U+2205); try "Ø"`, ErrMissingGlyph},
		{"check mark", "ok ✓", 5, "", "go-sans-bold", `font "go-sans-bold" has no glyph for "✓" (U+2713); try "√"`, ErrMissingGlyph},
		{"no suggestion", "☃", 5, "", "go-sans", `font "go-sans" has no glyph for "☃" (U+2603); add a font that has U+2603 to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}`, ErrMissingGlyph},
		{"hangul", "안녕", 5, "", "", `font "sans" has no glyph for "안" (U+C548); add a font that has U+C548 to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}`, ErrMissingGlyph},
		{"control", "a\x00", 5, "", "", `font "sans" has no glyph for "\x00" (U+0000)`, ErrMissingGlyph},
		{"astral", "😀", 5, "", "go-sans", `font "go-sans" has no glyph for "😀" (U+1F600); add a font that has U+1F600 to fonts/ (fonts/NAME.ttf, .otf or .ttc) and pass {font: 'NAME'}`, ErrMissingGlyph},
		{"unknown font", "a", 5, "", "Arial", `unknown font "Arial"; use one of: go-sans, go-sans-bold, go-sans-bold-italic, go-sans-italic, mono, mono-bold, sans, sans-bold, sans-bold-italic, sans-italic, or a workspace font in fonts/`, ErrUnknownFont},
		{"serif", "a", 5, "", "serif", `unknown font "serif"; use one of: go-sans, go-sans-bold, go-sans-bold-italic, go-sans-italic, mono, mono-bold, sans, sans-bold, sans-bold-italic, sans-italic, or a workspace font in fonts/`, ErrUnknownFont},
		{"bad align", "a", 5, "middle", "", `unknown text align "middle"; use one of: left, center, right`, ErrUnknownAlign},
		{"align case", "a", 5, "Left", "", `unknown text align "Left"; use one of: left, center, right`, ErrUnknownAlign},
		{"zero size", "a", 0, "", "", `invalid text size 0: must be a finite number > 0`, ErrInvalidTextSize},
		{"negative size", "a", -2.5, "", "", `invalid text size -2.5: must be a finite number > 0`, ErrInvalidTextSize},
		{"NaN size", "a", math.NaN(), "", "", `invalid text size NaN: must be a finite number > 0`, ErrInvalidTextSize},
		{"infinite size", "a", math.Inf(1), "", "", `invalid text size +Inf: must be a finite number > 0`, ErrInvalidTextSize},
		{"overflowing size", "a\nb", math.MaxFloat64, "", "", `invalid text size 1.7976931348623157e+308: the text would be too large to represent`, ErrInvalidTextSize},
		{"too long", strings.Repeat("é", MaxTextRunes+1), 5, "", "", `text too long: 10001 runes; the limit is 10000`, ErrTextTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := LayoutString(tc.text, tc.size, tc.align, tc.font)
			if err == nil {
				t.Fatalf("LayoutString succeeded, want error %q", tc.want)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("message mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tc.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tc.is)
			}
			if tc.align == "" {
				if _, merr := MeasureString(tc.text, tc.size, tc.font); merr == nil || merr.Error() != err.Error() {
					t.Errorf("MeasureString error %v, want %v", merr, err)
				}
			}
		})
	}
}

func TestLayoutTextAtLimit(t *testing.T) {
	t.Parallel()
	l, err := MeasureString(strings.Repeat("é", MaxTextRunes), 1, "")
	if err != nil {
		t.Fatalf("MaxTextRunes runes: %v", err)
	}
	if l.Width <= 0 {
		t.Errorf("width %v, want > 0", l.Width)
	}
}

func TestLayoutTextGlyphError(t *testing.T) {
	t.Parallel()
	_, err := LayoutString("⌀", 1, "", "go-sans")
	var ge *GlyphError
	if !errors.As(err, &ge) {
		t.Fatalf("error %v is not a *GlyphError", err)
	}
	want := &GlyphError{Font: "go-sans", Rune: '⌀', Suggestion: "Ø"}
	if diff := cmp.Diff(want, ge); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestLayoutTextLines(t *testing.T) {
	t.Parallel()
	const size = 10
	one := mustLayout(t, "x", size, "", "")
	for _, tc := range []struct {
		text  string
		lines int
	}{
		{"", 1},
		{"x", 1},
		{"x\ny", 2},
		{"x\n", 2},
		{"x\n\nz", 3},
		{"a\nb\nc\nd", 4},
	} {
		t.Run(strconv.Quote(tc.text), func(t *testing.T) {
			t.Parallel()
			l := mustLayout(t, tc.text, size, "", "")
			got := []float64{float64(l.Lines), l.Height, l.Ascent, l.Descent}
			want := []float64{float64(tc.lines), one.Ascent + one.Descent + float64(tc.lines-1)*LineSpacing*size, one.Ascent, one.Descent}
			if diff := cmp.Diff(want, got, textApprox); diff != "" {
				t.Errorf("[lines height ascent descent] mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// The second line is the first moved down by LineSpacing*size.
	two := mustLayout(t, "x\nx", size, "", "")
	wantPath := slices.Concat(one.Path, one.Path.Transform(geom.Translation(geom.Vec{X: 0, Y: -LineSpacing * size})))
	if diff := cmp.Diff(wantPath, two.Path, textApprox, textUsedPoints); diff != "" {
		t.Errorf("second line mismatch (-want +got):\n%s", diff)
	}
}

func TestLayoutTextWhitespace(t *testing.T) {
	t.Parallel()
	space := mustLayout(t, " ", 1, "", "go-sans").Width
	h := mustLayout(t, "H", 1, "", "go-sans").Width
	for _, tc := range []struct {
		name, a, b string
	}{
		{"CRLF is LF", "ab\r\ncd", "ab\ncd"},
		{"thin space the font lacks is a space", "a\u2009b", "a b"},
		{"tab from line start is four spaces", "\tH", "    H"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := mustLayout(t, tc.a, 3, AlignCenter, "go-sans")
			b := mustLayout(t, tc.b, 3, AlignCenter, "go-sans")
			if diff := cmp.Diff(b, a); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// A tab after some text advances to the next stop, a multiple of four spaces from the
	// line start, not by a fixed amount.
	stop := 4 * space
	hSegs := len(mustLayout(t, "H", 1, "", "go-sans").Path)
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"H\tH", stop + h},
		{"HHHHHHH\tH", (math.Floor(7*h/stop)+1)*stop + h},
		{"\t\t", 2 * stop},
		{"   ", 3 * space},
		{"H\u00a0H", 2*h + space}, // the font's own no-break space
	} {
		l := mustLayout(t, tc.text, 1, "", "go-sans")
		if diff := cmp.Diff(tc.want, l.Width, textApprox); diff != "" {
			t.Errorf("width of %q mismatch (-want +got):\n%s", tc.text, diff)
		}
		if got, want := len(l.Path), strings.Count(tc.text, "H")*hSegs; got != want {
			t.Errorf("%q: %d path segments, want %d (whitespace has no outline)", tc.text, got, want)
		}
	}
}

func TestLayoutTextKerning(t *testing.T) {
	t.Parallel()
	// The Go fonts carry no kerning (no pair of their glyphs has a kern value, checked with
	// sfnt.Font.Kern over all pairs), so "AV" is exactly "A" then "V"; DejaVu Sans has a kern
	// table, and LayoutString uses it: "AV" is narrower than "A" and "V" apart.
	for _, font := range FontNames() {
		av, _ := MeasureString("AV", 10, font)
		a, _ := MeasureString("A", 10, font)
		v, _ := MeasureString("V", 10, font)
		if strings.HasPrefix(font, "sans") {
			if av.Width >= a.Width+v.Width {
				t.Errorf("%s: AV is %v wide, A and V %v: not kerned", font, av.Width, a.Width+v.Width)
			}
			continue
		}
		if diff := cmp.Diff(a.Width+v.Width, av.Width); diff != "" {
			t.Errorf("%s: width of AV mismatch (-A+V +AV):\n%s", font, diff)
		}
	}
}

func TestMeasureTextMatchesLayout(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "Ø25 H7", "two\nlines\t!", "Ünïcödé °±×µ"} {
		for _, font := range FontNames() {
			l := mustLayout(t, text, 7, AlignRight, font)
			m, err := MeasureString(text, 7, font)
			if err != nil {
				t.Fatal(err)
			}
			l.Path = nil
			if diff := cmp.Diff(l, m); diff != "" {
				t.Errorf("%s %q: mismatch (-layout +measure):\n%s", font, text, diff)
			}
		}
	}
}

func TestLayoutTextDeterministic(t *testing.T) {
	t.Parallel()
	a := mustLayout(t, "Ø12.5 H7\nR2 ±0.1", 3.5, AlignCenter, "sans-italic")
	b := mustLayout(t, "Ø12.5 H7\nR2 ±0.1", 3.5, AlignCenter, "sans-italic")
	if fmt.Sprint(a.Path) != fmt.Sprint(b.Path) {
		t.Error("two layouts of the same text differ")
	}
}

// dumpTextPath renders a path as SVG-like commands with fixed formatting, for golden files.
func dumpTextPath(p geom.Path) string {
	var sb strings.Builder
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
	for _, s := range p {
		switch s.Kind {
		case geom.SegMove:
			fmt.Fprintf(&sb, "M %s %s\n", f(s.P[0].X), f(s.P[0].Y))
		case geom.SegLine:
			fmt.Fprintf(&sb, "L %s %s\n", f(s.P[0].X), f(s.P[0].Y))
		case geom.SegQuad:
			fmt.Fprintf(&sb, "Q %s %s %s %s\n", f(s.P[0].X), f(s.P[0].Y), f(s.P[1].X), f(s.P[1].Y))
		case geom.SegCubic:
			fmt.Fprintf(&sb, "C %s %s %s %s %s %s\n", f(s.P[0].X), f(s.P[0].Y), f(s.P[1].X), f(s.P[1].Y), f(s.P[2].X), f(s.P[2].Y))
		case geom.SegClose:
			sb.WriteString("Z\n")
		default:
			fmt.Fprintf(&sb, "? %v\n", s)
		}
	}
	return sb.String()
}

func TestLayoutTextGolden(t *testing.T) {
	t.Parallel()
	// Pins the outlines themselves, so that a change of font data, sfnt or the conversion
	// (Y flip, contour reversal, scaling) shows up as a reviewed diff.
	l := mustLayout(t, "Ø8 H7\n±0.1", 10, AlignCenter, "")
	got := fmt.Sprintf("width %.4f height %.4f ascent %.4f descent %.4f lines %d\n%s",
		l.Width, l.Height, l.Ascent, l.Descent, l.Lines, dumpTextPath(l.Path))
	golden.Check(t, filepath.Join("testdata", "text_label.golden"), []byte(got))
}

func TestLayoutTextConcurrent(t *testing.T) {
	t.Parallel()
	texts := []string{"Ø12 H7", "R2.5 ±0.05", "ÀÉÎÕÜ çñß", "Ω π ∞ → √", "M6×1\nDIN 912"}
	// A fresh face has a cold cache, so the goroutines race to parse it and to load the
	// same glyphs; every result must match the warm, shared font's.
	cold := &face{name: "go-sans", data: goregular.TTF}
	if err := cold.load(); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	results := make([][]Layout, 16)
	for g := range results {
		wg.Go(func() {
			for i := range 20 {
				text := texts[(g+i)%len(texts)]
				l, err := cold.layout(text, 2, 0.5, true)
				if err != nil {
					t.Error(err)
					return
				}
				results[g] = append(results[g], l)
			}
		})
	}
	wg.Wait()
	for g, ls := range results {
		for i, got := range ls {
			want := mustLayout(t, texts[(g+i)%len(texts)], 2, AlignCenter, "go-sans")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("goroutine %d layout %d mismatch (-want +got):\n%s", g, i, diff)
			}
		}
	}
	// And the shared fonts from parallel subtests.
	for i, text := range texts {
		for _, font := range FontNames() {
			t.Run(fmt.Sprintf("%s/%d", font, i), func(t *testing.T) {
				t.Parallel()
				a := mustLayout(t, text, 1, AlignRight, font)
				b := mustLayout(t, text, 1, AlignRight, font)
				if fmt.Sprint(a) != fmt.Sprint(b) {
					t.Error("layouts differ")
				}
			})
		}
	}
}

func BenchmarkLayoutText(b *testing.B) {
	// A typical 10-rune dimension label, cache warm.
	const label = "Ø12.5 H7 A"
	mustLayout(b, label, 3.5, AlignCenter, "")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LayoutString(label, 3.5, AlignCenter, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMeasureText(b *testing.B) {
	const label = "Ø12.5 H7 A"
	mustLayout(b, label, 3.5, AlignCenter, "")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MeasureString(label, 3.5, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzLayoutText(f *testing.F) {
	f.Add("Ø12 H7", 3.5, "center", "")
	f.Add("a\r\n\tb\x00", 1e-300, "right", "mono")
	f.Add("\xff⌀", 10.0, "", "sans-bold-italic")
	f.Fuzz(func(t *testing.T, text string, size float64, align, font string) {
		l, err := LayoutString(text, size, Align(align), font)
		m, merr := MeasureString(text, size, font)
		if err != nil {
			if align == "" && (merr == nil || merr.Error() != err.Error()) {
				t.Fatalf("LayoutString error %v, MeasureString error %v", err, merr)
			}
			return
		}
		if merr != nil {
			t.Fatalf("MeasureString: %v", merr)
		}
		if want := strings.Count(text, "\n") + 1; l.Lines != want || m.Lines != want {
			t.Errorf("lines %d and %d, want %d", l.Lines, m.Lines, want)
		}
		if l.Width != m.Width || l.Height != m.Height {
			t.Errorf("layout %vx%v, measure %vx%v", l.Width, l.Height, m.Width, m.Height)
		}
	})
}

// The default font's zero is plain, two contours (its outside and its counter), so "Ø10" and
// "80" read right on a drawing where Ø is the diameter sign; the Go fonts' zero is slashed and
// stays available by name.
func TestDefaultFontHasPlainZero(t *testing.T) {
	t.Parallel()
	contours := func(font string) int {
		n := 0
		for _, s := range mustLayout(t, "0", 10, "", font).Path {
			if s.Kind == geom.SegMove {
				n++
			}
		}
		return n
	}
	if n := contours(""); n != 2 {
		t.Errorf("the default font's zero has %d contours, want 2 (no slash or dot)", n)
	}
	if n := contours("go-sans"); n <= 2 {
		t.Errorf("go-sans zero has %d contours; the Go fonts' slashed zero has more than 2", n)
	}
}
