package overlay

// Tests of the engine itself, on rings of points: degenerate contacts, random cases and fuzzed
// ones compared with simplefeatures, and the fallback's bookkeeping. The scene's tests
// (differential, repros, goldens) drive the engine through the scene operations.

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rect is an axis-aligned rectangle, counter-clockwise when x0 < x1 and y0 < y1.
func rect(x0, y0, x1, y1 float64) []Point {
	return []Point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
}

// regular is the n-gon inscribed in the circle (c, r), first vertex at angle 0.
func regular(c Point, r float64, n int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		pts[i] = Point{c.X + r*co, c.Y + r*s}
	}
	return pts
}

func near(got, want, relTol float64) bool {
	return math.Abs(got-want) <= relTol*math.Max(1, math.Abs(want))
}

func totalArea(polys []Polygon) float64 {
	a := 0.0
	for _, p := range polys {
		a += p.Area()
	}
	return a
}

// run is the engine's pass for op, without the fallback.
func run(op Op, pa, pb []Polygon) ([]Polygon, error) {
	in := appendRings(appendRings(nil, pa, 0), pb, 1)
	return Overlay(in, func(wa, wb int32) bool { return op.keep(wa > 0, wb > 0) })
}

func TestDegenerateContacts(t *testing.T) {
	t.Parallel()
	poly := func(r []Point) Polygon { return Polygon{Outer: r} }
	tests := []struct {
		name      string
		op        Op
		a, b      []Polygon
		wantArea  float64
		wantParts int
		wantHoles int
	}{
		{"shared edge merges", OpUnion, []Polygon{poly(rect(0, 0, 1, 1))}, []Polygon{poly(rect(1, 0, 2, 1))}, 2, 1, 0},
		{"T junction", OpUnion, []Polygon{poly(rect(0, 0, 2, 2))}, []Polygon{poly(rect(2, 0.5, 3, 1.5))}, 5, 1, 0},
		{"corner touch stays two", OpUnion, []Polygon{poly(rect(0, 0, 1, 1))}, []Polygon{poly(rect(1, 1, 2, 2))}, 2, 2, 0},
		{"edge touch intersects to nothing", OpIntersect, []Polygon{poly(rect(0, 0, 1, 1))}, []Polygon{poly(rect(1, 0, 2, 1))}, 0, 0, 0},
		{"identical", OpUnion, []Polygon{poly(rect(0, 0, 1, 1))}, []Polygon{poly(rect(0, 0, 1, 1))}, 1, 1, 0},
		{"ring of squares encloses a hole", OpUnion,
			[]Polygon{poly(rect(0, 0, 3, 1)), poly(rect(0, 2, 3, 3))}, []Polygon{poly(rect(0, 0, 1, 3)), poly(rect(2, 0, 3, 3))}, 8, 1, 1},
		{"hole touching its outer at a point", OpDifference, []Polygon{poly(rect(0, 0, 4, 4))}, []Polygon{poly([]Point{{0, 2}, {2, 1}, {2, 3}})}, 14, 1, 1},
		{"inner hole touching at a vertex", OpDifference, []Polygon{poly(rect(0, 0, 4, 4))}, []Polygon{poly([]Point{{1, 1}, {2, 1}, {1, 2}}), poly([]Point{{2, 1}, {3, 1}, {3, 2}})}, 15, 1, 2},
		{"overlapping collinear edges", OpUnion, []Polygon{poly(rect(0, 0, 3, 1))}, []Polygon{poly(rect(1, 1, 2, 2))}, 4, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := run(tt.op, tt.a, tt.b)
			if err != nil {
				t.Fatalf("engine: %v", err)
			}
			holes := 0
			for _, p := range res {
				holes += len(p.Holes)
			}
			if a := totalArea(res); a != tt.wantArea || len(res) != tt.wantParts || holes != tt.wantHoles {
				t.Errorf("got area %v, %d parts, %d holes; want %v, %d, %d", a, len(res), holes, tt.wantArea, tt.wantParts, tt.wantHoles)
			}
			if len(res) > 0 {
				if err := Validate(res); err != nil {
					t.Errorf("invalid result: %v", err)
				}
			}
		})
	}
}

