package runtime

// The solid functions: extrusions and revolutions of the 2D scene's exact profiles,
// primitives, and the measures of solids. The run's solids session (scene/solid) starts the
// kernel at the first of them, so a run that makes no solid never loads it; the booleans,
// hulls, transforms and measures that take either kind are in table.go and call here for
// solids.

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid"
)

const facetsType = "segments?: number, tolerance?: number"

const facetsDoc = "segments: chords of a whole circle (3 to 10000); tolerance: the largest distance in scene units between a curve and its chords (default: 1/1000 of the radius, at least 0.01)"

var pCenter3 = []Param{
	{Name: "cx", Type: "number", Unit: "scene units", Doc: "centre x"},
	{Name: "cy", Type: "number", Unit: "scene units", Doc: "centre y"},
	{Name: "cz", Type: "number", Unit: "scene units", Doc: "centre z"},
}

var solidFuncs = []Func{
	{Name: "extrude", Domain: "solids", Returns: "boolean",
		Doc: "Make a solid of a closed 2D shape (a polygon, a boolean or fillet result with its arcs, a circle, a rounded rectangle, a text, or a group of them) as it lies in the world, from z = 0 up to height. Its arcs become facets here, at the tolerance; its volume is the profile's exact area times the height. The profile stays in the scene (deleteEntity it if only the solid should show).",
		Params: []Param{{Name: "name", Type: "string", Doc: "the closed 2D entity to extrude"}, {Name: "height", Type: "number", Unit: "scene units"},
			{Name: "result", Type: "string", Doc: "name of the solid to create or replace"},
			{Name: "options", Type: "{twist?: number, scale?: number | [number, number], center?: boolean, " + facetsType + "}", Optional: true,
				Default: "{twist: 0, scale: 1, center: false}",
				Doc:     "twist: radians the top turns about the profile's centroid; scale: of the top about the centroid; center: from -height/2 to height/2; " + facetsDoc}},
		Example: "drawRoundedRect('outline', 0, 0, 60, 30, 5); drawCircle('hole', 0, 0, 6); booleanDifference('outline', 'hole', 'plate'); extrude('plate', 8, 'block')",
		impl: func(c *call) goja.Value {
			o := c.opts(3, "twist", "scale", "center", "segments", "tolerance")
			eo := solid.ExtrudeOptions{Facets: c.facets(o), Twist: c.optNum(o, "twist", 0), Center: c.optBool(o, "center", false)}
			if o != nil {
				if v := o.Get("scale"); v != nil && !goja.IsUndefined(v) {
					if f, ok := exportFloat(v); ok {
						eo.Scale = [2]float64{f, f}
					} else {
						fs := c.floats(v, "option scale")
						if len(fs) != 2 {
							c.fail("TypeError", "option scale must be a number or [sx, sy]")
						}
						eo.Scale = [2]float64{fs[0], fs[1]}
					}
				}
			}
			result := c.name(2)
			sd, err := c.r.solidSession().Extrude(c.r.ctx, c.r.scene, c.str(0), c.num(1), eo)
			c.check(err)
			return c.putSolid(result, sd)
		}},
	{Name: "revolve", Domain: "solids", Returns: "boolean",
		Doc: "Make a solid by turning a closed 2D shape, which must lie at x >= 0, about the Y axis; the Y axis becomes the solid's Z axis (manifold's convention), and the turn starts from the XZ plane counter-clockwise seen from above. Its volume is Pappus' (the profile's exact area times the path of its centroid).",
		Params: []Param{{Name: "name", Type: "string", Doc: "the closed 2D entity to turn"}, {Name: "result", Type: "string", Doc: "name of the solid to create or replace"},
			{Name: "options", Type: "{angle?: number /* radians */, " + facetsType + "}", Optional: true, Default: "{angle: 2 * Math.PI}",
				Doc: "angle: radians to turn, up to a whole turn; " + facetsDoc}},
		Example: "drawRect('section', 12, 0, 4, 10); revolve('section', 'ring')",
		impl: func(c *call) goja.Value {
			o := c.opts(2, "angle", "segments", "tolerance")
			result := c.name(1)
			sd, err := c.r.solidSession().Revolve(c.r.ctx, c.r.scene, c.str(0), solid.RevolveOptions{Facets: c.facets(o), Angle: c.optNum(o, "angle", 0)})
			c.check(err)
			return c.putSolid(result, sd)
		}},
	{Name: "drawBox", Domain: "solids", Returns: "boolean", Doc: "Make a box by its centre and its sizes along x (width), y (depth) and z (height).",
		Params: append(append([]Param{pName}, pCenter3...),
			Param{Name: "width", Type: "number", Unit: "scene units"}, Param{Name: "depth", Type: "number", Unit: "scene units"}, Param{Name: "height", Type: "number", Unit: "scene units"}),
		Example: "drawBox('block', 0, 0, 5, 40, 20, 10)",
		impl: func(c *call) goja.Value {
			name := c.name(0)
			sd, err := c.r.solidSession().Box(c.r.ctx, c.vec3(1), c.num(4), c.num(5), c.num(6))
			c.check(err)
			return c.putSolid(name, sd)
		}},
	{Name: "drawCylinder", Domain: "solids", Returns: "boolean", Doc: "Make a cylinder along Z by its centre, radius and height; r2 makes the top a different radius (a cone or a frustum).",
		Params: append(append([]Param{pName}, pCenter3...),
			Param{Name: "radius", Type: "number", Unit: "scene units"}, Param{Name: "height", Type: "number", Unit: "scene units"},
			Param{Name: "options", Type: "{r2?: number, " + facetsType + "}", Optional: true, Default: "{r2: radius}", Doc: "r2: the top's radius (0: a cone); " + facetsDoc}),
		Example: "drawCylinder('pin', 0, 0, 10, 3, 20)",
		impl: func(c *call) goja.Value {
			name := c.name(0)
			o := c.opts(6, "r2", "segments", "tolerance")
			r := c.num(4)
			sd, err := c.r.solidSession().Cylinder(c.r.ctx, c.vec3(1), r, c.optNum(o, "r2", r), c.num(5), c.facets(o))
			c.check(err)
			return c.putSolid(name, sd)
		}},
	{Name: "drawSphere", Domain: "solids", Returns: "boolean", Doc: "Make a sphere by its centre and radius.",
		Params: append(append([]Param{pName}, pCenter3...), Param{Name: "radius", Type: "number", Unit: "scene units"},
			Param{Name: "options", Type: "{" + facetsType + "}", Optional: true, Default: "{}", Doc: facetsDoc}),
		Example: "drawSphere('ball', 0, 0, 0, 5)",
		impl: func(c *call) goja.Value {
			name := c.name(0)
			o := c.opts(5, "segments", "tolerance")
			sd, err := c.r.solidSession().Sphere(c.r.ctx, c.vec3(1), c.num(4), c.facets(o))
			c.check(err)
			return c.putSolid(name, sd)
		}},
	{Name: "section", Domain: "solids", Returns: "boolean",
		Doc: "Cut a solid (or a group's solids) by a plane into a closed 2D shape (a polygon with holes) drawn in the plane's own coordinates, to hatch with setHatch and dimension like any drawing. {z: c} is seen from above (x right, y up), {x: c} from +x (y right, z up), {y: c} from -y as the front view (x right, z up); {point, normal} from the side the normal points to, with the world's Z laid into the plane as up (Y when the normal is along Z). A solid still as one sweep made it, cut across or along its extrusion or through its revolution's axis, gives its exact profile, arcs kept; any other cut is the mesh's.",
		Params: []Param{{Name: "name", Type: "string", Doc: "the solid, or a group of solids"},
			{Name: "plane", Type: "{x?: number, y?: number, z?: number, point?: [number, number, number], normal?: [number, number, number]}", Doc: "one of x, y or z, or a point and a normal"},
			{Name: "result", Type: "string", Doc: "name of the section to create or replace"},
			{Name: "options", Type: "{at?: [number, number]}", Optional: true, Default: "{at: [0, 0]}", Doc: "at: where the plane's origin (the point, or where the axis plane meets its axis) is drawn"}},
		Example: "drawBox('block', 0, 0, 5, 40, 20, 10); section('block', {x: 0}, 'cut', {at: [60, 0]}); setHatch('cut', 'ansi31')",
		impl: func(c *call) goja.Value {
			ps, ok := c.solidsOf(c.str(0))
			if !ok {
				c.fail("Error", "%q is not a solid and holds none; section cuts solids (extrude a 2D shape first)", c.str(0))
			}
			pl := c.plane(1)
			result := c.name(2)
			at := c.optPair(c.opts(3, "at"), "at")
			g, _, err := solid.Section(ps, pl)
			c.check(err)
			for i := range g.Parts {
				part := &g.Parts[i]
				for k := range part.Outer {
					part.Outer[k] = part.Outer[k].Add(at)
				}
				for _, h := range part.Holes {
					for k := range h {
						h[k] = h[k].Add(at)
					}
				}
			}
			return c.putShape(result, g)
		}},
	{Name: "project", Domain: "solids", Returns: "boolean",
		Doc: "Draw the edges a standard view sees of a solid (or a group's solids) as a group of 2D lines and circles, to dimension like any drawing: feature edges (faces meeting at over 30°) and the silhouette, hidden parts left out. front looks along +y with z up, top down -z with y up, right along -x with z up; back, left and bottom are their opposites. Chords on one circle are drawn as it: a closed run of 12 or more as a circle (dimDiameter takes it), 4 or more turning by at most 15° each as an arc (dimRadius); a solid seen along its extrusion draws its exact profile. The members are result_line1..., result_circle1..., result_arc1...; hidden: true draws the hidden edges too, in the group result_hidden with the hidden linetype.",
		Params: []Param{{Name: "name", Type: "string", Doc: "the solid, or a group of solids"},
			{Name: "view", Type: "'front' | 'top' | 'right' | 'back' | 'left' | 'bottom'"},
			{Name: "result", Type: "string", Doc: "name of the group to create or replace"},
			{Name: "options", Type: "{hidden?: boolean, at?: [number, number]}", Optional: true, Default: "{hidden: false, at: [0, 0]}", Doc: "hidden: draw the hidden edges too; at: where the world's origin is drawn"}},
		Example: "drawBox('block', 0, 0, 5, 40, 20, 10); project('block', 'front', 'front', {hidden: true, at: [0, -30]})",
		impl: func(c *call) goja.Value {
			ps, ok := c.solidsOf(c.str(0))
			if !ok {
				c.fail("Error", "%q is not a solid and holds none; project draws solids (extrude a 2D shape first)", c.str(0))
			}
			v, err := solid.ViewNamed(c.str(1))
			c.check(err)
			result := c.name(2)
			o := c.opts(3, "hidden", "at")
			at := c.optPair(o, "at")
			pj, err := solid.Project(ps, v)
			c.check(err)
			c.putLines(result, pj.Visible, at, "")
			if c.optBool(o, "hidden", false) {
				c.putLines(result+"_hidden", pj.Hidden, at, "hidden")
			}
			return c.ok()
		}},
	{Name: "volume", Domain: "solids", Returns: "number", Doc: "The world-space volume of a solid, or of a group's solids together: from its recipe in closed form (an extrusion's exact area times its height, Pappus' for a revolution, a primitive's formula), and from its mesh after a 3D boolean (getEntity's solid.volumeExact says which).",
		Params: []Param{pTarget}, Example: "drawBox('b', 0, 0, 0, 2, 3, 4); console.log(volume('b'))",
		impl: func(c *call) goja.Value {
			v, _ := c.solidMeasures(c.str(0))
			return c.finiteValue(v.Volume)
		}},
	{Name: "surfaceArea", Domain: "solids", Returns: "number", Doc: "The world-space surface area of a solid, or of a group's solids together: in closed form where the recipe has one (primitives, straight extrusions), else from the mesh.",
		Params: []Param{pTarget}, Example: "drawSphere('s', 0, 0, 0, 1); console.log(surfaceArea('s'))",
		impl: func(c *call) goja.Value {
			v, _ := c.solidMeasures(c.str(0))
			return c.finiteValue(v.Surface)
		}},
}

