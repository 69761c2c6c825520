package manifold

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Solid is a manifold in a kernel's wasm memory. Free it when done: the wasm's memory is
// not collected by Go's garbage collector.
type Solid struct {
	k   *Kernel
	in  *instance
	ptr uint32
}

// Mesh is a triangle mesh: three float32 coordinates per vertex, three vertex indices per
// triangle, counter-clockwise seen from outside.
type Mesh struct {
	Vertices  []float32
	Triangles []uint32
}

// Box is an axis-aligned bounding box.
type Box struct {
	Min, Max [3]float64
}

// Polygons is a set of closed contours in the XY plane ([x0, y0, x1, y1, ...] each), filled
// by the positive rule: counter-clockwise outlines, clockwise holes, overlaps unioned.
type Polygons [][]float64

// Op is a boolean operation.
type Op int

const (
	Union Op = iota
	Difference
	Intersection
)

// Free releases the solid's memory in the wasm. Freeing twice, or after the kernel was
// restarted or closed, does nothing.
func (s *Solid) Free(ctx context.Context) {
	if s == nil || s.ptr == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx) // a run that was stopped still gives its memory back
	_ = s.k.with(ctx, func(in *instance) error {
		if in == s.in {
			return in.destroy(ctx, "Manifold", s.ptr)
		}
		return nil
	})
	s.ptr = 0
}

// Stale reports whether the instance that made the solid has ended (after a failure, or the
// kernel's Close), so that its operations would answer ErrStale.
func (s *Solid) Stale() bool {
	if s == nil || s.ptr == 0 {
		return true
	}
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return s.k.done || s.in != s.k.in || s.in.broken != nil
}

// live checks that the solid belongs to the kernel's current instance.
func (s *Solid) live(in *instance) error {
	if s == nil || s.ptr == 0 || s.in != in {
		return ErrStale
	}
	return nil
}

// made wraps a Manifold the kernel returned by value, checking its status: manifold marks a
// refused input on the result instead of throwing.
func (k *Kernel) made(ctx context.Context, in *instance, ptr uint32) (*Solid, error) {
	s := &Solid{k: k, in: in, ptr: ptr}
	status, err := s.status(ctx, in)
	if err != nil {
		return nil, err
	}
	if status != "NoError" {
		_ = in.destroy(ctx, "Manifold", ptr)
		return nil, fmt.Errorf("%w: manifold says %s", ErrInvalid, status)
	}
	return s, nil
}

func (s *Solid) status(ctx context.Context, in *instance) (string, error) {
	r, _, err := in.callMethod(ctx, "Manifold", "status", s.ptr)
	if err != nil {
		return "", err
	}
	return in.takeString(ctx, uint32(r))
}

// takeString reads a std::string result ({length, bytes} malloc'd for the caller) and frees it.
func (in *instance) takeString(ctx context.Context, ptr uint32) (string, error) {
	n := in.u32(ptr)
	str := string(in.bytes(ptr+4, n))
	_, err := in.freeFn.Call(context.WithValue(ctx, instKey{}, in), uint64(ptr))
	if err != nil {
		return "", in.fail(ctx, err)
	}
	return str, nil
}

// Cube is a box of the given size with a corner at the origin, or centred on it.
func (k *Kernel) Cube(ctx context.Context, x, y, z float64, center bool) (*Solid, error) {
	var s *Solid
	err := k.with(ctx, func(in *instance) error {
		v, free, err := in.newValue(ctx, "vec3", x, y, z)
		if err != nil {
			return err
		}
		defer free()
		r, _, err := in.callFunc(ctx, "_Cube", uint64(v), boolWire(center))
		if err != nil {
			return err
		}
		s, err = k.made(ctx, in, uint32(r))
		return err
	})
	return s, err
}

// Cylinder is a cylinder (or cone, rHigh != rLow) along Z from 0 to height, or centred on the
// origin, with segments sides (0: manifold's default for the radius).
func (k *Kernel) Cylinder(ctx context.Context, height, rLow, rHigh float64, segments int, center bool) (*Solid, error) {
	return k.fromFunc(ctx, "_Cylinder", f64Wire(height), f64Wire(rLow), f64Wire(rHigh), intWire(segments), boolWire(center))
}

