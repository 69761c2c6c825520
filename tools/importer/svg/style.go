package svg

// Styles: the presentation attributes, the stylesheets' rules over them (css.go writes those
// into the attributes) and the style attribute (which wins), inherited down the
// tree as SVG inherits them. Only what cadrun can draw is kept: fill, stroke, stroke width,
// opacity, display, font size and text anchor. Colours are named, #rgb, #rrggbb or rgb(); a
// paint cadrun cannot draw (a gradient or pattern, url(#...)) is none, counted as skipped.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Color is an RGBA colour with channels in 0..1, as cadrun takes them.
type Color [4]float64

// style is the inherited style at an element.
type style struct {
	fill, stroke   *Color // nil: none
	strokeWidth    float64
	nonScaling     bool // vector-effect: non-scaling-stroke (a hairline)
	fillOpacity    float64
	strokeOpacity  float64
	opacity        float64 // not inherited: the product of the ancestors' and the element's
	fontSize       float64
	anchor         string
	display        bool
	visible        bool
	evenOdd        bool
	clipEvenOdd    bool // clip-rule: evenodd
	fillURL        bool // the fill was a url(#...) paint
	strokeURL      bool
	fillCurrent    bool
	strokeCurrent  bool
	color          Color // currentColor
	fontFamilyBold bool
	// diag is what a percentage of a stroke's lengths is of: the viewport's diagonal over
	// the square root of 2, set by the reader for the element being styled.
	diag float64
	// badPaint names a fill or stroke value the element gave that could not be read
	// (not inherited).
	badPaint string
	// contextPaint names a context-fill or context-stroke the element gave outside a
	// marker's or a <use>'s content (drawn as none).
	contextPaint string
	// ctx is the paints of the context element, the path a marker is drawn for or the
	// <use> showing the content, which context-fill and context-stroke take there; nil
	// elsewhere (inherited).
	ctx *contextPaints
	// dashes is stroke-dasharray in user units, nil for solid; dashOffset is
	// stroke-dashoffset; lineCap and lineJoin are as written ("" for SVG's butt and miter).
	dashes     []float64
	dashOffset float64
	lineCap    string
	lineJoin   string
	// miterLimit is stroke-miterlimit, 0 for SVG's 4.
	miterLimit float64
	// baseline is the text's dominant-baseline, or a tspan's alignment-baseline, as written
	// ("" for auto): inherited, as SVG 2 and browsers take it.
	baseline string
	mono     bool // a monospace font-family
	// family is font-family as written, "" when no element gives one.
	family string
	italic bool // font-style italic or oblique
	// filter and blend are the element's filter and mix-blend-mode ("" for none and normal),
	// not drawn and not inherited; markers are marker-start, -mid and -end as written, ""
	// for none (inherited).
	filter, blend string
	markers       [3]string
	// strokeFirst is paint-order putting the stroke under the fill (inherited).
	strokeFirst bool
	// decoration is the text-decoration lines given on the element and its ancestors from
	// its <text> on (CSS propagates them to the text inside, and none does not take an
	// ancestor's away; SVG applies them to text content elements only, not a <g> around);
	// decorationOther is what else the element's own value says (a style, a colour), which
	// is not drawn (not inherited).
	decoration      decoration
	decorationOther string
}

// contextPaints are the fill and stroke paints of a context element, as its properties give
// them (a url paint's fallback colour, or none, with the url noted where the paint is taken):
// a path's with its fill-opacity and stroke-opacity, a <use>'s without.
type contextPaints struct {
	fill, stroke       *Color
	fillURL, strokeURL bool
}

// of is the paint context-fill or context-stroke (v) takes, and whether it was a url paint.
func (p *contextPaints) of(v string) (*Color, bool) {
	if v == "context-stroke" {
		return p.stroke, p.strokeURL
	}
	return p.fill, p.fillURL
}

// textContent are the elements text-decoration applies to (SVG 1.1's text content elements).
var textContent = map[string]bool{"text": true, "tspan": true, "a": true, "textPath": true}

// decoration is a set of text-decoration lines.
type decoration uint8

