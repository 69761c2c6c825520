package kernel

// Fillets and chamfers of rings. A corner between two straight edges is cut back along both
// edges and the two new ends are joined by an arc tangent to both (a fillet, stored as a
// bulge, so it stays exact in measures and DXF) or by a straight edge (a chamfer). The scene
// chooses the corners and words the refusals; the rings are in whatever frame the scene cuts
// them in (the shape's own).

import (
	"fmt"
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// cornerSlack is how far past an edge's room, relative to the edge's length, a cut may reach
// and still be taken as reaching it exactly: a right angle's tangent length r/tan(π/4) comes
// out a rounding above r, and a square of side 2r filleted by r must still become a circle.
const cornerSlack = 1e-9

// Corner is what a fillet or chamfer does at one corner.
type Corner struct {
	// Chamfer cuts the corner with a straight edge; false rounds it with an arc.
	Chamfer bool
}

// reach is how far along each edge the cut of the given size runs from a corner where the
// outline turns by turn radians.
func (c Corner) reach(size, turn float64) float64 {
	if c.Chamfer {
		return size
	}
	return size * math.Tan(math.Abs(turn)/2)
}

// bulge is the bulge of the edge that replaces a corner turning by turn: the fillet's arc
// turns as the outline does, which makes a convex corner's arc bulge out and a concave one's in.
func (c Corner) bulge(turn float64) float64 {
	if c.Chamfer {
		return 0
	}
	return math.Tan(turn / 4)
}

// CornerKind is what a corner is, which decides whether it can be cut.
type CornerKind int

// The kinds of corner.
const (
	CornerSharp    CornerKind = iota // between two straight edges: cut
	CornerArc                        // an edge is an arc
	CornerStraight                   // the edges run on in one line (180°)
	CornerFolded                     // the edges fold back on each other, or one has no length
)

// CutRing is one ring of the polygon being cut: its points and bulges, the index of its first
// vertex in the numbering across rings, and what each corner is and whether it is cut.
type CutRing struct {
	Pts  []geom.Vec
	Bul  []float64
	Base int
	Kind []CornerKind
	Turn []float64 // the signed turn at each sharp corner, radians, left positive
	// Cut marks the corners to cut; the caller sets it.
	Cut []bool
}

// CutRings lists rings (points, and bulges: nil for a ring of lines) in the order their
// vertices are numbered, each corner classified.
func CutRings(pts [][]geom.Vec, bul [][]float64) []CutRing {
	rings := make([]CutRing, 0, len(pts))
	base := 0
	for k, p := range pts {
		r := CutRing{Pts: p, Bul: bul[k], Base: base, Kind: make([]CornerKind, len(p)), Turn: make([]float64, len(p)), Cut: make([]bool, len(p))}
		for i := range p {
			r.Kind[i], r.Turn[i] = classifyCorner(p, bul[k], i)
		}
		rings = append(rings, r)
		base += len(p)
	}
	return rings
}

// classifyCorner says what corner i of the ring is and, for a sharp one, by how much the
// outline turns there (left positive).
func classifyCorner(pts []geom.Vec, bul []float64, i int) (CornerKind, float64) {
	n := len(pts)
	prev := (i + n - 1) % n
	if geom.BulgeOf(bul, prev) != 0 || geom.BulgeOf(bul, i) != 0 {
		return CornerArc, 0
	}
	d1, d2 := pts[i].Sub(pts[prev]), pts[(i+1)%n].Sub(pts[i])
	l1, l2 := d1.Len(), d2.Len()
	if l1 == 0 || l2 == 0 {
		return CornerFolded, 0
	}
	cross, dot := d1.X*d2.Y-d1.Y*d2.X, d1.X*d2.X+d1.Y*d2.Y
	if math.Abs(cross) <= 1e-12*l1*l2 {
		if dot > 0 {
			return CornerStraight, 0
		}
		return CornerFolded, 0
	}
	return CornerSharp, math.Atan2(cross, dot)
}

// CutCorners cuts the marked corners of the ring by size (a fillet's radius or a chamfer's
// distance), after checking that each cut fits: a *RoomError names the first that does not.
// An edge that two cuts (or one cut reaching its far end) use up entirely is left out, so
// that the arcs or cuts on either side of it meet. bul is nil when no edge is an arc.
func (r CutRing) CutCorners(size float64, cut Corner) (pts []geom.Vec, bul []float64, err error) {
	n := len(r.Pts)
	reach := make([]float64, n)
	for i := range n {
		if r.Cut[i] {
			reach[i] = cut.reach(size, r.Turn[i])
		}
	}
	if err := r.checkRoom(reach, size); err != nil {
		return nil, nil, err
	}
	for i, v := range r.Pts {
		next := (i + 1) % n
		used := reach[i] + reach[next]
		spent := used > 0 && used >= r.Pts[next].Sub(v).Len()*(1-cornerSlack)
		if !r.Cut[i] {
			if !spent {
				pts, bul = append(pts, v), append(bul, geom.BulgeOf(r.Bul, i))
			}
			continue
		}
		prev := r.Pts[(i+n-1)%n]
		pts, bul = append(pts, toward(v, prev, reach[i])), append(bul, cut.bulge(r.Turn[i]))
		if !spent {
			pts, bul = append(pts, toward(v, r.Pts[next], reach[i])), append(bul, 0)
		}
	}
	if !geom.HasBulge(bul) {
		bul = nil
	}
	return pts, bul, nil
}

// toward is the point at distance d from p on the way to q.
func toward(p, q geom.Vec, d float64) geom.Vec {
	u := q.Sub(p)
	return p.Add(u.Mul(d / u.Len()))
}

// RoomError is a cut too large for its corner: it runs past the middle of an edge it shares
// with another cut, or past the end of an edge it has to itself. The scene words it with the
// shape's name.
type RoomError struct {
	// Corner is the corner's index in the numbering across rings (CutRing.Base).
	Corner int
	// Fits is the largest size that fits there.
	Fits float64
}

func (e *RoomError) Error() string {
	return fmt.Sprintf("corner %d has room for a cut of at most %.6g", e.Corner, e.Fits)
}

// checkRoom refuses the first cut that runs past its room (RoomError).
func (r CutRing) checkRoom(reach []float64, size float64) error {
	n := len(r.Pts)
	for i := range n {
		if !r.Cut[i] {
			continue
		}
		prev, next := (i+n-1)%n, (i+1)%n
		room := math.Min(r.edgeRoom(prev, i), r.edgeRoom(i, next))
		if reach[i] > room*(1+cornerSlack) {
			return &RoomError{Corner: r.Base + i, Fits: size * room / reach[i]}
		}
	}
	return nil
}

// edgeRoom is how much of the edge between corners a and b (one of them cut) a cut at its
// end may use: half when both ends are cut, else all of it.
func (r CutRing) edgeRoom(a, b int) float64 {
	l := r.Pts[b].Sub(r.Pts[a]).Len()
	if r.Cut[a] && r.Cut[b] {
		return l / 2
	}
	return l
}