// TestMatchesLibrary cross-checks the engine against simplefeatures on random scenes:
// circles, rotated rectangles, and squares on a unit grid, which share edges and vertices
// exactly.
func TestMatchesLibrary(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	shape := func() Polygon {
		switch rng.IntN(3) {
		case 0:
			c := Point{rng.Float64() * 10, rng.Float64() * 10}
			return Polygon{Outer: regular(c, 0.5+rng.Float64()*3, 3+rng.IntN(40))}
		case 1:
			tx, ty := rng.Float64()*10, rng.Float64()*10
			sn, cs := math.Sincos(rng.Float64() * math.Pi)
			w, h := 0.5+rng.Float64()*4, 0.5+rng.Float64()*4
			r := []Point{{0, 0}, {w, 0}, {w, h}, {0, h}}
			for i, p := range r {
				r[i] = Point{cs*p.X - sn*p.Y + tx, sn*p.X + cs*p.Y + ty}
			}
			return Polygon{Outer: r}
		default:
			x, y := float64(rng.IntN(10)), float64(rng.IntN(10))
			w, h := float64(1+rng.IntN(3)), float64(1+rng.IntN(3))
			return Polygon{Outer: rect(x, y, x+w, y+h)}
		}
	}
	for trial := range 200 {
		var pa, pb []Polygon
		for range 1 + rng.IntN(6) {
			pa = append(pa, shape())
		}
		for range 1 + rng.IntN(6) {
			pb = append(pb, shape())
		}
		for op := OpUnion; op <= OpXor; op++ {
			res, err := run(op, pa, pb)
			if err != nil {
				t.Errorf("trial %d %s: engine: %v", trial, op, err)
				continue
			}
			lib, err := LibraryBoolean(op, pa, pb)
			if err != nil {
				t.Fatalf("trial %d %s: library: %v", trial, op, err)
			}
			if got, want := totalArea(res), totalArea(lib); !near(got, want, 1e-9) {
				t.Errorf("trial %d %s: area %v, library %v", trial, op, got, want)
			}
			if len(res) > 0 {
				if err := Validate(res); err != nil {
					t.Errorf("trial %d %s: invalid result: %v", trial, op, err)
				}
			}
		}
	}
}

// TestOffsetMatchesLibrary cross-checks offsets of random polygons against the library's
// buffer, which builds its curves the same way (8 chords per quarter circle).
func TestOffsetMatchesLibrary(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		// A star-shaped polygon with random radii: convex and concave corners.
		n := 5 + rng.IntN(30)
		pts := make([]Point, n)
		for k := range pts {
			r := 2 + rng.Float64()*8
			sn, cs := math.Sincos(2 * math.Pi * float64(k) / float64(n))
			pts[k] = Point{r * cs, r * sn}
		}
		area := []Polygon{{Outer: pts}}
		for _, delta := range []float64{-1.5, -0.3, 0.4, 2} {
			for _, join := range []Join{{Round: true, QuadSegments: 8}, {MiterLimit: 1, QuadSegments: 8}, {MiterLimit: 3, QuadSegments: 8}} {
				res, err := Offset(area, delta, join)
				if err != nil {
					t.Fatal(err)
				}
				lib, err := LibraryOffset(area, delta, join)
				if err != nil {
					t.Fatal(err)
				}
				// The library simplifies its input by 1% of the distance first, so the two
				// differ by a little more than rounding.
				if got, want := totalArea(res), totalArea(lib); !near(got, want, 1e-3) {
					t.Errorf("trial %d delta %v join %+v: area %v, library %v", trial, delta, join, got, want)
				}
				if len(res) > 0 {
					if err := Validate(res); err != nil {
						t.Errorf("trial %d delta %v: invalid result: %v", trial, delta, err)
					}
				}
			}
		}
	}
}

