package solid

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// w5 is BENCH.md's W5 made as the runtime makes it from bench/w5.js: each solid put in a
// scene under its name, each boolean given the scene's solids by name. It returns the part.
func w5(ctx context.Context, ss *Session) (*scene.Solid, error) {
	sc := scene.New()
	put := func(name string, sd *scene.Solid, err error) error {
		if err != nil {
			return err
		}
		_, err = sc.Put(name, sd)
		return err
	}
	boolean := func(op Op, a, b []string, result string) error {
		pa, _, err := Lookup(sc, a)
		if err != nil {
			return err
		}
		pb, _, err := Lookup(sc, b)
		if err != nil {
			return err
		}
		sd, err := ss.Boolean(ctx, op, pa, pb)
		return put(result, sd, err)
	}
	sd, err := ss.Box(ctx, scene.Vec3{}, 120, 80, 6)
	if err := put("plate", sd, err); err != nil {
		return nil, err
	}
	var holes []string
	for i := range 20 {
		for j := range 10 {
			name := fmt.Sprintf("hole_%d_%d", i, j)
			sd, err := ss.Cylinder(ctx, scene.Vec3{-57 + 6*float64(i), -36 + 8*float64(j), 0}, 2, 2, 8, Facets{Segments: 64})
			if err := put(name, sd, err); err != nil {
				return nil, err
			}
			holes = append(holes, name)
		}
	}
	if err := boolean(Difference, []string{"plate"}, holes, "drilled"); err != nil {
		return nil, err
	}
	parts := []string{"drilled"}
	for k := range 10 {
		name := fmt.Sprintf("rib_%d", k)
		sd, err := ss.Box(ctx, scene.Vec3{-54 + 12*float64(k), 0, 8}, 2, 80, 10)
		if err := put(name, sd, err); err != nil {
			return nil, err
		}
		parts = append(parts, name)
	}
	if err := boolean(Union, parts, nil, "part"); err != nil {
		return nil, err
	}
	e, err := sc.Get("part")
	if err != nil {
		return nil, err
	}
	return e.Shape.(*scene.Solid), nil
}

// BenchmarkW5 is W5 in one session of a worker's kind (NoInterrupt), kernel started before
// the clock: what a run pays after its first solid.
func BenchmarkW5(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		ss := New(Options{NoInterrupt: true})
		if _, err := ss.kernel(ctx); errors.Is(err, ErrNoKernel) {
			b.Skip(err)
		} else if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := w5(ctx, ss); err != nil {
			b.Fatal(err)
		}
		ss.Close(ctx)
	}
}

// w5Part is W5's part placed in the world, made once for the drawing benchmarks.
func w5Part(b *testing.B) []Placed {
	b.Helper()
	ctx := context.Background()
	ss := New(Options{NoInterrupt: true})
	if _, err := ss.kernel(ctx); errors.Is(err, ErrNoKernel) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	defer ss.Close(ctx)
	part, err := w5(ctx, ss)
	if err != nil {
		b.Fatal(err)
	}
	return []Placed{{Name: "part", Solid: part, World: scene.Identity3}}
}

// BenchmarkSectionW5 cuts W5's part (a 3D boolean of 200 holes and 10 ribs, 52,532
// triangles: the mesh's cut) across its holes.
func BenchmarkSectionW5(b *testing.B) {
	ps := w5Part(b)
	for b.Loop() {
		if _, _, err := Section(ps, AxisPlane(2, 3)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectW5 projects W5's part seen from above (200 holes, each a circle) and from
// the front (the holes hidden behind the ribs and the plate).
func BenchmarkProjectW5(b *testing.B) {
	ps := w5Part(b)
	for _, v := range []View{Views[1], Views[0]} {
		b.Run(v.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Project(ps, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
