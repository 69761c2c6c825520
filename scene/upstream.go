package scene

// Upstream's view of an entity. Scripts written for the upstream sandbox read getEntity in
// upstream's shape (entity.world.center, entity.local.geometry.Circle.radius, entity.type, ...),
// so Detail carries that shape beside cadrun's own fields: a script written for either reads
// what it expects, and none gets undefined where upstream gives a value.

import (
	"math"

	"github.com/cadrun/cadrun/scene/geom"
)

// UpstreamType is the entity's type as upstream names it ("Circle", "Rect", "Line", "Arc",
// "Polygon", "Bezier", "Group"; cadrun's own kinds as "Ellipse", "RoundedRect", "Text",
// "Dimension").
func (e *Entity) UpstreamType() string {
	switch e.Kind() {
	case KindLine:
		return "Line"
	case KindCircle:
		return "Circle"
	case KindRect:
		return "Rect"
	case KindEllipse:
		return "Ellipse"
	case KindRoundedRect:
		return "RoundedRect"
	case KindArc:
		return "Arc"
	case KindPolygon:
		return "Polygon"
	case KindPath:
		return "Bezier"
	case KindText:
		return "Text"
	case KindDimension:
		return "Dimension"
	}
	return "Group"
}

// LocalView is upstream's "local" block: the geometry in upstream's terms, the transform,
// the bounds in the entity's own coordinates and the pivot.
type LocalView struct {
	Geometry  any       `json:"geometry"`
	Transform Transform `json:"transform"`
	Bounds    geom.Box  `json:"bounds"`
	Pivot     geom.Vec  `json:"pivot"`
}

// WorldView is upstream's "world" block: the world bounds as min_x..max_y and their centre.
type WorldView struct {
	Bounds geom.FlatBox `json:"bounds"`
	Center geom.Vec     `json:"center"`
}

// worldView is upstream's world block for a box, nil for an empty one (upstream answers null).
func worldView(b geom.Box) *WorldView {
	if !b.NonEmpty {
		return nil
	}
	return &WorldView{Bounds: b.Flat(), Center: b.Center()}
}

// UpstreamGeometry is the shape as upstream's engine serialises its geometry: one key naming
// the kind, e.g. {"Circle": {"center": [x, y], "radius": r}}; a group's is "Empty".
func UpstreamGeometry(s Shape) any {
	type obj = map[string]any
	switch g := s.(type) {
	case nil:
		return "Empty"
	case Line:
		return obj{"Line": obj{"points": g.Points}}
	case Circle:
		return obj{"Circle": obj{"center": g.Center, "radius": g.Radius}}
	case Rect:
		return obj{"Rect": obj{"center": g.Center, "width": g.Width, "height": g.Height}}
	case Ellipse:
		return obj{"Ellipse": obj{"center": g.Center, "rx": g.RX, "ry": g.RY}}
	case RoundedRect:
		return obj{"RoundedRect": obj{"center": g.Center, "width": g.Width, "height": g.Height, "radius": g.Radius}}
	case Arc:
		return obj{"Arc": obj{"center": g.Center, "radius": g.Radius, "start_angle": g.Start, "end_angle": g.End}}
	case Polygon:
		p := obj{"points": []geom.Vec{}}
		if len(g.Parts) > 0 {
			p["points"] = g.Parts[0].Outer
			if len(g.Parts[0].Holes) > 0 {
				p["holes"] = g.Parts[0].Holes
			}
			// Upstream has no arc edges; a result that kept its arcs says where they are.
			if g.Parts[0].OuterBulges != nil {
				p["bulges"] = g.Parts[0].OuterBulges
			}
			if g.Parts[0].HoleBulges != nil {
				p["holeBulges"] = g.Parts[0].HoleBulges
			}
		}
		if len(g.Parts) > 1 {
			p["parts"] = g.Parts // a boolean result with several pieces
		}
		return obj{"Polygon": p}
	case *PathShape:
		start, segs, closed := cubicSegments(g.Outline())
		return obj{"Bezier": obj{"start": start, "segments": segs, "closed": closed, "path": g.Data}}
	case *Text:
		return obj{"Text": obj{"text": g.Text, "position": g.Pos, "font_size": g.Size, "align": g.Align, "font": g.Font}}
	case *Dimension:
		return obj{"Dimension": g}
	}
	return "Empty"
}

