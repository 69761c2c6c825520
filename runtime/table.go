package runtime

// The JS API, one entry per function. Bindings, `lsp describe`, `cadrun types` (.d.ts) and
// docs/api.md all come from this table; a test runs every example.

import (
	"math"
	"slices"
	"sync"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid"
	"github.com/cadrun/cadrun/scene/text"
)

var (
	pName   = Param{Name: "name", Type: "string", Doc: "unique entity name; an existing name is replaced in place"}
	pTarget = Param{Name: "name", Type: "string", Doc: "an existing entity"}
	pX      = Param{Name: "x", Type: "number", Unit: "scene units"}
	pY      = Param{Name: "y", Type: "number", Unit: "scene units"}
	pResult = Param{Name: "result", Type: "string", Doc: "name of the polygon entity to create or replace"}
	pSpace  = Param{Name: "options", Type: "{space?: 'world' | 'local'}", Optional: true, Default: "{space: 'world'}",
		Doc: "world: amounts as seen on screen; local: in the parent group's frame"}
)

// table is the API, each entry told whether it only transforms (withCallFlags), put together
// at first use: a process that runs no script (cadrun version, a server until its first call)
// does not copy it.
var table = sync.OnceValue(func() []Func {
	return withCallFlags(slices.Concat(tableFuncs, dimFuncs, solidFuncs))
})

