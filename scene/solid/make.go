package solid

import (
	"context"
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/solid/internal/manifold"
)

// Facets is how curves become facets: a chord tolerance in scene units, or a segment count
// for a whole circle; both 0 take the default (DefaultRelTolerance, DefaultAbsTolerance).
type Facets struct {
	Tolerance float64
	Segments  int
}

// ExtrudeOptions shape an extrusion.
type ExtrudeOptions struct {
	Facets
	// Twist turns the top by this many radians counter-clockwise about the profile's
	// centroid; Scale scales the top about it (0, 0 means 1, 1).
	Twist float64
	Scale [2]float64
	// Center puts the solid from -height/2 to height/2 instead of from 0 to height.
	Center bool
}

// Extrude makes a solid of the named closed 2D entity (a shape, a text, a group of them) as it
// lies in the world, from z = 0 up to height.
func (ss *Session) Extrude(ctx context.Context, sc *scene.Scene, name string, height float64, o ExtrudeOptions) (*scene.Solid, error) {
	if !(height > 0) || height > scene.MaxCoord {
		return nil, fmt.Errorf("%w: height must be a number > 0, got %v; to extrude downwards, translate the solid or use {center: true}", scene.ErrBadGeometry, height)
	}
	if o.Scale == ([2]float64{}) {
		o.Scale = [2]float64{1, 1}
	}
	if !(o.Scale[0] >= 0 && o.Scale[1] >= 0 && o.Scale[0] <= 1e6 && o.Scale[1] <= 1e6) {
		return nil, fmt.Errorf("%w: scale must be numbers >= 0, got %v", scene.ErrBadGeometry, o.Scale)
	}
	if math.IsNaN(o.Twist) || math.Abs(o.Twist) > 1e3 {
		return nil, fmt.Errorf("%w: twist must be a number of radians within ±1000, got %v", scene.ErrBadGeometry, o.Twist)
	}
	ch, err := chords(o.Tolerance, o.Segments)
	if err != nil {
		return nil, err
	}
	pr, err := sc.Profile(name, ch)
	if err != nil {
		return nil, err
	}
	// The top turns and scales about the centroid, as a user pictures it: the kernel does it
	// about the origin, so the profile goes there and the solid back.
	c := pr.Centroid
	rings, points, reach := centred(pr.Rings, c)
	divisions := 0
	if o.Twist != 0 {
		divisions = max(0, circleSegmentsOf(reach, math.Abs(o.Twist), ch)-1)
	}
	if est := 2*points*(divisions+1) + 2*points; est > scene.MaxSolidTriangles {
		return nil, fmt.Errorf("%w: extruding %q would make about %d triangles, over %d (MaxSolidTriangles); use fewer segments or a coarser tolerance", scene.ErrLimit, name, est, scene.MaxSolidTriangles)
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := k.Extrude(ctx, rings, height, divisions, o.Twist*180/math.Pi, o.Scale)
	if err != nil {
		return nil, kernelError(err)
	}
	z := 0.0
	if o.Center {
		z = -height / 2
	}
	moved, err := ms.Translate(ctx, c.X, c.Y, z)
	ms.Free(ctx)
	if err != nil {
		return nil, kernelError(err)
	}
	r := scene.Recipe{Op: "extrude", From: []string{name}, Tolerance: ch.Abs, Segments: ch.Segments}
	if pr.Exact {
		sx, sy := o.Scale[0], o.Scale[1]
		// The section at height t·h is the profile scaled by (1+(sx-1)t, 1+(sy-1)t).
		f := 1 + (sx-1)/2 + (sy-1)/2 + (sx-1)*(sy-1)/3
		r.Volume, r.VolumeExact = pr.Area*height*f, true
		if pr.PerimeterExact && o.Twist == 0 && sx == 1 && sy == 1 {
			r.Surface, r.SurfaceExact = 2*pr.Area+pr.Perimeter*height, true
		}
	}
	var form *scene.Form
	if pr.Curves != nil && o.Twist == 0 && o.Scale == [2]float64{1, 1} {
		form = scene.NewForm(scene.Form{Op: scene.FormExtrude, Profile: *pr.Curves, Base: z, Height: height})
	}
	return ss.finish(ctx, moved, r, form)
}

// RevolveOptions shape a revolution.
type RevolveOptions struct {
	Facets
	// Angle is how far the profile turns, in radians; 0 means a whole turn.
	Angle float64
}

// Revolve makes a solid by turning the named closed 2D entity, which must lie at x >= 0, about
// the Y axis; the Y axis becomes the solid's Z axis (manifold's convention), and the turn
// starts at the XZ plane.
func (ss *Session) Revolve(ctx context.Context, sc *scene.Scene, name string, o RevolveOptions) (*scene.Solid, error) {
	angle := o.Angle
	if angle == 0 {
		angle = 2 * math.Pi
	}
	if !(angle > 0 && angle <= 2*math.Pi) {
		return nil, fmt.Errorf("%w: angle must be radians in (0, 2π], got %v", scene.ErrBadGeometry, o.Angle)
	}
	ch, err := chords(o.Tolerance, o.Segments)
	if err != nil {
		return nil, err
	}
	pr, err := sc.Profile(name, ch)
	if err != nil {
		return nil, err
	}
	reach, points := 0.0, 0
	rings := make(manifold.Polygons, len(pr.Rings))
	for i, ring := range pr.Rings {
		flat := make([]float64, 0, 2*len(ring))
		for _, p := range ring {
			if p.X < -1e-9*math.Max(1, math.Abs(p.Y)) {
				return nil, fmt.Errorf("%w: %q reaches x = %v; revolve turns a profile about the Y axis, so it must lie at x >= 0: translate it to the right of the axis", scene.ErrBadGeometry, name, p.X)
			}
			reach = math.Max(reach, p.X)
			flat = append(flat, math.Max(0, p.X), p.Y)
		}
		points += len(ring)
		rings[i] = flat
	}
	segments := circleSegmentsOf(reach, angle, ch)
	if est := 2 * points * (segments + 1); est > scene.MaxSolidTriangles {
		return nil, fmt.Errorf("%w: revolving %q would make about %d triangles, over %d (MaxSolidTriangles); use fewer segments or a coarser tolerance", scene.ErrLimit, name, est, scene.MaxSolidTriangles)
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, err
	}
	// The kernel's segment count is for a whole turn.
	whole := int(math.Ceil(float64(segments) * 2 * math.Pi / angle))
	ms, err := k.Revolve(ctx, rings, whole, angle*180/math.Pi)
	if err != nil {
		return nil, kernelError(err)
	}
	r := scene.Recipe{Op: "revolve", From: []string{name}, Tolerance: ch.Abs, Segments: ch.Segments}
	if pr.Exact {
		// Pappus: the area times the path of its centroid.
		r.Volume, r.VolumeExact = pr.Area*pr.Centroid.X*angle, true
	}
	var form *scene.Form
	if pr.Curves != nil {
		form = scene.NewForm(scene.Form{Op: scene.FormRevolve, Profile: *pr.Curves, Angle: angle})
	}
	return ss.finish(ctx, ms, r, form)
}

// Box makes a box of size w × d × h centred on c.
func (ss *Session) Box(ctx context.Context, c scene.Vec3, w, d, h float64) (*scene.Solid, error) {
	if err := positive("width", w, "depth", d, "height", h); err != nil {
		return nil, err
	}
	ms, err := ss.origin(ctx, primitive{op: "box", a: w, b: d, c: h}, func(k *manifold.Kernel) (*manifold.Solid, error) {
		return k.Cube(ctx, w, d, h, true)
	})
	if err != nil {
		return nil, err
	}
	r := scene.Recipe{Op: "box", Volume: w * d * h, VolumeExact: true, Surface: 2 * (w*d + w*h + d*h), SurfaceExact: true}
	rect := scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: -w / 2, Y: -d / 2}, {X: w / 2, Y: -d / 2}, {X: w / 2, Y: d / 2}, {X: -w / 2, Y: d / 2}}}}}
	return ss.placed(ctx, ms, c, r, scene.NewForm(scene.Form{Op: scene.FormExtrude, Profile: rect, Base: -h / 2, Height: h, Offset: c}))
}

