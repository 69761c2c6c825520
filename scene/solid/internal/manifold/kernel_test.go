package manifold

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func newKernel(t testing.TB, opts Options) *Kernel {
	t.Helper()
	requireKernel(t)
	k, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close(context.Background()) })
	return k
}

func must(t testing.TB) func(*Solid, error) *Solid {
	return func(s *Solid, err error) *Solid {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
}

// ngonArea is the area of the regular n-gon inscribed in a circle of radius r: what manifold
// makes of a circle of n segments.
func ngonArea(n int, r float64) float64 {
	return float64(n) / 2 * r * r * math.Sin(2*math.Pi/float64(n))
}

// TestClosedForms checks the kernel against formulas it did not compute: a box minus an
// n-gon prism, a prism's area times height, and a revolve by Pappus' theorem for its n (a
// rectangle turned in n straight steps sweeps n-gon rings, so 2π becomes n sin(2π/n)).
func TestClosedForms(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	ok := must(t)
	cases := []struct {
		name string
		make func() *Solid
		want float64
	}{}
	for _, n := range []int{3, 6, 64, 256} {
		a, r := 10.0, 3.0
		cases = append(cases, struct {
			name string
			make func() *Solid
			want float64
		}{
			name: "cube minus cylinder " + strconv.Itoa(n),
			make: func() *Solid {
				return ok(k.Boolean(ctx, Difference, ok(k.Cube(ctx, a, a, a, true)), ok(k.Cylinder(ctx, 2*a, r, r, n, true))))
			},
			want: a*a*a - ngonArea(n, r)*a,
		})
	}
	cases = append(cases, []struct {
		name string
		make func() *Solid
		want float64
	}{
		{
			name: "extruded plate with a hole",
			make: func() *Solid {
				return ok(k.Extrude(ctx, Polygons{{0, 0, 40, 0, 40, 25, 0, 25}, {10, 5, 10, 20, 30, 20, 30, 5}}, 6, 0, 0, [2]float64{1, 1}))
			},
			want: (40*25 - 20*15) * 6,
		},
		{
			name: "extruded 200-gon",
			make: func() *Solid {
				var ring []float64
				for k := range 200 {
					a := 2 * math.Pi * float64(k) / 200
					ring = append(ring, 7*math.Cos(a), 7*math.Sin(a))
				}
				return ok(k.Extrude(ctx, Polygons{ring}, 2.5, 0, 0, [2]float64{1, 1}))
			},
			want: ngonArea(200, 7) * 2.5,
		},
		{
			name: "revolved rectangle, 48 steps",
			make: func() *Solid { return ok(k.Revolve(ctx, Polygons{{5, 0, 8, 0, 8, 4, 5, 4}}, 48, 360)) },
			want: 48 * math.Sin(2*math.Pi/48) * (3 * 4) * 6.5,
		},
		{
			name: "revolved rectangle, 360 steps",
			make: func() *Solid { return ok(k.Revolve(ctx, Polygons{{1, -1, 2, -1, 2, 1, 1, 1}}, 360, 360)) },
			want: 360 * math.Sin(2*math.Pi/360) * 2 * 1.5,
		},
	}...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := c.make()
			defer s.Free(ctx)
			got, err := s.Volume(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rel := math.Abs(got-c.want) / c.want; rel > 1e-9 {
				t.Errorf("volume %.12g, want %.12g (relative error %.2g)", got, c.want, rel)
			}
		})
	}
}

// measured is what the Node driver prints per case.
type measured struct {
	Volume    float64 `json:"volume"`
	Area      float64 `json:"area"`
	Triangles int     `json:"triangles"`
}