// solidSession is the run's solids session, made at its first use.
func (r *run) solidSession() *solid.Session {
	if r.solids == nil {
		mem := uint64(r.limits.MaxMemory / 2)
		if mem == 0 || mem > solid.MaxKernelMemory {
			mem = solid.MaxKernelMemory
		}
		r.solids = solid.New(solid.Options{MaxMemory: mem, NoInterrupt: r.inWorker})
	}
	return r.solids
}

// closeSolids ends the run's solids session, if it started.
func (r *run) closeSolids() {
	if r.solids != nil {
		r.solids.Close(context.Background())
		r.solids = nil
	}
}

// facets reads the {segments, tolerance} options.
func (c *call) facets(o *goja.Object) solid.Facets {
	seg := c.optNum(o, "segments", 0)
	if seg != math.Trunc(seg) {
		c.fail("TypeError", "option segments must be a whole number, got %v", seg)
	}
	if seg < 0 || seg > solid.MaxSegments {
		c.fail("RangeError", "option segments must be 3 to %d (MaxSegments), got %v", solid.MaxSegments, seg)
	}
	return solid.Facets{Segments: int(seg), Tolerance: c.optNum(o, "tolerance", 0)}
}

// vec3 reads three numbers from argument i on.
func (c *call) vec3(i int) scene.Vec3 { return scene.Vec3{c.num(i), c.num(i + 1), c.num(i + 2)} }