// Sphere is a sphere of radius r centred on the origin (segments around its equator).
func (k *Kernel) Sphere(ctx context.Context, r float64, segments int) (*Solid, error) {
	return k.fromFunc(ctx, "_Sphere", f64Wire(r), intWire(segments))
}

func (k *Kernel) fromFunc(ctx context.Context, name string, args ...uint64) (*Solid, error) {
	var s *Solid
	err := k.with(ctx, func(in *instance) error {
		r, _, err := in.callFunc(ctx, name, args...)
		if err != nil {
			return err
		}
		s, err = k.made(ctx, in, uint32(r))
		return err
	})
	return s, err
}

// FromMesh makes a solid of a closed, oriented triangle mesh; one that is not a manifold is
// refused with ErrInvalid naming manifold's status (NotManifold, VertexOutOfBounds, ...).
func (k *Kernel) FromMesh(ctx context.Context, m Mesh) (*Solid, error) {
	if len(m.Vertices)%3 != 0 || len(m.Triangles)%3 != 0 {
		return nil, fmt.Errorf("%w: a mesh has 3 numbers per vertex and 3 indices per triangle (got %d and %d)", ErrInvalid, len(m.Vertices), len(m.Triangles))
	}
	verts := make([]byte, 4*len(m.Vertices))
	for k, v := range m.Vertices {
		binary.LittleEndian.PutUint32(verts[4*k:], math.Float32bits(v))
	}
	tris := make([]byte, 4*len(m.Triangles))
	for k, t := range m.Triangles {
		binary.LittleEndian.PutUint32(tris[4*k:], t)
	}
	var s *Solid
	err := k.with(ctx, func(in *instance) error {
		h := in.vals.handle(&jsObject{props: map[string]any{
			"numProp":        float64(3),
			"vertProperties": &typedArray{view: 6, data: verts},
			"triVerts":       &typedArray{view: 5, data: tris},
		}})
		ptr, err := in.construct(ctx, "Manifold", uint64(h)) // the constructor takes the handle's reference
		if err != nil {
			return err
		}
		s, err = k.made(ctx, in, ptr)
		return err
	})
	return s, err
}

// Extrude makes a prism of the polygons, from z = 0 to height; divisions adds slices between,
// twist turns the top by degrees and scaleTop scales it (1, 1 for a straight prism).
func (k *Kernel) Extrude(ctx context.Context, p Polygons, height float64, divisions int, twist float64, scaleTop [2]float64) (*Solid, error) {
	var s *Solid
	err := k.with(ctx, func(in *instance) error {
		polys, free, err := in.crossSectionPolygons(ctx, p)
		if err != nil {
			return err
		}
		defer free()
		scale, freeScale, err := in.newValue(ctx, "vec2", scaleTop[0], scaleTop[1])
		if err != nil {
			return err
		}
		defer freeScale()
		r, _, err := in.callFunc(ctx, "_Extrude", uint64(polys), f64Wire(height), intWire(divisions), f64Wire(twist), uint64(scale))
		if err != nil {
			return err
		}
		s, err = k.made(ctx, in, uint32(r))
		return err
	})
	return s, err
}

// Revolve turns the polygons (x >= 0) about the Y axis, which becomes the solid's Z axis,
// by degrees (360: a whole turn) in segments steps (0: manifold's default).
func (k *Kernel) Revolve(ctx context.Context, p Polygons, segments int, degrees float64) (*Solid, error) {
	var s *Solid
	err := k.with(ctx, func(in *instance) error {
		polys, free, err := in.crossSectionPolygons(ctx, p)
		if err != nil {
			return err
		}
		defer free()
		r, _, err := in.callFunc(ctx, "_Revolve", uint64(polys), intWire(segments), f64Wire(degrees))
		if err != nil {
			return err
		}
		s, err = k.made(ctx, in, uint32(r))
		return err
	})
	return s, err
}

