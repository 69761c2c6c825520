package engine

import (
	"math"
	"unicode/utf8"
)

// Clip is b cut to at most n bytes, on a character's boundary, with "..." when cut: how an
// answer quotes input too long to repeat whole.
func Clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}

// Finite reports whether every number is neither NaN nor infinite.
func Finite(fs ...float64) bool {
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}