var tableFuncs = []Func{
	// primitives
	{Name: "drawCircle", Domain: "primitives", Returns: "boolean", Doc: "Draw a circle by centre and radius.",
		Params:  []Param{pName, {Name: "cx", Type: "number", Unit: "scene units"}, {Name: "cy", Type: "number", Unit: "scene units"}, {Name: "radius", Type: "number", Unit: "scene units"}},
		Example: "drawCircle('wheel', 0, 0, 10)",
		impl: func(c *call) goja.Value {
			return c.put(scene.Circle{Center: geom.Vec{X: c.num(1), Y: c.num(2)}, Radius: c.num(3)})
		}},
	{Name: "drawRect", Domain: "primitives", Returns: "boolean", Doc: "Draw an axis-aligned rectangle by its centre, width and height.",
		Params:  []Param{pName, {Name: "cx", Type: "number", Unit: "scene units", Doc: "centre x"}, {Name: "cy", Type: "number", Unit: "scene units", Doc: "centre y"}, {Name: "width", Type: "number", Unit: "scene units"}, {Name: "height", Type: "number", Unit: "scene units"}},
		Example: "drawRect('door', 0, 10, 8, 20)",
		impl: func(c *call) goja.Value {
			return c.put(scene.Rect{Center: geom.Vec{X: c.num(1), Y: c.num(2)}, Width: c.num(3), Height: c.num(4)})
		}},
	{Name: "drawEllipse", Domain: "primitives", Returns: "boolean", Doc: "Draw an axis-aligned ellipse by its centre and radii.",
		Params:  []Param{pName, {Name: "cx", Type: "number", Unit: "scene units"}, {Name: "cy", Type: "number", Unit: "scene units"}, {Name: "rx", Type: "number", Unit: "scene units"}, {Name: "ry", Type: "number", Unit: "scene units"}},
		Example: "drawEllipse('pond', 0, 0, 30, 12)",
		impl: func(c *call) goja.Value {
			return c.put(scene.Ellipse{Center: geom.Vec{X: c.num(1), Y: c.num(2)}, RX: c.num(3), RY: c.num(4)})
		}},
	{Name: "drawRoundedRect", Domain: "primitives", Returns: "boolean", Doc: "Draw a centre-based rectangle with rounded corners.",
		Params:  []Param{pName, {Name: "cx", Type: "number", Unit: "scene units"}, {Name: "cy", Type: "number", Unit: "scene units"}, {Name: "width", Type: "number", Unit: "scene units"}, {Name: "height", Type: "number", Unit: "scene units"}, {Name: "radius", Type: "number", Unit: "scene units", Doc: "corner radius, clamped to half the shorter side"}},
		Example: "drawRoundedRect('plate', 0, 0, 80, 40, 5)",
		impl: func(c *call) goja.Value {
			return c.put(scene.RoundedRect{Center: geom.Vec{X: c.num(1), Y: c.num(2)}, Width: c.num(3), Height: c.num(4), Radius: c.num(5)})
		}},
	{Name: "drawLine", Domain: "primitives", Returns: "boolean", Doc: "Draw an open polyline through the points.",
		Params:  []Param{pName, {Name: "points", Type: "number[] | [number, number][]", Unit: "scene units", Doc: "flat [x1,y1,x2,y2,...] or [[x,y],...]"}},
		Example: "drawLine('path', [0, 0, 10, 5, 20, 0])",
		impl: func(c *call) goja.Value {
			return c.put(scene.Line{Points: c.points(c.arg(1), "points")})
		}},
	{Name: "drawPolygon", Domain: "primitives", Returns: "boolean", Doc: "Draw a closed polygon, optionally with holes.",
		Params: []Param{pName, {Name: "points", Type: "number[] | [number, number][]", Unit: "scene units", Doc: "outer ring, flat or as pairs; not repeated at the end"},
			{Name: "holes", Type: "(number[] | [number, number][])[]", Unit: "scene units", Optional: true, Default: "[]", Doc: "rings cut out of the outer ring: the polygon is the outer ring minus their union (they may overlap or cross it)"}},
		Example: "drawPolygon('frame', [-10,-10, 10,-10, 10,10, -10,10], [[-5,-5, -5,5, 5,5, 5,-5]])",
		impl: func(c *call) goja.Value {
			part := scene.PolygonPart{Outer: c.points(c.arg(1), "points")}
			if c.present(2) {
				o, ok := c.arg(2).(*goja.Object)
				if !ok || className(o) != "Array" {
					c.fail("TypeError", "holes must be an array of rings, got %s", describe(c.arg(2)))
				}
				n := int(o.Get("length").ToInteger())
				for k := range n {
					part.Holes = append(part.Holes, c.points(o.Get(itoa(k)), "holes["+itoa(k)+"]"))
				}
			}
			return c.put(scene.Polygon{Parts: []scene.PolygonPart{part}})
		}},
	{Name: "drawArc", Domain: "primitives", Returns: "boolean", Doc: "Draw an open circular arc, counter-clockwise from start to end.",
		Params: []Param{pName, {Name: "cx", Type: "number", Unit: "scene units"}, {Name: "cy", Type: "number", Unit: "scene units"}, {Name: "radius", Type: "number", Unit: "scene units"},
			{Name: "startAngle", Type: "number", Unit: "radians"}, {Name: "endAngle", Type: "number", Unit: "radians"}},
		Example: "drawArc('swing', 0, 0, 20, 0, Math.PI / 2)",
		impl: func(c *call) goja.Value {
			return c.put(scene.Arc{Center: geom.Vec{X: c.num(1), Y: c.num(2)}, Radius: c.num(3), Start: c.num(4), End: c.num(5)})
		}},
	{Name: "drawBezier", Domain: "primitives", Returns: "boolean", Doc: "Draw a path from SVG path data (M L H V C S Q T A Z, absolute and relative), Y up.",
		Params:  []Param{pName, {Name: "path", Type: "string", Unit: "scene units", Doc: "SVG path data; end subpaths with Z to make them closed shapes"}},
		Example: "drawBezier('leaf', 'M 0 0 C 10 20 30 20 40 0 Q 20 -10 0 0 Z')",
		impl: func(c *call) goja.Value {
			return c.put(&scene.PathShape{Data: c.str(1)})
		}},

	// text
	{Name: "drawText", Domain: "text", Returns: "boolean", Doc: "Draw text as outlines from an embedded font; (x, y) is the start of the first baseline. A scene's texts are capped at 1,000,000 outline segments together (MaxTextSegments; DejaVu Sans draws a letter in about 18).",
		Params: []Param{pName, {Name: "text", Type: "string"}, pX, pY, {Name: "fontSize", Type: "number", Unit: "scene units"},
			{Name: "options", Type: "{align?: 'left' | 'center' | 'right', color?: number[], font?: string, lint?: boolean}", Optional: true, Default: "{align: 'left', color: [0,0,0,1], font: 'sans', lint: true}",
				Doc: "fonts: sans (DejaVu Sans, plain zero), sans-bold, sans-italic, sans-bold-italic; mono, mono-bold, go-sans, go-sans-bold, go-sans-italic, go-sans-bold-italic (the Go fonts); or a workspace font, fonts/NAME.ttf|otf|ttc, by NAME. Characters the font lacks (Hangul, CJK) are drawn in a workspace font, else a system font, which the run names. lint: false keeps the size-label lint from reading the text (a note whose numbers are not sizes of the shapes near it)"}},
		Example: "drawText('title', 'Ø20 bore', 0, -30, 6, {align: 'center'})",
		impl: func(c *call) goja.Value {
			o := c.opts(5, "align", "color", "font", "lint")
			t := &scene.Text{Text: c.str(1), Pos: geom.Vec{X: c.num(2), Y: c.num(3)}, Size: c.num(4),
				Align: text.Align(c.optStr(o, "align", "")), Font: c.optStr(o, "font", ""), NoLint: !c.optBool(o, "lint", true)}
			f, err := c.r.font(t.Font)
			c.check(err)
			if f != nil {
				t.UseFont(f)
			}
			if fb := c.fallback(f, t.Font, t.Text); fb != nil {
				t.UseFallback(fb)
			}
			c.put(t)
			if o != nil && !goja.IsUndefined(o.Get("color")) && o.Get("color") != nil {
				c.check(c.r.scene.SetFill(c.str(0), c.colorValue(o.Get("color"), "option color")))
			}
			return c.ok()
		}},
	{Name: "getTextMetrics", Domain: "text", Returns: "{width: number, height: number, ascent: number, descent: number, lines: number}",
		Doc:     "Measure text without drawing it.",
		Params:  []Param{{Name: "text", Type: "string"}, {Name: "fontSize", Type: "number", Unit: "scene units"}, {Name: "font", Type: "string | {font?: string}", Optional: true, Default: "'sans'", Doc: "an embedded font or a workspace font (fonts/NAME.ttf|otf|ttc), by name or as {font: NAME}"}},
		Example: "const m = getTextMetrics('Label', 5); console.log(m.width)",
		impl: func(c *call) goja.Value {
			font := ""
			if c.present(2) {
				if o, ok := c.arg(2).(*goja.Object); ok && className(o) != "Array" {
					font = c.optStr(c.opts(2, "font"), "font", "") // {font: 'NAME'}, as drawText takes it
				} else {
					font = c.str(2)
				}
			}
			str, size := c.str(0), c.num(1)
			f, err := c.r.font(font)
			c.check(err)
			var m text.Layout
			fb := c.fallback(f, font, str)
			switch {
			case f != nil:
				m, err = f.Measure(str, size, fb...)
			case fb != nil:
				var main *text.Font
				if main, err = text.EmbeddedFont(font); err == nil {
					m, err = main.Measure(str, size, fb...)
				}
			default:
				m, err = text.MeasureString(str, size, font)
			}
			c.check(err)
			return c.finiteValue(map[string]any{"width": m.Width, "height": m.Height, "ascent": m.Ascent, "descent": m.Descent, "lines": m.Lines})
		}},

	// transforms
	{Name: "translate", Domain: "transforms", Returns: "boolean", Doc: "Move an entity by (dx, dy), and a solid (or a group of solids) also by dz; a 2D shape stays in the plane z = 0.",
		Params: []Param{pTarget, {Name: "dx", Type: "number", Unit: "scene units"}, {Name: "dy", Type: "number", Unit: "scene units"},
			{Name: "dz", Type: "number", Unit: "scene units", Optional: true, Default: "0", Doc: "solids only"}, pSpace},
		AltParams: []Param{pTarget, {Name: "dx", Type: "number", Unit: "scene units"}, {Name: "dy", Type: "number", Unit: "scene units"}, pSpace},
		Example:   "drawCircle('c', 0, 0, 5); translate('c', 10, 0)",
		impl: func(c *call) goja.Value {
			name := c.str(0)
			d := geom.Vec{X: c.num(1), Y: c.num(2)}
			dz, at := c.optionalNumber(3)
			o := c.opts(at, "space")
			sp := c.space(o)
			if dz != 0 {
				c.check(c.r.scene.Place3(name, scene.Translation3(scene.Vec3{0, 0, dz})))
			}
			c.check(c.r.scene.Translate(name, d, sp))
			return c.ok()
		}},
	{Name: "rotate", Domain: "transforms", Returns: "boolean", Doc: "Rotate an entity counter-clockwise about its pivot; a solid (or a group of solids) also about the x or y axis, or any axis, through the centre of its 3D bounds.",
		Params: []Param{pTarget, {Name: "angle", Type: "number", Unit: "radians"},
			{Name: "options", Type: "{space?: 'world' | 'local', axis?: 'x' | 'y' | 'z' | [number, number, number]}", Optional: true, Default: "{space: 'world', axis: 'z'}",
				Doc: "space: as translate's; axis: the direction turned about, counter-clockwise looking down it (solids only, but 'z')"}},
		Example: "drawRect('r', 0, 0, 10, 4); rotate('r', Math.PI / 4)",
		impl: func(c *call) goja.Value {
			o := c.opts(2, "space", "axis")
			name, angle := c.str(0), c.num(1)
			axis, ok := c.axis(o)
			if ok {
				c.check(c.r.scene.Place3(name, c.about(name, rotation3(axis, angle))))
				return c.ok()
			}
			if axis[2] < 0 {
				angle = -angle
			}
			c.check(c.r.scene.Rotate(name, angle, c.space(o)))
			return c.ok()
		}},
	{Name: "scale", Domain: "transforms", Returns: "boolean", Doc: "Scale an entity along its own axes about its pivot (or a given point); a negative factor mirrors. A solid (or a group of solids) also scales along z by sz, about the middle of its 3D bounds.",
		Params: []Param{pTarget, {Name: "sx", Type: "number"}, {Name: "sy", Type: "number", Optional: true, Default: "sx"},
			{Name: "sz", Type: "number", Optional: true, Default: "1", Doc: "solids only"},
			{Name: "options", Type: "{space?: 'world' | 'local', around?: [number, number] | 'center'}", Optional: true, Default: "{space: 'world'}",
				Doc: "around: a point that stays fixed (in space), or 'center' for the centre of the world bounds"}},
		Example: "drawRect('r', 0, 0, 10, 4); scale('r', 2, 2, {around: [0, 0]})",
		impl: func(c *call) goja.Value {
			name := c.str(0)
			sx := c.num(1)
			sy := sx
			at := 2
			if c.present(2) {
				if _, isObj := c.arg(2).(*goja.Object); !isObj {
					sy, at = c.num(2), 3
				}
			}
			sz, at := c.optionalNumber(at)
			if sz == 0 {
				sz = 1
			}
			o := c.opts(at, "space", "around")
			if sz != 1 {
				e, err := c.r.scene.Get(name)
				c.check(err)
				z := c.r.scene.WorldBounds3(e).Center()[2]
				m := scene.Translation3(scene.Vec3{0, 0, z}).Mul(scene.Affine3{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, sz, 0}).Mul(scene.Translation3(scene.Vec3{0, 0, -z}))
				c.check(c.r.scene.Place3(name, m))
			}
			sp := c.space(o)
			var around *geom.Vec
			if o != nil {
				if v := o.Get("around"); v != nil && !goja.IsUndefined(v) {
					if s, ok := asString(v); ok {
						switch s {
						case "center":
							e, err := c.r.scene.Get(name)
							c.check(err)
							ctr := c.r.scene.WorldBounds(e).Center()
							around, sp = &ctr, scene.SpaceWorld
						case "origin", "pivot":
						default:
							c.fail("TypeError", "option around must be [x, y], 'center' or 'pivot', got %q", s)
						}
					} else {
						p := c.points(v, "option around")
						if len(p) != 1 {
							c.fail("TypeError", "option around must be one point [x, y]")
						}
						around = &p[0]
					}
				}
			}
			c.check(c.r.scene.Scale(name, sx, sy, sp, around))
			return c.ok()
		}},
	{Name: "setPivot", Domain: "transforms", Returns: "boolean", Doc: "Set the point (in the entity's own coordinates) that rotate and scale turn about; the entity does not move.",
		Params:  []Param{pTarget, {Name: "px", Type: "number", Unit: "scene units"}, {Name: "py", Type: "number", Unit: "scene units"}},
		Example: "drawRect('arm', 10, 0, 20, 2); setPivot('arm', 0, 0); rotate('arm', 0.5)",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.SetPivot(c.str(0), geom.Vec{X: c.num(1), Y: c.num(2)}))
			return c.ok()
		}},
	{Name: "deleteEntity", Domain: "transforms", Returns: "boolean", Doc: "Delete an entity; deleting a group deletes its members too.",
		Params: []Param{pTarget}, Example: "drawCircle('tmp', 0, 0, 1); deleteEntity('tmp')",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.Delete(c.str(0)))
			return c.ok()
		}},
	{Name: "duplicate", Domain: "transforms", Returns: "boolean", Doc: "Copy an entity (deeply for a group) under a new name, directly above it; members of a copied group are named newName_0, newName_1, ...",
		Params:  []Param{{Name: "source", Type: "string"}, {Name: "newName", Type: "string"}},
		Example: "drawCircle('a', 0, 0, 5); duplicate('a', 'b'); translate('b', 12, 0)",
		impl: func(c *call) goja.Value {
			_, err := c.r.scene.Duplicate(c.str(0), c.name(1))
			c.check(err)
			return c.ok()
		}},
	{Name: "mirror", Domain: "transforms", Returns: "boolean", Doc: "Copy an entity and flip the copy about the centre of the source's world bounds: 'x' flips left-right, 'y' up-down, 'z' (solids) top-bottom.",
		Params:  []Param{{Name: "source", Type: "string"}, {Name: "newName", Type: "string"}, {Name: "axis", Type: "'x' | 'y' | 'z'"}},
		Example: "drawPolygon('l', [0,0, 10,0, 0,5]); mirror('l', 'r', 'x')",
		impl: func(c *call) goja.Value {
			if c.str(2) == "z" {
				return c.mirrorZ(c.str(0), c.name(1))
			}
			_, err := c.r.scene.Mirror(c.str(0), c.name(1), c.str(2))
			c.check(err)
			return c.ok()
		}},

	// groups
	{Name: "createGroup", Domain: "groups", Returns: "boolean", Doc: "Make a new group of existing entities; each keeps its place in the world and its stacking; the group turns about its origin [0, 0].",
		Params:  []Param{{Name: "name", Type: "string"}, {Name: "children", Type: "string[]"}},
		Example: "drawRect('body', 0, 0, 20, 10); drawCircle('wheel', -6, -6, 3); createGroup('car', ['body', 'wheel'])",
		impl: func(c *call) goja.Value {
			_, err := c.r.scene.CreateGroup(c.name(0), c.names(1))
			c.check(err)
			return c.ok()
		}},
	{Name: "addToGroup", Domain: "groups", Returns: "boolean", Doc: "Move an entity into a group on top of its members, keeping its place in the world.",
		Params:  []Param{{Name: "group", Type: "string"}, {Name: "entity", Type: "string"}},
		Example: "createGroup('g', []); drawCircle('c', 0, 0, 2); addToGroup('g', 'c')",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.AddToGroup(c.str(0), c.str(1)))
			return c.ok()
		}},
	{Name: "removeFromGroup", Domain: "groups", Returns: "boolean", Doc: "Move an entity out of its group to the group's parent, keeping its place in the world.",
		Params:  []Param{{Name: "group", Type: "string"}, {Name: "entity", Type: "string"}},
		Example: "drawCircle('c', 0, 0, 2); createGroup('g', ['c']); removeFromGroup('g', 'c')",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.RemoveFromGroup(c.str(0), c.str(1)))
			return c.ok()
		}},
	{Name: "ungroup", Domain: "groups", Returns: "boolean", Doc: "Dissolve a group; its members take its place, keeping their place in the world.",
		Params:  []Param{{Name: "group", Type: "string"}},
		Example: "drawCircle('c', 0, 0, 2); createGroup('g', ['c']); ungroup('g')",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.Ungroup(c.str(0)))
			return c.ok()
		}},

	// style
	{Name: "setFill", Domain: "style", Returns: "boolean", Doc: "Set the fill colour [r, g, b, a] in 0..1 (null removes the fill); on a group, every member.",
		Params:  []Param{pTarget, {Name: "color", Type: "number[] | null"}},
		Example: "drawCircle('c', 0, 0, 5); setFill('c', [0.2, 0.5, 0.9, 1])",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.SetFill(c.str(0), c.color(1)))
			return c.ok()
		}},
	{Name: "setStroke", Domain: "style", Returns: "boolean", Doc: "Set the stroke colour (null removes the stroke) and width, and how its ends and corners are drawn; on a group, every member.",
		Params: []Param{pTarget, {Name: "color", Type: "number[] | null"}, {Name: "width", Type: "number", Unit: "scene units", Optional: true, Default: "unchanged", Doc: "a pen in scene units; 0 is a hairline, one pixel on screen whatever the units (new shapes start as hairlines)"},
			{Name: "options", Type: "{cap?: 'round' | 'butt' | 'square', join?: 'round' | 'miter' | 'bevel', miterLimit?: number}", Optional: true, Default: "unchanged; given, a left-out option is round (miterLimit 4)",
				Doc: "cap: the open ends (butt ends at the end point, square half a width beyond it); join: the corners; miterLimit: the longest miter in widths, 1 to 100 (MaxMiterLimit), past which it is bevelled, as SVG's"}},
		Example: "drawLine('v', [0, 0, 5, 10, 10, 0]); setStroke('v', [0, 0, 0, 1], 1, {cap: 'butt', join: 'miter'})",
		impl: func(c *call) goja.Value {
			w := -1.0
			if c.present(2) {
				w = c.num(2)
				if w < 0 {
					c.fail("RangeError", "width must be >= 0, got %v", w)
				}
			}
			o := c.opts(3, "cap", "join", "miterLimit")
			name := c.str(0)
			c.check(c.r.scene.SetStroke(name, c.color(1), w))
			if o != nil {
				cp, jn, ml := strokeCorners(c, o)
				c.check(c.r.scene.SetStrokeCorners(name, cp, jn, ml))
			}
			return c.ok()
		}},
	{Name: "setLinetype", Domain: "style", Returns: "boolean", Doc: "Draw an entity's stroke with a dash pattern (see the table of linetypes in docs/scripting.md); on a group, every member without a linetype of its own. The lengths are in scene units, like the stroke width, and not scaled by transforms; a scene's dashes and dots are capped at 200,000 (MaxDashSegments).",
		Params: []Param{pTarget, {Name: "type", Type: "'continuous' | 'dashed' | 'hidden' | 'center' | 'phantom' | 'dot'", Doc: "dashed is 6 on, 3 off at scale 1"},
			{Name: "options", Type: "{scale?: number}", Optional: true, Default: "{scale: 1}", Doc: "scale: multiplies every dash and gap, > 0"}},
		Example: "drawLine('axis', [-20, 0, 20, 0]); setLinetype('axis', 'center', {scale: 0.5})",
		impl: func(c *call) goja.Value {
			o := c.opts(2, "scale")
			k := c.optNum(o, "scale", 1)
			if k <= 0 {
				c.fail("RangeError", "option scale must be > 0, got %v", k)
			}
			c.check(c.r.scene.SetLinetype(c.str(0), c.str(1), k))
			return c.ok()
		}},
	{Name: "setHatch", Domain: "style", Returns: "boolean", Doc: "Hatch a closed shape's area (holes left out), drawn over its fill (see the table of hatch patterns in docs/scripting.md); on a group, every closed member without a hatch of its own. 'none' or '' removes it; a line, an arc or an open path is refused. The spacing is in scene units (ansi31's lines are 3.175 apart at scale 1) and not scaled by transforms; a scene's hatches are capped at 200,000 segments (MaxHatchSegments).",
		Params: []Param{pTarget, {Name: "pattern", Type: "'solid' | 'ansi31' | 'ansi37' | 'dots' | 'none'", Doc: "solid fills; ansi31 is lines at 45°, ansi37 crossed lines, dots a grid of dots"},
			{Name: "options", Type: "{angle?: number /* radians */, scale?: number, color?: number[]}", Optional: true, Default: "{angle: 0, scale: 1}",
				Doc: "angle: turns the pattern, in radians; scale: multiplies its spacing, > 0; color: the hatch's colour (unset: the stroke's)"}},
		Example: "drawRect('section', 0, 0, 40, 20); setHatch('section', 'ansi31', {scale: 2})",
		impl: func(c *call) goja.Value {
			o := c.opts(2, "angle", "scale", "color")
			k := c.optNum(o, "scale", 1)
			if k <= 0 {
				c.fail("RangeError", "option scale must be > 0, got %v", k)
			}
			var col *scene.Color
			if o != nil {
				if v := o.Get("color"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
					col = c.colorValue(v, "option color")
				}
			}
			c.check(c.r.scene.SetHatch(c.str(0), c.str(1), c.optAngle(o, "angle", 0), k, col))
			return c.ok()
		}},
	{Name: "createLayer", Domain: "style", Returns: "boolean", Doc: "Create a layer (or redefine one of that name): entities put on it with setLayer take its colour, linetype and lineweight where they set none; plot: false leaves them out of SVG, PNG and PDF but keeps them in DXF, not plotted.",
		Params: []Param{{Name: "layer", Type: "string", Doc: "the layer's name, as DXF writes it"},
			{Name: "options", Type: "{color?: number[], linetype?: string, lineweight?: number, plot?: boolean}", Optional: true, Default: "{linetype: 'continuous', lineweight: 0, plot: true}",
				Doc: "color: replaces the colours of entities whose colours were never set (unset: they keep theirs); linetype: as setLinetype; lineweight: stroke width in scene units for entities drawn as hairlines"}},
		Example: "createLayer('hidden', {color: [0, 0, 1, 1], linetype: 'hidden'}); drawLine('edge', [0, 0, 30, 0]); setLayer('edge', 'hidden')",
		impl: func(c *call) goja.Value {
			o := c.opts(1, "color", "linetype", "lineweight", "plot")
			l := scene.Layer{Name: c.str(0), Linetype: c.optStr(o, "linetype", ""), Lineweight: c.optNum(o, "lineweight", 0), Plot: true}
			if o != nil {
				if v := o.Get("color"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
					l.Color = c.colorValue(v, "option color")
				}
				l.Plot = c.optBool(o, "plot", l.Plot)
			}
			if l.Lineweight < 0 {
				c.fail("RangeError", "option lineweight must be >= 0, got %v", l.Lineweight)
			}
			c.check(c.r.scene.CreateLayer(l))
			return c.ok()
		}},
	{Name: "setLayer", Domain: "style", Returns: "boolean", Doc: "Put an entity on a layer made by createLayer ('' takes it off); on a group, every member without a layer of its own. In DXF the entity goes on that layer instead of its top-level group's.",
		Params:  []Param{pTarget, {Name: "layer", Type: "string"}},
		Example: "createLayer('notes', {plot: false}); drawCircle('c', 0, 0, 5); setLayer('c', 'notes')",
		impl: func(c *call) goja.Value {
			c.check(c.r.scene.SetLayer(c.str(0), c.str(1)))
			return c.ok()
		}},
	{Name: "drawOrder", Domain: "style", Returns: "boolean", Doc: "Move an entity within its siblings: 'front', 'back', '+N', '-N', 'above:NAME', 'below:NAME'.",
		Params:  []Param{pTarget, {Name: "mode", Type: "string | number"}},
		Example: "drawCircle('a', 0, 0, 5); drawCircle('b', 3, 0, 5); drawOrder('a', 'front')",
		impl: func(c *call) goja.Value {
			mode, ok := asString(c.arg(1))
			if !ok {
				mode = itoa(int(c.num(1)))
				if c.num(1) > 0 {
					mode = "+" + mode
				}
			}
			c.check(c.r.scene.DrawOrder(c.str(0), mode))
			return c.ok()
		}},
	{Name: "getDrawOrder", Domain: "style", Returns: "{level: string, order: string[], details: {[group: string]: {type: 'Group', children: number}}}", Doc: "List a group's members (or the top level) back to front; details counts the members of each group listed.",
		Params:  []Param{{Name: "group", Type: "string", Optional: true, Default: "the top level"}},
		Example: "drawCircle('a', 0, 0, 5); console.log(getDrawOrder().order)",
		impl: func(c *call) goja.Value {
			g := ""
			if c.present(0) {
				g = c.str(0)
			}
			d, err := c.r.scene.DrawOrderDetailOf(g)
			c.check(err)
			return c.jsonValue(d)
		}},

	// boolean
	booleanFunc("booleanUnion", scene.Union, "Union of closed shapes into one polygon entity; a or b may be arrays of names, and booleanUnion([names], result) unites a list. The inputs stay in the scene and still draw (as upstream): deleteEntity them if only the result should show and export.", "drawCircle('a', 0, 0, 5); drawCircle('b', 6, 0, 5); booleanUnion('a', 'b', 'u')"),
	booleanFunc("booleanDifference", scene.Difference, "a minus b as one polygon entity; b may be an array of holes, cut in one operation. The inputs stay in the scene and still draw (as upstream): deleteEntity them if only the result should show and export.", "drawRect('plate', 0, 0, 40, 20); drawCircle('h1', -10, 0, 3); drawCircle('h2', 10, 0, 3); booleanDifference('plate', ['h1', 'h2'], 'cut')"),
	booleanFunc("booleanIntersect", scene.Intersect, "Intersection of closed shapes as one polygon entity. The inputs stay in the scene and still draw (as upstream): deleteEntity them if only the result should show and export.", "drawCircle('a', 0, 0, 5); drawCircle('b', 6, 0, 5); booleanIntersect('a', 'b', 'lens')"),

	// geometry
	{Name: "offsetPolygon", Domain: "geometry", Returns: "boolean", Doc: "Grow (delta > 0) or shrink (delta < 0) a closed shape into a polygon entity.",
		Params: []Param{pTarget, {Name: "delta", Type: "number", Unit: "scene units"}, pResult,
			{Name: "options", Type: "{joinType?: 'round' | 'square' | 'miter', miterLimit?: number} | string", Optional: true, Default: "{joinType: 'round', miterLimit: 2}"}},
		Example: "drawRect('r', 0, 0, 20, 10); offsetPolygon('r', 2, 'r_out')",
		impl: func(c *call) goja.Value {
			var opt scene.OffsetOptions
			if s, ok := asString(c.arg(3)); ok {
				opt.Join = scene.JoinType(s)
			} else {
				o := c.opts(3, "joinType", "miterLimit")
				opt.Join = scene.JoinType(c.optStr(o, "joinType", ""))
				opt.MiterLimit = c.optNum(o, "miterLimit", 0)
			}
			_, err := c.r.scene.Offset(c.str(0), c.num(1), c.name(2), opt)
			c.check(err)
			return c.ok()
		}},
	cornerFunc("fillet", "radius", "Round corners of a polygon, rectangle or rounded rectangle with exact tangent arcs (kept as arcs in measures and DXF). By default every corner between two straight edges, convex or concave; corners next to an arc edge and straight (180°) ones are skipped, and refused when listed. Corners are numbered as getEntity lists the points: part 0's outer ring, its holes, then the next part (a rectangle from its bottom-left corner, counter-clockwise). A radius that would run past the middle of an edge shared with another filleted corner, or past the end of one, is refused with the largest that fits. The radius is in the shape's own coordinates; without a result the shape changes in place, keeping its transform and style.",
		"drawRect('plate', 0, 0, 40, 20); fillet('plate', 3)"),
	cornerFunc("chamfer", "distance", "Bevel corners of a polygon, rectangle or rounded rectangle: each corner becomes a straight edge between the points at distance along its two edges. Corners are chosen, numbered and limited as fillet's, with the distance for the radius.",
		"drawPolygon('l', [0,0, 20,0, 20,5, 5,5, 5,20, 0,20]); chamfer('l', 1, {corners: [0, 1, 2, 4, 5], result: 'l_cut'})"),
	{Name: "getArea", Domain: "geometry", Returns: "number", Doc: "The world-space area of a closed shape or group; exact for a circle, an ellipse, a rounded rectangle, an arc's pie slice, and a boolean, offset or fillet result whose curves are circles (their arcs are kept exact).",
		Params: []Param{pTarget}, Example: "drawRect('r', 0, 0, 20, 10); console.log(getArea('r'))",
		impl: func(c *call) goja.Value {
			a, err := c.r.scene.Area(c.str(0))
			c.check(err)
			return c.finiteValue(a)
		}},
	{Name: "convexHull", Domain: "geometry", Returns: "boolean", Doc: "The convex hull of a shape or group as a polygon entity.",
		Params: []Param{pTarget, pResult}, Example: "drawPolygon('l', [0,0, 20,0, 20,5, 5,5, 5,20, 0,20]); convexHull('l', 'hull')",
		impl: func(c *call) goja.Value {
			if ps, ok := c.solidsOf(c.str(0)); ok {
				result := c.name(1)
				sd, err := c.r.solidSession().Hull(c.r.ctx, ps)
				c.check(err)
				return c.putSolid(result, sd)
			}
			_, err := c.r.scene.ConvexHull(c.str(0), c.name(1))
			c.check(err)
			return c.ok()
		}},
	{Name: "decompose", Domain: "geometry", Returns: "string[]", Doc: "Split a shape into its connected parts, named prefix_0, prefix_1, ...; returns the names.",
		Params:  []Param{pTarget, {Name: "prefix", Type: "string"}},
		Example: "drawCircle('a', 0, 0, 2); drawCircle('b', 10, 0, 2); booleanUnion('a', 'b', 'ab'); decompose('ab', 'part')",
		impl: func(c *call) goja.Value {
			names, err := c.r.scene.Decompose(c.str(0), c.name(1))
			c.check(err)
			return c.value(names)
		}},

	{Name: "distance", Domain: "geometry", Returns: "{distance: number, a: [number, number], b: [number, number]}",
		Doc: "The smallest world-space distance between two entities' shapes, with the closest points a (on the first) and b (on the second); 0 when they touch or overlap, or one is inside a closed other. {boundary: true} measures between the outlines instead: a hole inside a panel is as far as its edge is from the panel's edge. {from: 'center'} measures from the first's centre (a circle's or arc's centre, else its centroid) to the second's outline. Groups count as the union of their members; lines and circular arcs (circles, arcs, rounded corners, the arcs booleans and offsets keep) are exact, ellipses and Béziers flattened as booleans flatten them.",
		Params: []Param{{Name: "a", Type: "string", Doc: "an existing entity"}, {Name: "b", Type: "string", Doc: "an existing entity"},
			{Name: "options", Type: "{boundary?: boolean, from?: 'edge' | 'center'}", Optional: true, Default: "{boundary: false, from: 'edge'}", Doc: "boundary: outline to outline; from 'center': the first's centre to the second's outline"}},
		Example: "drawRect('panel', 50, 30, 100, 60); drawCircle('hole', 10, 12, 5); console.log(distance('hole', 'panel', {boundary: true}).distance, distance('hole', 'panel', {from: 'center'}).distance)",
		impl: func(c *call) goja.Value {
			o := c.opts(2, "boundary", "from")
			opt := scene.DistanceOptions{Boundary: c.optBool(o, "boundary", false), From: scene.DistanceFrom(c.optStr(o, "from", ""))}
			if opt != (scene.DistanceOptions{}) {
				for _, n := range []string{c.str(0), c.str(1)} {
					if _, solid := c.solidsOf(n); solid {
						c.fail("Error", "%v: boundary and from measure 2D outlines; %q is a solid, and distance between solids takes no options", scene.ErrBadOption, n)
					}
				}
			}
			if v, ok := c.solidDistance(c.str(0), c.str(1)); ok {
				return v
			}
			g, err := c.r.scene.DistanceWith(c.str(0), c.str(1), opt)
			c.check(err)
			return c.jsonValue(g)
		}},
	{Name: "clearance", Domain: "geometry", Returns: "{name: string, distance: number, a: [number, number], b: [number, number]}[]",
		Doc:     "The gaps between an entity and every other shape (or the ones named; an empty list names none and answers []), nearest first, at most 100; a is on the entity, b on the other.",
		Params:  []Param{pTarget, {Name: "others", Type: "string | string[]", Optional: true, Default: "every shape outside name", Doc: "entities to measure against"}},
		Example: "drawRect('box', 0, 0, 10, 10); drawCircle('pin', 20, 0, 2); drawCircle('far', 90, 0, 2); console.log(clearance('box')[0].name)",
		impl: func(c *call) goja.Value {
			var others []string
			if c.present(1) {
				others = c.names(1)
			}
			if v, ok := c.solidClearance(c.str(0), others, c.present(1)); ok {
				return v
			}
			gaps, _, err := c.r.scene.Clearance(c.str(0), others, scene.MaxMeasureResults)
			c.check(err)
			return c.jsonValue(gaps)
		}},
	{Name: "overlaps", Domain: "geometry", Returns: "{name: string, area: number}[]",
		Doc:     "The shapes outside a closed entity that share area with it, with the shared area, largest first, at most 100; [] when none does.",
		Params:  []Param{pTarget},
		Example: "drawRect('a', 0, 0, 10, 10); drawRect('b', 6, 3, 10, 10); console.log(overlaps('a'))",
		impl: func(c *call) goja.Value {
			if v, ok := c.solidOverlaps(c.str(0)); ok {
				return v
			}
			list, _, err := c.r.scene.Overlaps(c.str(0))
			c.check(err)
			return c.jsonValue(list)
		}},
	{Name: "perimeter", Domain: "geometry", Returns: "number", Doc: "The world-space length of an entity's boundary: a closed shape's edge (holes included), an open shape's length; a group's union of closed members plus its open members.",
		Params: []Param{pTarget}, Example: "drawRect('r', 0, 0, 20, 10); console.log(perimeter('r'))",
		impl: func(c *call) goja.Value {
			p, err := c.r.scene.Perimeter(c.str(0))
			c.check(err)
			return c.finiteValue(p)
		}},
	{Name: "centroid", Domain: "geometry", Returns: "[number, number]", Doc: "The world-space centre of mass of an entity: area-weighted for closed shapes (a group: the union of its members), length-weighted for open ones.",
		Params: []Param{pTarget}, Example: "drawPolygon('t', [0,0, 6,0, 0,6]); console.log(centroid('t'))",
		impl: func(c *call) goja.Value {
			p, err := c.r.scene.Centroid(c.str(0))
			c.check(err)
			return c.jsonValue(p)
		}},

	// query
	// data
	{Name: "readJSON", Domain: "data", Returns: "any", Doc: "Read a data file (data/NAME.json) as a deep-frozen value; the run re-runs when it changes.",
		Params:  []Param{{Name: "name", Type: "string", Doc: "'door' for data/door.json, 'catalog/items' for data/catalog/items.json"}},
		Example: "const door = readJSON('door'); drawRect('door', 0, 0, door.width, door.height)",
		impl: func(c *call) goja.Value {
			return c.readJSON(c.str(0))
		}},

	{Name: "exists", Domain: "query", Returns: "boolean", Doc: "Whether an entity of that name exists.",
		Params: []Param{{Name: "name", Type: "string"}}, Example: "if (!exists('c')) drawCircle('c', 0, 0, 1)",
		impl: func(c *call) goja.Value { return c.value(c.r.scene.Exists(c.str(0))) }},
	{Name: "getEntity", Domain: "query", Returns: "object", Doc: "Everything about an entity: kind, geometry, transform, style, parent, children, z rank, local and world bounds; also in upstream's shape (type, local.geometry, world.bounds.min_x, world.center, z_order).",
		Params: []Param{pTarget}, Example: "drawCircle('c', 0, 0, 1); console.log(getEntity('c').kind)",
		impl: func(c *call) goja.Value {
			d, err := solid.Detail(c.r.scene, c.str(0))
			c.check(err)
			v := c.jsonValue(d)
			upstreamStyle(c.r.vm, v.(*goja.Object), d.Style)
			return v
		}},
	{Name: "getWorldBounds", Domain: "query", Returns: "{min: [number, number], max: [number, number], min_x: number, min_y: number, max_x: number, max_y: number} | null",
		Doc:    "The exact world-space bounds of an entity, as {min, max} points and as min_x..max_y (null for an empty group).",
		Params: []Param{pTarget}, Example: "drawCircle('c', 5, 5, 1); console.log(getWorldBounds('c').max)",
		impl: func(c *call) goja.Value {
			e, err := c.r.scene.Get(c.str(0))
			c.check(err)
			b := c.r.scene.WorldBounds(e)
			if !b.NonEmpty {
				return goja.Null()
			}
			return c.jsonValue(struct {
				Min geom.Vec `json:"min"`
				Max geom.Vec `json:"max"`
				geom.FlatBox
			}{b.Min, b.Max, b.Flat()})
		}},
	{Name: "getWorldTransform", Domain: "query", Returns: "number[][]", Doc: "The entity's local-to-world matrix, row-major [[a, b, tx], [c, d, ty], [0, 0, 1]].",
		Params: []Param{pTarget}, Example: "drawCircle('c', 0, 0, 1); translate('c', 3, 4); console.log(getWorldTransform('c')[0][2])",
		impl: func(c *call) goja.Value {
			e, err := c.r.scene.Get(c.str(0))
			c.check(err)
			m := c.r.scene.WorldMatrix(e)
			return c.finiteValue([][]float64{{m.A, m.C, m.E}, {m.B, m.D, m.F}, {0, 0, 1}})
		}},
	{Name: "getWorldPoint", Domain: "query", Returns: "{x: number, y: number}", Doc: "Map a point in the entity's own coordinates to world coordinates.",
		Params:  []Param{pTarget, pX, pY},
		Example: "drawRect('r', 0, 0, 10, 2); rotate('r', Math.PI / 2); console.log(getWorldPoint('r', 5, 0).y)",
		impl: func(c *call) goja.Value {
			e, err := c.r.scene.Get(c.str(0))
			c.check(err)
			p := c.r.scene.WorldMatrix(e).Apply(geom.Vec{X: c.num(1), Y: c.num(2)})
			return c.finiteValue(map[string]any{"x": p.X, "y": p.Y})
		}},
	{Name: "fitToViewport", Domain: "query", Returns: "{scale: number, offsetX: number, offsetY: number, viewportWidth: number, viewportHeight: number, code: string}",
		Doc: "Arithmetic for fitting a real-world size into a viewport with a margin; the scene is not changed.",
		Params: []Param{{Name: "realWidth", Type: "number", Unit: "real units"}, {Name: "realHeight", Type: "number", Unit: "real units"},
			{Name: "options", Type: "{viewport?: [number, number], margin?: number}", Optional: true, Default: "{viewport: [1600, 1000], margin: 0.1}"}},
		Example: "const f = fitToViewport(12000, 8000); console.log(f.scale)",
		impl:    fitToViewport},

	// testing: bound only in test runs (Options.Tests), see testapi.go
	{Name: "test", Domain: "testing", Returns: "void", Doc: "A named test block in a test script (tests/NAME.test.js, `cadrun test` only): fn runs at once, and a failed assertion in it is reported under the name without stopping the file.",
		Params:  []Param{{Name: "name", Type: "string", Doc: "unique within the file"}, {Name: "fn", Type: "() => void"}},
		Example: "test('plate is square', () => { drawRect('p', 0, 0, 10, 10); assertEqual(getEntity('p').kind, 'rect') })",
		impl:    testBlock},
	{Name: "assert", Domain: "testing", Returns: "void", Doc: "Fail the test unless cond is truthy (`cadrun test` only).",
		Params:  []Param{{Name: "cond", Type: "unknown"}, {Name: "message", Type: "string", Optional: true, Doc: "says what should hold"}},
		Example: "drawCircle('c', 0, 0, 5); assert(exists('c'), 'the circle is drawn')",
		impl:    assertTrue},
	{Name: "assertClose", Domain: "testing", Returns: "void", Doc: "Fail the test unless |actual - expected| <= tol (`cadrun test` only).",
		Params: []Param{{Name: "actual", Type: "number"}, {Name: "expected", Type: "number"}, {Name: "tol", Type: "number", Doc: "largest allowed difference, >= 0"},
			{Name: "message", Type: "string", Optional: true}},
		Example: "drawRect('r', 0, 0, 20, 10); assertClose(getArea('r'), 200, 1e-9, 'area')",
		impl:    assertClose},
	{Name: "assertEqual", Domain: "testing", Returns: "void", Doc: "Fail the test unless actual === expected; arrays and objects are equal when their JSON is (`cadrun test` only).",
		Params:  []Param{{Name: "actual", Type: "unknown"}, {Name: "expected", Type: "unknown"}, {Name: "message", Type: "string", Optional: true}},
		Example: "drawCircle('c', 0, 0, 5); assertEqual(getEntity('c').kind, 'circle')",
		impl:    assertEqual},

	// removed or never-bound upstream names: they fail with their replacement
	{Name: "get_entity", Domain: "query", Returns: "object", Doc: "Removed alias.", Replacement: "getEntity"},
	{Name: "sortByIsoDepth", Domain: "style", Returns: "boolean", Doc: "Never available upstream.", Replacement: "drawOrder"},
}

