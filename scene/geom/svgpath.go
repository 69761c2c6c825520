package geom

// SVG path data ("M 0 0 L 10 0 A 5 5 0 0 1 ...") is the most compact way for a script or an
// imported file to hand over an outline, so it is parsed here straight into a Path, keeping
// Béziers and arcs exact rather than flattening them. The parser is a hand-written scanner,
// not a regular expression, because the grammar's corner cases (".5.5" is two numbers, arc
// flags need no separator, "1e-3" is one number but "1-3" is two) are easiest to get right one
// byte at a time, and because an error has to name the byte offset where the data went wrong.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// Caps on what ParsePathData accepts, so that hostile or runaway data fails fast with a clear
// message instead of exhausting memory further down (bounds, flattening, booleans).
const (
	// MaxPathDataBytes is the longest path data string ParsePathData accepts (1 MiB).
	MaxPathDataBytes = 1 << 20
	// MaxPathSegments is the most segments (moves and closes included) one path data string
	// may produce.
	MaxPathSegments = 100000
)

// ErrPathData is returned, wrapped in a *PathDataError, when SVG path data is malformed,
// holds a number that is not finite, or exceeds MaxPathDataBytes or MaxPathSegments.
var ErrPathData = errors.New("invalid svg path data")

// PathDataError reports where and why path data did not parse. It wraps ErrPathData.
type PathDataError struct {
	Offset  int    // 0-based byte offset into the data where the problem was found
	Problem string // what is wrong and what was expected instead
}

// Error reads "path data at offset N: problem".
func (e *PathDataError) Error() string {
	return fmt.Sprintf("path data at offset %d: %s", e.Offset, e.Problem)
}

// Unwrap lets errors.Is(err, ErrPathData) match.
func (e *PathDataError) Unwrap() error { return ErrPathData }

// pathDataCommands is the hint every "unknown command" message ends with.
const pathDataCommands = "M L H V C S Q T A Z"

// ParsePathData parses SVG path data (the "d" attribute; SVG 2 and SVG 1.1 grammar): the
// commands M L H V C S Q T A Z in absolute (upper-case) and relative (lower-case) forms, with
// implicit repetition of a command's parameters, S/T control-point reflection and compact
// numbers ("-1-2", ".5.5", "1e-3", arc flags without separators).
//
// Coordinates are taken as given, in the scene's frame, where Y points up: nothing is flipped,
// so a caller importing a Y-down SVG document applies Scaling(1, -1) (or its own transform)
// to the result. The arc sweep flag keeps its mathematical meaning in that frame: sweep-flag 1
// goes in the positive-angle direction, which with Y up is counter-clockwise, and sweep-flag 0
// goes clockwise. (A browser draws the same numbers Y down, where positive angles turn
// clockwise on screen; transforming the result by Scaling(1, -1) reproduces that picture.)
//
// Arcs are converted from SVG's endpoint parameterisation to SegArc's centre
// parameterisation (SVG implementation notes F.6.5), with the corrections of F.6.6: radii too
// small to reach the endpoint are scaled up, negative radii are made positive, a zero radius
// gives a straight line, and an arc whose endpoints coincide is omitted. The x-axis-rotation
// is in degrees.
//
// A drawing command that follows Z without an M starts a new subpath at the closed subpath's
// start, so a SegMove is emitted for it; a repeated Z is a no-op.
//
// Data must start with M or m (after optional whitespace). Errors are *PathDataError values
// wrapping ErrPathData and name the byte offset of the problem.
func ParsePathData(d string) (Path, error) {
	if len(d) > MaxPathDataBytes {
		return nil, &PathDataError{Offset: MaxPathDataBytes, Problem: fmt.Sprintf(
			"path data is %d bytes, longer than MaxPathDataBytes (%d bytes, 1 MiB); split it into several paths",
			len(d), MaxPathDataBytes)}
	}
	// Real path data spends about 8 bytes per segment; guessing the size up front saves
	// most of append's regrowth on long data, and a wrong guess only costs one more.
	p := pathParser{d: d, path: make(Path, 0, min(len(d)/8+1, MaxPathSegments))}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.path, nil
}

// ParsePathDataPrefix is ParsePathData that also returns, with an error, the segments read
// before it: SVG draws a path up to the first error in its data.
func ParsePathDataPrefix(d string) (Path, error) {
	if len(d) > MaxPathDataBytes {
		return ParsePathData(d)
	}
	p := pathParser{d: d, path: make(Path, 0, min(len(d)/8+1, MaxPathSegments))}
	err := p.parse()
	return p.path, err
}