// putSolid draws a solid under name.
func (c *call) putSolid(name string, sd *scene.Solid) goja.Value { return c.putShape(name, sd) }

// putShape draws a shape under name, noting a redraw.
func (c *call) putShape(name string, sd scene.Shape) goja.Value {
	if c.r.scene.Exists(name) {
		c.noteRedraw(name)
	}
	_, err := c.r.scene.Put(name, sd)
	c.check(err)
	return c.ok()
}

// solidsOf looks the names up as solids: ok is false when none is a solid (the 2D operation
// then answers); a mix of solids and 2D shapes is refused naming both.
func (c *call) solidsOf(names ...string) ([]solid.Placed, bool) {
	ps, ok, err := solid.Lookup(c.r.scene, names)
	c.check(err)
	return ps, ok
}

// solidMeasures is the measures of the named solid, or of a group's solids together.
func (c *call) solidMeasures(name string) (solid.Measures, []solid.Placed) {
	ps, ok := c.solidsOf(name)
	if !ok {
		c.fail("Error", "%q is not a solid and holds none; volume and surfaceArea measure solids (getArea measures a 2D shape)", name)
	}
	return solid.MeasureAll(ps), ps
}

// optionalNumber reads argument i when it is a number (a solid's z amount before the options
// object), answering it and the index of the options; else 0 and i.
func (c *call) optionalNumber(i int) (float64, int) {
	if !c.present(i) {
		return 0, i
	}
	if _, isObj := c.arg(i).(*goja.Object); isObj {
		return 0, i
	}
	return c.num(i), i + 1
}

