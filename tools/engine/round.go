package engine

// Rounding for answers: a figure keeps the digits of its own size (8.3, not
// 8.299999999999999).

import (
	"math"
	"strconv"

	"github.com/cadrun/cadrun/scene/geom"
)

// Quantum is the rounding step for coordinates in b: a millionth of its larger side, as a
// power of ten (a millionth for an empty box).
func Quantum(b geom.Box) float64 {
	side := 1.0
	if b.NonEmpty {
		sz := b.Size()
		side = math.Max(math.Max(sz.X, sz.Y), 1e-300)
	}
	q := math.Pow(10, math.Floor(math.Log10(side*1e-6)))
	if q == 0 || math.IsInf(q, 0) || math.IsNaN(q) {
		return 1e-6
	}
	return q
}

// RoundBox is b with its corners rounded to its own quantum, as scene info rounds them, for a
// change's answer: 8.3, not 8.299999999999999.
func RoundBox(b geom.Box) geom.Box {
	if !b.NonEmpty {
		return b
	}
	q := Quantum(b)
	r := func(v geom.Vec) geom.Vec { return geom.Vec{X: RoundTo(v.X, q), Y: RoundTo(v.Y, q)} }
	b.Min, b.Max = r(b.Min), r(b.Max)
	return b
}

// RoundTo rounds v to the quantum q (a power of ten), without float noise in its digits.
func RoundTo(v, q float64) float64 {
	decimals := max(0, int(-math.Floor(math.Log10(q))))
	r, err := strconv.ParseFloat(strconv.FormatFloat(math.Round(v/q)*q, 'f', decimals, 64), 64)
	if err != nil || r == 0 {
		return 0 // also no "-0"
	}
	return r
}

// SignificantDigits is the precision of answers' numbers that are not coordinates (angles,
// scale factors, colours, matrices).
const SignificantDigits = 8

// RoundSignificant keeps SignificantDigits of v.
func RoundSignificant(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', SignificantDigits, 64), 64)
	return r
}