// pathParser holds the scanner position and the drawing state SVG's relative commands and
// S/T reflection depend on.
type pathParser struct {
	d    string
	i    int // next byte to read
	path Path

	cur, start Vec // current point and the current subpath's start
	// ctrl is the last Bézier control point and ctrlKind the family that set it ('C' for C/S,
	// 'Q' for Q/T, 0 after any other command): S reflects only a C/S control and T only a Q/T.
	ctrl     Vec
	ctrlKind byte
	// closed is set by Z: the next drawing command other than M must start a subpath.
	closed bool

	cmd      byte // the command letter being read, as written
	groupOff int  // offset of the current parameter group, for errors about its result
}

func (p *pathParser) errorf(off int, format string, args ...any) error {
	return &PathDataError{Offset: off, Problem: fmt.Sprintf(format, args...)}
}

func (p *pathParser) parse() error {
	p.skipSpace()
	if p.i >= len(p.d) || (p.d[p.i] != 'M' && p.d[p.i] != 'm') {
		return p.errorf(p.i, "expected \"M\" or \"m\" to start the path, found %s", p.foundRune(p.i))
	}
	for {
		p.skipSpace()
		if p.i >= len(p.d) {
			return nil
		}
		off := p.i
		c := p.d[p.i]
		n := pathDataParams(c)
		if n < 0 {
			return p.commandError(off)
		}
		p.i++
		p.cmd = c
		if c == 'Z' || c == 'z' {
			if err := p.closePath(off); err != nil {
				return err
			}
			continue
		}
		if p.closed && c != 'M' && c != 'm' {
			if err := p.emit(off, Seg{Kind: SegMove, P: [3]Vec{p.start}}); err != nil {
				return err
			}
		}
		p.closed = false
		var args [7]float64
		for group := 0; ; group++ {
			p.groupOff = p.i
			if err := p.params(args[:n]); err != nil {
				return err
			}
			if err := p.draw(c, group, args[:n]); err != nil {
				return err
			}
			// Another parameter group, optionally after one comma, repeats the command.
			p.skipSpace()
			comma := false
			if p.i < len(p.d) && p.d[p.i] == ',' {
				comma = true
				p.i++
				p.skipSpace()
			}
			if p.i < len(p.d) && pdNumberStart(p.d[p.i]) {
				continue
			}
			if comma {
				return p.errorf(p.i, "expected a number after %q, found %s", string(p.cmd), p.foundToken(p.i))
			}
			break
		}
	}
}

// commandError explains why the byte at off cannot start a command.
func (p *pathParser) commandError(off int) error {
	c := p.d[off]
	switch {
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		return p.errorf(off, "unknown command %q; use one of %s", rune(c), pathDataCommands)
	case pdNumberStart(c) && (p.cmd == 'Z' || p.cmd == 'z'):
		return p.errorf(off, "expected a command letter after %q (it takes no numbers), found %s", string(p.cmd), p.foundToken(off))
	}
	return p.errorf(off, "expected a command letter (one of %s), found %s", pathDataCommands, p.foundRune(off))
}

// pathDataParams is how many parameters a command letter takes, or -1 if it is not a command.
func pathDataParams(c byte) int {
	switch c {
	case 'Z', 'z':
		return 0
	case 'H', 'h', 'V', 'v':
		return 1
	case 'M', 'm', 'L', 'l', 'T', 't':
		return 2
	case 'S', 's', 'Q', 'q':
		return 4
	case 'C', 'c':
		return 6
	case 'A', 'a':
		return 7
	}
	return -1
}

// params reads one parameter group of the current command into args. Inside a group the
// parameters may be separated by whitespace and at most one comma; before the first one only
// whitespace is allowed (the caller has already consumed a comma between groups).
func (p *pathParser) params(args []float64) error {
	arc := p.cmd == 'A' || p.cmd == 'a'
	for j := range args {
		if j > 0 {
			p.skipSpace()
			if p.i < len(p.d) && p.d[p.i] == ',' {
				p.i++
			}
		}
		p.skipSpace()
		if arc && (j == 3 || j == 4) {
			// A flag is exactly one character, so "0 01 1" reads as flags 0 and 0, then 1.
			if p.i < len(p.d) && (p.d[p.i] == '0' || p.d[p.i] == '1') {
				args[j] = float64(p.d[p.i] - '0')
				p.i++
				continue
			}
			name := "large-arc"
			if j == 4 {
				name = "sweep"
			}
			return p.errorf(p.i, "expected a %s flag (0 or 1) after %q, found %s", name, string(p.cmd), p.foundToken(p.i))
		}
		v, err := p.number()
		if err != nil {
			return err
		}
		args[j] = v
	}
	return nil
}