// axis reads the {axis} option of rotate: ok is false for the Z axis, which the 2D rotation
// turns about (u[2] is then -1 when the axis points down, 1 or 0 otherwise).
func (c *call) axis(o *goja.Object) (scene.Vec3, bool) {
	if o == nil {
		return scene.Vec3{}, false
	}
	v := o.Get("axis")
	if v == nil || goja.IsUndefined(v) {
		return scene.Vec3{}, false
	}
	if s, ok := asString(v); ok {
		switch s {
		case "x":
			return scene.Vec3{1, 0, 0}, true
		case "y":
			return scene.Vec3{0, 1, 0}, true
		case "z":
			return scene.Vec3{}, false
		}
		c.fail("TypeError", "option axis must be 'x', 'y', 'z' or [x, y, z], got %q", s)
	}
	fs := c.floats(v, "option axis")
	l := 0.0
	if len(fs) == 3 {
		l = math.Sqrt(fs[0]*fs[0] + fs[1]*fs[1] + fs[2]*fs[2])
	}
	if !(l > 0) || math.IsInf(l, 0) {
		c.fail("TypeError", "option axis must be 'x', 'y', 'z' or a direction [x, y, z] of some length")
	}
	if fs[0] == 0 && fs[1] == 0 { // about z: the 2D turn, reversed looking up from below
		return scene.Vec3{0, 0, math.Copysign(1, fs[2])}, false
	}
	return scene.Vec3{fs[0] / l, fs[1] / l, fs[2] / l}, true
}

// rotation3 is the turn by angle radians about the unit axis u through the origin
// (Rodrigues), counter-clockwise looking down the axis towards the origin.
func rotation3(u scene.Vec3, angle float64) scene.Affine3 {
	s, k := math.Sincos(angle)
	t := 1 - k
	x, y, z := u[0], u[1], u[2]
	return scene.Affine3{
		t*x*x + k, t*x*y - s*z, t*x*z + s*y, 0,
		t*x*y + s*z, t*y*y + k, t*y*z - s*x, 0,
		t*x*z - s*y, t*y*z + s*x, t*z*z + k, 0,
	}
}

// about is m applied about the centre of the named entity's 3D bounds.
func (c *call) about(name string, m scene.Affine3) scene.Affine3 {
	e, err := c.r.scene.Get(name)
	c.check(err)
	ctr := c.r.scene.WorldBounds3(e).Center()
	return scene.Translation3(ctr).Mul(m).Mul(scene.Translation3(scene.Vec3{-ctr[0], -ctr[1], -ctr[2]}))
}