// TestSameAsNode makes testdata/node.mjs's solids through the Go host and checks that
// manifold-3d's own glue, in Node, gives the same volumes, areas and triangle counts.
func TestSameAsNode(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat("npm/node_modules/manifold-3d/manifold.js"); err != nil || statErr != nil {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("node or the manifold-3d package (make kernel) is missing (CADRUN_REQUIRE_TOOLS=1)")
		}
		t.Skip("node or the manifold-3d package (make kernel) is missing")
	}
	out, err := exec.Command(node, "testdata/node.mjs").Output()
	if err != nil {
		t.Fatalf("node testdata/node.mjs: %v", err)
	}
	var want map[string]measured
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	ok := must(t)
	plate := Polygons{{0, 0, 40, 0, 40, 25, 0, 25}, {10, 5, 10, 20, 30, 20, 30, 5}}
	ring := Polygons{{5, 0, 8, 0, 8, 4, 5, 4}}
	lshape := Polygons{{0, 0, 20, 0, 20, 5, 5, 5, 5, 15, 0, 15}}
	cases := map[string]func() *Solid{
		"cube minus cylinder 64": func() *Solid {
			return ok(k.Boolean(ctx, Difference, ok(k.Cube(ctx, 10, 10, 10, true)), ok(k.Cylinder(ctx, 20, 3, 3, 64, true))))
		},
		"extruded plate with a hole": func() *Solid { return ok(k.Extrude(ctx, plate, 6, 0, 0, [2]float64{1, 1})) },
		"twisted, tapered extrusion": func() *Solid {
			return ok(k.Extrude(ctx, lshape, 10, 4, 30, [2]float64{0.5, 0.5}))
		},
		"revolved ring 48":    func() *Solid { return ok(k.Revolve(ctx, ring, 48, 360)) },
		"revolved quarter 32": func() *Solid { return ok(k.Revolve(ctx, ring, 32, 90)) },
		"union of spheres": func() *Solid {
			return ok(k.Boolean(ctx, Union, ok(k.Sphere(ctx, 5, 32)), ok(ok(k.Sphere(ctx, 4, 32)).Translate(ctx, 6, 0, 0)), ok(ok(k.Sphere(ctx, 3, 24)).Translate(ctx, 0, 6, 1))))
		},
		"intersection": func() *Solid {
			return ok(k.Boolean(ctx, Intersection, ok(k.Cube(ctx, 10, 10, 10, true)), ok(k.Sphere(ctx, 6.5, 48))))
		},
		"difference of three": func() *Solid {
			return ok(k.Boolean(ctx, Difference, ok(k.Cube(ctx, 20, 20, 5, false)),
				ok(ok(k.Cylinder(ctx, 10, 2, 2, 32, false)).Translate(ctx, 5, 5, -1)),
				ok(ok(k.Cylinder(ctx, 10, 3, 1, 16, false)).Translate(ctx, 14, 12, -1))))
		},
		"hull of two spheres": func() *Solid {
			return ok(k.Hull(ctx, ok(k.Sphere(ctx, 2, 16)), ok(ok(k.Sphere(ctx, 1, 16)).Translate(ctx, 8, 0, 0))))
		},
		"moved, turned, scaled, mirrored": func() *Solid {
			s := ok(k.Cylinder(ctx, 6, 2, 1, 24, false))
			return ok(ok(ok(ok(s.Translate(ctx, 1, 2, 3)).Rotate(ctx, 30, 45, 60)).Scale(ctx, 1, 2, 0.5)).Mirror(ctx, 1, 1, 0))
		},
		"mesh round trip": func() *Solid {
			m, err := ok(k.Boolean(ctx, Difference, ok(k.Cube(ctx, 10, 10, 10, true)), ok(k.Sphere(ctx, 6, 40)))).Mesh(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return ok(k.FromMesh(ctx, m))
		},
	}
	got := map[string]measured{}
	for name, make := range cases {
		s := make()
		v, err1 := s.Volume(ctx)
		a, err2 := s.SurfaceArea(ctx)
		n, err3 := s.Triangles(ctx)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = measured{v, a, n}
	}
	// The same wasm does the same arithmetic, so the figures agree to the last digit; the
	// tolerance only allows for the last bit of a sum.
	near := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) })
	if diff := cmp.Diff(want, got, near); diff != "" {
		t.Errorf("Go host and manifold-3d in Node differ (-node +go):\n%s", diff)
	}
}

// TestFreeKeepsMemoryFlat makes and frees many solids: once the allocator has warmed up, the
// wasm's memory does not grow, so Free releases what each call made.
func TestFreeKeepsMemoryFlat(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{NoInterrupt: true}) // the faster engine: this is about frees
	ok := must(t)
	round := func() {
		c := ok(k.Cube(ctx, 10, 10, 10, true))
		h := ok(k.Cylinder(ctx, 20, 3, 3, 64, true))
		d := ok(k.Boolean(ctx, Difference, c, h))
		e := ok(k.Extrude(ctx, Polygons{{0, 0, 4, 0, 4, 4, 0, 4}}, 2, 0, 0, [2]float64{1, 1}))
		m, err := d.Mesh(ctx)
		if err != nil {
			t.Fatal(err)
		}
		back := ok(k.FromMesh(ctx, m))
		if _, err := back.Bounds(ctx); err != nil {
			t.Fatal(err)
		}
		for _, s := range []*Solid{c, h, d, e, back} {
			s.Free(ctx)
		}
	}
	for range 30 {
		round()
	}
	before, handles := k.MemorySize(), len(k.in.vals.slots)
	for range 500 {
		round()
	}
	if after := k.MemorySize(); after != before {
		t.Errorf("500 rounds of make and free grew the wasm's memory from %d to %d bytes", before, after)
	}
	if after := len(k.in.vals.slots); after != handles {
		t.Errorf("500 rounds left %d JavaScript values held, from %d", after, handles)
	}
}

