package solid

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/solid/internal/manifold"
)

// Op is a boolean operation on solids.
type Op int

// The boolean operations.
const (
	Union Op = iota
	Difference
	Intersect
)

var opNames = [...]string{"union", "difference", "intersect"}

// Placed is a solid as it stands in the world: its entity's name, geometry and world map.
type Placed struct {
	Name  string
	Solid *scene.Solid
	World scene.Affine3 // the mesh's map to the world, its placement included
}

// Bounds is the solid's box in the world.
func (p Placed) Bounds() scene.Box3 { return p.Solid.Mesh.BoundsUnder(p.World) }

// Lookup returns the solids the names stand for: a solid, or each solid of a group. A name
// that is (or holds) a 2D shape is refused with ErrMixed naming it; so is a name that holds
// no solid at all. ok is false when none of the names is a solid, so that the caller can hand
// them to the 2D operation instead.
func Lookup(sc *scene.Scene, names []string) (out []Placed, ok bool, err error) {
	var flat, solid []string
	for _, n := range names {
		e, err := sc.Get(n)
		if err != nil {
			return nil, false, err
		}
		var walk func(e *scene.Entity)
		walk = func(e *scene.Entity) {
			if e.IsGroup() {
				for _, c := range e.Children() {
					ce, _ := sc.Get(c)
					walk(ce)
				}
				return
			}
			if e.Kind() == scene.KindDimension {
				return
			}
			sd, isSolid := e.Shape.(*scene.Solid)
			if !isSolid {
				flat = append(flat, e.Name)
				return
			}
			solid = append(solid, e.Name)
			out = append(out, Placed{Name: e.Name, Solid: sd, World: sd.World(sc.WorldMatrix(e))})
		}
		walk(e)
	}
	if len(solid) == 0 {
		return nil, false, nil
	}
	if len(flat) > 0 {
		return nil, true, fmt.Errorf("%w: %s %s a solid and %s %s a 2D shape; extrude the 2D shape first (extrude), or operate on each kind apart", ErrMixed, quote(solid), isAre(solid), quote(flat), isAre(flat))
	}
	return out, true, nil
}

