package geom

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// pdApprox absorbs the last-bit differences of arc centres and angles.
var pdApprox = cmpopts.EquateApprox(1e-12, 1e-12)

// pdArcView compares arcs as geometry: a start angle of -π is the same start as π (which one
// atan2 returns depends on the sign of a rounding error), so arcs are compared by the
// direction they start in and by how far they turn.
var pdArcView = cmp.Transformer("arcView", func(s Seg) pdSegView {
	v := pdSegView{Kind: s.Kind, P: s.P}
	if s.Kind == SegArc {
		v.StartSin, v.StartCos = math.Sincos(s.T0)
		v.Turn = s.T1 - s.T0
	}
	return v
})

type pdSegView struct {
	Kind                     SegKind
	P                        [3]Vec
	StartCos, StartSin, Turn float64
}

func pdMove(x, y float64) Seg { return Seg{Kind: SegMove, P: [3]Vec{{x, y}}} }
func pdLine(x, y float64) Seg { return Seg{Kind: SegLine, P: [3]Vec{{x, y}}} }
func pdQuad(cx, cy, x, y float64) Seg {
	return Seg{Kind: SegQuad, P: [3]Vec{{cx, cy}, {x, y}}}
}
func pdCubic(c1x, c1y, c2x, c2y, x, y float64) Seg {
	return Seg{Kind: SegCubic, P: [3]Vec{{c1x, c1y}, {c2x, c2y}, {x, y}}}
}
func pdArc(centre, u, v Vec, t0, t1 float64) Seg {
	return Seg{Kind: SegArc, P: [3]Vec{centre, u, v}, T0: t0, T1: t1}
}

var pdClose = Seg{Kind: SegClose}

