package kernel

// The distance between two shapes, and whether they touch, are found through a tree of boxes
// over each shape's edges, walked in pairs: a pair of boxes farther apart than the best
// distance found (or, for touching, apart at all) is never opened. Comparing every edge with
// every other was quadratic, and large polygons met the cap on work; with the trees a distance
// costs little more than building them. The cap on work (maxPairs, the scene's
// MaxMeasurePairs) counts the pairs of edges actually compared, so it bounds real work: only
// shapes whose edges are all about as near to each other as the answer reach it.
//
// Ties keep the answer of the plain double loop: of the pairs of edges at the smallest
// distance (or of those that meet), the first in the shapes' own edge order wins, so that the
// closest points reported do not depend on how the tree was cut.

import (
	"fmt"

	"github.com/cadrun/cadrun/scene/geom"
)

// edgeLeaf is how many edges a leaf of the tree holds.
const edgeLeaf = 8

// Edge is one edge of a shape's outline: a line or a piece of a circular arc of at most a
// quarter turn (Boundary).
type Edge struct {
	a, b geom.Vec
	key  [2]int        // the edge's place in the shape's own order: its outline, its index there
	arc  *geom.CircArc // the arc from a to b, or nil for a line (measure_arcs.go)
}

type edgeNode struct {
	box         geom.Box
	lo, hi      int    // edges[lo:hi] when a leaf
	left, right int    // child nodes; 0 for a leaf (the root is node 0, never a child)
	minKey      [2]int // the smallest key below
}

// edgeTree is a bounding-box tree over a shape's edges.
type edgeTree struct {
	edges []Edge
	nodes []edgeNode
}

// edgeTree builds the tree of o's outlines, once. An outline's consecutive edges lie next to
// each other, so the tree halves the edges in their own order, without sorting: building it
// is linear, and a node's smallest key is its first edge's.
func (o *Outline) edgeTree() *edgeTree {
	if o.tree != nil {
		return o.tree
	}
	t := &edgeTree{edges: o.Bound.edges}
	if len(t.edges) > 0 {
		t.nodes = make([]edgeNode, 0, 2*len(t.edges)/edgeLeaf+2)
		t.build(0, len(t.edges))
	}
	o.tree = t
	return t
}

// build makes the node over edges[lo:hi] and its children, and returns its index.
func (t *edgeTree) build(lo, hi int) int {
	i := len(t.nodes)
	t.nodes = append(t.nodes, edgeNode{lo: lo, hi: hi, minKey: t.edges[lo].key})
	if hi-lo <= edgeLeaf {
		var box geom.Box
		for _, e := range t.edges[lo:hi] {
			box.Extend(e.a)
			box.Extend(e.b)
			if e.arc != nil {
				extendArcBox(&box, e.arc)
			}
		}
		t.nodes[i].box = box
		return i
	}
	l := t.build(lo, lo+(hi-lo)/2)
	r := t.build(lo+(hi-lo)/2, hi)
	box := t.nodes[l].box
	box.Extend(t.nodes[r].box.Min)
	box.Extend(t.nodes[r].box.Max)
	t.nodes[i].box, t.nodes[i].left, t.nodes[i].right = box, l, r
	return i
}

func (n *edgeNode) leaf() bool { return n.left == 0 }

// edgeWalk walks two trees in pairs, counting the pairs of edges it compares.
type edgeWalk struct {
	a, b     *edgeTree
	maxPairs int
	pairs    int
	// nearest: the best gap so far and its pair's key; touching: the meeting point.
	best    Gap
	found   bool
	bestKey [4]int
}

// PairsError is a distance the walk refused: it would compare more than MaxPairs pairs of
// edges, since the edges of both outlines lie about as near to each other as the answer
// everywhere. The scene words it with the shapes' names.
type PairsError struct {
	EdgesA, EdgesB int // the edges of each outline
	MaxPairs       int
}

func (e *PairsError) Error() string {
	return fmt.Sprintf("measuring %d edges to %d compares more than %d pairs of edges", e.EdgesA, e.EdgesB, e.MaxPairs)
}

// errPairs is the refusal when the walk compared more than maxPairs pairs of edges.
func (w *edgeWalk) errPairs() error {
	return &PairsError{EdgesA: len(w.a.edges), EdgesB: len(w.b.edges), MaxPairs: w.maxPairs}
}

