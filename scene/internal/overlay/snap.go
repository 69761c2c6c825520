package overlay

// Snapping: every distinct point gets a vertex id, and points closer than the precision are
// merged into the first one seen.

import "math"

// pointIndex gives every distinct point a vertex id. It is a small open-addressing hash
// table, several times faster here than a map keyed by Point.
type pointIndex struct {
	slots []int32 // vertex id + 1; 0 is empty
	mask  uint64
	pts   []Point
}

func newPointIndex(n int) *pointIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &pointIndex{slots: make([]int32, size), mask: uint64(size - 1), pts: make([]Point, 0, n)}
}

func (ix *pointIndex) id(p Point) int32 {
	// Adding zero turns -0 into +0, which compares equal and must hash equal.
	x, y := math.Float64bits(p.X+0), math.Float64bits(p.Y+0)
	// Round coordinates have all-zero low bits, so the bits are mixed fully (murmur3's
	// finaliser) before the low ones pick the slot.
	h := x ^ (y*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		s := ix.slots[i]
		if s == 0 {
			if len(ix.pts) >= len(ix.slots)/2 {
				ix.grow()
				return ix.id(p)
			}
			ix.pts = append(ix.pts, p)
			ix.slots[i] = int32(len(ix.pts))
			return int32(len(ix.pts) - 1)
		}
		if ix.pts[s-1] == p {
			return s - 1
		}
	}
}

func (ix *pointIndex) grow() {
	pts := ix.pts
	*ix = *newPointIndex(2 * len(ix.slots))
	for _, p := range pts {
		ix.id(p)
	}
}

// snapIndex merges points closer than eps: snap returns the first point seen within eps of p
// (in x and in y), or records p. Cells are snapCell·eps wide: p's own cell holds every
// candidate unless p lies within eps of its side, when the neighbour across is searched too.
// The cells live in an open-addressing table, as pointIndex's points.
type snapIndex struct {
	eps, inv float64
	heads    []int32 // first point of each slot's cell + 1; 0 is empty
	mask     uint64
	used     int
	next     []int32 // the next point of the same cell, or -1
	pts      []Point
}

func newSnapIndex(eps float64, n int) *snapIndex {
	size := 16
	for size < 2*n {
		size *= 2
	}
	// Room for a quarter more points than n: the crossings the noding adds, most often.
	return &snapIndex{eps: eps, inv: 1 / (snapCell * eps), heads: make([]int32, size),
		mask: uint64(size - 1), next: make([]int32, 0, n+n/4), pts: make([]Point, 0, n+n/4)}
}

// slot is the slot of cell k: the one holding it, or the empty one where it would go.
func (ix *snapIndex) slot(k [2]int64) uint64 {
	h := uint64(k[0])*0x9E3779B97F4A7C15 ^ uint64(k[1])*0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		if h := ix.heads[i]; h == 0 || ix.cell(ix.pts[h-1]) == k {
			return i
		}
	}
}

// cell is the cell holding p (every point of a cell's list has the same one).
func (ix *snapIndex) cell(p Point) [2]int64 {
	return [2]int64{int64(math.Floor(p.X * ix.inv)), int64(math.Floor(p.Y * ix.inv))}
}

// snapCell is the width of a snapIndex cell in units of eps.
const snapCell = 64

func (ix *snapIndex) snap(p Point) Point {
	fx, fy := p.X*ix.inv, p.Y*ix.inv
	flx, fly := math.Floor(fx), math.Floor(fy)
	kx, ky := int64(flx), int64(fly)
	// The cells within eps of p: its own, and the neighbour across a side that close.
	const edge = 1.0 / snapCell
	x0, x1, y0, y1 := kx, kx, ky, ky
	if fx-flx <= edge {
		x0--
	} else if fx-flx >= 1-edge {
		x1++
	}
	if fy-fly <= edge {
		y0--
	} else if fy-fly >= 1-edge {
		y1++
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			for h := ix.heads[ix.slot([2]int64{cx, cy})] - 1; h >= 0; h = ix.next[h] {
				q := ix.pts[h]
				if math.Abs(q.X-p.X) <= ix.eps && math.Abs(q.Y-p.Y) <= ix.eps {
					return q
				}
			}
		}
	}
	if 2*(ix.used+1) > len(ix.heads) {
		ix.grow()
	}
	k := [2]int64{kx, ky}
	i := ix.slot(k)
	if ix.heads[i] == 0 {
		ix.used++
	}
	ix.next = append(ix.next, ix.heads[i]-1)
	ix.pts = append(ix.pts, p)
	ix.heads[i] = int32(len(ix.pts))
	return p
}

// grow doubles the table, moving every cell's list as it is.
func (ix *snapIndex) grow() {
	heads := ix.heads
	ix.heads = make([]int32, 2*len(heads))
	ix.mask = uint64(len(ix.heads) - 1)
	for _, h := range heads {
		if h != 0 {
			ix.heads[ix.slot(ix.cell(ix.pts[h-1]))] = h
		}
	}
}