// pathDataCases are the inputs that parse; the fuzz target is seeded with them.
var pathDataCases = []struct {
	name, d string
	want    Path
}{
	{"M L absolute", "M1 2 L3 4", Path{pdMove(1, 2), pdLine(3, 4)}},
	{"m l relative", "m1 2 l3 4", Path{pdMove(1, 2), pdLine(4, 6)}},
	{"H V absolute", "M1 2 H5 V7", Path{pdMove(1, 2), pdLine(5, 2), pdLine(5, 7)}},
	{"h v relative", "M1 2 h5 v7", Path{pdMove(1, 2), pdLine(6, 2), pdLine(6, 9)}},
	{"C absolute", "M1 1 C2 2 3 3 4 1", Path{pdMove(1, 1), pdCubic(2, 2, 3, 3, 4, 1)}},
	{"c relative", "M1 1 c1 1 2 2 3 0", Path{pdMove(1, 1), pdCubic(2, 2, 3, 3, 4, 1)}},
	{"Q absolute", "M1 1 Q2 3 4 1", Path{pdMove(1, 1), pdQuad(2, 3, 4, 1)}},
	{"q relative", "M1 1 q1 2 3 0", Path{pdMove(1, 1), pdQuad(2, 3, 4, 1)}},
	{
		"S reflects C", "M0 0 C1 1 2 1 3 0 S5 -1 6 0",
		Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 3, 0), pdCubic(4, -1, 5, -1, 6, 0)},
	},
	{
		"s reflects c", "M0 0 c1 1 2 1 3 0 s2 -1 3 0",
		Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 3, 0), pdCubic(4, -1, 5, -1, 6, 0)},
	},
	{
		"S reflects S", "M0 0 C1 1 2 1 3 0 S5 -1 6 0 S8 2 9 0",
		Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 3, 0), pdCubic(4, -1, 5, -1, 6, 0), pdCubic(7, 1, 8, 2, 9, 0)},
	},
	{"S after L uses the current point", "M0 0 L1 0 S2 1 3 0", Path{pdMove(0, 0), pdLine(1, 0), pdCubic(1, 0, 2, 1, 3, 0)}},
	{
		"S after Q uses the current point", "M0 0 Q1 1 2 0 S3 1 4 0",
		Path{pdMove(0, 0), pdQuad(1, 1, 2, 0), pdCubic(2, 0, 3, 1, 4, 0)},
	},
	{
		"T reflects Q then T", "M0 0 Q1 1 2 0 T4 0 T6 0",
		Path{pdMove(0, 0), pdQuad(1, 1, 2, 0), pdQuad(3, -1, 4, 0), pdQuad(5, 1, 6, 0)},
	},
	{
		"t reflects q then t", "m0 0 q1 1 2 0 t2 0 t2 0",
		Path{pdMove(0, 0), pdQuad(1, 1, 2, 0), pdQuad(3, -1, 4, 0), pdQuad(5, 1, 6, 0)},
	},
	{"T after M uses the current point", "M1 1 T3 1", Path{pdMove(1, 1), pdQuad(1, 1, 3, 1)}},
	{
		"T after C uses the current point", "M0 0 C1 1 2 1 3 0 T5 0",
		Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 3, 0), pdQuad(3, 0, 5, 0)},
	},
	{"M repeats as L", "M1 1 2 2 3 3", Path{pdMove(1, 1), pdLine(2, 2), pdLine(3, 3)}},
	{"m repeats as l", "m1 1 2 2 3 3", Path{pdMove(1, 1), pdLine(3, 3), pdLine(6, 6)}},
	{"second m is relative", "M1 1 m1 1 l1 0", Path{pdMove(1, 1), pdMove(2, 2), pdLine(3, 2)}},
	{"L repeats", "M0 0 L1 1, 2 2", Path{pdMove(0, 0), pdLine(1, 1), pdLine(2, 2)}},
	{"h repeats", "M0 0 h1 2 3", Path{pdMove(0, 0), pdLine(1, 0), pdLine(3, 0), pdLine(6, 0)}},
	{
		"c repeats", "M0 0 c1 1 2 1 3 0 1 1 2 1 3 0",
		Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 3, 0), pdCubic(4, 1, 5, 1, 6, 0)},
	},
	{
		"Z then l starts a subpath at the start", "M1 1 L3 1 L3 3 Z l1 1",
		Path{pdMove(1, 1), pdLine(3, 1), pdLine(3, 3), pdClose, pdMove(1, 1), pdLine(2, 2)},
	},
	{"z then m is relative to the start", "M1 1 L3 3 z m1 1 l1 0", Path{pdMove(1, 1), pdLine(3, 3), pdClose, pdMove(2, 2), pdLine(3, 2)}},
	{"Z then H", "M1 1 L3 3 Z H0", Path{pdMove(1, 1), pdLine(3, 3), pdClose, pdMove(1, 1), pdLine(0, 1)}},
	{"Z then S does not reflect", "M0 0 C1 1 2 1 0 0 Z S1 1 2 0", Path{pdMove(0, 0), pdCubic(1, 1, 2, 1, 0, 0), pdClose, pdMove(0, 0), pdCubic(0, 0, 1, 1, 2, 0)}},
	{"repeated Z is a no-op", "M0 0 L1 0 L1 1 Z Z z", Path{pdMove(0, 0), pdLine(1, 0), pdLine(1, 1), pdClose}},
	{"Z at the end", "M0 0 L1 0z", Path{pdMove(0, 0), pdLine(1, 0), pdClose}},
	{"compact signs", "M1-2-3-4", Path{pdMove(1, -2), pdLine(-3, -4)}},
	{"compact decimals", "M.5.5.25-.75", Path{pdMove(0.5, 0.5), pdLine(0.25, -0.75)}},
	{"exponents", "M1e-3 2E+1 L-.5e1,3.", Path{pdMove(0.001, 20), pdLine(-5, 3)}},
	{"exponent then decimal", "M1e1.5", Path{pdMove(10, 0.5)}},
	{"plus signs and no space after commands", "M+1+2L+3,4", Path{pdMove(1, 2), pdLine(3, 4)}},
	{"all whitespace kinds", "\t\n\f\r M 1 , 2 \r\n\tL 3\f4 \n", Path{pdMove(1, 2), pdLine(3, 4)}},
	{"underflow reads as zero", "M1e-400 0", Path{pdMove(0, 0)}},
	{
		"arc flags without separators", "M0 0 a1 1 0 00 1 1",
		Path{pdMove(0, 0), pdArc(Vec{1, 0}, Vec{1, 0}, Vec{0, 1}, math.Pi, math.Pi/2)},
	},
	{
		"arc with commas", "M0 0 a1,1,0,0,0,1,1",
		Path{pdMove(0, 0), pdArc(Vec{1, 0}, Vec{1, 0}, Vec{0, 1}, math.Pi, math.Pi/2)},
	},
	{
		"arc flags run into the end point", "M0 0A1 1 0 011 1",
		Path{pdMove(0, 0), pdArc(Vec{0, 1}, Vec{1, 0}, Vec{0, 1}, -math.Pi/2, 0)},
	},
	{
		"large arc", "M0 0 A1 1 0 1 0 1 1",
		Path{pdMove(0, 0), pdArc(Vec{0, 1}, Vec{1, 0}, Vec{0, 1}, -math.Pi/2, -2*math.Pi)},
	},
	{
		"large arc with sweep", "M0 0 A1 1 0 1 1 1 1",
		Path{pdMove(0, 0), pdArc(Vec{1, 0}, Vec{1, 0}, Vec{0, 1}, math.Pi, 5*math.Pi/2)},
	},
	{
		"relative arc", "M10 10 a1 1 0 0 1 1 1",
		Path{pdMove(10, 10), pdArc(Vec{10, 11}, Vec{1, 0}, Vec{0, 1}, -math.Pi/2, 0)},
	},
	{
		"arc repeats", "M0 0 a1 1 0 0 1 1 1 1 1 0 0 1 1 1",
		Path{pdMove(0, 0), pdArc(Vec{0, 1}, Vec{1, 0}, Vec{0, 1}, -math.Pi/2, 0), pdArc(Vec{1, 2}, Vec{1, 0}, Vec{0, 1}, -math.Pi/2, 0)},
	},
	{
		// U = rx·(cos 90°, sin 90°), V = ry·(-sin 90°, cos 90°); sweep 1 runs counter-clockwise
		// (Y up) from the bottom of the ellipse through its right-hand side to the top.
		"rotated arc", "M0 0 A2 1 90 0 1 0 4",
		Path{pdMove(0, 0), pdArc(Vec{0, 2}, Vec{0, 2}, Vec{-1, 0}, math.Pi, 2*math.Pi)},
	},
	{
		"too-small radii are scaled", "M0 0 A1 1 0 0 1 10 0",
		Path{pdMove(0, 0), pdArc(Vec{5, 0}, Vec{5, 0}, Vec{0, 5}, math.Pi, 2*math.Pi)},
	},
	{
		"too-small elliptic radii keep their ratio", "M0 0 A1 2 0 0 0 4 0",
		Path{pdMove(0, 0), pdArc(Vec{2, 0}, Vec{2, 0}, Vec{0, 4}, math.Pi, 0)},
	},
	{
		"negative radii are made absolute", "M-1 0 A-1 -1 0 0 0 1 0",
		Path{pdMove(-1, 0), pdArc(Vec{0, 0}, Vec{1, 0}, Vec{0, 1}, math.Pi, 0)},
	},
	{"zero radius gives a line", "M0 0 A0 5 0 0 1 3 4 a5 0 0 0 1 1 1", Path{pdMove(0, 0), pdLine(3, 4), pdLine(4, 5)}},
	{"coincident endpoints omit the arc", "M1 1 A5 5 0 1 1 1 1 L2 2", Path{pdMove(1, 1), pdLine(2, 2)}},
}