func booleanFunc(name string, op scene.BoolOp, doc, example string) Func {
	f := Func{Name: name, Domain: "boolean", Returns: "boolean", Doc: doc, Example: example,
		Params: []Param{{Name: "a", Type: "string | string[]"}, {Name: "b", Type: "string | string[]"}, pResult},
		impl: func(c *call) goja.Value {
			a := c.names(0)
			var b []string
			result := 2
			if op == scene.Union && len(c.args) == 2 {
				result = 1 // booleanUnion([...], result)
			} else {
				b = c.names(1)
			}
			if c.solidBoolean(op, a, b, c.name(result)) {
				return c.ok()
			}
			_, err := c.r.scene.Boolean(op, a, b, c.name(result))
			c.check(err)
			c.noteBoolean(append(a, b...), c.name(result))
			return c.ok()
		}}
	if op == scene.Union {
		f.AltParams = []Param{{Name: "names", Type: "string[]"}, pResult}
	}
	return f
}

// cornerFunc is fillet or chamfer: a shape, a size and {corners, result}.
func cornerFunc(name, size, doc, example string) Func {
	return Func{Name: name, Domain: "geometry", Returns: "boolean", Doc: doc, Example: example,
		Params: []Param{pTarget, {Name: size, Type: "number", Unit: "scene units"},
			{Name: "options", Type: "{corners?: number[], result?: string}", Optional: true, Default: "every corner between two straight edges, in place",
				Doc: "corners: vertex indices across the rings; result: draw the result as this entity and keep the input"}},
		impl: func(c *call) goja.Value {
			o := c.opts(2, "corners", "result")
			opt := scene.CornerOptions{Corners: c.optIndices(o, "corners"), Result: c.optStr(o, "result", "")}
			cut := c.r.scene.Fillet
			if name == "chamfer" {
				cut = c.r.scene.Chamfer
			}
			_, err := cut(c.str(0), c.num(1), opt)
			c.check(err)
			return c.ok()
		}}
}

