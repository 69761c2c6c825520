package render

// Numbers are most of an SVG's bytes and were most of its writing time. A coordinate is
// rounded to the quantum as an integer count n of quanta, and n's decimal digits, with the
// point put in place, are the same digits strconv.FormatFloat(n·quantum, 'f', decimals)
// gives whenever the product carries no error at that precision. coordFormat.append writes
// those digits straight into the output for every |n| below coordLimit and falls back to
// strconv beyond it, so the output is byte for byte what formatting the rounded float gave.

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// coordLimit bounds the counts of quanta written without strconv. The quantum (a power of
// ten from math.Pow) and the product n·quantum are each within a few units in the last
// place, so n·quantum stays far nearer n·10^-decimals than half a quantum while |n| is below
// 2^50 ≈ 1.1e15; 1e12 keeps a wide margin and still covers points a hundred thousand view
// widths away from the view.
const coordLimit = 1e12

// maxFastDecimals bounds the digits after the point written without strconv (the quantum of
// a view a millionth of a unit wide has 12).
const maxFastDecimals = 30

// coordFormat writes coordinates rounded to a quantum.
type coordFormat struct {
	quantum  float64
	decimals int  // digits after the point that the quantum needs
	direct   bool // the quantum is 10^-decimals (or 1 or more when decimals is 0), so n's digits are the value's
}

// newCoordFormat is the format for a quantum, a power of ten as quantum() gives.
func newCoordFormat(q float64) coordFormat {
	f := coordFormat{quantum: q, decimals: max(0, int(-math.Floor(math.Log10(q))))}
	switch {
	case f.decimals == 0:
		f.direct = q >= 1
	case f.decimals <= maxFastDecimals:
		f.direct = math.Abs(q*math.Pow10(f.decimals)-1) < 1e-9
	}
	return f
}

// append appends v rounded to the quantum, without trailing zeros or a negative zero: the
// bytes strconv gives for the rounded value with the quantum's decimals, trailing zeros and a
// bare point trimmed.
func (f coordFormat) append(b []byte, v float64) []byte {
	n := math.Round(v / f.quantum)
	if n == 0 {
		return append(b, '0')
	}
	if !f.direct || !(math.Abs(n) < coordLimit) {
		return appendCoordStrconv(b, n*f.quantum, f.decimals)
	}
	if f.decimals == 0 {
		// The quantum is 1 or more: the value is the integer n·quantum when that is exact.
		r := n * f.quantum
		if !(math.Abs(r) < 1<<53) || r != math.Trunc(r) {
			return appendCoordStrconv(b, r, 0)
		}
		return strconv.AppendInt(b, int64(r), 10)
	}
	return appendFixed(b, int64(n), f.decimals)
}

// appendFixed appends n·10^-decimals without trailing zeros after the point (n != 0). One
// division splits the integer part from the fraction (by a constant for the usual numbers of
// decimals, which the compiler turns into a multiplication); the fraction's trailing zeros go
// first, so that the length is known, and the digits are then written from the last one back,
// straight into b.
func appendFixed(b []byte, n int64, decimals int) []byte {
	u := uint64(n)
	if n < 0 {
		u = uint64(-n)
	}
	var ip, fp uint64 // the integer part and the fraction's decimals digits
	switch decimals {
	case 0:
		ip = u
	case 1:
		ip, fp = u/10, u%10
	case 2:
		ip, fp = u/100, u%100
	case 3:
		ip, fp = u/1e3, u%1e3
	case 4:
		ip, fp = u/1e4, u%1e4
	case 5:
		ip, fp = u/1e5, u%1e5
	case 6:
		ip, fp = u/1e6, u%1e6
	default:
		if decimals < len(pow10) {
			ip, fp = u/pow10[decimals], u%pow10[decimals]
		} else {
			fp = u // u < 2^64 < 10^decimals
		}
	}
	if fp == 0 {
		decimals = 0
	}
	for decimals > 0 && fp%10 == 0 {
		fp /= 10
		decimals--
	}
	size := decimalLen(ip)
	if n < 0 {
		size++
	}
	if decimals > 0 {
		size += 1 + decimals
	}
	b = slices.Grow(b, size)
	start := len(b)
	b = b[:start+size]
	i := len(b)
	for d := decimals; d > 0; d -= 2 {
		if d == 1 {
			i--
			b[i] = byte('0' + fp)
			break
		}
		q := fp / 100
		r := 2 * (fp - 100*q)
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		fp = q
	}
	if decimals > 0 {
		i--
		b[i] = '.'
	}
	for ip >= 100 {
		q := ip / 100
		r := 2 * (ip - 100*q)
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		ip = q
	}
	if ip >= 10 {
		i -= 2
		b[i], b[i+1] = digitPairs[2*ip], digitPairs[2*ip+1]
	} else {
		b[i-1] = byte('0' + ip)
	}
	if n < 0 {
		b[start] = '-'
	}
	return b
}

// decimalLen is the number of decimal digits of u (1 for 0).
func decimalLen(u uint64) int {
	// log10(2) is about 1233/4096: a first guess from the bit length, one too small at most.
	d := (bits.Len64(u) * 1233) >> 12
	if d < len(pow10) && u >= pow10[d] {
		d++
	}
	return max(d, 1)
}

// pow10[i] is 10^i.
var pow10 = [...]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
	1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// digitPairs holds "00" to "99".
const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// appendCoordStrconv formats the rounded value r as the writer always has: fixed decimals,
// then trailing zeros and a bare point trimmed.
func appendCoordStrconv(b []byte, r float64, decimals int) []byte {
	if r == 0 {
		return append(b, '0')
	}
	start := len(b)
	b = strconv.AppendFloat(b, r, 'f', decimals, 64)
	if decimals > 0 {
		for len(b) > start && b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if len(b) > start && b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	return b
}

// appendOpacity appends an opacity rounded to thousandths in its shortest form, as
// strconv.FormatFloat(math.Round(a*1000)/1000, 'f', -1, 64) gives it: for a in [0, 1] the
// shortest decimal of k/1000 is k's digits after "0." without trailing zeros.
func appendOpacity(b []byte, a float64) []byte {
	k := math.Round(a * 1000)
	if !(k > 0 && k < 1000) {
		return strconv.AppendFloat(b, k/1000, 'f', -1, 64)
	}
	return appendFixed(b, int64(k), 3)
}