// cubicSegments writes the first subpath of p as upstream's Bézier form: a start point and
// cubic segments [control1, control2, end]; lines and quadratics are exact cubics, arcs are
// split into quarter turns at most.
func cubicSegments(p geom.Path) (start geom.Vec, segs [][3]geom.Vec, closed bool) {
	segs = [][3]geom.Vec{}
	cur := geom.Vec{}
	for i, s := range p {
		switch s.Kind {
		case geom.SegMove:
			if i > 0 {
				return start, segs, closed
			}
			start, cur = s.P[0], s.P[0]
		case geom.SegLine:
			segs = append(segs, [3]geom.Vec{cur, s.P[0], s.P[0]})
			cur = s.P[0]
		case geom.SegQuad:
			c1 := cur.Add(s.P[0].Sub(cur).Mul(2.0 / 3))
			c2 := s.P[1].Add(s.P[0].Sub(s.P[1]).Mul(2.0 / 3))
			segs = append(segs, [3]geom.Vec{c1, c2, s.P[1]})
			cur = s.P[1]
		case geom.SegCubic:
			segs = append(segs, s.P)
			cur = s.P[2]
		case geom.SegArc:
			if first := s.ArcPoint(s.T0); first != cur {
				segs = append(segs, [3]geom.Vec{cur, first, first})
			}
			n := max(1, int(math.Ceil(math.Abs(s.T1-s.T0)/(math.Pi/2))))
			dt := (s.T1 - s.T0) / float64(n)
			k := 4.0 / 3 * math.Tan(dt/4)
			for j := range n {
				t0, t1 := s.T0+float64(j)*dt, s.T0+float64(j+1)*dt
				a, b := s.ArcPoint(t0), s.ArcPoint(t1)
				da := s.P[2].Mul(math.Cos(t0)).Sub(s.P[1].Mul(math.Sin(t0)))
				db := s.P[2].Mul(math.Cos(t1)).Sub(s.P[1].Mul(math.Sin(t1)))
				segs = append(segs, [3]geom.Vec{a.Add(da.Mul(k)), b.Sub(db.Mul(k)), b})
			}
			cur = s.ArcPoint(s.T1)
		case geom.SegClose:
			closed = true
		}
	}
	return start, segs, closed
}

// DrawOrderDetail is upstream's getDrawOrder answer: the level ("root" or "group:NAME"), the
// names back to front, and for each group among them its type and member count.
type DrawOrderDetail struct {
	Level   string                `json:"level"`
	Order   []string              `json:"order"`
	Details map[string]GroupCount `json:"details"`
}

// GroupCount describes a group in a draw-order answer.
type GroupCount struct {
	Type     string `json:"type"`
	Children int    `json:"children"`
}

// DrawOrderDetailOf lists a group's members (or, for "", the top level) back to front, as
// upstream's getDrawOrder answers.
func (s *Scene) DrawOrderDetailOf(group string) (DrawOrderDetail, error) {
	list := &s.roots
	level := "root"
	if group != "" {
		g, err := s.group(group)
		if err != nil {
			return DrawOrderDetail{}, err
		}
		list, level = &g.children, "group:"+group
	}
	d := DrawOrderDetail{Level: level, Order: names(list), Details: map[string]GroupCount{}}
	for e := range list.all() {
		if e.IsGroup() {
			d.Details[e.Name] = GroupCount{Type: "Group", Children: e.children.len()}
		}
	}
	return d, nil
}