func fitToViewport(c *call) goja.Value {
	w, h := c.num(0), c.num(1)
	if w <= 0 || h <= 0 {
		c.fail("RangeError", "realWidth and realHeight must be > 0, got %v and %v", w, h)
	}
	o := c.opts(2, "viewport", "margin")
	vw, vh := 1600.0, 1000.0
	if o != nil {
		if v := o.Get("viewport"); v != nil && !goja.IsUndefined(v) {
			fs := c.floats(v, "option viewport")
			if len(fs) != 2 || fs[0] <= 0 || fs[1] <= 0 {
				c.fail("TypeError", "option viewport must be [width, height] > 0")
			}
			vw, vh = fs[0], fs[1]
		}
	}
	m := c.optNum(o, "margin", 0.1)
	if m < 0 || m >= 0.5 {
		c.fail("RangeError", "option margin must be in 0..0.5 (a fraction of the viewport), got %v", m)
	}
	k := math.Min(vw*(1-2*m)/w, vh*(1-2*m)/h)
	k = math.Round(k*1e6) / 1e6
	ox := math.Round((vw-w*k)/2*10) / 10
	oy := math.Round((vh-h*k)/2*10) / 10
	code := "const SCALE = " + ftoa(k) + "; const S = v => v * SCALE; const OX = " + ftoa(ox) +
		"; const OY = " + ftoa(oy) + "; const P = (x, y) => [OX + x * SCALE, OY + y * SCALE];"
	return c.finiteValue(map[string]any{"scale": k, "offsetX": ox, "offsetY": oy, "viewportWidth": vw, "viewportHeight": vh, "code": code})
}

