package svg

// The ends of a stroke cut by a clip. SVG clips what a stroke paints, so at a cut the stroke
// ends along the clip's edge, with no cap, whatever its stroke-linecap; cadrun cuts the path
// and strokes the pieces, each piece one item with one cap. So the pieces are stroked butt
// where they are cut, which is SVG's end wherever the clip's edge crosses the path square (a
// plot's frame across its lines, a viewport across a shape), and the path's own caps are
// kept at its own ends: a square cap is the path run on by half the width with a butt end,
// so it is drawn so, cut with the rest; a round cap is kept on the piece that has it, whose
// last half-width before a cut is stroked butt, apart.

import (
	"math"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// extendEnds is path w with each open subpath run on by d at both ends along its
// directions there: a stroke with square caps is that path's with butt caps.
func extendEnds(w geom.Path, d float64) geom.Path {
	var out geom.Path
	for _, sub := range splitSubpaths(w) {
		open, start, end := openSub(sub)
		if !open {
			out = append(out, sub...)
			continue
		}
		first, last := startDir(sub), endDir(sub)
		if first.Len() == 0 || last.Len() == 0 {
			out = append(out, sub...) // a point: its square cap has no direction to follow
			continue
		}
		out.MoveTo(start.Sub(first.Mul(d / first.Len())))
		out = append(out, geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{start}})
		out = append(out, sub[1:]...)
		out = append(out, geom.Seg{Kind: geom.SegLine, P: [3]geom.Vec{end.Add(last.Mul(d / last.Len()))}})
	}
	return out
}

// splitSubpaths splits p at its moves, each subpath starting with its move.
func splitSubpaths(p geom.Path) []geom.Path {
	var out []geom.Path
	for i, s := range p {
		if s.Kind == geom.SegMove || i == 0 {
			out = append(out, geom.Path{})
		}
		out[len(out)-1] = append(out[len(out)-1], s)
	}
	return out
}

// openSub tells whether subpath sub (starting with its move) has ends, and where they are.
func openSub(sub geom.Path) (open bool, start, end geom.Vec) {
	if len(sub) < 2 || sub[0].Kind != geom.SegMove {
		return false, geom.Vec{}, geom.Vec{}
	}
	start, end = sub[0].P[0], sub[0].P[0]
	for _, s := range sub[1:] {
		if s.Kind == geom.SegClose {
			return false, start, start
		}
		end = s.End()
	}
	return true, start, end
}

// startDir and endDir are the directions subpath sub leaves its start in and arrives at its
// end in; zero where it has no length.
func startDir(sub geom.Path) geom.Vec {
	cur := sub[0].P[0]
	for _, s := range sub[1:] {
		if a, _ := tangents(s, cur); a.Len() > 0 {
			return a
		}
		cur = s.End()
	}
	return geom.Vec{}
}

func endDir(sub geom.Path) geom.Vec {
	froms := make([]geom.Vec, len(sub))
	cur := sub[0].P[0]
	for i, s := range sub[1:] {
		froms[i+1] = cur
		cur = s.End()
	}
	for i := len(sub) - 1; i >= 1; i-- {
		if _, b := tangents(sub[i], froms[i]); b.Len() > 0 {
			return b
		}
	}
	return geom.Vec{}
}

// cutCaps are the stroke items for the pieces a clip left of stroke it, whose path's own
// ends are ends: butt where cut, the path's own cap at its own ends; squared tells that the
// path was run on for square caps, to be stroked butt throughout. oblique tells that a cut
// crosses the clip's edge aslant, where SVG's end, along the edge, is not square.
func cutCaps(it Item, pieces geom.Path, ends []geom.Vec, regs []region, squared bool) (items []*Item, oblique bool) {
	tol := 1e-9 * (1 + pieces.Bounds().Size().Len())
	isEnd := func(q geom.Vec) bool {
		for _, e := range ends {
			if e.Sub(q).Len() <= tol {
				return true
			}
		}
		return false
	}
	var edges [][2]geom.Vec // read at the first cut
	aslantAt := func(q, dir geom.Vec) bool {
		if edges == nil {
			edges = regionEdges(regs)
		}
		return aslant(q, dir, edges)
	}
	var butt, round geom.Path
	for _, sub := range splitSubpaths(pieces) {
		open, start, end := openSub(sub)
		if !open {
			round = append(round, sub...) // a closed piece has no ends: its cap does not show
			continue
		}
		cutStart, cutEnd := !isEnd(start), !isEnd(end)
		if cutStart && cutEnd && start.Sub(end).Len() <= tol {
			// A closed subpath the clip leaves whole, which the cut wrote open: closed
			// again, it is joined at its start as it was.
			round = append(append(round, sub...), geom.Seg{Kind: geom.SegClose})
			continue
		}
		if cutStart && aslantAt(start, startDir(sub)) || cutEnd && aslantAt(end, endDir(sub)) {
			oblique = true
		}
		switch {
		case squared || it.Cap == scene.CapButt || cutStart && cutEnd:
			butt = append(butt, sub...)
		case !cutStart && !cutEnd:
			round = append(round, sub...)
		default:
			// One end the path's own, round, the other cut: the last half-width before the
			// cut is stroked butt, the rest round, whose cap at the split lies on that part.
			d := -it.Width / 2 // back from the cut end
			if cutStart {
				d = it.Width / 2
			}
			head, tail, ok := splitAt(sub, d)
			switch {
			case !ok:
				round = append(round, sub...) // shorter than half the width: its cap covers it
			case cutStart:
				butt, round = append(butt, head...), append(round, tail...)
			default:
				round, butt = append(round, head...), append(butt, tail...)
			}
		}
	}
	// Pieces round at an end keep the item's cap, which is round there; a closed piece's is
	// never seen.
	if len(round) > 0 && it.Cap == scene.CapButt {
		butt, round = append(round, butt...), nil
	}
	if len(round) > 0 {
		r := it
		r.Prim = Prim{Call: "drawBezier", Path: pathString(round)}
		items = append(items, &r)
	}
	if len(butt) > 0 {
		b := it
		b.Cap = scene.CapButt
		b.Prim = Prim{Call: "drawBezier", Path: pathString(butt)}
		items = append(items, &b)
	}
	return items, oblique
}

