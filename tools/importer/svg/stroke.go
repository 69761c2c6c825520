package svg

// Strokes as cadrun draws them: a dash array becomes the linetype of cadrun's with the same
// rhythm, at the scale that gives it the same period (exactly the file's pattern when it is
// one of cadrun's at some scale, else noted as the nearest); caps and joins are cadrun's own
// (butt, square and round; miter within its limit, bevel and round), set where the shape has
// ends or corners to show them, and SVG 2's miter-clip and arcs are drawn as miters and noted.

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
)

// dashArray reads stroke-dasharray: lengths in user units (a percentage of diag), repeated once when their count
// is odd (as SVG does); nil for none, and for a list SVG ignores (a negative length, all
// zeros, one it cannot read), which draws solid.
func dashArray(v string, em, diag float64) []float64 {
	if v == "none" || v == "" {
		return nil
	}
	var out []float64
	sum := 0.0
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' }) {
		l, ok := lengthOf(f, em, diag)
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
	for _, lt := range drafting.Linetypes {
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
	lt, _ := drafting.LookupLinetype(name)
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
func (c *converter) dash(e *element, it *Item, m geom.Affine, st style) {
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

// ends tells whether path p has an open subpath (whose ends SVG caps) and a corner (a join
// where the direction turns, a closed subpath's own included).
func ends(p geom.Path) (open, corner bool) {
	var start, cur geom.Vec
	var first, last geom.Vec // the subpath's first direction and the last one drawn
	// drawn: a direction was drawn in the subpath; segs: a segment followed its move (one
	// of no length is a dot, capped in cadrun and in SVG alike, but drawn as nothing by butt)
	drawn, segs := false, false
	turn := func(a, b geom.Vec) bool {
		la, lb := a.Len(), b.Len()
		if la == 0 || lb == 0 {
			return false
		}
		cross, dot := (a.X*b.Y-a.Y*b.X)/(la*lb), (a.X*b.X+a.Y*b.Y)/(la*lb)
		return math.Abs(cross) > 1e-9 || dot < 0
	}
	join := func(in, out geom.Vec) {
		if !drawn {
			first = in
		} else if turn(last, in) {
			corner = true
		}
		drawn, last = true, out
	}
	for _, s := range p {
		switch s.Kind {
		case geom.SegMove:
			open = open || segs
			start, cur, drawn, segs = s.P[0], s.P[0], false, false
			continue
		case geom.SegLine:
			if d := s.P[0].Sub(cur); d.Len() > 0 {
				join(d, d)
			}
		case geom.SegQuad:
			join(firstNonZero(s.P[0].Sub(cur), s.P[1].Sub(cur)), firstNonZero(s.P[1].Sub(s.P[0]), s.P[1].Sub(cur)))
		case geom.SegCubic:
			join(firstNonZero(s.P[0].Sub(cur), s.P[1].Sub(cur), s.P[2].Sub(cur)),
				firstNonZero(s.P[2].Sub(s.P[1]), s.P[2].Sub(s.P[0]), s.P[2].Sub(cur)))
		case geom.SegArc:
			if a := s.ArcPoint(s.T0); a.Sub(cur).Len() > 1e-9*(1+a.Len()) {
				join(a.Sub(cur), a.Sub(cur))
			}
			sign := 1.0
			if s.T1 < s.T0 {
				sign = -1
			}
			tangent := func(t float64) geom.Vec {
				return s.P[1].Mul(-math.Sin(t) * sign).Add(s.P[2].Mul(math.Cos(t) * sign))
			}
			join(tangent(s.T0), tangent(s.T1))
		case geom.SegClose:
			if d := start.Sub(cur); d.Len() > 0 {
				join(d, d)
			}
			if drawn && turn(last, first) {
				corner = true
			}
			open = open || !drawn // closed with no length: a dot
			cur, drawn, segs = start, false, false
			continue
		}
		segs = true
		cur = s.End()
	}
	return open || segs, corner
}

func firstNonZero(vs ...geom.Vec) geom.Vec {
	for _, v := range vs {
		if v.Len() > 0 {
			return v
		}
	}
	return geom.Vec{}
}

// capsAndJoins gives the item the stroke's caps and joins where the outline p has ends or
// corners to show them, and notes the joins cadrun draws otherwise than SVG.
func (c *converter) capsAndJoins(e *element, it *Item, p geom.Path, st style) {
	if it.Stroke == nil || it.Width == 0 {
		return // none, or a hairline, whose ends and corners do not show
	}
	open, corner := ends(p)
	open = open || it.Linetype != "" // each dash has two ends, capped
	if open {
		switch lc := cmp.Or(st.lineCap, "butt"); lc {
		case "round":
		case scene.CapButt, scene.CapSquare:
			it.Cap = lc
		default: // a value SVG does not know, which it ignores for the initial butt
			it.Cap = scene.CapButt
		}
	}
	if corner {
		switch lj := cmp.Or(st.lineJoin, "miter"); lj {
		case "round":
		case scene.StrokeMiter, scene.StrokeBevel:
			it.Join = lj
		case "miter-clip", "arcs":
			// SVG 2's: cut at the limit, and curved; renderers that lack them draw a miter.
			it.Join = scene.StrokeMiter
			c.skip(e.name, "stroke-linejoin "+lj+" is drawn miter")
		default:
			it.Join = scene.StrokeMiter
		}
		if it.Join == scene.StrokeMiter && st.miterLimit != scene.StrokeMiterLimit {
			it.MiterLimit = st.miterLimit
			if it.MiterLimit > scene.MaxMiterLimit {
				it.MiterLimit = scene.MaxMiterLimit
				c.skip(e.name, fmt.Sprintf("stroke-miterlimit over %d is drawn %d (MaxMiterLimit)", scene.MaxMiterLimit, scene.MaxMiterLimit))
			}
		}
	}
}