// The lines text-decoration draws.
const (
	underline decoration = 1 << iota
	overline
	lineThrough
)

// initialStyle is SVG's initial style: black fill, no stroke, width 1, 16px text.
func initialStyle() style {
	black := Color{0, 0, 0, 1}
	return style{fill: &black, strokeWidth: 1, fillOpacity: 1, strokeOpacity: 1, opacity: 1,
		fontSize: 16, display: true, visible: true, color: black}
}

// properties are an element's own style declarations: the presentation attributes, then the
// style attribute over them.
func properties(e *element) map[string]string {
	p := map[string]string{}
	for _, k := range []string{"fill", "stroke", "stroke-width", "fill-opacity", "stroke-opacity", "opacity",
		"display", "visibility", "font-size", "text-anchor", "fill-rule", "vector-effect", "color", "font-weight",
		"stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "transform-origin", "overflow",
		"clip-path", "clip-rule", "mask", "dominant-baseline", "alignment-baseline", "baseline-shift",
		"letter-spacing", "word-spacing", "writing-mode", "font-family", "font-style", "text-decoration",
		"filter", "mix-blend-mode", cssMarker, "marker-start", "marker-mid", "marker-end", "paint-order"} {
		if v, ok := e.attrs[k]; ok {
			p[k] = strings.TrimSpace(v)
		}
	}
	if v, ok := p[cssMarker]; ok {
		delete(p, cssMarker)
		p["marker"] = v
	}
	for _, decl := range strings.Split(e.attr("style"), ";") {
		k, v, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		p[strings.ToLower(strings.TrimSpace(k))] = v
	}
	return p
}

