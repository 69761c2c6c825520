package manifold

import (
	"context"
	"math"
	"testing"
)

// BenchmarkCubeMinusCylinder is the measure of a call: a 64-segment cylinder drilled
// through a cube, volume read.
func BenchmarkCubeMinusCylinder(b *testing.B) {
	ctx := context.Background()
	k := newKernel(b, Options{})
	ok := must(b)
	for b.Loop() {
		c := ok(k.Cube(ctx, 10, 10, 10, true))
		h := ok(k.Cylinder(ctx, 20, 3, 3, 64, true))
		d := ok(k.Boolean(ctx, Difference, c, h))
		if _, err := d.Volume(ctx); err != nil {
			b.Fatal(err)
		}
		c.Free(ctx)
		h.Free(ctx)
		d.Free(ctx)
	}
}

func BenchmarkCube(b *testing.B) {
	ctx := context.Background()
	k := newKernel(b, Options{})
	ok := must(b)
	for b.Loop() {
		ok(k.Cube(ctx, 10, 10, 10, true)).Free(ctx)
	}
}

func BenchmarkCubeMinusCylinderNoInterrupt(b *testing.B) {
	ctx := context.Background()
	k := newKernel(b, Options{NoInterrupt: true})
	ok := must(b)
	for b.Loop() {
		c := ok(k.Cube(ctx, 10, 10, 10, true))
		h := ok(k.Cylinder(ctx, 20, 3, 3, 64, true))
		d := ok(k.Boolean(ctx, Difference, c, h))
		if _, err := d.Volume(ctx); err != nil {
			b.Fatal(err)
		}
		c.Free(ctx)
		h.Free(ctx)
		d.Free(ctx)
	}
}

// BenchmarkCompile is what a fresh process pays before its first solid: compiling the wasm
// without a cache, or reading the compiled code from the on-disk cache (filled first), then
// (FirstCall) starting an instance and making a cube.
func BenchmarkCompile(b *testing.B) {
	requireKernel(b)
	ctx := context.Background()
	for _, mode := range []struct {
		name          string
		interruptible bool
	}{{"interruptible", true}, {"no-interrupt", false}} {
		b.Run("cold/"+mode.name, func(b *testing.B) {
			for b.Loop() {
				e, err := compile(ctx, "", mode.interruptible)
				if err != nil {
					b.Fatal(err)
				}
				_ = e.rt.Close(ctx)
			}
		})
		dir := b.TempDir()
		e, err := compile(ctx, dir, mode.interruptible)
		if err != nil {
			b.Fatal(err)
		}
		_ = e.rt.Close(ctx)
		b.Run("cached/"+mode.name, func(b *testing.B) {
			for b.Loop() {
				e, err := compile(ctx, dir, mode.interruptible)
				if err != nil {
					b.Fatal(err)
				}
				_ = e.rt.Close(ctx)
			}
		})
		b.Run("first-call/"+mode.name, func(b *testing.B) {
			for b.Loop() {
				e, err := compile(ctx, dir, mode.interruptible)
				if err != nil {
					b.Fatal(err)
				}
				k := &Kernel{e: e, max: MaxKernelMemory}
				s, err := k.Cube(ctx, 1, 1, 1, false)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Volume(ctx); err != nil {
					b.Fatal(err)
				}
				_ = e.rt.Close(ctx)
			}
		})
	}
}

// BenchmarkInstantiate is what a fresh instance costs (after a failure, or per kernel):
// starting the module and running its registrations.
func BenchmarkInstantiate(b *testing.B) {
	requireKernel(b)
	ctx := context.Background()
	e, err := compiled(ctx, false)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		in, err := e.instantiate(ctx, MaxKernelMemory)
		if err != nil {
			b.Fatal(err)
		}
		_ = in.mod.Close(ctx)
	}
}

// w5 is BENCH.md's workload W5: a 120 x 80 x 6 plate centred at the origin minus 200
// 64-segment holes of radius 2, plus ten 2 x 80 x 10 ribs on top, read back as a mesh.
func w5(tb testing.TB, ctx context.Context, k *Kernel) (*Solid, Mesh) {
	ok := must(tb)
	parts := []*Solid{ok(k.Cube(ctx, 120, 80, 6, true))}
	for i := range 20 {
		for j := range 10 {
			hole := ok(k.Cylinder(ctx, 10, 2, 2, 64, true))
			parts = append(parts, ok(hole.Translate(ctx, -57+6*float64(i), -36+8*float64(j), 0)))
			hole.Free(ctx)
		}
	}
	drilled := ok(k.Boolean(ctx, Difference, parts...))
	parts = []*Solid{drilled}
	for r := range 10 {
		rib := ok(k.Cube(ctx, 2, 80, 10, true))
		parts = append(parts, ok(rib.Translate(ctx, -54+12*float64(r), 0, 8)))
		rib.Free(ctx)
	}
	plate := ok(k.Boolean(ctx, Union, parts...))
	for _, p := range parts {
		p.Free(ctx)
	}
	m, err := plate.Mesh(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	return plate, m
}

func BenchmarkW5(b *testing.B) {
	ctx := context.Background()
	for _, mode := range []struct {
		name string
		opts Options
	}{{"interruptible", Options{}}, {"no-interrupt", Options{NoInterrupt: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			k := newKernel(b, mode.opts)
			for b.Loop() {
				s, _ := w5(b, ctx, k)
				s.Free(ctx)
			}
		})
	}
}

// BenchmarkExtrudeManyPoints extrudes a 10,000-point contour: the cost of passing points in.
func BenchmarkExtrudeManyPoints(b *testing.B) {
	ctx := context.Background()
	k := newKernel(b, Options{})
	ring := make([]float64, 0, 20000)
	for j := range 10000 {
		a := 2 * math.Pi * float64(j) / 10000
		ring = append(ring, 50*math.Cos(a), 50*math.Sin(a))
	}
	ok := must(b)
	for b.Loop() {
		ok(k.Extrude(ctx, Polygons{ring}, 5, 0, 0, [2]float64{1, 1})).Free(ctx)
	}
}