// TestMemoryLimit: a solid too big for the cap fails naming MaxKernelMemory; the kernel goes
// on with a fresh instance, where the solids made before are gone.
func TestMemoryLimit(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{MaxMemory: 32 << 20})
	ok := must(t)
	small := ok(k.Cube(ctx, 1, 1, 1, false))
	_, err := k.Sphere(ctx, 10, 4000)
	if !errors.Is(err, ErrMemoryLimit) || !strings.Contains(err.Error(), "(MaxKernelMemory)") || !strings.Contains(err.Error(), "32 MiB") {
		t.Fatalf("a 4000-segment sphere under a 32 MiB cap: %v, want ErrMemoryLimit naming MaxKernelMemory and 32 MiB", err)
	}
	if _, err := small.Volume(ctx); !errors.Is(err, ErrStale) {
		t.Errorf("a solid from before the failure: %v, want ErrStale", err)
	}
	if v, err := ok(k.Cube(ctx, 2, 2, 2, false)).Volume(ctx); err != nil || v != 8 {
		t.Errorf("after the failure a cube's volume is %v, %v; want 8", v, err)
	}
}

// TestContextStops: a context done in the middle of a call stops it, and the error says so.
func TestContextStops(t *testing.T) {
	k := newKernel(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	testHookResize = cancel // the big sphere grows the heap, deep inside the call
	defer func() { testHookResize = nil }()
	_, err := k.Sphere(ctx, 10, 1500)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "solids kernel stopped") {
		t.Fatalf("a sphere whose context was cancelled as it ran: %v, want context.Canceled", err)
	}
	testHookResize = nil
	if _, err := k.Cube(context.Background(), 1, 1, 1, false); err != nil {
		t.Errorf("the next call: %v", err)
	}
}

// TestFaultsAreErrors: a C++ exception and a trap in the wasm come back as errors, never a
// crash, and the kernel goes on.
func TestFaultsAreErrors(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	err := k.with(ctx, func(in *instance) error {
		vec, err := in.construct(ctx, "Vector_vec2")
		if err != nil {
			return err
		}
		v, free, err := in.newValue(ctx, "vec2", 0, 0)
		if err != nil {
			return err
		}
		defer free()
		_, _, err = in.callMethod(ctx, "Vector_vec2", "resize", vec, intWire(-1), uint64(v))
		return err
	})
	if !errors.Is(err, ErrKernel) || !strings.Contains(err.Error(), "threw") {
		t.Errorf("resizing a vector to 2^32-1 points: %v, want ErrKernel saying it threw", err)
	}
	err = k.with(ctx, func(in *instance) error {
		_, _, err := in.callMethod(ctx, "Manifold", "volume", 0xfffffff0)
		return err
	})
	if !errors.Is(err, ErrKernel) {
		t.Errorf("a method on a pointer out of memory: %v, want ErrKernel", err)
	}
	if _, err := k.Cube(ctx, 1, 1, 1, false); err != nil {
		t.Errorf("the next call: %v", err)
	}
}

// TestRefusedInput: what manifold refuses comes back as ErrInvalid with its status.
func TestRefusedInput(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	_, err := k.FromMesh(ctx, Mesh{Vertices: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, Triangles: []uint32{0, 1, 2}})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "NotManifold") {
		t.Errorf("one open triangle: %v, want ErrInvalid naming NotManifold", err)
	}
	nan := float32(math.NaN())
	tetra := Mesh{
		Vertices:  []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, nan},
		Triangles: []uint32{0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2},
	}
	_, err = k.FromMesh(ctx, tetra)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "NonFiniteVertex") {
		t.Errorf("a tetrahedron with a NaN vertex: %v, want ErrInvalid naming NonFiniteVertex", err)
	}
}

// TestMeshAndBounds: a mesh read back has float32 vertices and uint32 triangles of the
// solid; bounds are the box's.
func TestMeshAndBounds(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	s := must(t)(k.Cube(ctx, 2, 3, 4, false))
	m, err := s.Mesh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Vertices) != 8*3 || len(m.Triangles) != 12*3 {
		t.Errorf("a box's mesh has %d coordinates and %d indices, want 24 and 36", len(m.Vertices), len(m.Triangles))
	}
	b, err := s.Bounds(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Box{Max: [3]float64{2, 3, 4}}, b); diff != "" {
		t.Errorf("bounds mismatch (-want +got):\n%s", diff)
	}
	if a, err := s.SurfaceArea(ctx); err != nil || a != 2*(6+8+12) {
		t.Errorf("surface area %v, %v; want 52", a, err)
	}
}