func TestParsePathData(t *testing.T) {
	t.Parallel()
	for _, tt := range pathDataCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParsePathData(tt.d)
			if err != nil {
				t.Fatalf("ParsePathData(%q): %v", tt.d, err)
			}
			if diff := cmp.Diff(tt.want, got, pdApprox, pdArcView); diff != "" {
				t.Errorf("ParsePathData(%q) mismatch (-want +got):\n%s", tt.d, diff)
			}
		})
	}
}

// pathDataErrors are the inputs that fail; the fuzz target is seeded with them too.
var pathDataErrors = []struct {
	name, d, want string
}{
	{"empty", "", `path data at offset 0: expected "M" or "m" to start the path, found end of data`},
	{"whitespace only", " \t\n", `path data at offset 3: expected "M" or "m" to start the path, found end of data`},
	{"no initial M", "L1 2", `path data at offset 0: expected "M" or "m" to start the path, found "L"`},
	{"letter for a number", "M0 0 L x", `path data at offset 7: expected a number after "L", found "x"`},
	{"sign without digits", "M0 0 L-x 1", `path data at offset 6: expected a number after "L", found "-x"`},
	{"NaN", "M NaN 0", `path data at offset 2: expected a number after "M", found "NaN"`},
	{"missing coordinate", "M0 0 L1", `path data at offset 7: expected a number after "L", found end of data`},
	{"trailing comma", "M0 0 L1 2,", `path data at offset 10: expected a number after "L", found end of data`},
	{"comma before a command", "M0 0 L1 2,L3 4", `path data at offset 10: expected a number after "L", found "L3"`},
	{"comma after the command letter", "M,0 0", `path data at offset 1: expected a number after "M", found ","`},
	{"two commas", "M0 0 L1,,2", `path data at offset 8: expected a number after "L", found ","`},
	{"unknown command", "M0 0 X1 1", `path data at offset 5: unknown command 'X'; use one of M L H V C S Q T A Z`},
	{"unknown lower-case command", "M0 0 L1 1 e", `path data at offset 10: unknown command 'e'; use one of M L H V C S Q T A Z`},
	{"symbol for a command", "M0 0 # 1", `path data at offset 5: expected a command letter (one of M L H V C S Q T A Z), found "#"`},
	{"non-ASCII", "M0 0 é", `path data at offset 5: expected a command letter (one of M L H V C S Q T A Z), found "é"`},
	{"invalid UTF-8", "M0 0 L\xff", `path data at offset 6: expected a number after "L", found "\xff"`},
	{"numbers after Z", "M0 0 Z 1 2", `path data at offset 7: expected a command letter after "Z" (it takes no numbers), found "1"`},
	{"exponent without digits", "M1e 0", `path data at offset 1: malformed number "1e" after "M": expected digits after the exponent, found " "`},
	{"exponent sign without digits", "M0 0 L1 1E+", `path data at offset 8: malformed number "1E+" after "L": expected digits after the exponent, found end of data`},
	{"overflowing number", "M1e999 0", `path data at offset 1: number "1e999" after "M" is out of range; use a finite number`},
	{"overflowing relative step", "M1e308 0 l1e308 0", `path data at offset 10: coordinates of "l" leave the float64 range; use smaller numbers`},
	{"overflowing reflection", "M1e308 0 C0 0 -1e308 0 1e308 0 S0 0 0 0", `path data at offset 32: coordinates of "S" leave the float64 range; use smaller numbers`},
	{"bad large-arc flag", "M0 0 A1 1 0 2 0 1 1", `path data at offset 12: expected a large-arc flag (0 or 1) after "A", found "2"`},
	{"bad sweep flag", "M0 0 a1 1 0 0 5 1 1", `path data at offset 14: expected a sweep flag (0 or 1) after "a", found "5"`},
	{"missing arc flags", "M0 0 a1 1 0", `path data at offset 11: expected a large-arc flag (0 or 1) after "a", found end of data`},
}

func TestParsePathDataErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range pathDataErrors {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkPathDataError(t, tt.d, tt.want)
		})
	}
}

func checkPathDataError(t *testing.T, d, want string) {
	t.Helper()
	got, err := ParsePathData(d)
	if err == nil {
		t.Fatalf("ParsePathData(%.40q) = %v, want error %q", d, got, want)
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("ParsePathData(%.40q) error mismatch (-want +got):\n%s", d, diff)
	}
	if !errors.Is(err, ErrPathData) {
		t.Errorf("ParsePathData(%.40q) error %v does not wrap ErrPathData", d, err)
	}
	var pe *PathDataError
	if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(d) {
		t.Errorf("ParsePathData(%.40q) error %#v: want a *PathDataError with an offset in [0, %d]", d, err, len(d))
	}
}

func TestParsePathDataLimits(t *testing.T) {
	t.Parallel()
	t.Run("bytes", func(t *testing.T) {
		t.Parallel()
		atLimit := "M0 0" + strings.Repeat(" ", MaxPathDataBytes-4)
		if _, err := ParsePathData(atLimit); err != nil {
			t.Errorf("ParsePathData of exactly MaxPathDataBytes: %v", err)
		}
		checkPathDataError(t, atLimit+" ",
			"path data at offset 1048576: path data is 1048577 bytes, longer than MaxPathDataBytes (1048576 bytes, 1 MiB); split it into several paths")
	})
	t.Run("segments", func(t *testing.T) {
		t.Parallel()
		// One move and MaxPathSegments-1 implicit lines fit; one more line does not.
		atLimit := "M0 0" + strings.Repeat(" 1 1", MaxPathSegments-1)
		p, err := ParsePathData(atLimit)
		if err != nil {
			t.Fatalf("ParsePathData of MaxPathSegments segments: %v", err)
		}
		if len(p) != MaxPathSegments {
			t.Errorf("got %d segments, want %d", len(p), MaxPathSegments)
		}
		checkPathDataError(t, atLimit+" 2 2",
			"path data at offset 400001: path has more than MaxPathSegments (100000) segments; split it into several paths")
	})
}