func quote(names []string) string {
	if len(names) > 4 {
		return fmt.Sprintf("%q and %d more", names[:4], len(names)-4)
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

func isAre(names []string) string {
	if len(names) == 1 {
		return "is"
	}
	return "are"
}

// Boolean combines solids: the union of all of a and b, the union of a minus each of b, or
// the union of a intersected with the union of b. The result is a new solid in world
// coordinates, measured on its mesh.
func (ss *Session) Boolean(ctx context.Context, op Op, a, b []Placed) (*scene.Solid, error) {
	all := append(append([]Placed{}, a...), b...)
	ops, free, err := ss.operands(ctx, all)
	defer free()
	if err != nil {
		return nil, err
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, err
	}
	var res *manifold.Solid
	switch {
	case op == Union || len(b) == 0:
		res, err = k.Boolean(ctx, manifold.Union, ops...)
	case op == Difference && len(a) == 1:
		res, err = k.Boolean(ctx, manifold.Difference, ops...)
	default:
		var ua, ub *manifold.Solid
		if ua, err = unite(ctx, k, ops[:len(a)]); err == nil {
			if ub, err = unite(ctx, k, ops[len(a):]); err == nil {
				kop := manifold.Difference
				if op == Intersect {
					kop = manifold.Intersection
				}
				res, err = k.Boolean(ctx, kop, ua, ub)
				freeIfNew(ctx, ua, ops[:len(a)])
				freeIfNew(ctx, ub, ops[len(a):])
			} else {
				freeIfNew(ctx, ua, ops[:len(a)])
			}
		}
	}
	if err != nil {
		return nil, kernelError(err)
	}
	from := make([]string, len(all))
	for i, p := range all {
		from[i] = p.Name
	}
	sd, err := ss.finish(ctx, res, scene.Recipe{Op: opNames[op], From: from}, nil)
	if err != nil {
		return nil, fmt.Errorf("the %s of %s: %w", opNames[op], quote(from), err)
	}
	return sd, nil
}

// operands is the kernel's copies of the solids, and a function that frees those made for
// this operation alone (a kept copy stays for the next).
func (ss *Session) operands(ctx context.Context, ps []Placed) ([]*manifold.Solid, func(), error) {
	ops := make([]*manifold.Solid, 0, len(ps))
	var owned []*manifold.Solid
	free := func() {
		for _, ms := range owned {
			ms.Free(ctx)
		}
	}
	for _, p := range ps {
		ms, own, err := ss.operand(ctx, p.Solid, p.World)
		if err != nil {
			return nil, free, err
		}
		if own {
			owned = append(owned, ms)
		}
		ops = append(ops, ms)
	}
	return ops, free, nil
}

// unite is the union of solids, or the one solid itself.
func unite(ctx context.Context, k *manifold.Kernel, ops []*manifold.Solid) (*manifold.Solid, error) {
	if len(ops) == 1 {
		return ops[0], nil
	}
	return k.Boolean(ctx, manifold.Union, ops...)
}

// freeIfNew frees u when it is not one of ops.
func freeIfNew(ctx context.Context, u *manifold.Solid, ops []*manifold.Solid) {
	if len(ops) != 1 && u != nil {
		u.Free(ctx)
	}
}

// Hull is the convex hull of the solids together.
func (ss *Session) Hull(ctx context.Context, ps []Placed) (*scene.Solid, error) {
	ops, free, err := ss.operands(ctx, ps)
	defer free()
	if err != nil {
		return nil, err
	}
	k, err := ss.kernel(ctx)
	if err != nil {
		return nil, err
	}
	res, err := k.Hull(ctx, ops...)
	if err != nil {
		return nil, kernelError(err)
	}
	from := make([]string, len(ps))
	for i, p := range ps {
		from[i] = p.Name
	}
	return ss.finish(ctx, res, scene.Recipe{Op: "hull", From: from}, nil)
}

// Gap is the smallest distance between two solids' surfaces: 0 when they touch or overlap.
func (ss *Session) Gap(ctx context.Context, a, b Placed) (float64, error) {
	ops, free, err := ss.operands(ctx, []Placed{a, b})
	defer free()
	if err != nil {
		return 0, err
	}
	ma, mb := ops[0], ops[1]
	box := a.Bounds()
	box.Union(b.Bounds())
	search := 1 + math.Sqrt(sq(box.Max[0]-box.Min[0])+sq(box.Max[1]-box.Min[1])+sq(box.Max[2]-box.Min[2]))
	g, err := ma.MinGap(ctx, mb, search)
	if err != nil {
		return 0, kernelError(err)
	}
	return g, nil
}

// Overlap is the volume two solids share (their interference).
func (ss *Session) Overlap(ctx context.Context, a, b Placed) (float64, error) {
	ba, bb := a.Bounds(), b.Bounds()
	for i := range 3 {
		if ba.Max[i] < bb.Min[i] || bb.Max[i] < ba.Min[i] {
			return 0, nil
		}
	}
	ops, free, err := ss.operands(ctx, []Placed{a, b})
	defer free()
	if err != nil {
		return 0, err
	}
	ma, mb := ops[0], ops[1]
	k, err := ss.kernel(ctx)
	if err != nil {
		return 0, err
	}
	x, err := k.Boolean(ctx, manifold.Intersection, ma, mb)
	if err != nil {
		return 0, kernelError(err)
	}
	defer x.Free(ctx)
	v, err := x.Volume(ctx)
	if err != nil {
		return 0, kernelError(err)
	}
	return v, nil
}

// GapBetween is the smallest gap between two sets of solids (a group's solids): the least
// over their pairs.
func (ss *Session) GapBetween(ctx context.Context, a, b []Placed) (float64, error) {
	best := math.Inf(1)
	for _, x := range a {
		for _, y := range b {
			g, err := ss.Gap(ctx, x, y)
			if err != nil {
				return 0, err
			}
			best = math.Min(best, g)
		}
	}
	return best, nil
}

// Nearest is the gap between two sets of solids and, when it is over 0, its closest points.
type Nearest struct {
	Gap  float64
	A, B scene.Vec3 // on the first set and on the second, when Points
	// Points is false when the sets touch or overlap (no one pair says where), or finding
	// the points would take over MaxClosestPairs pairs of triangles.
	Points bool
}

// NearestBetween is GapBetween with the closest points of the nearest pair.
func (ss *Session) NearestBetween(ctx context.Context, a, b []Placed) (Nearest, error) {
	n := Nearest{Gap: math.Inf(1)}
	var x, y Placed
	for _, p := range a {
		for _, q := range b {
			g, err := ss.Gap(ctx, p, q)
			if err != nil {
				return Nearest{}, err
			}
			if g < n.Gap {
				n.Gap, x, y = g, p, q
			}
		}
	}
	if n.Gap > 0 && !math.IsInf(n.Gap, 1) {
		n.A, n.B, n.Points = ClosestPoints(x, y, n.Gap)
	}
	return n, nil
}

// OverlapBetween is the volume two sets of solids share: the sum over their pairs.
func (ss *Session) OverlapBetween(ctx context.Context, a, b []Placed) (float64, error) {
	v := 0.0
	for _, x := range a {
		for _, y := range b {
			ov, err := ss.Overlap(ctx, x, y)
			if err != nil {
				return 0, err
			}
			v += ov
		}
	}
	return v, nil
}

func sq(x float64) float64 { return x * x }