// number scans one SVG number: sign? (digits ("." digits?)? | "." digits) exponent?. It
// stops at the first byte that cannot continue the number, which is what makes "-1-2" and
// ".5.5" two numbers each.
func (p *pathParser) number() (float64, error) {
	d, start := p.d, p.i
	i := start
	if i < len(d) && (d[i] == '+' || d[i] == '-') {
		i++
	}
	digits := 0
	for i < len(d) && pdDigit(d[i]) {
		i++
		digits++
	}
	if i < len(d) && d[i] == '.' {
		i++
		for i < len(d) && pdDigit(d[i]) {
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, p.errorf(start, "expected a number after %q, found %s", string(p.cmd), p.foundToken(start))
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		j := i + 1
		if j < len(d) && (d[j] == '+' || d[j] == '-') {
			j++
		}
		if j >= len(d) || !pdDigit(d[j]) {
			return 0, p.errorf(start, "malformed number %q after %q: expected digits after the exponent, found %s",
				d[start:j], string(p.cmd), p.foundRune(j))
		}
		for j < len(d) && pdDigit(d[j]) {
			j++
		}
		i = j
	}
	text := d[start:i]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, p.errorf(start, "number %q after %q is out of range; use a finite number", text, string(p.cmd))
	}
	p.i = i
	return v, nil
}

// draw applies one parameter group of command c; group counts the groups read so far, since
// the groups after an M's first are line-tos.
func (p *pathParser) draw(c byte, group int, a []float64) error {
	rel := 'a' <= c && c <= 'z'
	var base Vec
	if rel {
		base = p.cur
	}
	pt := func(x, y float64) Vec { return Vec{base.X + x, base.Y + y} }
	kind, ctrl := byte(0), Vec{}
	var s Seg
	switch c {
	case 'M', 'm':
		if group == 0 {
			// The first m of the data is relative to the origin, which makes it absolute.
			end := pt(a[0], a[1])
			if err := p.emit(p.groupOff, Seg{Kind: SegMove, P: [3]Vec{end}}); err != nil {
				return err
			}
			p.cur, p.start, p.ctrlKind = end, end, 0
			return nil
		}
		s = Seg{Kind: SegLine, P: [3]Vec{pt(a[0], a[1])}}
	case 'L', 'l':
		s = Seg{Kind: SegLine, P: [3]Vec{pt(a[0], a[1])}}
	case 'H', 'h':
		s = Seg{Kind: SegLine, P: [3]Vec{{base.X + a[0], p.cur.Y}}}
	case 'V', 'v':
		s = Seg{Kind: SegLine, P: [3]Vec{{p.cur.X, base.Y + a[0]}}}
	case 'C', 'c':
		s = Seg{Kind: SegCubic, P: [3]Vec{pt(a[0], a[1]), pt(a[2], a[3]), pt(a[4], a[5])}}
		kind, ctrl = 'C', s.P[1]
	case 'S', 's':
		s = Seg{Kind: SegCubic, P: [3]Vec{p.reflect('C'), pt(a[0], a[1]), pt(a[2], a[3])}}
		kind, ctrl = 'C', s.P[1]
	case 'Q', 'q':
		s = Seg{Kind: SegQuad, P: [3]Vec{pt(a[0], a[1]), pt(a[2], a[3])}}
		kind, ctrl = 'Q', s.P[0]
	case 'T', 't':
		s = Seg{Kind: SegQuad, P: [3]Vec{p.reflect('Q'), pt(a[0], a[1])}}
		kind, ctrl = 'Q', s.P[0]
	case 'A', 'a':
		end := pt(a[5], a[6])
		if !pdFiniteVec(end) {
			return p.overflow()
		}
		arc, ok := arcFromEndpoints(p.cur, end, a[0], a[1], a[2], a[3] != 0, a[4] != 0)
		if ok {
			if err := p.emit(p.groupOff, arc); err != nil {
				return err
			}
		}
		// The requested endpoint, not the arc's computed one, so that relative commands
		// after it do not accumulate rounding.
		p.cur, p.ctrlKind = end, 0
		return nil
	}
	if err := p.emit(p.groupOff, s); err != nil {
		return err
	}
	p.cur, p.ctrl, p.ctrlKind = s.End(), ctrl, kind
	return nil
}