// child is the style of element e inside a parent styled s.
func (s style) child(e *element) style {
	p := properties(e)
	s.opacity *= opacity(p["opacity"], 1)
	s.badPaint, s.contextPaint = "", ""
	s.display = p["display"] != "none"
	if v, ok := p["color"]; ok {
		if c, ok := parseColor(v); ok {
			s.color = c
		}
	}
	// A paint SVG cannot read is ignored, as if not given: the inherited one is drawn.
	if v, ok := p["fill"]; ok && v != "inherit" {
		if c, url, cur, ok := paint(v, s.color); ok {
			s.fill, s.fillURL, s.fillCurrent = c, url, cur
			if strings.HasPrefix(v, "context-") {
				if s.ctx != nil {
					s.fill, s.fillURL = s.ctx.of(v)
				} else {
					s.contextPaint = "fill " + v
				}
			}
		} else {
			s.badPaint = "fill " + strconv.Quote(clip(v))
		}
	}
	if v, ok := p["stroke"]; ok && v != "inherit" {
		if c, url, cur, ok := paint(v, s.color); ok {
			s.stroke, s.strokeURL, s.strokeCurrent = c, url, cur
			if strings.HasPrefix(v, "context-") {
				if s.ctx != nil {
					s.stroke, s.strokeURL = s.ctx.of(v)
				} else {
					s.contextPaint = "stroke " + v
				}
			}
		} else {
			s.badPaint = "stroke " + strconv.Quote(clip(v))
		}
	}
	if v, ok := p["stroke-width"]; ok {
		if w, ok := lengthOf(v, s.fontSize, s.diag); ok && w >= 0 {
			s.strokeWidth = w
		}
	}
	if v, ok := p["fill-opacity"]; ok {
		s.fillOpacity = opacity(v, s.fillOpacity)
	}
	if v, ok := p["stroke-opacity"]; ok {
		s.strokeOpacity = opacity(v, s.strokeOpacity)
	}
	if v, ok := p["visibility"]; ok && v != "inherit" {
		s.visible = v == "visible"
	}
	if v, ok := p["font-size"]; ok {
		if f, ok := fontSize(v, s.fontSize); ok && f > 0 {
			s.fontSize = f
		}
	}
	for _, k := range []string{"dominant-baseline", "alignment-baseline"} {
		if v, ok := p[k]; ok && v != "inherit" {
			s.baseline = v
		}
	}
	if v, ok := p["font-style"]; ok && v != "inherit" {
		s.italic = v == "italic" || strings.HasPrefix(v, "oblique")
	}
	if v, ok := p["font-family"]; ok && v != "inherit" {
		lv := strings.ToLower(v)
		s.mono = strings.Contains(lv, "mono") || strings.Contains(lv, "courier")
		s.family = v
	}
	if v, ok := p["text-anchor"]; ok && v != "inherit" {
		s.anchor = v
	}
	if v, ok := p["fill-rule"]; ok && v != "inherit" {
		s.evenOdd = v == "evenodd"
	}
	if v, ok := p["clip-rule"]; ok && v != "inherit" {
		s.clipEvenOdd = v == "evenodd"
	}
	if v, ok := p["font-weight"]; ok && v != "inherit" {
		s.fontFamilyBold = v == "bold" || v == "bolder" || v >= "600" && len(v) == 3
	}
	if v, ok := p["stroke-dasharray"]; ok && v != "inherit" {
		s.dashes = dashArray(v, s.fontSize, s.diag)
	}
	if v, ok := p["stroke-dashoffset"]; ok && v != "inherit" {
		if f, ok := lengthOf(v, s.fontSize, s.diag); ok {
			s.dashOffset = f
		}
	}
	if v, ok := p["stroke-linecap"]; ok && v != "inherit" {
		s.lineCap = v
	}
	if v, ok := p["stroke-linejoin"]; ok && v != "inherit" {
		s.lineJoin = v
	}
	if v, ok := p["stroke-miterlimit"]; ok && v != "inherit" {
		// A limit below 1, or one that is not a number, is an error SVG ignores.
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= 1 && !math.IsInf(f, 0) {
			s.miterLimit = f // capped where it is used (capsAndJoins)
		}
	}
	s.nonScaling = p["vector-effect"] == "non-scaling-stroke"
	s.filter, s.blend = "", ""
	if v := p["filter"]; v != "" && v != "none" {
		s.filter = v
	}
	if v := p["mix-blend-mode"]; v != "" && v != "normal" {
		s.blend = v
	}
	if v, ok := p["paint-order"]; ok && v != "inherit" {
		// The first of fill and stroke named paints first; a list naming neither is SVG's
		// fill, then stroke.
		s.strokeFirst = false
		for _, f := range strings.Fields(v) {
			if f == "fill" || f == "stroke" {
				s.strokeFirst = f == "stroke"
				break
			}
		}
	}
	s.decorationOther = ""
	if e.name == "text" {
		s.decoration = 0 // what is above a text is not text: its decoration is not the text's
	}
	if v, ok := p["text-decoration"]; ok && v != "inherit" && textContent[e.name] {
		for _, f := range strings.Fields(strings.ToLower(v)) {
			switch f {
			case "underline":
				s.decoration |= underline
			case "overline":
				s.decoration |= overline
			case "line-through":
				s.decoration |= lineThrough
			case "none", "solid":
			default:
				s.decorationOther = v
			}
		}
	}
	if v, ok := p["marker"]; ok && v != "inherit" {
		s.markers = [3]string{markerValue(v), markerValue(v), markerValue(v)}
	}
	for i, k := range []string{"marker-start", "marker-mid", "marker-end"} {
		if v, ok := p[k]; ok && v != "inherit" {
			s.markers[i] = markerValue(v)
		}
	}
	return s
}

// markerValue is a marker property's value as kept: "" for none.
func markerValue(v string) string {
	if v == "none" {
		return ""
	}
	return v
}

// paint reads a fill or stroke value: a colour, none, currentColor, or url(#...) (drawn as
// none: gradients and patterns are not imported); false for a value it cannot read.
func paint(v string, current Color) (c *Color, url, isCurrent, ok bool) {
	switch {
	case v == "none" || v == "transparent":
		return nil, false, false, true
	case v == "context-fill" || v == "context-stroke":
		// SVG 2's paint of the context element, the path a marker is drawn for or the
		// <use> showing the content: style.child takes it there; elsewhere it is drawn as
		// none, which is what it is where there is no such element.
		return nil, false, false, true
	case strings.HasPrefix(v, "url("):
		// url(#g) fallback: a colour after the url is used when the reference fails.
		if i := strings.IndexByte(v, ')'); i >= 0 {
			if fb, ok := parseColor(strings.TrimSpace(v[i+1:])); ok {
				return &fb, true, false, true
			}
		}
		return nil, true, false, true
	case strings.EqualFold(v, "currentColor"):
		c := current
		return &c, false, true, true
	}
	col, ok := parseColor(v)
	if !ok {
		return nil, false, false, false
	}
	return &col, false, false, true
}