// mirrorZ copies a solid (or a group of solids) and flips the copy top to bottom about the
// middle of the source's 3D bounds.
func (c *call) mirrorZ(src, newName string) goja.Value {
	e, err := c.r.scene.Get(src)
	c.check(err)
	if !c.r.scene.WorldBounds3(e).NonEmpty {
		c.fail("Error", "%q holds no solid; a 2D shape is mirrored about 'x' or 'y'", src)
	}
	_, err = c.r.scene.Duplicate(src, newName)
	c.check(err)
	if err := c.r.scene.Place3(newName, c.about(src, scene.Affine3{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0})); err != nil {
		_ = c.r.scene.Delete(newName)
		c.check(err)
	}
	return c.ok()
}

// solidBoolean runs a boolean on solids and draws its result, answering false when the
// operands are 2D shapes (the 2D boolean then runs).
func (c *call) solidBoolean(op scene.BoolOp, a, b []string, result string) bool {
	pa, okA := c.solidsOf(a...)
	var pb []solid.Placed
	okB := okA
	if len(b) > 0 {
		pb, okB = c.solidsOf(b...)
	}
	if !okA && !okB {
		return false
	}
	if okA != okB {
		solids, flat := a, b
		if okB {
			solids, flat = b, a
		}
		c.fail("Error", "%v: %s holds solids and %s holds 2D shapes; extrude the 2D shapes first (extrude), or operate on each kind apart", solid.ErrMixed, quoteList(solids), quoteList(flat))
	}
	var sop solid.Op
	switch op {
	case scene.Union:
		sop = solid.Union
	case scene.Difference:
		sop = solid.Difference
	case scene.Intersect:
		sop = solid.Intersect
	default:
		c.fail("Error", "solids have union, difference and intersect only")
	}
	sd, err := c.r.solidSession().Boolean(c.r.ctx, sop, pa, pb)
	c.check(err)
	c.putSolid(result, sd)
	c.noteBoolean(append(append([]string{}, a...), b...), result)
	return true
}

func quoteList(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += "'" + n + "'"
	}
	return out
}

// solidGap is the distance between two solids (or groups of them): the least over their
// pairs.
func (c *call) solidGap(a, b []solid.Placed) float64 {
	g, err := c.r.solidSession().GapBetween(c.r.ctx, a, b)
	c.check(err)
	return g
}

// solidDistance answers distance between solids: {distance, a, b} with the closest points
// on each (only {distance} when they touch or overlap), or false when neither is a solid.
func (c *call) solidDistance(a, b string) (goja.Value, bool) {
	pa, okA := c.solidsOf(a)
	pb, okB := c.solidsOf(b)
	if !okA && !okB {
		return nil, false
	}
	if okA != okB {
		c.fail("Error", "%v: distance measures between two solids or two 2D shapes; %q and %q are one of each", solid.ErrMixed, a, b)
	}
	n, err := c.r.solidSession().NearestBetween(c.r.ctx, pa, pb)
	c.check(err)
	out := map[string]any{"distance": n.Gap}
	if n.Points {
		out["a"], out["b"] = n.A[:], n.B[:]
	}
	return c.jsonValue(out), true
}

// solidClearance answers clearance for a solid: the gaps to the other solids (or those
// named), nearest first, at most scene.MaxMeasureResults.
func (c *call) solidClearance(name string, others []string, named bool) (goja.Value, bool) {
	me, ok := c.solidsOf(name)
	if !ok {
		return nil, false
	}
	if !named {
		others = c.r.scene.OtherSolids(name)
	}
	type gap struct {
		Name     string  `json:"name"`
		Distance float64 `json:"distance"`
	}
	out := []gap{}
	for _, o := range others {
		ps, ok := c.solidsOf(o)
		if !ok {
			c.fail("Error", "%v: %q is a solid and %q is not; clearance measures solids against solids", solid.ErrMixed, name, o)
		}
		out = append(out, gap{o, c.solidGap(me, ps)})
	}
	sortBy(out, func(g gap) float64 { return g.Distance })
	if len(out) > scene.MaxMeasureResults {
		out = out[:scene.MaxMeasureResults]
	}
	return c.jsonValue(out), true
}