// crossSectionPolygons cleans the polygons through a CrossSection (positive fill: overlaps
// unioned, orientation fixed), as manifold's own JavaScript API does before extruding, and
// returns its polygons.
func (in *instance) crossSectionPolygons(ctx context.Context, p Polygons) (uint32, func(), error) {
	raw, err := in.polygons(ctx, p)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = in.destroy(ctx, "Vector2_vec2", raw) }()
	cs, err := in.construct(ctx, "CrossSection", uint64(raw), intWire(int(in.reg.enums["fillrule"]["Positive"])))
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = in.destroy(ctx, "CrossSection", cs) }()
	r, _, err := in.callMethod(ctx, "CrossSection", "_ToPolygons", cs)
	if err != nil {
		return 0, nil, err
	}
	out := uint32(r)
	return out, func() { _ = in.destroy(ctx, "Vector2_vec2", out) }, nil
}

// polygons builds a Vector2_vec2. Each contour is a Vector_vec2 resized to its length in one
// call, whose points are then written straight into the vector's storage: a std::vector is
// three pointers (begin, end, capacity) in libc++, and a vec2 two doubles. The layout is
// checked on every vector (end - begin must be 16 bytes a point); where it does not hold, the
// points go in one push_back each, five calls a point instead of none.
func (in *instance) polygons(ctx context.Context, p Polygons) (uint32, error) {
	outer, err := in.construct(ctx, "Vector2_vec2")
	if err != nil {
		return 0, err
	}
	zero, freeZero, err := in.newValue(ctx, "vec2", 0, 0)
	if err != nil {
		return 0, err
	}
	defer freeZero()
	for _, ring := range p {
		if len(ring)%2 != 0 {
			_ = in.destroy(ctx, "Vector2_vec2", outer)
			return 0, fmt.Errorf("%w: a contour has x, y pairs (got %d numbers)", ErrInvalid, len(ring))
		}
		vec, err := in.construct(ctx, "Vector_vec2")
		if err != nil {
			return 0, err
		}
		if err := in.fillVec2(ctx, vec, zero, ring); err != nil {
			return 0, err
		}
		_, _, err = in.callMethod(ctx, "Vector2_vec2", "push_back", outer, uint64(vec))
		_ = in.destroy(ctx, "Vector_vec2", vec) // push_back copied it
		if err != nil {
			return 0, err
		}
	}
	return outer, nil
}

// fillVec2 puts the points of ring (x, y pairs) into the empty Vector_vec2 at vec.
func (in *instance) fillVec2(ctx context.Context, vec, zero uint32, ring []float64) error {
	n := uint32(len(ring) / 2)
	if n == 0 {
		return nil
	}
	if _, _, err := in.callMethod(ctx, "Vector_vec2", "resize", vec, uint64(n), uint64(zero)); err != nil {
		return err
	}
	if begin, end := in.u32(vec), in.u32(vec+4); end-begin == 16*n {
		b := in.bytes(begin, 16*n)
		for k, x := range ring {
			binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(x))
		}
		return nil
	}
	for j := range n {
		v, free, err := in.newValue(ctx, "vec2", ring[2*j], ring[2*j+1])
		if err != nil {
			return err
		}
		_, _, err = in.callMethod(ctx, "Vector_vec2", "set", vec, uint64(j), uint64(v))
		free()
		if err != nil {
			return err
		}
	}
	return nil
}

// Translate, Rotate (degrees about X, then Y, then Z), Scale and Mirror (about the plane
// through the origin with this normal) return new solids; the receiver is unchanged.
func (s *Solid) Translate(ctx context.Context, x, y, z float64) (*Solid, error) {
	return s.withVec3(ctx, "_Translate", x, y, z)
}

func (s *Solid) Scale(ctx context.Context, x, y, z float64) (*Solid, error) {
	return s.withVec3(ctx, "_Scale", x, y, z)
}

