package scene

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// TestMatrixIsMulToTheBit: Transform.Matrix, written out in numbers, gives the very bits of the
// composition of translations, rotation and scaling it stands for (matrixByMul), for
// transforms of every sign, zero (both signs), magnitude and angle, so that no world matrix,
// bound or written coordinate moves by writing it out.
func TestMatrixIsMulToTheBit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(38, 1))
	negZero := math.Copysign(0, -1)
	special := []float64{0, negZero, 1, -1, 0.1, -0.2, 0.5, 2, 1e-300, -1e-300, 1e300, -1e300, math.Pi, math.Pi / 2, -math.Pi / 7, 1e16, 123.456}
	pick := func() float64 {
		switch rng.IntN(3) {
		case 0:
			return special[rng.IntN(len(special))]
		case 1:
			return (rng.Float64() - 0.5) * 200
		}
		return math.Ldexp(rng.Float64()-0.5, rng.IntN(120)-60)
	}
	same := func(a, b geom.Affine) bool {
		for _, p := range [][2]float64{{a.A, b.A}, {a.B, b.B}, {a.C, b.C}, {a.D, b.D}, {a.E, b.E}, {a.F, b.F}} {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				return false
			}
		}
		return true
	}
	for i := range 200000 {
		tr := Transform{
			Translate: geom.Vec{X: pick(), Y: pick()},
			Rotate:    pick(),
			Scale:     geom.Vec{X: pick(), Y: pick()},
			Pivot:     geom.Vec{X: pick(), Y: pick()},
		}
		if i%4 == 0 {
			tr.Rotate, tr.Scale = 0, geom.Vec{X: 1, Y: 1} // the common case: moved only
		}
		if got, want := tr.Matrix(), matrixByMul(tr); !same(got, want) {
			t.Fatalf("Matrix of %+v = %+v; the composition gives %+v", tr, got, want)
		}
	}
}

// matrixByMul is Matrix as the composition it stands for, which TestMatrixIsMulToTheBit holds
// it to.
func matrixByMul(t Transform) geom.Affine {
	m := geom.Translation(t.Translate.Add(t.Pivot)).Mul(geom.Rotation(t.Rotate)).Mul(geom.Scaling(t.Scale.X, t.Scale.Y))
	return m.Mul(geom.Translation(t.Pivot.Mul(-1)))
}

// BenchmarkMatrix is one transform's matrix, which every placement asks for.
func BenchmarkMatrix(b *testing.B) {
	ts := []Transform{
		{Scale: geom.Vec{X: 1, Y: 1}},
		{Translate: geom.Vec{X: 10, Y: -3}, Rotate: 0.3, Scale: geom.Vec{X: 2, Y: 2}, Pivot: geom.Vec{X: 1, Y: 1}},
	}
	var sink geom.Affine
	b.Run("Matrix", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = ts[i&1].Matrix()
		}
	})
	b.Run("Mul", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = matrixByMul(ts[i&1])
		}
	})
	_ = sink
}