// parseColor reads a colour keyword, #rgb, #rrggbb, #rgba, #rrggbbaa or rgb()/rgba() with
// numbers or percentages.
func parseColor(v string) (Color, bool) {
	v = strings.TrimSpace(v)
	lv := strings.ToLower(v)
	if i := strings.Index(lv, "icc-color("); i > 0 {
		// SVG 1.1's ICC colour follows the sRGB one it falls back to, which is drawn.
		return parseColor(lv[:i])
	}
	if strings.HasPrefix(lv, "#") {
		h := lv[1:]
		if len(h) == 3 || len(h) == 4 {
			var b strings.Builder
			for _, r := range h {
				b.WriteRune(r)
				b.WriteRune(r)
			}
			h = b.String()
		}
		if len(h) != 6 && len(h) != 8 {
			return Color{}, false
		}
		n, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return Color{}, false
		}
		if len(h) == 6 {
			n = n<<8 | 0xff
		}
		return Color{float64(n>>24&0xff) / 255, float64(n>>16&0xff) / 255, float64(n>>8&0xff) / 255, float64(n&0xff) / 255}, true
	}
	if strings.HasPrefix(lv, "hsl(") || strings.HasPrefix(lv, "hsla(") {
		return hsl(lv)
	}
	if strings.HasPrefix(lv, "rgb(") || strings.HasPrefix(lv, "rgba(") {
		in := lv[strings.IndexByte(lv, '(')+1:]
		in = strings.TrimSuffix(strings.TrimSpace(in), ")")
		parts := strings.FieldsFunc(in, func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
		if len(parts) != 3 && len(parts) != 4 {
			return Color{}, false
		}
		c := Color{0, 0, 0, 1}
		for i, p := range parts {
			scale := 255.0
			if i == 3 {
				scale = 1
			}
			if strings.HasSuffix(p, "%") {
				p, scale = strings.TrimSuffix(p, "%"), 100
			}
			f, err := strconv.ParseFloat(p, 64)
			if err != nil || math.IsNaN(f) {
				return Color{}, false
			}
			c[i] = math.Max(0, math.Min(1, f/scale))
		}
		return c, true
	}
	if c, ok := colorKeyword(lv); ok {
		return Color{float64(c.r) / 255, float64(c.g) / 255, float64(c.b) / 255, 1}, true
	}
	return Color{}, false
}

// hsl reads hsl() or hsla(): a hue in degrees (or deg, grad, rad, turn), saturation and
// lightness in percentages, and an optional alpha, as CSS converts them to RGB.
func hsl(lv string) (Color, bool) {
	in := strings.TrimSuffix(strings.TrimSpace(lv[strings.IndexByte(lv, '(')+1:]), ")")
	parts := strings.FieldsFunc(in, func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) != 3 && len(parts) != 4 {
		return Color{}, false
	}
	hue, unit := splitUnit(parts[0])
	h, err := strconv.ParseFloat(hue, 64)
	perTurn := map[string]float64{"": 360, "deg": 360, "grad": 400, "rad": 2 * math.Pi, "turn": 1}[unit]
	if err != nil || perTurn == 0 || math.IsNaN(h) || math.IsInf(h, 0) {
		return Color{}, false
	}
	h = math.Mod(h/perTurn, 1)
	if h < 0 {
		h++
	}
	var sl [2]float64
	for i, p := range parts[1:3] {
		f, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		if err != nil || math.IsNaN(f) {
			return Color{}, false
		}
		sl[i] = math.Max(0, math.Min(1, f/100))
	}
	sat, light := sl[0], sl[1]
	q := light + sat - light*sat
	if light <= 0.5 {
		q = light * (1 + sat)
	}
	p := 2*light - q
	channel := func(t float64) float64 {
		t = math.Mod(t+1, 1)
		switch {
		case t < 1.0/6:
			return p + (q-p)*6*t
		case t < 0.5:
			return q
		case t < 2.0/3:
			return p + (q-p)*(2.0/3-t)*6
		}
		return p
	}
	c := Color{channel(h + 1.0/3), channel(h), channel(h - 1.0/3), 1}
	if len(parts) == 4 {
		c[3] = opacity(parts[3], 1)
	}
	return c, true
}