// TestParsePathDataSemicircleBounds pins the sweep flag's meaning: with Y up, sweep-flag 0
// runs clockwise, so the half circle from (-1, 0) to (1, 0) bulges upwards.
func TestParsePathDataSemicircleBounds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		d    string
		want Box
	}{
		{"M -1 0 A 1 1 0 0 0 1 0", Box{Min: Vec{-1, 0}, Max: Vec{1, 1}, NonEmpty: true}},
		{"M -1 0 A 1 1 0 0 1 1 0", Box{Min: Vec{-1, -1}, Max: Vec{1, 0}, NonEmpty: true}},
		{"M -1 0 A 1 1 0 1 0 1 0", Box{Min: Vec{-1, 0}, Max: Vec{1, 1}, NonEmpty: true}},
		{"M 0 -1 A 1 1 0 0 0 0 1", Box{Min: Vec{-1, -1}, Max: Vec{0, 1}, NonEmpty: true}},
		// Radii too small: scaled to the same half circle.
		{"M -1 0 A 0.1 0.1 0 0 0 1 0", Box{Min: Vec{-1, 0}, Max: Vec{1, 1}, NonEmpty: true}},
	} {
		p, err := ParsePathData(tt.d)
		if err != nil {
			t.Fatalf("ParsePathData(%q): %v", tt.d, err)
		}
		if diff := cmp.Diff(tt.want, p.Bounds(), pdApprox); diff != "" {
			t.Errorf("ParsePathData(%q).Bounds() mismatch (-want +got):\n%s", tt.d, diff)
		}
	}
}