// Cylinder makes a cylinder along Z of radius r at the bottom and r2 at the top (a cone or a
// frustum when they differ), of height h, centred on c.
func (ss *Session) Cylinder(ctx context.Context, c scene.Vec3, r, r2, h float64, f Facets) (*scene.Solid, error) {
	if err := positive("radius", r, "height", h); err != nil {
		return nil, err
	}
	if !(r2 >= 0 && r2 <= scene.MaxCoord) {
		return nil, fmt.Errorf("%w: r2 must be a number >= 0, got %v", scene.ErrBadGeometry, r2)
	}
	ch, err := chords(f.Tolerance, f.Segments)
	if err != nil {
		return nil, err
	}
	n := circleSegments(math.Max(r, r2), ch)
	ms, err := ss.origin(ctx, primitive{op: "cylinder", a: h, b: r, c: r2, n: n}, func(k *manifold.Kernel) (*manifold.Solid, error) {
		return k.Cylinder(ctx, h, r, r2, n, true)
	})
	if err != nil {
		return nil, err
	}
	slant := math.Hypot(r-r2, h)
	rc := scene.Recipe{Op: "cylinder", Segments: n, Tolerance: ch.Abs,
		Volume: math.Pi * h * (r*r + r*r2 + r2*r2) / 3, VolumeExact: true,
		Surface: math.Pi*(r*r+r2*r2) + math.Pi*(r+r2)*slant, SurfaceExact: true}
	form := scene.NewForm(scene.Form{Op: scene.FormExtrude, Profile: disc(r), Base: -h / 2, Height: h, Offset: c})
	if r2 != r {
		// A cone or a frustum turns its half-section about the axis.
		half := []geom.Vec{{X: 0, Y: -h / 2}, {X: r, Y: -h / 2}, {X: r2, Y: h / 2}, {X: 0, Y: h / 2}}
		if r2 == 0 {
			half = append(half[:2], half[3])
		}
		form = scene.NewForm(scene.Form{Op: scene.FormRevolve, Profile: scene.Polygon{Parts: []scene.PolygonPart{{Outer: half}}}, Angle: 2 * math.Pi, Offset: c})
	}
	return ss.placed(ctx, ms, c, rc, form)
}

