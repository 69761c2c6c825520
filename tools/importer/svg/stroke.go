package svg

// Strokes as cadrun draws them: a dash array becomes the linetype of cadrun's with the same
// rhythm, at the scale that gives it the same period (exactly the file's pattern when it is
// one of cadrun's at some scale, else noted as the nearest); caps and joins are drawn round,
// which is noted where SVG draws them otherwise and the shape has ends or corners to show it.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// dashArray reads stroke-dasharray: lengths in user units, repeated once when their count
// is odd (as SVG does); nil for none, and for a list SVG ignores (a negative length, all
// zeros, one it cannot read), which draws solid.
func dashArray(v string, em float64) []float64 {
	if v == "none" || v == "" {
		return nil
	}
	var out []float64
	sum := 0.0
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		l, ok := length(f, em)
		if !ok || l < 0 {
			return nil
		}
		out = append(out, l)
		sum += l
	}
	if !(sum > 0) {
		return nil
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out
}

// period is the shortest prefix of a dash array that repeats to make it all.
func period(a []float64) []float64 {
	for n := 2; n < len(a); n += 2 {
		if len(a)%n != 0 {
			continue
		}
		same := true
		for i := n; i < len(a) && same; i++ {
			same = a[i] == a[i%n]
		}
		if same {
			return a[:n]
		}
	}
	return a
}

// linetypeOf is cadrun's linetype for a dash array (dash, gap, ... in some unit) and the
// scale of it in that unit; exact tells that the array is that linetype's pattern at the
// scale. Otherwise it is the one with the same number of dashes in a period (one: dashed,
// or dot when the dash is under a tenth of its gap; two: center; more: phantom) at the
// scale of the same period.
func linetypeOf(a []float64) (name string, scale float64, exact bool) {
	a = period(a)
	sum := 0.0
	for _, v := range a {
		sum += v
	}
	for _, lt := range scene.Linetypes {
		if len(lt.Pattern) != len(a) {
			continue
		}
		total := 0.0
		for _, v := range lt.Pattern {
			total += math.Abs(v)
		}
		k, match := sum/total, true
		for i, v := range lt.Pattern {
			match = match && math.Abs(a[i]-k*math.Abs(v)) <= 1e-9*sum
		}
		if match {
			return lt.Name, k, true
		}
	}
	switch n := len(a) / 2; {
	case n == 1 && a[0] < a[1]/10:
		name = "dot"
	case n == 1:
		name = "dashed"
	case n == 2:
		name = "center"
	default:
		name = "phantom"
	}
	lt, _ := scene.LookupLinetype(name)
	total := 0.0
	for _, v := range lt.Pattern {
		total += math.Abs(v)
	}
	return name, sum / total, false
}

// dashList writes a dash array as the file could: lengths separated by commas.
func dashList(a []float64) string {
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	return clip(strings.Join(s, ","))
}

// dash gives it the linetype of the style's dash array, its lengths mapped by m (at its
// mean scale), noting a pattern drawn as its nearest and an offset not applied.
func (c *converter) dash(e *element, it *Item, m scene.Affine, st style) {
	if st.dashes == nil || it.Stroke == nil {
		return
	}
	name, k, exact := linetypeOf(st.dashes)
	if !st.nonScaling {
		k *= math.Sqrt(math.Abs(m.Det()))
	}
	if !(k > 0) || k > scene.MaxCoord {
		c.skip(e.name, "a stroke-dasharray out of range is drawn solid")
		return
	}
	it.Linetype, it.LinetypeScale = name, k
	if !exact {
		c.skip(e.name, fmt.Sprintf("stroke-dasharray %s is not one of cadrun's linetypes: drawn as its nearest, %s, with the same period", dashList(st.dashes), name))
	}
	if st.dashOffset != 0 {
		c.skip(e.name, "stroke-dashoffset is not applied: cadrun's dashes start at each subpath's start")
	}
}