// TestParsePathDataArcEndpoints checks the endpoint-to-centre conversion against its own
// definition on random arcs: the arc starts at the current point, ends at the requested point,
// turns the way the sweep flag says and is long or short as the large-arc flag says.
func TestParsePathDataArcEndpoints(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	scales := []float64{1e-6, 1, 1e3, 1e9}
	for i := range 20000 {
		scale := scales[i%len(scales)]
		from := Vec{rng.NormFloat64() * scale, rng.NormFloat64() * scale}
		to := Vec{rng.NormFloat64() * scale, rng.NormFloat64() * scale}
		if i%7 == 0 {
			// Far from the origin, where the centre is computed from big, nearly equal numbers.
			shift := Vec{1e3 * scale, -2e3 * scale}
			from, to = from.Add(shift), to.Add(shift)
		}
		rx := (rng.Float64()*2 - 0.5) * scale // sometimes negative
		ry := rng.ExpFloat64() * scale
		phi := rng.Float64()*720 - 360
		large, sweep := rng.IntN(2) == 1, rng.IntN(2) == 1
		s, ok := arcFromEndpoints(from, to, rx, ry, phi, large, sweep)
		if !ok || s.Kind != SegArc {
			t.Fatalf("arcFromEndpoints(%v, %v, %v, %v, %v, %v, %v) = %+v, %v; want an arc", from, to, rx, ry, phi, large, sweep, s, ok)
		}
		tol := 1e-9 * math.Max(math.Max(from.Len(), to.Len()), math.Max(s.P[1].Len(), s.P[2].Len()))
		if d := s.ArcPoint(s.T0).Sub(from).Len(); d > tol {
			t.Errorf("arc %+v starts %g from %v (tolerance %g)", s, d, from, tol)
		}
		if d := s.End().Sub(to).Len(); d > tol {
			t.Errorf("arc %+v ends %g from %v (tolerance %g)", s, d, to, tol)
		}
		dt := s.T1 - s.T0
		if sweep != (dt > 0) {
			t.Errorf("arc %+v with sweep %v turns by %v", s, sweep, dt)
		}
		const eps = 1e-9
		if large && math.Abs(dt) < math.Pi-eps || !large && math.Abs(dt) > math.Pi+eps {
			t.Errorf("arc %+v with large-arc %v turns by %v", s, large, dt)
		}
		if r := math.Abs(rx); r > 0 && s.P[1].Len() < r*(1-eps) {
			t.Errorf("arc %+v: radius %v shrank", s, rx)
		}
	}
}

func FuzzParsePathData(f *testing.F) {
	for _, tt := range pathDataCases {
		f.Add(tt.d)
	}
	for _, tt := range pathDataErrors {
		f.Add(tt.d)
	}
	f.Add("M0 0 A1e300 1e300 0 1 1 1e-300 0")
	f.Add("M0 0 A1e-320 1 30 0 1 1e10 1")
	f.Fuzz(func(t *testing.T, d string) {
		p, err := ParsePathData(d)
		if err != nil {
			var pe *PathDataError
			if !errors.As(err, &pe) || !errors.Is(err, ErrPathData) || pe.Offset < 0 || pe.Offset > len(d) {
				t.Fatalf("ParsePathData(%q): error %#v is not a *PathDataError wrapping ErrPathData with an offset in the data", d, err)
			}
			return
		}
		if len(p) == 0 || p[0].Kind != SegMove || len(p) > MaxPathSegments {
			t.Fatalf("ParsePathData(%q) = %v: want 1 to MaxPathSegments segments starting with a move", d, p)
		}
		b := p.Bounds()
		for _, v := range []float64{b.Min.X, b.Min.Y, b.Max.X, b.Max.Y} {
			if math.IsNaN(v) {
				t.Fatalf("ParsePathData(%q).Bounds() = %+v has NaN", d, b)
			}
		}
		again, err := ParsePathData(d)
		if err != nil || !reflect.DeepEqual(p, again) {
			t.Fatalf("ParsePathData(%q) is not deterministic: %v then %v, %v", d, p, again, err)
		}
	})
}

func BenchmarkParsePathData(b *testing.B) {
	// A glyph-like outline using every command, repeated to about 64 KiB.
	const unit = "M10.5 20.25 L30 40 h5.5 v-3.25 C1 2 3 4 5 6 s7 8 9 10 Q11 12 13 14 t15 16 " +
		"a5 3 30 0 1 10 -4 A2 2 0 1 0 -1.5e1 .5 l-1-2-3-4 z m1,1 2,2 3,3 Z "
	d := strings.Repeat(unit, 64<<10/len(unit))
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePathData(d); err != nil {
			b.Fatal(err)
		}
	}
}

// TestParsePathDataPrefix: with an error, the segments before it come back, as SVG draws them.
func TestParsePathDataPrefix(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    string
		segs int
	}{
		{"M 0 0 L 10 0 L 10 10 X 5", 3},
		{"M 0 0 L 10 0 L 10", 2},
		{"M 0 0 L 10 0 10 10,", 3},
		{"L 10 0", 0},
		{"", 0},
	} {
		p, err := ParsePathDataPrefix(c.d)
		if err == nil || len(p) != c.segs {
			t.Errorf("%q: %d segments (%v), want %d and an error", c.d, len(p), err, c.segs)
		}
	}
}