// reflect returns the first control point of an S (family 'C') or T (family 'Q'): the
// previous command's last control point mirrored about the current point, or the current
// point itself if the previous command was not of the same family.
func (p *pathParser) reflect(family byte) Vec {
	if p.ctrlKind != family {
		return p.cur
	}
	return p.cur.Mul(2).Sub(p.ctrl)
}

func (p *pathParser) closePath(off int) error {
	if p.closed {
		return nil // closing an empty subpath draws nothing
	}
	if err := p.emit(off, Seg{Kind: SegClose}); err != nil {
		return err
	}
	p.cur, p.ctrlKind, p.closed = p.start, 0, true
	return nil
}

// emit appends s after checking the segment cap and that no coordinate overflowed (relative
// steps or arc radii can leave the float64 range even when every number in the data is finite).
func (p *pathParser) emit(off int, s Seg) error {
	if len(p.path) >= MaxPathSegments {
		return p.errorf(off, "path has more than MaxPathSegments (%d) segments; split it into several paths", MaxPathSegments)
	}
	if !pdSegFinite(s) {
		return p.overflow()
	}
	p.path = append(p.path, s)
	return nil
}

func (p *pathParser) overflow() error {
	return p.errorf(p.groupOff, "coordinates of %q leave the float64 range; use smaller numbers", string(p.cmd))
}

func pdSegFinite(s Seg) bool {
	for _, v := range s.P {
		if !pdFiniteVec(v) {
			return false
		}
	}
	if s.Kind == SegArc {
		// Every arc point lies within |centre| + |U| + |V| per axis; keeping that sum finite
		// keeps Bounds and Flatten finite too.
		c, u, v := s.P[0], s.P[1], s.P[2]
		return pdFinite(s.T0) && pdFinite(s.T1) &&
			pdFinite(math.Abs(c.X)+math.Abs(u.X)+math.Abs(v.X)) &&
			pdFinite(math.Abs(c.Y)+math.Abs(u.Y)+math.Abs(v.Y))
	}
	return true
}

func pdFinite(x float64) bool   { return !math.IsInf(x, 0) && !math.IsNaN(x) }
func pdFiniteVec(v Vec) bool    { return pdFinite(v.X) && pdFinite(v.Y) }
func pdDigit(c byte) bool       { return '0' <= c && c <= '9' }
func pdNumberStart(c byte) bool { return pdDigit(c) || c == '.' || c == '-' || c == '+' }

// skipSpace skips SVG whitespace: space, tab, line feed, form feed and carriage return.
func (p *pathParser) skipSpace() {
	for p.i < len(p.d) {
		switch p.d[p.i] {
		case ' ', '\t', '\n', '\f', '\r':
			p.i++
		default:
			return
		}
	}
}

// foundRune describes the character at off for an error message.
func (p *pathParser) foundRune(off int) string {
	if off >= len(p.d) {
		return "end of data"
	}
	_, n := utf8.DecodeRuneInString(p.d[off:])
	return strconv.Quote(p.d[off : off+n])
}

// foundToken describes what stands at off where a number was expected: the run of bytes up
// to the next separator (at most about 16 bytes), so that "-x" is shown whole.
func (p *pathParser) foundToken(off int) string {
	if off >= len(p.d) {
		return "end of data"
	}
	end := off
	for end < len(p.d) && end-off < 16 {
		c := p.d[end]
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ',' {
			break
		}
		end++
	}
	if end == off {
		return p.foundRune(off)
	}
	for end < len(p.d) && !utf8.RuneStart(p.d[end]) {
		end++ // do not cut a multi-byte character in half
	}
	return strconv.Quote(p.d[off:end])
}