// upstreamStyle lets a script written for upstream read getEntity(n).style as upstream's
// {fill: {color}, stroke: {color, width}}: cadrun's fill and stroke arrays get non-enumerable
// color (and width) properties, so both readings work and the JSON form stays cadrun's.
func upstreamStyle(vm *goja.Runtime, entity *goja.Object, st scene.Style) {
	style, ok := entity.Get("style").(*goja.Object)
	if !ok {
		return
	}
	if fill, ok := style.Get("fill").(*goja.Object); ok {
		_ = fill.DefineDataProperty("color", fill, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	if stroke, ok := style.Get("stroke").(*goja.Object); ok {
		_ = stroke.DefineDataProperty("color", stroke, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		_ = stroke.DefineDataProperty("width", vm.ToValue(st.StrokeWidth), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// strokeCorners reads setStroke's options, each checked here so that the message names the
// option and the values it takes.
func strokeCorners(c *call, o *goja.Object) (cp, jn string, limit float64) {
	cp = c.optStr(o, "cap", "round")
	if cp != "round" && cp != scene.CapButt && cp != scene.CapSquare {
		c.fail("RangeError", "option cap must be 'round', 'butt' or 'square', got %q", cp)
	}
	jn = c.optStr(o, "join", "round")
	if jn != "round" && jn != scene.StrokeMiter && jn != scene.StrokeBevel {
		c.fail("RangeError", "option join must be 'round', 'miter' or 'bevel', got %q", jn)
	}
	limit = c.optNum(o, "miterLimit", scene.StrokeMiterLimit)
	if limit < 1 {
		c.fail("RangeError", "option miterLimit must be >= 1 (a miter is at least as long as the stroke is wide), got %v", limit)
	}
	if limit > scene.MaxMiterLimit {
		c.fail("RangeError", "option miterLimit %v is over %d (MaxMiterLimit); a miter that long is a spike: use join 'bevel'", limit, scene.MaxMiterLimit)
	}
	if limit == scene.StrokeMiterLimit {
		limit = 0
	}
	return cp, jn, limit
}