// opacity reads a number in 0..1 or a percentage; def when it does not parse.
func opacity(v string, def float64) float64 {
	if v == "" {
		return def
	}
	scale := 1.0
	if strings.HasSuffix(v, "%") {
		v, scale = strings.TrimSuffix(v, "%"), 100
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) {
		return def
	}
	return math.Max(0, math.Min(1, f/scale))
}

// fontSizes are CSS's absolute font-size keywords, in px.
var fontSizes = map[string]float64{"xx-small": 9, "x-small": 10, "small": 13, "medium": 16, "large": 18,
	"x-large": 24, "xx-large": 32, "xxx-large": 48}

// fontSize reads a font-size: a length (em and ex of the parent's size), a percentage of the
// parent's, a keyword, or larger and smaller (by 1.2, as browsers take them).
func fontSize(v string, parent float64) (float64, bool) {
	lv := strings.ToLower(strings.TrimSpace(v))
	if f, ok := fontSizes[lv]; ok {
		return f, true
	}
	switch lv {
	case "larger":
		return parent * 1.2, true
	case "smaller":
		return parent / 1.2, true
	}
	return lengthOf(lv, parent, parent)
}

// unitsPerInch is how many of each unit make an inch (CSS: 96 px to the inch).
var unitsPerInch = map[string]float64{"px": 96, "": 96, "in": 1, "mm": 25.4, "cm": 2.54, "pt": 72, "pc": 6, "q": 101.6}

// length reads a length in user units (px); em is the font size, a percentage is refused.
func length(v string, em float64) (float64, bool) {
	v = strings.TrimSpace(v)
	num, unit := splitUnit(v)
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	switch unit {
	case "em":
		return f * em, true
	case "ex":
		return f * em / 2, true
	case "%":
		return 0, false
	}
	per, ok := unitsPerInch[unit]
	if !ok {
		return 0, false
	}
	return f * 96 / per, true
}

// lengthOf is length with a percentage of of.
func lengthOf(v string, em, of float64) (float64, bool) {
	if n, ok := strings.CutSuffix(strings.TrimSpace(v), "%"); ok {
		f, err := strconv.ParseFloat(n, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, false
		}
		return f / 100 * of, true
	}
	return length(v, em)
}

// splitUnit splits "12.5mm" into "12.5" and "mm".
func splitUnit(v string) (string, string) {
	i := len(v)
	for i > 0 && (v[i-1] >= 'a' && v[i-1] <= 'z' || v[i-1] >= 'A' && v[i-1] <= 'Z' || v[i-1] == '%') {
		i--
	}
	return v[:i], strings.ToLower(v[i:])
}

// fillColor is the fill as drawn (opacities applied), nil for none.
func (s style) fillColor() *Color { return withAlpha(s.fill, s.fillOpacity*s.opacity) }

// strokeColor is the stroke as drawn, nil for none: a stroke of width 0 draws nothing in SVG
// (in cadrun it would be a hairline).
func (s style) strokeColor() *Color {
	if s.strokeWidth == 0 {
		return nil
	}
	return withAlpha(s.stroke, s.strokeOpacity*s.opacity)
}

func withAlpha(c *Color, a float64) *Color {
	if c == nil || c[3]*a == 0 {
		return nil
	}
	out := *c
	out[3] *= a
	return &out
}

func (c Color) String() string {
	return fmt.Sprintf("rgba(%g, %g, %g, %g)", c[0], c[1], c[2], c[3])
}
