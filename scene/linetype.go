package scene

// Linetypes and layers are drafting properties, not geometry: they change how a stroke is
// drawn, never the outline, so every measure and boolean ignores them. A linetype is one of a
// fixed set of dash patterns (drafting.Linetypes); a layer is a named row of a table in the
// scene that entities point to by name, so that one change to the row changes every entity
// on it. Both are resolved when the scene is drawn (Scene.Drawn), never copied into the
// entities.

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/cadrun/cadrun/scene/drafting"
)

// ErrNoLayer is returned when an entity is put on a layer that was not created.
var ErrNoLayer = errors.New("no such layer")

// MaxLayers caps the layers of one scene; it is documented in docs/limits.md.
const MaxLayers = 1000

// Layer is a row of the scene's layer table. An entity on it takes its colour, linetype and
// lineweight where the entity sets none; Plot false keeps it out of pictures and prints.
type Layer struct {
	Name string `json:"name"`
	// Color replaces the colours of entities on the layer whose colours were never set (see
	// Style.ColorSet); nil leaves them as they are.
	Color *Color `json:"color"`
	// Linetype is the linetype of entities on the layer that have none of their own; ""
	// is continuous.
	Linetype string `json:"linetype,omitempty"`
	// Lineweight is the stroke width, in scene units, of entities on the layer whose stroke
	// has no width of its own (a hairline); 0 leaves them hairlines.
	Lineweight float64 `json:"lineweight,omitempty"`
	Plot       bool    `json:"plot"`
}

// validate checks a layer's properties.
func (l *Layer) validate() error {
	if err := checkName(l.Name); err != nil {
		return fmt.Errorf("layer %q: %w", l.Name, err)
	}
	if err := checkColor(l.Color); err != nil {
		return fmt.Errorf("layer %q: %w", l.Name, err)
	}
	if l.Linetype != "" {
		if _, err := drafting.LookupLinetype(l.Linetype); err != nil {
			return fmt.Errorf("layer %q: %w", l.Name, err)
		}
	}
	if math.IsNaN(l.Lineweight) || math.IsInf(l.Lineweight, 0) || l.Lineweight < 0 || l.Lineweight > MaxCoord {
		return fmt.Errorf("%w: layer %q: lineweight must be a number >= 0, got %v", ErrBadGeometry, l.Name, l.Lineweight)
	}
	return nil
}

// Layers lists the layer table in the order the layers were created.
func (s *Scene) Layers() []Layer {
	out := make([]Layer, len(s.layers))
	for i, l := range s.layers {
		out[i] = l.clone()
	}
	return out
}

// Layer returns the named layer.
func (s *Scene) Layer(name string) (Layer, bool) {
	if l := s.layer(name); l != nil {
		return l.clone(), true
	}
	return Layer{}, false
}

func (s *Scene) layer(name string) *Layer {
	for i := range s.layers {
		if s.layers[i].Name == name {
			return &s.layers[i]
		}
	}
	return nil
}

func (l Layer) clone() Layer {
	l.Color = copyColor(l.Color)
	return l
}

// CreateLayer adds a layer to the table, or redefines the layer of that name in place (the
// entities on it follow).
func (s *Scene) CreateLayer(l Layer) error {
	if err := l.validate(); err != nil {
		return err
	}
	l = l.clone()
	if old := s.layer(l.Name); old != nil {
		*old = l
		return nil
	}
	if len(s.layers) >= MaxLayers {
		return fmt.Errorf("%w: the scene already has %d layers (MaxLayers)", ErrLimit, MaxLayers)
	}
	s.layers = append(s.layers, l)
	s.drafting = true
	return nil
}

// SetLayer puts an entity on a layer; on a group, the group's members without a layer of
// their own are on it too. "" takes the entity off its layer. A layer whose linetype would
// make the entity's dashes pass MaxDashSegments is refused.
func (s *Scene) SetLayer(name, layer string) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if layer != "" && s.layer(layer) == nil {
		return fmt.Errorf("%w: %q; create it first with createLayer(%q, {...})", ErrNoLayer, layer, layer)
	}
	old, wasDrafting := e.Style, s.drafting
	e.Style.Layer = layer
	s.drafting = s.drafting || layer != ""
	if err := s.checkDashCount(e); err != nil {
		e.Style, s.drafting = old, wasDrafting
		return err
	}
	return nil
}

