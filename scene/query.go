package scene

// Read-only views of the scene for the tools and the JS query functions. Each is a plain
// struct with JSON tags, so the MCP tools, the CLI runner and getEntity all answer alike.

import (
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// Detail is everything known about one entity.
type Detail struct {
	Name           string       `json:"name"`
	Kind           Kind         `json:"kind"`
	Parent         string       `json:"parent"`
	Children       []string     `json:"children,omitempty"`
	ZRank          int          `json:"zRank"`
	Geometry       Shape        `json:"geometry,omitempty"`
	Transform      Transform    `json:"transform"`
	Style          Style        `json:"style"`
	LocalBounds    geom.Box     `json:"localBounds"`
	WorldBounds    geom.Box     `json:"worldBounds"`
	WorldTransform geom.Affine  `json:"worldTransform"`
	Text           *text.Layout `json:"textMetrics,omitempty"`
	// Measured and DisplayText are a dimension's value under its world transform (a length
	// in world units, an angle in degrees) and the text it shows.
	Measured    *float64 `json:"measured,omitempty"`
	DisplayText string   `json:"displayText,omitempty"`
	// Solid tells of a solid, whose geometry (its mesh) is left out.
	Solid *SolidDetail `json:"solid,omitempty"`

	// Upstream's shape of the same facts (see upstream.go).
	Type   string     `json:"type"`
	Local  LocalView  `json:"local"`
	World  *WorldView `json:"world"`
	ZOrder int        `json:"z_order"`
}

// Detail describes the named entity.
func (s *Scene) Detail(name string) (Detail, error) {
	e, err := s.Get(name)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{
		Name:           e.Name,
		Kind:           e.Kind(),
		Parent:         e.Parent(),
		ZRank:          s.ZRank(e),
		Geometry:       e.Shape,
		Transform:      e.Transform,
		Style:          e.Style.clone(),
		LocalBounds:    s.LocalBounds(e),
		WorldBounds:    s.WorldBounds(e),
		WorldTransform: s.WorldMatrix(e),
		Type:           e.UpstreamType(),
	}
	d.Local = LocalView{Geometry: UpstreamGeometry(e.Shape), Transform: d.Transform, Bounds: d.LocalBounds, Pivot: d.Transform.Pivot}
	d.World = worldView(d.WorldBounds)
	d.ZOrder = d.ZRank
	if e.IsGroup() {
		d.Children = e.Children()
	}
	if t, ok := e.Shape.(*Text); ok {
		m := t.Metrics()
		d.Text = &m
	}
	if dim, ok := e.Shape.(*Dimension); ok {
		v := dim.Measured(d.WorldTransform)
		d.Measured, d.DisplayText = &v, dim.DisplayText(d.WorldTransform)
	}
	if sd, ok := e.Shape.(*Solid); ok {
		d.Geometry, d.Local.Geometry = nil, nil
		d.Solid = &SolidDetail{Bounds: sd.Bounds3(Lift(d.WorldTransform)), Triangles: sd.Mesh.NumTriangles(),
			Vertices: sd.Mesh.NumVertices(), Recipe: sd.Recipe, Place: sd.Place}
		if sd.Form != nil {
			d.Solid.Exact = sd.Form.Op
		}
	}
	return d, nil
}

// SolidDetail is what Detail tells of a solid: its world box in 3D, its mesh's size, what made
// it and its own placement. Its measures are scene/solid's (solid.Measure).
type SolidDetail struct {
	Bounds    Box3    `json:"bounds"`
	Triangles int     `json:"triangles"`
	Vertices  int     `json:"vertices"`
	Recipe    Recipe  `json:"recipe"`
	Place     Affine3 `json:"place"`
	// Exact names the sweep whose exact form the solid keeps (extrude, revolve), which its
	// sections and STEP file use; empty once a 3D boolean or a hull has made it.
	Exact string `json:"exact,omitempty"`
	// The measures are filled in by the caller that measures the solid; VolumeExact and
	// SurfaceExact say they are closed forms of the recipe, not measures of the mesh.
	Volume       float64 `json:"volume"`
	SurfaceArea  float64 `json:"surfaceArea"`
	VolumeExact  bool    `json:"volumeExact"`
	SurfaceExact bool    `json:"surfaceExact"`
}

// Info summarises the scene.
type Info struct {
	Entities int      `json:"entities"`
	Shapes   int      `json:"shapes"`
	Groups   int      `json:"groups"`
	Bounds   geom.Box `json:"bounds"`
	// Solids counts the solids (among the shapes), Triangles their meshes' triangles and
	// Bounds3 their world box in 3D; all are left out of a scene without solids.
	Solids    int   `json:"solids,omitempty"`
	Triangles int   `json:"triangles,omitempty"`
	Bounds3   *Box3 `json:"bounds3,omitempty"`
}

// Info counts the scene's entities and gives its world bounds.
func (s *Scene) Info() Info {
	in := Info{Entities: s.Len(), Bounds: s.Bounds()}
	for e := range s.byName.all() {
		if e.IsGroup() {
			in.Groups++
		} else {
			in.Shapes++
		}
		if e.Kind() == KindSolid {
			in.Solids++
		}
	}
	if in.Solids > 0 {
		in.Triangles = s.byName.triangles
		var b Box3
		for _, it := range s.Solids() {
			b.Union(it.Entity.Shape.(*Solid).Bounds3(Lift(s.WorldMatrix(it.Entity))))
		}
		in.Bounds3 = &b
	}
	return in
}

// Node is one entry of the scene tree.
type Node struct {
	Name     string `json:"name"`
	Kind     Kind   `json:"kind"`
	Children []Node `json:"children,omitempty"`
}

// Tree is the scene as nested nodes, each level back to front.
func (s *Scene) Tree() []Node {
	var build func(list *zlist) []Node
	build = func(list *zlist) []Node {
		if list.len() == 0 {
			return nil
		}
		out := make([]Node, 0, list.len())
		for e := range list.all() {
			out = append(out, Node{Name: e.Name, Kind: e.Kind(), Children: build(&e.children)})
		}
		return out
	}
	return build(&s.roots)
}

// GroupInfo describes one group.
type GroupInfo struct {
	Name     string   `json:"name"`
	Parent   string   `json:"parent"`
	Children []string `json:"children"`
}

// Groups lists every group in tree order.
func (s *Scene) Groups() []GroupInfo {
	var out []GroupInfo
	for _, e := range s.Walk() {
		if e.IsGroup() {
			out = append(out, GroupInfo{Name: e.Name, Parent: e.Parent(), Children: e.Children()})
		}
	}
	return out
}