// Sphere makes a sphere of radius r centred on c.
func (ss *Session) Sphere(ctx context.Context, c scene.Vec3, r float64, f Facets) (*scene.Solid, error) {
	if err := positive("radius", r); err != nil {
		return nil, err
	}
	ch, err := chords(f.Tolerance, f.Segments)
	if err != nil {
		return nil, err
	}
	n := circleSegments(r, ch)
	if est := n * n; est > scene.MaxSolidTriangles {
		return nil, fmt.Errorf("%w: a sphere of %d segments would make about %d triangles, over %d (MaxSolidTriangles); use fewer segments", scene.ErrLimit, n, est, scene.MaxSolidTriangles)
	}
	ms, err := ss.origin(ctx, primitive{op: "sphere", a: r, n: n}, func(k *manifold.Kernel) (*manifold.Solid, error) {
		return k.Sphere(ctx, r, n)
	})
	if err != nil {
		return nil, err
	}
	rc := scene.Recipe{Op: "sphere", Segments: n, Tolerance: ch.Abs,
		Volume: 4 * math.Pi * r * r * r / 3, VolumeExact: true, Surface: 4 * math.Pi * r * r, SurfaceExact: true}
	// The half disc right of the axis, from the south pole round to the north and back
	// down the axis, turned a whole turn.
	half := scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: 0, Y: -r}, {X: 0, Y: r}}, OuterBulges: []float64{1, 0}}}}
	return ss.placed(ctx, ms, c, rc, scene.NewForm(scene.Form{Op: scene.FormRevolve, Profile: half, Angle: 2 * math.Pi, Offset: c}))
}