// SetLinetype gives an entity a linetype at a scale (0 means 1); on a group, the group's
// members without a linetype of their own are drawn with it. "" removes it. A linetype whose
// dashes would pass MaxDashSegments is refused.
func (s *Scene) SetLinetype(name, linetype string, scale float64) error {
	e, err := s.Get(name)
	if err != nil {
		return err
	}
	if linetype != "" {
		if _, err := drafting.LookupLinetype(linetype); err != nil {
			return err
		}
	}
	if math.IsNaN(scale) || math.IsInf(scale, 0) || scale < 0 || scale > MaxCoord {
		return fmt.Errorf("%w: linetype scale must be a number > 0, got %v", ErrBadGeometry, scale)
	}
	if scale == 1 || linetype == "" {
		scale = 0 // 1 is the default; storing it as 0 keeps one form for one meaning
	}
	old, wasDrafting := e.Style, s.drafting
	e.Style.Linetype, e.Style.LinetypeScale = linetype, scale
	s.drafting = s.drafting || linetype != ""
	if err := s.checkDashCount(e); err != nil {
		e.Style, s.drafting = old, wasDrafting
		return err
	}
	return nil
}

// Drawn is how an entity is drawn once its groups and its layer are taken into account.
type Drawn struct {
	// Style is the entity's style with its layer's colour and lineweight applied where it
	// sets none, and its Linetype, LinetypeScale, hatch and Layer resolved: its own, else its
	// nearest group's, else (the linetype) its layer's.
	Style Style
	// Plot is false when the entity's layer is not plotted: pictures and prints leave it out.
	Plot bool
	// ByLayer reports that the linetype is the layer's (DXF writes BYLAYER).
	ByLayer bool
}

// Dashes is the drawn dash pattern (see the function Dashes); nil for a continuous line.
func (d Drawn) Dashes() []float64 { return drafting.Dashes(d.Style.Linetype, d.Style.LinetypeScale) }

// Drawn resolves e's drafting properties. A scene that has never had a linetype or a layer
// answers e's own style at once.
func (s *Scene) Drawn(e *Entity) Drawn {
	d := Drawn{Style: e.Style, Plot: true}
	if !s.drafting {
		return d
	}
	st := &d.Style
	for p := e.parent; p != nil && (st.Linetype == "" || st.Layer == "" || st.Hatch == ""); p = p.parent {
		if st.Linetype == "" {
			st.Linetype, st.LinetypeScale = p.Style.Linetype, p.Style.LinetypeScale
		}
		if st.Hatch == "" {
			st.Hatch, st.HatchAngle, st.HatchScale, st.HatchColor = p.Style.Hatch, p.Style.HatchAngle, p.Style.HatchScale, p.Style.HatchColor
		}
		if st.Layer == "" {
			st.Layer = p.Style.Layer
		}
	}
	l := s.layer(st.Layer)
	if l == nil {
		return d
	}
	d.Plot = l.Plot
	if st.Linetype == "" && l.Linetype != "" {
		st.Linetype, st.LinetypeScale, d.ByLayer = l.Linetype, 0, true
	}
	if l.Color != nil && !st.ColorSet {
		if st.Stroke != nil {
			st.Stroke = l.Color
		}
		if st.Fill != nil {
			st.Fill = l.Color
		}
	}
	if st.Hairline() && l.Lineweight > 0 {
		st.StrokeWidth = l.Lineweight
	}
	return d
}

// usesDrafting reports whether any entity or the layer table holds a drafting property
// (a layer, a linetype, a hatch), which JSON version 3 added.
func (s *Scene) usesDrafting() bool {
	if len(s.layers) > 0 {
		return true
	}
	for _, e := range s.Walk() {
		if st := &e.Style; st.Linetype != "" || st.LinetypeScale != 0 || st.Layer != "" || st.Hatch != "" {
			return true
		}
	}
	return false
}

// cloneLayers copies the layer table.
func cloneLayers(ls []Layer) []Layer {
	out := slices.Clone(ls)
	for i := range out {
		out[i] = out[i].clone()
	}
	return out
}