func (s *Solid) Mirror(ctx context.Context, nx, ny, nz float64) (*Solid, error) {
	return s.withVec3(ctx, "_Mirror", nx, ny, nz)
}

func (s *Solid) Rotate(ctx context.Context, x, y, z float64) (*Solid, error) {
	return s.method(ctx, "_Rotate", f64Wire(x), f64Wire(y), f64Wire(z))
}

// Hull is the solid's convex hull.
func (s *Solid) Hull(ctx context.Context) (*Solid, error) { return s.method(ctx, "hull") }

func (s *Solid) withVec3(ctx context.Context, name string, x, y, z float64) (*Solid, error) {
	var out *Solid
	err := s.k.with(ctx, func(in *instance) error {
		if err := s.live(in); err != nil {
			return err
		}
		v, free, err := in.newValue(ctx, "vec3", x, y, z)
		if err != nil {
			return err
		}
		defer free()
		r, _, err := in.callMethod(ctx, "Manifold", name, s.ptr, uint64(v))
		if err != nil {
			return err
		}
		out, err = s.k.made(ctx, in, uint32(r))
		return err
	})
	return out, err
}

func (s *Solid) method(ctx context.Context, name string, args ...uint64) (*Solid, error) {
	var out *Solid
	err := s.k.with(ctx, func(in *instance) error {
		if err := s.live(in); err != nil {
			return err
		}
		r, _, err := in.callMethod(ctx, "Manifold", name, s.ptr, args...)
		if err != nil {
			return err
		}
		out, err = s.k.made(ctx, in, uint32(r))
		return err
	})
	return out, err
}

// Boolean combines solids left to right: the first minus all the others for Difference.
// Several operands go to manifold's batch boolean, which is faster than pairs.
func (k *Kernel) Boolean(ctx context.Context, op Op, solids ...*Solid) (*Solid, error) {
	if len(solids) == 0 {
		return nil, fmt.Errorf("%w: a boolean needs at least one solid", ErrInvalid)
	}
	var out *Solid
	err := k.with(ctx, func(in *instance) error {
		for _, s := range solids {
			if err := s.live(in); err != nil {
				return err
			}
		}
		var r uint64
		var err error
		if len(solids) == 2 {
			name := [...]string{"add", "subtract", "intersect"}[op]
			r, _, err = in.callMethod(ctx, "Manifold", name, solids[0].ptr, uint64(solids[1].ptr))
		} else {
			vec, verr := in.construct(ctx, "Vector_manifold")
			if verr != nil {
				return verr
			}
			defer func() { _ = in.destroy(ctx, "Vector_manifold", vec) }()
			for _, s := range solids {
				if _, _, err := in.callMethod(ctx, "Vector_manifold", "push_back", vec, uint64(s.ptr)); err != nil {
					return err
				}
			}
			name := [...]string{"_manifoldUnionN", "_manifoldDifferenceN", "_manifoldIntersectionN"}[op]
			r, _, err = in.callFunc(ctx, name, uint64(vec))
		}
		if err != nil {
			return err
		}
		out, err = k.made(ctx, in, uint32(r))
		return err
	})
	return out, err
}

// Hull is the convex hull of several solids together.
func (k *Kernel) Hull(ctx context.Context, solids ...*Solid) (*Solid, error) {
	var out *Solid
	err := k.with(ctx, func(in *instance) error {
		pts, err := in.construct(ctx, "Vector_vec3")
		if err != nil {
			return err
		}
		defer func() { _ = in.destroy(ctx, "Vector_vec3", pts) }()
		for _, s := range solids {
			if err := s.live(in); err != nil {
				return err
			}
			if _, _, err := in.callFunc(ctx, "_manifoldCollectVertices", uint64(pts), uint64(s.ptr)); err != nil {
				return err
			}
		}
		r, _, err := in.callFunc(ctx, "_manifoldHullPoints", uint64(pts))
		if err != nil {
			return err
		}
		out, err = k.made(ctx, in, uint32(r))
		return err
	})
	return out, err
}