// FuzzOverlay feeds the engine rectangles and triangles built from the input bytes, on a
// coarse grid so that shared edges, touches and collinear overlaps are common. The engine must
// not panic, and when it answers its area must match the library's.
func FuzzOverlay(f *testing.F) {
	f.Add([]byte{0, 0, 4, 4, 2, 0, 6, 4, 1})
	f.Add([]byte{0, 0, 4, 4, 4, 0, 8, 4, 1, 2, 2, 6, 6, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var pa, pb []Polygon
		for len(data) >= 5 {
			c := func(b byte) float64 { return float64(b%16) / 2 }
			x0, y0, x1, y1 := c(data[0]), c(data[1]), c(data[2]), c(data[3])
			var r []Point
			if data[4]&2 == 0 {
				r = []Point{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
			} else {
				r = []Point{{x0, y0}, {x1, y0}, {x0, y1}}
			}
			toA := data[4]&1 == 0
			data = data[5:]
			if Area(r) == 0 {
				continue
			}
			if p := (Polygon{Outer: OrientRing(r, true)}); toA {
				pa = append(pa, p)
			} else {
				pb = append(pb, p)
			}
		}
		for op := OpUnion; op <= OpXor; op++ {
			res, err := run(op, pa, pb)
			if err != nil {
				continue // the library takes over
			}
			lib, err := LibraryBoolean(op, pa, pb)
			if err != nil {
				continue
			}
			if got, want := totalArea(res), totalArea(lib); !near(got, want, 1e-9) {
				t.Errorf("%s: area %v, library %v", op, got, want)
			}
		}
	})
}

// TestOffsetSquareLibrary: the library's buffer, the fallback, offsets a square as the
// engine does.
func TestOffsetSquareLibrary(t *testing.T) {
	t.Parallel()
	round32 := 0.5 * 32 * math.Sin(2*math.Pi/32) // a unit circle with 32 chords
	for _, tt := range []struct {
		delta float64
		join  Join
		want  float64
	}{
		{1, Join{Round: true, QuadSegments: 8}, 100 + 40 + round32},
		{1, Join{MiterLimit: 2, QuadSegments: 8}, 144},
		{-1, Join{Round: true, QuadSegments: 8}, 64},
	} {
		t.Run(fmt.Sprint(tt.delta, tt.join.Round), func(t *testing.T) {
			t.Parallel()
			area := []Polygon{{Outer: rect(0, 0, 10, 10)}}
			for name, f := range map[string]func([]Polygon, float64, Join) ([]Polygon, error){"engine": Offset, "library": LibraryOffset} {
				res, err := f(area, tt.delta, tt.join)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got := totalArea(res); !near(got, tt.want, 1e-9) {
					t.Errorf("%s: area = %v, want %v", name, got, tt.want)
				}
			}
		})
	}
}

// TestFallbackIsCountedAndLogged: a fallback to simplefeatures is counted and logged with the
// operation's name. Not parallel: it swaps the default logger.
func TestFallbackIsCountedAndLogged(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})))
	defer slog.SetDefault(old)
	before := Fallbacks()
	noteFallback("union", 3)
	if n := Fallbacks() - before; n != 1 {
		t.Errorf("Fallbacks grew by %d, want 1", n)
	}
	want := `level=WARN msg="geometry: the overlay engine failed its topology check; the operation is redone with simplefeatures" operation=union rings=3` + "\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
}

// TestScanCellsKeepsCellOrder checks that the cells scanned in chunks by several goroutines
// come back in cell order, each once, whatever the sizes of their lists: the replay of the
// events depends on it.
func TestScanCellsKeepsCellOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, ncell := range []int32{2, 3, 17, 1000} {
		end := make([]int32, ncell)
		total := int32(0)
		for c := range end {
			total += int32(c*7%5) * int32(c%3) // some cells empty, some full
			end[c] = total
		}
		scan := func(lo, hi int32) []nodeEvent {
			var ev []nodeEvent
			for c := lo; c < hi; c++ {
				ev = append(ev, nodeEvent{i: c})
			}
			return ev
		}
		var got []int32
		for _, ev := range scanCells(ncell, parallelSegments, end, scan) {
			for _, e := range ev {
				got = append(got, e.i)
			}
		}
		want := make([]int32, ncell)
		for c := range want {
			want[c] = int32(c)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d cells: mismatch (-want +got):\n%s", ncell, diff)
		}
	}
}

