package svg

// Path data for drawBezier, written from a geom.Path already in scene coordinates (Y up):
// absolute commands only, arcs as A commands of at most half a turn each (so the large-arc
// flag is always 0), numbers to 12 significant digits.

import (
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// pathString writes p as SVG path data in its own frame, Y up: sweep flag 1 is
// counter-clockwise, as drawBezier reads it.
func pathString(p geom.Path) string {
	var b strings.Builder
	var cur geom.Vec
	cmd := func(c byte, pts ...geom.Vec) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
		for _, q := range pts {
			b.WriteByte(' ')
			b.WriteString(Num(q.X))
			b.WriteByte(' ')
			b.WriteString(Num(q.Y))
		}
	}
	var first geom.Vec
	for _, s := range p {
		switch s.Kind {
		case geom.SegMove:
			cmd('M', s.P[0])
			first = s.P[0]
		case geom.SegLine:
			cmd('L', s.P[0])
		case geom.SegQuad:
			cmd('Q', s.P[0], s.P[1])
		case geom.SegCubic:
			cmd('C', s.P[0], s.P[1], s.P[2])
		case geom.SegArc:
			if start := s.ArcPoint(s.T0); start.Sub(cur).Len() > 1e-9*(1+start.Len()) {
				cmd('L', start)
			}
			arc(&b, s, cmd)
		case geom.SegClose:
			cmd('Z')
			cur = first
			continue
		}
		cur = s.End()
	}
	return b.String()
}

// arc writes an elliptical arc segment as A commands of at most half a turn.
func arc(b *strings.Builder, s geom.Seg, cmd func(byte, ...geom.Vec)) {
	u, v := s.P[1], s.P[2]
	// The semi-axes and orientation of c + u cos t + v sin t: the singular values and left
	// singular vector of the matrix [u v].
	e, f := (u.X+v.Y)/2, (u.X-v.Y)/2
	g, h := (u.Y+v.X)/2, (u.Y-v.X)/2
	q, r := math.Hypot(e, h), math.Hypot(f, g)
	rx, ry := q+r, math.Abs(q-r)
	phi := 0.0
	if !(rx-ry <= 1e-12*rx) {
		phi = (math.Atan2(h, e) + math.Atan2(g, f)) / 2
	}
	sweep := "0"
	if (s.T1 > s.T0) == (u.X*v.Y-u.Y*v.X > 0) {
		sweep = "1" // counter-clockwise, Y up
	}
	total := s.T1 - s.T0
	pieces := int(math.Max(1, math.Ceil(math.Abs(total)/math.Pi-1e-9)))
	for i := 1; i <= pieces; i++ {
		end := s.ArcPoint(s.T0 + total*float64(i)/float64(pieces))
		cmd('A')
		b.WriteString(" " + Num(rx) + " " + Num(ry) + " " + Num(phi*180/math.Pi) + " 0 " + sweep + " " + Num(end.X) + " " + Num(end.Y))
	}
}

// minWritten is the least size Num writes as other than 0.
const minWritten = 1e-9

// Num writes a number cadrun worked out: 12 significant digits, below any drawing's precision
// and free of float noise, and 0 for anything under 1e-9 (the noise a turn by a quarter leaves
// where a coordinate is 0); a number the file wrote (and the identity map kept) comes back as
// the file wrote it.
func Num(v float64) string {
	if math.Abs(v) < minWritten {
		return "0"
	}
	s := strconv.FormatFloat(v, 'g', 12, 64)
	f, _ := strconv.ParseFloat(s, 64)
	if f == 0 {
		return "0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}