// Volume and SurfaceArea are measured on the mesh.
func (s *Solid) Volume(ctx context.Context) (float64, error) { return s.number(ctx, "volume") }

func (s *Solid) SurfaceArea(ctx context.Context) (float64, error) {
	return s.number(ctx, "surfaceArea")
}

// Triangles is the mesh's triangle count.
func (s *Solid) Triangles(ctx context.Context) (int, error) {
	n, err := s.number(ctx, "numTri")
	return int(n), err
}

func (s *Solid) number(ctx context.Context, name string) (float64, error) {
	var x float64
	err := s.k.with(ctx, func(in *instance) error {
		if err := s.live(in); err != nil {
			return err
		}
		r, fn, err := in.callMethod(ctx, "Manifold", name, s.ptr)
		if err != nil {
			return err
		}
		x, err = in.fromWire(fn.types[0], r)
		return err
	})
	return x, err
}

// MinGap is the smallest distance between the two solids' surfaces when it is below search,
// else search (manifold looks no further); 0 when they touch or overlap.
func (s *Solid) MinGap(ctx context.Context, other *Solid, search float64) (float64, error) {
	var x float64
	err := s.k.with(ctx, func(in *instance) error {
		if err := errors.Join(s.live(in), other.live(in)); err != nil {
			return ErrStale
		}
		r, fn, err := in.callMethod(ctx, "Manifold", "minGap", s.ptr, uint64(other.ptr), f64Wire(search))
		if err != nil {
			return err
		}
		x, err = in.fromWire(fn.types[0], r)
		return err
	})
	return x, err
}

// Bounds is the solid's bounding box.
func (s *Solid) Bounds(ctx context.Context) (Box, error) {
	var b Box
	err := s.k.with(ctx, func(in *instance) error {
		if err := s.live(in); err != nil {
			return err
		}
		r, fn, err := in.callMethod(ctx, "Manifold", "_boundingBox", s.ptr)
		if err != nil {
			return err
		}
		v, err := in.readValue(ctx, fn.types[0], uint32(r))
		if err != nil {
			return err
		}
		if len(v) != 6 {
			return fmt.Errorf("%w: a box of %d numbers", ErrKernel, len(v))
		}
		copy(b.Min[:], v[:3])
		copy(b.Max[:], v[3:])
		return nil
	})
	return b, err
}

// Mesh returns the solid's triangles (vertices shared between them).
func (s *Solid) Mesh(ctx context.Context) (Mesh, error) {
	var m Mesh
	err := s.k.with(ctx, func(in *instance) error {
		if err := s.live(in); err != nil {
			return err
		}
		r, _, err := in.callMethod(ctx, "Manifold", "_GetMeshJS", s.ptr, intWire(-1))
		if err != nil {
			return err
		}
		h := uint32(r)
		defer in.vals.decref(h)
		obj, ok := in.emval(h).(*jsObject)
		if !ok {
			return fmt.Errorf("%w: the mesh came back as %T", ErrKernel, in.emval(h))
		}
		numProp, _ := obj.props["numProp"].(float64)
		verts, vok := obj.props["vertProperties"].(*typedArray)
		tris, tok := obj.props["triVerts"].(*typedArray)
		if !vok || !tok || verts.view != 6 || tris.view != 5 || numProp < 3 {
			return fmt.Errorf("%w: the mesh came back without float32 vertices and uint32 triangles", ErrKernel)
		}
		np := int(numProp)
		n := len(verts.data) / 4 / np
		m.Vertices = make([]float32, 0, 3*n)
		for v := range n {
			for c := range 3 {
				m.Vertices = append(m.Vertices, math.Float32frombits(binary.LittleEndian.Uint32(verts.data[4*(v*np+c):])))
			}
		}
		m.Triangles = make([]uint32, len(tris.data)/4)
		for t := range m.Triangles {
			m.Triangles[t] = binary.LittleEndian.Uint32(tris.data[4*t:])
		}
		return nil
	})
	return m, err
}

func boolWire(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func intWire(n int) uint64 { return uint64(uint32(int32(n))) }