// primitive names a box, cylinder or sphere about the origin by its sizes and segments.
type primitive struct {
	op      string
	a, b, c float64
	n       int
}

// origin is the kernel's copy of a primitive about the origin, which placed moves: the copy
// kept when the session made the same primitive lately, else one made by build and kept. W5's
// 200 holes are one cylinder moved 200 times; making it took six times as long as moving it.
func (ss *Session) origin(ctx context.Context, key primitive, build func(k *manifold.Kernel) (*manifold.Solid, error)) (*manifold.Solid, error) {
	if ms := ss.reuse(key); ms != nil {
		return ms, nil
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, err
	}
	ms, err := build(k)
	if err != nil {
		return nil, kernelError(err)
	}
	n, err := ms.Triangles(ctx)
	if err != nil {
		ms.Free(ctx)
		return nil, kernelError(err)
	}
	ss.keep(ctx, key, ms, n)
	return ms, nil
}

// placed moves a primitive about the origin (kept by origin, so left as it is) to c and
// reads the moved copy back.
func (ss *Session) placed(ctx context.Context, ms *manifold.Solid, c scene.Vec3, r scene.Recipe, form *scene.Form) (*scene.Solid, error) {
	for _, x := range c {
		if !(math.Abs(x) <= scene.MaxCoord) {
			return nil, fmt.Errorf("%w: a centre coordinate is %v; it must be finite and within %g (MaxCoord)", scene.ErrBadGeometry, x, scene.MaxCoord)
		}
	}
	moved, err := ms.Translate(ctx, c[0], c[1], c[2])
	if err != nil {
		return nil, kernelError(err)
	}
	return ss.finish(ctx, moved, r, form)
}

// positive refuses a size that is not a finite number > 0; pairs are name, value.
func positive(pairs ...any) error {
	for i := 0; i < len(pairs); i += 2 {
		v := pairs[i+1].(float64)
		if !(v > 0 && v <= scene.MaxCoord) {
			return fmt.Errorf("%w: %s must be a number > 0, got %v", scene.ErrBadGeometry, pairs[i], v)
		}
	}
	return nil
}

// circleSegmentsOf is the segments of an arc of radius r sweeping angle under ch.
func circleSegmentsOf(r, angle float64, ch scene.Chords) int {
	if ch.Segments > 0 {
		return max(1, int(math.Ceil(float64(ch.Segments)*angle/(2*math.Pi)-1e-9)))
	}
	return max(1, geom.ArcSegments(r, angle, math.Max(ch.Rel*r, ch.Abs)))
}

// centred is the rings moved so that c is at the origin, as the kernel takes them, with their
// point count and the farthest a point lies from c.
func centred(rings [][]geom.Vec, c geom.Vec) (manifold.Polygons, int, float64) {
	out := make(manifold.Polygons, len(rings))
	points, reach := 0, 0.0
	for i, ring := range rings {
		flat := make([]float64, 0, 2*len(ring))
		for _, p := range ring {
			d := p.Sub(c)
			flat = append(flat, d.X, d.Y)
			reach = math.Max(reach, d.Len())
		}
		points += len(ring)
		out[i] = flat
	}
	return out, points, reach
}

// disc is a circle of radius r about the origin as a polygon of two half-turn arcs.
func disc(r float64) scene.Polygon {
	return scene.Polygon{Parts: []scene.PolygonPart{{Outer: []geom.Vec{{X: r}, {X: -r}}, OuterBulges: []float64{1, 1}}}}
}