// TestSameResultOnAnyProcessors runs a union big enough for the parallel scan of the cells
// (many overlapping 64-gons, with crossings, copies moved by about the precision and shared
// edges) on one processor and on four: the results must be the same to the bit. (Crossing
// points within the precision of each other snap to the first one found, so an order of the
// cells other than the serial one changes the result.)
func TestSameResultOnAnyProcessors(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	var polys []Polygon
	for range 120 {
		c := Point{rng.Float64() * 60, rng.Float64() * 60}
		ring := regular(c, 2+rng.Float64()*4, 64)
		polys = append(polys, Polygon{Outer: ring})
		if rng.IntN(2) == 0 { // copies moved by about the precision, whose edges cross at shallow angles
			for range 3 {
				cp := make([]Point, len(ring))
				for i, p := range ring {
					cp[i] = Point{p.X + 3e-8*(rng.Float64()-0.5), p.Y + 3e-8*(rng.Float64()-0.5)}
				}
				polys = append(polys, Polygon{Outer: cp})
			}
		}
	}
	for x := range 10 { // squares side by side
		polys = append(polys, Polygon{Outer: rect(float64(x), -5, float64(x+1), -4)})
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	want, err := Union(polys, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(4)
	got, err := Union(polys, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestHoleOwnersGrid checks the grid lookup of holeOwners against testing every shell, on
// squares that overlap and nest, with holes in them.
func TestHoleOwnersGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	ring := func(r []Point) outRing {
		return outRing{pts: r, area: Area(r), per: ringPerimeter(r), box: ringBox(r)}
	}
	var shells, holes []outRing
	for range 300 {
		x, y, s := rng.Float64()*100, rng.Float64()*100, 1+rng.Float64()*20
		shells = append(shells, ring(rect(x, y, x+s, y+s)))
		for range rng.IntN(3) {
			hx, hy, hs := x+rng.Float64()*s*0.8, y+rng.Float64()*s*0.8, s*0.1
			holes = append(holes, ring(rect(hx+hs, hy, hx, hy+hs))) // clockwise
		}
	}
	slices.SortFunc(shells, func(a, b outRing) int { // as boundary sorts them
		switch {
		case a.area < b.area:
			return -1
		case a.area > b.area:
			return 1
		}
		return 0
	})
	grid := newShellGrid(shells)
	if grid == nil {
		t.Fatal("no grid for 300 shells")
	}
	want, wantOK := holeOwners(shells, holes, nil)
	got, gotOK := holeOwners(shells, holes, grid)
	if !wantOK || !gotOK {
		t.Fatalf("ok: %v by every shell, %v by the grid; want both true", wantOK, gotOK)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("owners mismatch (-want +got):\n%s", diff)
	}
}

// TestCrossPointNearlyParallel: two segments so nearly parallel that the float cross product
// of their directions is 0, which the exact tests find crossing (a ring whose corners lie on
// another's edge, up to rounding), cross at a finite point within both, where the division
// made a NaN that later panicked the exact orientation test.
func TestCrossPointNearlyParallel(t *testing.T) {
	p1, p2 := Point{0, 0}, Point{5, -9}
	q1, q2 := Point{3.5, -6.3}, Point{1, -1.8}
	x := CrossPoint(p1, p2, q1, q2)
	if math.IsNaN(x.X) || math.IsNaN(x.Y) || x.X < 1 || x.X > 3.5 || x.Y > -1.8 || x.Y < -6.3 {
		t.Errorf("CrossPoint = %v, want a point on both segments", x)
	}
	// The whole case: the two rings through the engine.
	out, err := Nonzero([][]Point{
		{{0, 0}, {5, 0}, {5, -9}},
		{{1, -1.8}, {3.5, -1.8}, {3.5, -6.3}},
	})
	if err != nil {
		t.Fatal(err)
	}
	area := 0.0
	for _, p := range out {
		area += p.Area()
	}
	if math.Abs(area-22.5) > 1e-9 {
		t.Errorf("the union's area is %v, want the outer triangle's 22.5", area)
	}
}