// pairKey orders pairs of edges as the plain loops over both shapes meet them: outline of a,
// outline of b, edge of a, edge of b. Of a pair of nodes, the pair of their smallest keys is
// the smallest pair below them.
func pairKey(a, b [2]int) [4]int { return [4]int{a[0], b[0], a[1], b[1]} }

func pairLess(x, y [4]int) bool {
	for k := range x {
		if x[k] != y[k] {
			return x[k] < y[k]
		}
	}
	return false
}

// nearest finds the closest pair of edges below nodes i of a and j of b; false when the
// walk went past maxPairs.
func (w *edgeWalk) nearest(i, j int) bool {
	na, nb := &w.a.nodes[i], &w.b.nodes[j]
	if w.found {
		lb := BoxGap(na.box, nb.box)
		if lb > w.best.Distance || lb == w.best.Distance && !pairLess(pairKey(na.minKey, nb.minKey), w.bestKey) {
			return true
		}
	}
	if na.leaf() && nb.leaf() {
		w.pairs += (na.hi - na.lo) * (nb.hi - nb.lo)
		if w.pairs > w.maxPairs {
			return false
		}
		for ia := na.lo; ia < na.hi; ia++ {
			ea := &w.a.edges[ia]
			for ib := nb.lo; ib < nb.hi; ib++ {
				eb := &w.b.edges[ib]
				d, pa, pb := edgeGap(ea, eb)
				k := pairKey(ea.key, eb.key)
				if !w.found || d < w.best.Distance || d == w.best.Distance && pairLess(k, w.bestKey) {
					w.best, w.bestKey, w.found = Gap{Distance: d, A: pa, B: pb}, k, true
				}
			}
		}
		return true
	}
	// Open the larger node (a leaf cannot be opened), nearer child first.
	var c1, c2 [2]int
	if nb.leaf() || !na.leaf() && boxDiag(na.box) >= boxDiag(nb.box) {
		c1, c2 = [2]int{na.left, j}, [2]int{na.right, j}
	} else {
		c1, c2 = [2]int{i, nb.left}, [2]int{i, nb.right}
	}
	g1 := BoxGap(w.a.nodes[c1[0]].box, w.b.nodes[c1[1]].box)
	g2 := BoxGap(w.a.nodes[c2[0]].box, w.b.nodes[c2[1]].box)
	if g2 < g1 {
		c1, c2 = c2, c1
	}
	return w.nearest(c1[0], c1[1]) && w.nearest(c2[0], c2[1])
}

// meet finds where the edges below nodes i of a and j of b meet, the first such pair in the
// shapes' edge order; false when the walk went past maxPairs.
func (w *edgeWalk) meet(i, j int) bool {
	na, nb := &w.a.nodes[i], &w.b.nodes[j]
	if !BoxesMeet(na.box, nb.box) || w.found && !pairLess(pairKey(na.minKey, nb.minKey), w.bestKey) {
		return true
	}
	if na.leaf() && nb.leaf() {
		w.pairs += (na.hi - na.lo) * (nb.hi - nb.lo)
		if w.pairs > w.maxPairs {
			return false
		}
		for ia := na.lo; ia < na.hi; ia++ {
			ea := &w.a.edges[ia]
			for ib := nb.lo; ib < nb.hi; ib++ {
				eb := &w.b.edges[ib]
				k := pairKey(ea.key, eb.key)
				if w.found && !pairLess(k, w.bestKey) {
					continue
				}
				if p, ok := edgesMeet(ea, eb); ok {
					w.best, w.bestKey, w.found = Gap{A: p, B: p}, k, true
				}
			}
		}
		return true
	}
	if nb.leaf() || !na.leaf() && boxDiag(na.box) >= boxDiag(nb.box) {
		return w.meet(na.left, j) && w.meet(na.right, j)
	}
	return w.meet(i, nb.left) && w.meet(i, nb.right)
}

// BoxesMeet reports whether two boxes share a point (edges touching count).
func BoxesMeet(a, b geom.Box) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}

func boxDiag(b geom.Box) float64 {
	sz := b.Size()
	return sz.X*sz.X + sz.Y*sz.Y
}