// solidOverlaps answers overlaps for a solid: the other solids that share volume with it,
// with that volume, largest first.
func (c *call) solidOverlaps(name string) (goja.Value, bool) {
	me, ok := c.solidsOf(name)
	if !ok {
		return nil, false
	}
	type overlap struct {
		Name   string  `json:"name"`
		Volume float64 `json:"volume"`
	}
	out := []overlap{}
	for _, o := range c.r.scene.OtherSolids(name) {
		ps, _ := c.solidsOf(o)
		v, err := c.r.solidSession().OverlapBetween(c.r.ctx, me, ps)
		c.check(err)
		if v > 0 {
			out = append(out, overlap{o, v})
		}
	}
	sortBy(out, func(o overlap) float64 { return -o.Volume })
	if len(out) > scene.MaxMeasureResults {
		out = out[:scene.MaxMeasureResults]
	}
	return c.jsonValue(out), true
}

// sortBy sorts s by key, stably.
func sortBy[T any](s []T, key func(T) float64) {
	slices.SortStableFunc(s, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
}

// plane reads argument i as a cutting plane: {x: c}, {y: c}, {z: c} or {point, normal}.
func (c *call) plane(i int) solid.Plane {
	const want = "{x: c}, {y: c}, {z: c} or {point: [x, y, z], normal: [x, y, z]}"
	if !c.present(i) {
		c.fail("TypeError", "plane must be %s", want)
	}
	o := c.opts(i, "x", "y", "z", "point", "normal")
	var axes []int
	for k, key := range []string{"x", "y", "z"} {
		if v := o.Get(key); v != nil && !goja.IsUndefined(v) {
			axes = append(axes, k)
		}
	}
	pt, np := o.Get("point"), o.Get("normal")
	hasPt, hasN := pt != nil && !goja.IsUndefined(pt), np != nil && !goja.IsUndefined(np)
	switch {
	case len(axes) == 1 && !hasPt && !hasN:
		key := []string{"x", "y", "z"}[axes[0]]
		return solid.AxisPlane(axes[0], c.optNum(o, key, 0))
	case len(axes) == 0 && hasPt && hasN:
		p, n := c.floats(pt, "plane point"), c.floats(np, "plane normal")
		if len(p) != 3 || len(n) != 3 {
			c.fail("TypeError", "plane point and normal must be [x, y, z] each")
		}
		pl, err := solid.PointNormalPlane(scene.Vec3(p), scene.Vec3(n))
		c.check(err)
		return pl
	}
	c.fail("TypeError", "plane must be one of %s", want)
	return solid.Plane{}
}

// optPair reads option key of o as [x, y]; absent, the origin.
func (c *call) optPair(o *goja.Object, key string) geom.Vec {
	if o == nil {
		return geom.Vec{}
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return geom.Vec{}
	}
	fs := c.floats(v, "option "+key)
	if len(fs) != 2 {
		c.fail("TypeError", "option %s must be [x, y], got %d numbers", key, len(fs))
	}
	return geom.Vec{X: fs[0], Y: fs[1]}
}

// putLines draws a projection's lines, moved by at, as the group name of name_line1...,
// name_circle1... and name_arc1..., with a linetype when one is given; a group of that name
// is replaced.
func (c *call) putLines(name string, l solid.Lines, at geom.Vec, linetype string) {
	if c.r.scene.Exists(name) {
		c.noteRedraw(name)
		c.check(c.r.scene.Delete(name))
	}
	var names []string
	for i, pl := range l.Polylines {
		pts := make([]geom.Vec, len(pl))
		for k, q := range pl {
			pts[k] = q.Add(at)
		}
		n := name + "_line" + itoa(i+1)
		_, err := c.r.scene.Put(n, scene.Line{Points: pts})
		c.check(err)
		names = append(names, n)
	}
	for i, ci := range l.Circles {
		n := name + "_circle" + itoa(i+1)
		_, err := c.r.scene.Put(n, scene.Circle{Center: ci.Center.Add(at), Radius: ci.Radius})
		c.check(err)
		names = append(names, n)
	}
	for i, a := range l.Arcs {
		n := name + "_arc" + itoa(i+1)
		_, err := c.r.scene.Put(n, scene.Arc{Center: a.Center.Add(at), Radius: a.Radius, Start: a.Start, End: a.End})
		c.check(err)
		names = append(names, n)
	}
	_, err := c.r.scene.CreateGroup(name, names)
	c.check(err)
	if linetype != "" {
		c.check(c.r.scene.SetLinetype(name, linetype, 0))
	}
}