// regionEdges are the regions' outlines flattened as clipStroke flattens them, so that an
// edge's direction is its curve's to two hundredths of a radian (a circle's chords, the
// coarsest, turn by under four hundredths), at the cost of the cut's own reading.
func regionEdges(regs []region) [][2]geom.Vec {
	edges := [][2]geom.Vec{}
	for _, r := range regs {
		rsize := math.Max(r.box.Max.X-r.box.Min.X, r.box.Max.Y-r.box.Min.Y)
		for _, p := range r.paths {
			for _, pl := range p.Flatten(math.Max(rsize*1e-4, 1e-9)) {
				for n := range pl.Points {
					edges = append(edges, [2]geom.Vec{pl.Points[n], pl.Points[(n+1)%len(pl.Points)]})
				}
			}
		}
	}
	return edges
}

// aslant tells whether the clip edge nearest q, where a piece leaving or arriving in
// direction dir is cut, crosses it other than square: by more than three hundredths of a
// radian, past which a square end and the edge part by over 1.5% of the stroke's width.
func aslant(q, dir geom.Vec, edges [][2]geom.Vec) bool {
	best, along := math.Inf(1), geom.Vec{}
	for _, e := range edges {
		if d := segDist(q, e[0], e[1]); d < best {
			best, along = d, e[1].Sub(e[0])
		}
	}
	if along.Len() == 0 || dir.Len() == 0 {
		return false
	}
	cos := (along.X*dir.X + along.Y*dir.Y) / (along.Len() * dir.Len())
	return math.Abs(cos) > 0.03
}

// segDist is the distance from q to the segment a-b.
func segDist(q, a, b geom.Vec) float64 {
	ab := b.Sub(a)
	l2 := ab.X*ab.X + ab.Y*ab.Y
	if l2 == 0 {
		return q.Sub(a).Len()
	}
	t := math.Max(0, math.Min(1, ((q.X-a.X)*ab.X+(q.Y-a.Y)*ab.Y)/l2))
	return q.Sub(a.Add(ab.Mul(t))).Len()
}

// splitAt splits open subpath sub where it is d along it from its start (d > 0) or -d back
// from its end (d < 0), measured along its chords; false where it is not longer than that.
func splitAt(sub geom.Path, d float64) (head, tail geom.Path, ok bool) {
	const steps = 64 // chords a segment is measured by: a thousandth of its length or finer
	froms := make([]geom.Vec, len(sub))
	lens := make([]float64, len(sub))
	total := 0.0
	cur := sub[0].P[0]
	for i, s := range sub[1:] {
		froms[i+1] = cur
		prev := cur
		for k := 1; k <= steps; k++ {
			q := segPoint(s, cur, float64(k)/steps)
			lens[i+1] += q.Sub(prev).Len()
			prev = q
		}
		total += lens[i+1]
		cur = s.End()
	}
	at := d
	if d < 0 {
		at = total + d
	}
	if !(at > 0 && at < total) {
		return nil, nil, false
	}
	for i := 1; i < len(sub); i++ {
		if at > lens[i] {
			at -= lens[i]
			continue
		}
		s, from := sub[i], froms[i]
		// The parameter where the segment's length from its start is at, by its chords.
		t, run, prev := 1.0, 0.0, from
		for k := 1; k <= steps; k++ {
			q := segPoint(s, from, float64(k)/steps)
			step := q.Sub(prev).Len()
			if run+step >= at {
				t = (float64(k-1) + (at-run)/math.Max(step, 1e-300)) / steps
				break
			}
			run, prev = run+step, q
		}
		if t <= 0 || t >= 1 {
			// At a joint between segments: split there.
			if t <= 0 {
				i--
			}
			head = append(geom.Path{}, sub[:i+1]...)
			tail = append(geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{sub[i].End()}}}, sub[i+1:]...)
			if len(tail) < 2 || len(head) < 2 {
				return nil, nil, false
			}
			return head, tail, true
		}
		head = append(append(geom.Path{}, sub[:i]...), subSeg(s, from, 0, t))
		tail = append(geom.Path{{Kind: geom.SegMove, P: [3]geom.Vec{segPoint(s, from, t)}}, subSeg(s, from, t, 1)}, sub[i+1:]...)
		return head, tail, true
	}
	return nil, nil, false
}