// arcFromEndpoints converts an SVG elliptical arc from `from` to `to` (endpoint parameterisation) into
// a SegArc (centre parameterisation), following SVG implementation notes F.6.5 and F.6.6.
// ok is false when the arc is to be omitted (coincident endpoints); a zero radius gives a
// SegLine. The maths is done in coordinates normalised by the radii, so that squaring large
// or small values never overflows or underflows.
func arcFromEndpoints(from, to Vec, rx, ry, phiDeg float64, large, sweep bool) (seg Seg, ok bool) {
	if from == to {
		return Seg{}, false
	}
	rx, ry = math.Abs(rx), math.Abs(ry)
	line := Seg{Kind: SegLine, P: [3]Vec{to}}
	if rx == 0 || ry == 0 {
		return line, true
	}
	sin, cos := pdSincosDeg(phiDeg)
	// F.6.5.1: half the chord, in the ellipse's own (unrotated) axes. Halving before
	// subtracting keeps the difference of two huge coordinates finite.
	hx, hy := from.X/2-to.X/2, from.Y/2-to.Y/2
	x1 := cos*hx + sin*hy
	y1 := -sin*hx + cos*hy
	if x1 == 0 && y1 == 0 {
		return line, true // endpoints differ by less than float64 can halve: no room for an arc
	}
	// On the unit circle the ellipse becomes when divided by its radii, the start point is
	// s·(an, bn) from the chord midpoint: s = sqrt(Λ) of F.6.6 and (an, bn) a unit vector. The
	// direction is computed from the radii's ratio rather than from x1/rx and y1/ry, which
	// underflow when a huge arc has a tiny chord.
	dx, dy := x1, y1
	if rx >= ry {
		dx *= ry / rx
	} else {
		dy *= rx / ry
	}
	h := math.Hypot(dx, dy)
	if h == 0 { // dx underflowed and y1 is 0
		dx, dy, h = math.Copysign(1, x1), 0, 1
	}
	an, bn := dx/h, dy/h
	s := math.Hypot(x1/rx, y1/ry)
	var k float64 // distance of the centre from the chord midpoint on that unit circle
	if s >= 1 || math.IsNaN(s) {
		// F.6.6: the radii cannot reach; scale them by s so that the chord is a diameter.
		// Written with the radii's ratio so that a tiny radius does not overflow x1/rx.
		ratio := rx / ry
		rx = math.Hypot(x1, pdMulNonZero(y1, ratio))
		ry = math.Hypot(pdMulNonZero(x1, 1/ratio), y1)
		s = 1
	} else {
		// F.6.5.2: the centre sits sqrt(1 - Λ) from the midpoint, on the side the flags pick.
		k = math.Sqrt((1 - s) * (1 + s))
		if large == sweep {
			k = -k
		}
	}
	// Centre in the ellipse's axes (F.6.5.2), then rotated back and moved to the chord's
	// midpoint (F.6.5.3).
	cx, cy := k*rx*bn, -k*ry*an
	centre := Vec{cos*cx - sin*cy + (from.X/2 + to.X/2), sin*cx + cos*cy + (from.Y/2 + to.Y/2)}
	// F.6.5.5-6: start angle and sweep. u and v are the start and end points seen from the
	// centre on the unit circle; the sweep is their signed angle, pushed to the requested side.
	u := Vec{s*an - k*bn, s*bn + k*an}
	v := Vec{-s*an - k*bn, -s*bn + k*an}
	t0 := math.Atan2(u.Y, u.X)
	dt := math.Atan2(u.X*v.Y-u.Y*v.X, u.X*v.X+u.Y*v.Y)
	if sweep && dt < 0 {
		dt += 2 * math.Pi
	} else if !sweep && dt > 0 {
		dt -= 2 * math.Pi
	}
	// When the chord is negligible next to the radii, rounding can put a large arc's sweep
	// near 0 or a small arc's near a full turn; the large-arc flag says which one is meant.
	if large && math.Abs(dt) < math.Pi/2 {
		dt = math.Copysign(2*math.Pi, pdBoolSign(sweep))
	} else if !large && math.Abs(dt) > 3*math.Pi/2 {
		dt = 0
	}
	return Seg{
		Kind: SegArc,
		P:    [3]Vec{centre, {rx * cos, rx * sin}, {-ry * sin, ry * cos}},
		T0:   t0,
		T1:   t0 + dt,
	}, true
}

// pdBoolSign is 1 for true and -1 for false.
func pdBoolSign(b bool) float64 {
	if b {
		return 1
	}
	return -1
}

// pdMulNonZero is x*y, except that 0 times an infinite ratio stays 0 instead of NaN.
func pdMulNonZero(x, y float64) float64 {
	if x == 0 {
		return 0
	}
	return x * y
}

// pdSincosDeg returns the sine and cosine of deg degrees, exact for multiples of 90 so that an
// axis-aligned ellipse gets axis-aligned U and V.
func pdSincosDeg(deg float64) (sin, cos float64) {
	m := math.Mod(deg, 360)
	if m < 0 {
		m += 360
	}
	switch m {
	case 0:
		return 0, 1
	case 90:
		return 1, 0
	case 180:
		return 0, -1
	case 270:
		return -1, 0
	}
	return math.Sincos(m * math.Pi / 180)
}
