package render

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
)

// strconvCoord is the SVG writer's number formatting as it was before coordFormat: round to
// the quantum, strconv with the quantum's decimals, trailing zeros and a bare point trimmed.
// coordFormat must give exactly these bytes.
func strconvCoord(v, quantum float64) string {
	decimals := max(0, int(-math.Floor(math.Log10(quantum))))
	r := math.Round(v/quantum) * quantum
	if r == 0 {
		return "0"
	}
	b := strconv.AppendFloat(nil, r, 'f', decimals, 64)
	if decimals > 0 {
		b = bytes.TrimRight(b, "0")
		b = bytes.TrimSuffix(b, []byte("."))
	}
	return string(b)
}

// quantumFor is the quantum of a view whose larger side is 10^e, as quantum() computes it.
func quantumFor(e int) float64 {
	return quantum(View{Max: geom.Vec{X: math.Pow(10, float64(e)), Y: 1}})
}

func checkCoord(t *testing.T, v, q float64) {
	t.Helper()
	want := strconvCoord(v, q)
	if got := string(newCoordFormat(q).append(nil, v)); got != want {
		t.Errorf("%v (%b) at quantum %v: got %q, want %q", v, v, q, got, want)
	}
}

// TestCoordFormatMatchesStrconv compares the formatter with the strconv formatting on random
// values of every magnitude around every quantum a view can have, on exact ties between two
// quanta and their neighbours, and on zeros, subnormals, huge values and infinities.
func TestCoordFormatMatchesStrconv(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 1))
	special := []float64{
		0, math.Copysign(0, -1), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		1e-300, -1e-300, 1e300, -1e300, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), 1 << 53, -(1 << 53), 1e12, 1e15, 1e16, 1e22, 1e23,
	}
	for e := -40; e <= 40; e++ {
		q := quantumFor(e)
		for _, v := range special {
			checkCoord(t, v, q)
		}
		side := math.Pow(10, float64(e))
		for range 2000 {
			// anywhere in the view, and far outside it up to past the formatter's limit
			scale := side * math.Pow(10, rng.Float64()*14-2)
			v := (rng.Float64()*2 - 1) * scale
			checkCoord(t, v, q)
			// a tie between two quanta, and the floats either side of it
			n := math.Round(v / q)
			tie := (n + 0.5) * q
			checkCoord(t, tie, q)
			checkCoord(t, math.Nextafter(tie, math.Inf(1)), q)
			checkCoord(t, math.Nextafter(tie, math.Inf(-1)), q)
			// an exact count of quanta, and half a quantum either side of zero
			checkCoord(t, n*q, q)
			checkCoord(t, q/2*(rng.Float64()*2-1), q)
		}
		// around the limit of the direct path
		for _, n := range []float64{coordLimit - 1, coordLimit, coordLimit + 1, -coordLimit + 1, -coordLimit} {
			checkCoord(t, n*q, q)
		}
	}
}

// FuzzCoordFormat compares the formatter with the strconv formatting on any value at the
// quantum of a view of any size.
func FuzzCoordFormat(f *testing.F) {
	f.Add(1.2345, int8(1))
	f.Add(-0.0005, int8(3))
	f.Add(1e300, int8(-20))
	f.Add(12345678.5, int8(7))
	f.Fuzz(func(t *testing.T, v float64, e int8) {
		if math.IsNaN(v) {
			return
		}
		checkCoord(t, v, quantumFor(int(e)%60))
	})
}

// TestOpacityMatchesStrconv pins appendOpacity to the shortest form of the alpha rounded to
// thousandths, for every thousandth and random alphas between.
func TestOpacityMatchesStrconv(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 2))
	alphas := []float64{0, math.Copysign(0, -1), -0.0004, 1, 0.9995, 0.0005, 0.00049}
	for k := range 1001 {
		alphas = append(alphas, float64(k)/1000, float64(k)/1000+0.0005)
	}
	for range 10000 {
		alphas = append(alphas, rng.Float64())
	}
	for _, a := range alphas {
		want := strconv.FormatFloat(math.Round(a*1000)/1000, 'f', -1, 64)
		if got := string(appendOpacity(nil, a)); got != want {
			t.Errorf("alpha %v: got %q, want %q", a, got, want)
		}
	}
}

// TestDecimalLen checks the digit count appendFixed sizes its output with, at every power of
// ten and either side of it.
func TestDecimalLen(t *testing.T) {
	t.Parallel()
	check := func(u uint64) {
		if got, want := decimalLen(u), len(strconv.FormatUint(u, 10)); got != want {
			t.Errorf("decimalLen(%d) = %d, want %d", u, got, want)
		}
	}
	check(0)
	check(math.MaxUint64)
	for p := uint64(1); ; p *= 10 {
		check(p - 1)
		check(p)
		check(p + 1)
		if p > math.MaxUint64/10 {
			break
		}
	}
}

// TestAppendFixedEveryDecimals compares appendFixed with strconv for every number of decimals
// the writer uses (those with a division by a constant and the others), on random counts
// with and without trailing zeros.
func TestAppendFixedEveryDecimals(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 2))
	for decimals := 0; decimals <= maxFastDecimals; decimals++ {
		for range 3000 {
			n := rng.Int64N(2*coordLimit) - coordLimit
			if k := rng.IntN(8); k > 0 {
				n = n / int64(math.Pow10(k)) * int64(math.Pow10(k)) // trailing zeros
			}
			if n == 0 {
				continue
			}
			want := strconv.FormatInt(n, 10)
			neg := n < 0
			if neg {
				want = want[1:]
			}
			if len(want) <= decimals {
				want = strings.Repeat("0", decimals-len(want)+1) + want
			}
			if decimals > 0 {
				want = strings.TrimRight(strings.TrimRight(want[:len(want)-decimals]+"."+want[len(want)-decimals:], "0"), ".")
			}
			if neg {
				want = "-" + want
			}
			if got := string(appendFixed([]byte("x"), n, decimals)); got != "x"+want {
				t.Fatalf("appendFixed(%d, %d) = %q, want %q", n, decimals, got, "x"+want)
			}
		}
	}
}
