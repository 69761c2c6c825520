package svg

// The transform attribute: a list of matrix, translate, scale, rotate (about a centre),
// skewX and skewY, composed left to right as SVG composes them.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// parseTransform reads a transform list into one affine map (in SVG's own coordinates).
func parseTransform(v string) (geom.Affine, error) {
	m := geom.Identity
	s := strings.TrimSpace(v)
	for s != "" {
		open := strings.IndexByte(s, '(')
		end := strings.IndexByte(s, ')')
		if open < 0 || end < open {
			return m, fmt.Errorf("transform %q: expected name(numbers)", clip(v))
		}
		name := strings.TrimSpace(s[:open])
		args, err := numbers(s[open+1 : end])
		if err != nil {
			return m, fmt.Errorf("transform %q: %v", clip(v), err)
		}
		t, err := transformOf(name, args)
		if err != nil {
			return m, fmt.Errorf("transform %q: %v", clip(v), err)
		}
		m = m.Mul(t)
		s = strings.TrimLeft(s[end+1:], " \t\r\n,")
	}
	return m, nil
}

// transformOf is one transform function's map.
func transformOf(name string, a []float64) (geom.Affine, error) {
	want := func(counts ...int) error {
		for _, c := range counts {
			if len(a) == c {
				return nil
			}
		}
		return fmt.Errorf("%s takes %v numbers, got %d", name, counts, len(a))
	}
	rad := func(deg float64) float64 { return deg * math.Pi / 180 }
	switch name {
	case "matrix":
		if err := want(6); err != nil {
			return geom.Affine{}, err
		}
		return geom.Affine{A: a[0], B: a[1], C: a[2], D: a[3], E: a[4], F: a[5]}, nil
	case "translate":
		if err := want(1, 2); err != nil {
			return geom.Affine{}, err
		}
		a = append(a, 0)
		return geom.Translation(geom.Vec{X: a[0], Y: a[1]}), nil
	case "scale":
		if err := want(1, 2); err != nil {
			return geom.Affine{}, err
		}
		if len(a) == 1 {
			a = append(a, a[0])
		}
		return geom.Scaling(a[0], a[1]), nil
	case "rotate":
		if err := want(1, 3); err != nil {
			return geom.Affine{}, err
		}
		r := geom.Rotation(rad(a[0])) // Y down: positive angles turn clockwise as seen
		if len(a) == 3 {
			c := geom.Vec{X: a[1], Y: a[2]}
			r = geom.Translation(c).Mul(r).Mul(geom.Translation(c.Mul(-1)))
		}
		return r, nil
	case "skewX":
		if err := want(1); err != nil {
			return geom.Affine{}, err
		}
		return geom.Affine{A: 1, C: math.Tan(rad(a[0])), D: 1}, nil
	case "skewY":
		if err := want(1); err != nil {
			return geom.Affine{}, err
		}
		return geom.Affine{A: 1, B: math.Tan(rad(a[0])), D: 1}, nil
	}
	return geom.Affine{}, fmt.Errorf("unknown transform %q (matrix, translate, scale, rotate, skewX, skewY)", name)
}

// numbers reads a list of numbers separated by spaces and commas.
func numbers(s string) ([]float64, error) {
	n, err := numbersPrefix(s)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// numbersPrefix is numbers that also returns, with an error, the numbers read before it.
func numbersPrefix(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		// "1-2" is two numbers in SVG's compact syntax; split on a sign that follows a digit.
		for _, part := range splitSigns(f) {
			v, err := strconv.ParseFloat(part, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return out, fmt.Errorf("%q is not a number", clip(part))
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// splitSigns splits "1-2.5.5" into "1", "-2.5", ".5".
func splitSigns(f string) []string {
	var out []string
	start, dot := 0, false
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case (c == '-' || c == '+') && i > start && f[i-1] != 'e' && f[i-1] != 'E':
			out, start, dot = append(out, f[start:i]), i, false
		case c == '.' && dot:
			out, start = append(out, f[start:i]), i
		case c == '.':
			dot = true
		case c == 'e' || c == 'E':
			dot = true // no dot after an exponent
		}
	}
	return append(out, f[start:])
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// similarity splits m's linear part into a rotation, then scales (sx, sy), when its columns
// are orthogonal (no skew): m = R(angle)·S(sx, sy) plus the translation. sy is negative for a
// mirror.
func similarity(m geom.Affine) (sx, sy, angle float64, ok bool) {
	sx, sy = math.Hypot(m.A, m.B), math.Hypot(m.C, m.D)
	if sx == 0 || sy == 0 || math.Abs(m.A*m.C+m.B*m.D) > 1e-12*sx*sy {
		return 0, 0, 0, false
	}
	if m.Det() < 0 {
		sy = -sy
	}
	return sx, sy, math.Atan2(m.B, m.A), true
}

// origin reads transform-origin, the point the element's transform is about: one or two
// lengths, percentages of the viewport (SVG's reference box) or keywords (left, center,
// right, top, bottom), a missing one the centre; false when absent or unreadable (noted).
func (c *converter) origin(e *element) (geom.Vec, bool) {
	if _, ok := e.attrs["transform-origin"]; !ok && !strings.Contains(e.attr("style"), "transform-origin") {
		return geom.Vec{}, false // most transforms have none: no need to read the style again
	}
	v, ok := properties(e)["transform-origin"]
	if !ok || v == "" {
		return geom.Vec{}, false
	}
	f := strings.Fields(v)
	if len(f) == 1 {
		if f[0] == "top" || f[0] == "bottom" {
			f = []string{"center", f[0]}
		} else {
			f = append(f, "center")
		}
	}
	if f[0] == "top" || f[0] == "bottom" || f[1] == "left" || f[1] == "right" {
		f[0], f[1] = f[1], f[0]
	}
	var o [2]float64
	for i := range 2 {
		of := c.vp[i]
		switch f[i] {
		case "left", "top":
			o[i] = 0
		case "center":
			o[i] = of / 2
		case "right", "bottom":
			o[i] = of
		default:
			if p, ok := c.percent(f[i], of); ok {
				o[i] = p
			} else if l, ok := length(f[i], 16); ok {
				o[i] = l
			} else {
				c.skip(e.name, fmt.Sprintf("transform-origin %q not understood, taken as 0 0", clip(v)))
				return geom.Vec{}, false
			}
		}
	}
	return geom.Vec{X: o[0], Y: o[1]}, true
}
