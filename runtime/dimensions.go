package runtime

// The dimension functions. Each reads its points (literal points, or entity names resolved to
// their centres when the call runs), builds a scene.Dimension and applies the common options
// (text, precision, units, size, color, layer). The points a script gives are in the frame
// the dimension is drawn in, as drawCircle's are; names resolve in world space and are mapped
// into that frame.

import (
	"math"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// dimOptionKeys are the options every dimension function takes.
var dimOptionKeys = []string{"text", "precision", "units", "size", "textAt", "color", "layer"}

const dimOptionsType = "text?: string, precision?: number, units?: string, size?: number, textAt?: [number, number], color?: number[], layer?: string"

const dimOptionsDoc = "text replaces the measured text ('<>' stands for it: '<> H7'); precision: digits after the point (0 to 8), trailing zeros dropped; units: appended to the number (' mm'); size: text height in scene units (arrows and gaps follow it); textAt: the point [x, y] the text's middle stands at, in place of the middle of its line (the lines stay, the text keeps their direction); color: stroke and fill; layer: as setLayer"

var pDimPoint = func(name string) Param {
	return Param{Name: name, Type: "[number, number] | string", Unit: "scene units",
		Doc: "a point, or an entity name: a circle's, arc's or ellipse's centre, otherwise the centre of its world bounds"}
}

var dimFuncs = []Func{
	{Name: "dimLinear", Domain: "dimensions", Returns: "boolean",
		Doc: "Dimension the distance between two points (aligned with them, or along x or y), drawn with extension lines, arrows and the measured value; it measures its points under its world transform on every run. A positive offset puts the dimension line above a horizontal dimension, left of a vertical one, and left of the direction from a to b for an aligned one (above, for a to the left of b); a negative offset, the other side.",
		Params: []Param{pName, pDimPoint("a"), pDimPoint("b"),
			{Name: "options", Type: "{offset?: number, direction?: 'aligned' | 'horizontal' | 'vertical', " + dimOptionsType + "}", Optional: true,
				Default: "{offset: 3 * size, direction: 'aligned', precision: 2, size: 2.5}",
				Doc:     "offset: distance of the dimension line from the measured point further that way: positive above a horizontal dimension (whichever way a to b runs), left of a vertical one, left of a to b for an aligned one; " + dimOptionsDoc}},
		Example: "drawRect('plate', 20, 10, 40, 20); dimLinear('width', [0, 20], [40, 20], {direction: 'horizontal', offset: 8})",
		impl: func(c *call) goja.Value {
			o := c.opts(3, append([]string{"offset", "direction"}, dimOptionKeys...)...)
			frame := c.dimFrame()
			d := &scene.Dimension{Type: scene.DimType(c.optStr(o, "direction", "aligned")),
				Points: []geom.Vec{c.dimPoint(1, frame), c.dimPoint(2, frame)}}
			switch d.Type {
			case scene.DimAligned, scene.DimHorizontal, scene.DimVertical:
			default:
				c.fail("TypeError", "option direction must be 'aligned', 'horizontal' or 'vertical', got %q", d.Type)
			}
			c.dimOptions(o, d)
			d.Offset = c.optNum(o, "offset", 3*d.Size)
			return c.putDim(d, o)
		}},
	dimRadial("dimRadius", scene.DimRadius, "Dimension a circle's or arc's radius (R10), drawn from its centre to the curve with an arrow; it follows the circle's size on every run.",
		"drawCircle('hole', 0, 0, 6); dimRadius('r', 'hole', {angle: Math.PI / 4})"),
	dimRadial("dimDiameter", scene.DimDiameter, "Dimension a circle's or arc's diameter (Ø12) across its centre with an arrow at each end; it follows the circle's size on every run.",
		"drawCircle('bore', 0, 0, 10); dimDiameter('d', 'bore', {text: '<> H7'})"),
	{Name: "dimAngle", Domain: "dimensions", Returns: "boolean",
		Doc: "Dimension the angle at centre from the ray through a counter-clockwise to the ray through b, in degrees, with an arc and arrows.",
		Params: []Param{pName, pDimPoint("centre"), pDimPoint("a"), pDimPoint("b"),
			{Name: "options", Type: "{radius?: number, " + dimOptionsType + "}", Optional: true,
				Default: "{radius: the distance to the nearer point, precision: 2, size: 2.5}",
				Doc:     "radius: of the dimension arc; " + dimOptionsDoc}},
		Example: "drawLine('legs', [30, 0, 0, 0, 20, 20]); dimAngle('a', [0, 0], [30, 0], [20, 20], {radius: 15})",
		impl: func(c *call) goja.Value {
			o := c.opts(4, append([]string{"radius"}, dimOptionKeys...)...)
			frame := c.dimFrame()
			cen, a, b := c.dimPoint(1, frame), c.dimPoint(2, frame), c.dimPoint(3, frame)
			d := &scene.Dimension{Type: scene.DimAngle, Points: []geom.Vec{cen, a, b}}
			c.dimOptions(o, d)
			d.Radius = c.optNum(o, "radius", math.Min(a.Sub(cen).Len(), b.Sub(cen).Len()))
			if d.Radius <= 0 {
				c.fail("RangeError", "option radius must be > 0, got %v", d.Radius)
			}
			return c.putDim(d, o)
		}},
}

// dimRadial is dimRadius or dimDiameter.
func dimRadial(name string, typ scene.DimType, doc, example string) Func {
	return Func{Name: name, Domain: "dimensions", Returns: "boolean", Doc: doc,
		Params: []Param{pName, {Name: "circle", Type: "string", Doc: "a circle or an arc"},
			{Name: "options", Type: "{angle?: number /* radians */, outside?: boolean, " + dimOptionsType + "}", Optional: true,
				Default: "{angle: an arc's middle, else π/4, outside: false, precision: 2, size: 2.5}",
				Doc:     "angle: direction of the dimension line from the centre, in radians; outside: the text outside the circle even where it fits inside; " + dimOptionsDoc}},
		Example: example,
		impl: func(c *call) goja.Value {
			o := c.opts(2, append([]string{"angle", "outside"}, dimOptionKeys...)...)
			target := c.str(1)
			e, ok := c.r.scene.Lookup(target)
			if !ok {
				c.fail("Error", "no entity named %q; draw the circle or arc first, or check the name", target)
			}
			var centre geom.Vec
			var r, angle float64
			switch g := e.Shape.(type) {
			case scene.Circle:
				centre, r, angle = g.Center, g.Radius, math.Pi/4
			case scene.Arc:
				centre, r = g.Center, g.Radius
				sweep := math.Mod(g.End-g.Start, 2*math.Pi)
				if sweep <= 0 {
					sweep += 2 * math.Pi
				}
				angle = g.Start + sweep/2
			default:
				c.fail("Error", "%q is a %s; a %s dimension needs a circle or an arc (use dimLinear for other shapes)", target, e.Kind(), typ)
			}
			// Into world space, then into the dimension's frame.
			w := c.r.scene.WorldMatrix(e)
			if s1, s2 := singular(w); math.Abs(s1-s2) > 1e-9*s1 {
				c.fail("Error", "%q is stretched into an ellipse by its transform (scale %v by %v); a %s dimension needs a circle", target, s1, s2, typ)
			}
			inv, _ := c.dimFrame().Invert()
			m := inv.Mul(w)
			k := math.Sqrt(math.Abs(m.Det()))
			dir := m.ApplyVec(geom.Vec{X: math.Cos(angle), Y: math.Sin(angle)})
			d := &scene.Dimension{Type: typ, Points: []geom.Vec{m.Apply(centre)}, Radius: r * k, Angle: math.Atan2(dir.Y, dir.X)}
			c.dimOptions(o, d)
			d.Angle = c.optAngle(o, "angle", d.Angle)
			d.Outside = c.optBool(o, "outside", false)
			return c.putDim(d, o)
		}}
}

// singular is the larger and smaller factor by which m stretches a direction.
func singular(m geom.Affine) (float64, float64) {
	e, f := (m.A+m.D)/2, (m.A-m.D)/2
	g, h := (m.B+m.C)/2, (m.B-m.C)/2
	q, r := math.Hypot(e, h), math.Hypot(f, g)
	return q + r, math.Abs(q - r)
}

// dimFrame is the map from the frame the dimension named by argument 0 is drawn in to world
// space: its group's, when it is being redrawn inside one (a redrawn entity keeps its parent),
// else the identity.
func (c *call) dimFrame() geom.Affine {
	e, ok := c.r.scene.Lookup(c.str(0))
	if !ok || e.Parent() == "" {
		return geom.Identity
	}
	p, err := c.r.scene.Get(e.Parent())
	c.check(err)
	return c.r.scene.WorldMatrix(p)
}

// dimPoint reads argument i, a point [x, y] in the dimension's frame or an entity's name,
// resolved to its centre in world space and mapped into the frame.
func (c *call) dimPoint(i int, frame geom.Affine) geom.Vec {
	v := c.arg(i)
	name, isName := asString(v)
	if !isName {
		pts := c.points(v, c.param(i).Name)
		if len(pts) != 1 {
			c.fail("TypeError", "%s must be one point [x, y] or an entity name, got %d points", c.param(i).Name, len(pts))
		}
		return pts[0]
	}
	e, ok := c.r.scene.Lookup(name)
	if !ok {
		c.fail("Error", "%s: no entity named %q; give a point [x, y] or the name of an entity drawn before this call", c.param(i).Name, name)
	}
	var p geom.Vec
	switch g := e.Shape.(type) {
	case scene.Circle:
		p = c.r.scene.WorldMatrix(e).Apply(g.Center)
	case scene.Arc:
		p = c.r.scene.WorldMatrix(e).Apply(g.Center)
	case scene.Ellipse:
		p = c.r.scene.WorldMatrix(e).Apply(g.Center)
	default:
		b := c.r.scene.WorldBounds(e)
		if !b.NonEmpty {
			c.fail("Error", "%s: %q has no extent to take a centre from; give a point [x, y]", c.param(i).Name, name)
		}
		p = b.Center()
	}
	inv, _ := frame.Invert()
	return inv.Apply(p)
}

// dimOptions reads the options every dimension takes into d.
func (c *call) dimOptions(o *goja.Object, d *scene.Dimension) {
	d.Text = c.optStr(o, "text", "")
	d.Units = c.optStr(o, "units", "")
	d.Size = c.optNum(o, "size", scene.DefaultDimSize)
	if d.Size <= 0 {
		c.fail("RangeError", "option size must be > 0, got %v", d.Size)
	}
	p := c.optNum(o, "precision", scene.DefaultDimPrecision)
	if p != math.Trunc(p) || p < 0 || p > scene.MaxDimPrecision {
		c.fail("RangeError", "option precision must be a whole number of digits from 0 to %d, got %v", scene.MaxDimPrecision, p)
	}
	d.Precision = int(p)
	if o == nil {
		return
	}
	if v := o.Get("textAt"); v != nil && !goja.IsUndefined(v) {
		pts := c.points(v, "option textAt")
		if len(pts) != 1 {
			c.fail("TypeError", "option textAt must be one point [x, y], got %d points", len(pts))
		}
		d.TextAt = &pts[0]
	}
}

// putDim draws d under argument 0's name and applies the color and layer options.
func (c *call) putDim(d *scene.Dimension, o *goja.Object) goja.Value {
	if d.IsLinear() && d.Points[0] == d.Points[1] {
		c.fail("Error", "a and b are the same point [%v, %v]; a dimension measures between two different points", d.Points[0].X, d.Points[0].Y)
	}
	c.put(d)
	name := c.str(0)
	if o == nil {
		return c.ok()
	}
	if v := o.Get("color"); v != nil && !goja.IsUndefined(v) {
		col := c.colorValue(v, "option color")
		c.check(c.r.scene.SetStroke(name, col, -1))
		c.check(c.r.scene.SetFill(name, col))
	}
	if v := o.Get("layer"); v != nil && !goja.IsUndefined(v) {
		c.check(c.r.scene.SetLayer(name, c.optStr(o, "layer", "")))
	}
	return c.ok()
}