// TestCacheUnusable: a cache folder that cannot be made costs only the compile.
func TestCacheUnusable(t *testing.T) {
	requireKernel(t)
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := compile(ctx, filepath.Join(file, "cache"), true)
	if err != nil {
		t.Fatalf("compiling with a cache under a file: %v", err)
	}
	_ = e.rt.Close(ctx)
}

// TestConcurrentCalls: a kernel's calls from several goroutines run one at a time.
func TestConcurrentCalls(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Go(func() {
			for range 10 {
				s, err := k.Sphere(ctx, float64(g+1), 16)
				if err != nil {
					errs[g] = err
					return
				}
				if _, err := s.Volume(ctx); err != nil {
					errs[g] = err
				}
				s.Free(ctx)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

// TestW5 checks BENCH.md's solid workload against its closed form and manifold-3d's triangle
// count (52,532, from Node).
func TestW5(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{NoInterrupt: true})
	s, m := w5(t, ctx, k)
	defer s.Free(ctx)
	want := 120*80*6 - 200*ngonArea(64, 2)*6 + 10*2*80*10
	v, err := s.Volume(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rel := math.Abs(v-want) / want; rel > 1e-9 {
		t.Errorf("W5's volume %.10g, want %.10g", v, want)
	}
	if got := len(m.Triangles) / 3; got != 52532 {
		t.Errorf("W5 has %d triangles, manifold-3d in Node 52,532", got)
	}
}

// TestVectorLayout: points go into a Vector_vec2 by writing its storage, which holds while a
// std::vector is (begin, end, capacity) with 16-byte points; the slower path is then unused.
func TestVectorLayout(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	err := k.with(ctx, func(in *instance) error {
		vec, err := in.construct(ctx, "Vector_vec2")
		if err != nil {
			return err
		}
		zero, free, err := in.newValue(ctx, "vec2", 0, 0)
		if err != nil {
			return err
		}
		defer free()
		if err := in.fillVec2(ctx, vec, zero, []float64{1, 2, 3, 4, 5, 6}); err != nil {
			return err
		}
		if begin, end := in.u32(vec), in.u32(vec+4); end-begin != 48 {
			t.Errorf("a Vector_vec2 of 3 points spans %d bytes from its begin pointer, want 48", end-begin)
		}
		r, fn, err := in.callMethod(ctx, "Vector_vec2", "size", vec)
		if err != nil {
			return err
		}
		if n, _ := in.fromWire(fn.types[0], r); n != 3 {
			t.Errorf("the vector's size is %v, want 3", n)
		}
		return in.destroy(ctx, "Vector_vec2", vec)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMinGap: the gap between two boxes is the distance between their facing sides.
func TestMinGap(t *testing.T) {
	ctx := context.Background()
	k := newKernel(t, Options{})
	ok := must(t)
	a := ok(k.Cube(ctx, 2, 2, 2, false))
	b := ok(ok(k.Cube(ctx, 2, 2, 2, false)).Translate(ctx, 5, 0, 0))
	for _, c := range []struct {
		search, want float64
	}{{10, 3}, {1, 1}} {
		got, err := a.MinGap(ctx, b, c.search)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("gap searched to %v: %v, %v; want %v", c.search, got, err, c.want)
		}
	}
}

// FuzzFromMesh: any mesh is a solid, ErrInvalid or ErrKernel, never a panic, and the kernel
// answers the next call.
func FuzzFromMesh(f *testing.F) {
	requireKernel(f)
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0}, []byte{0, 1, 2})
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, []byte{0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2})
	k, err := New(context.Background(), Options{MaxMemory: 64 << 20})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, coords, indices []byte) {
		ctx := context.Background()
		m := Mesh{}
		for _, c := range coords[:len(coords)/3*3] {
			m.Vertices = append(m.Vertices, float32(int8(c)))
		}
		for _, i := range indices[:len(indices)/3*3] {
			m.Triangles = append(m.Triangles, uint32(i))
		}
		s, err := k.FromMesh(ctx, m)
		switch {
		case err == nil:
			if _, err := s.Volume(ctx); err != nil {
				t.Fatal(err)
			}
			s.Free(ctx)
		case !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrKernel) && !errors.Is(err, ErrMemoryLimit):
			t.Fatalf("FromMesh: %v", err)
		}
		c, err := k.Cube(ctx, 1, 1, 1, false)
		if err != nil {
			t.Fatalf("the next call: %v", err)
		}
		c.Free(ctx)
	})
}
