package scene

// The JSON form is the scene's lossless persistence (scene.json) and its wire format. It
// stores what each entity was drawn with, never derived data, so that scene -> JSON -> scene
// -> JSON gives the same bytes. The layout is documented in docs/scene-json.md.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Format identifies the document; Version is bumped on any incompatible change.
const (
	JSONFormat  = "cadrun-scene"
	JSONVersion = 1
)

// ErrBadJSON is returned when a scene document cannot be read; the message says where.
var ErrBadJSON = errors.New("bad scene JSON")

// MarshalJSON writes a point as [x, y].
func (v Vec) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 32)
	b = append(b, '[')
	b = appendFloat(b, v.X)
	b = append(b, ',')
	b = appendFloat(b, v.Y)
	return append(b, ']'), nil
}

// appendFloat formats f exactly as encoding/json does (shortest round-trip form, exponent
// only for very small or large magnitudes), so hand-written and reflected numbers agree.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// UnmarshalJSON reads a point written as [x, y].
func (v *Vec) UnmarshalJSON(b []byte) error {
	var a [2]float64
	if err := json.Unmarshal(b, &a); err != nil {
		return fmt.Errorf("a point is [x, y]: %w", err)
	}
	*v = Vec{a[0], a[1]}
	return nil
}

type jsonScene struct {
	Format   string       `json:"format"`
	Version  int          `json:"version"`
	Entities []jsonEntity `json:"entities"`
}

type jsonEntity struct {
	Name      string          `json:"name"`
	Kind      Kind            `json:"kind"`
	Parent    string          `json:"parent,omitempty"`
	Geometry  json.RawMessage `json:"geometry,omitempty"`
	Transform Transform       `json:"transform"`
	Style     Style           `json:"style"`
}

// MarshalJSON writes the scene: entities depth-first in z order, each group before its
// members, so that the order alone restores every z rank. Each entity is one line, so that
// diffs of scene.json read entity by entity.
func (s *Scene) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\"format\":%q,\"version\":%d,\"entities\":[", JSONFormat, JSONVersion)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	first := true
	for _, e := range s.Walk() {
		je := jsonEntity{Name: e.Name, Kind: e.Kind(), Parent: e.Parent(), Transform: e.Transform, Style: e.Style}
		if e.Shape != nil {
			g, err := marshalCompact(e.Shape)
			if err != nil {
				return nil, fmt.Errorf("encoding %q: %w", e.Name, err)
			}
			je.Geometry = g
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.WriteByte('\n')
		if err := enc.Encode(je); err != nil {
			return nil, fmt.Errorf("encoding %q: %w", e.Name, err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteString("\n]}\n")
	return buf.Bytes(), nil
}

func marshalCompact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON is a convenience for ReadJSON into an existing value.
func (s *Scene) UnmarshalJSON(b []byte) error {
	n, err := ReadJSON(b)
	if err != nil {
		return err
	}
	*s = *n
	return nil
}

// ReadJSON restores a scene written by MarshalJSON, validating every entity.
func ReadJSON(b []byte) (*Scene, error) {
	var doc jsonScene
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadJSON, err)
	}
	if doc.Format != JSONFormat {
		return nil, fmt.Errorf("%w: format is %q, want %q", ErrBadJSON, doc.Format, JSONFormat)
	}
	if doc.Version != JSONVersion {
		return nil, fmt.Errorf("%w: version %d is not supported; this cadrun reads version %d", ErrBadJSON, doc.Version, JSONVersion)
	}
	if len(doc.Entities) > MaxEntities {
		return nil, fmt.Errorf("%w: %d entities; the limit is %d (MaxEntities)", ErrLimit, len(doc.Entities), MaxEntities)
	}
	s := New()
	for i, je := range doc.Entities {
		e, err := readEntity(je)
		if err != nil {
			return nil, fmt.Errorf("%w: entity %d (%q): %w", ErrBadJSON, i, je.Name, err)
		}
		if s.Exists(e.Name) {
			return nil, fmt.Errorf("%w: entity %d: the name %q is used twice", ErrBadJSON, i, e.Name)
		}
		var parent *Entity
		if je.Parent != "" {
			p, ok := s.byName[je.Parent]
			if !ok || !p.IsGroup() {
				return nil, fmt.Errorf("%w: entity %d (%q): parent %q must be a group listed before it", ErrBadJSON, i, je.Name, je.Parent)
			}
			parent = p
		}
		s.byName[e.Name] = e
		s.attach(e, parent, len(*s.siblingsOf(parent)))
	}
	return s, nil
}

// siblingsOf returns the child list of parent (nil: the top level).
func (s *Scene) siblingsOf(parent *Entity) *[]*Entity {
	if parent == nil {
		return &s.roots
	}
	return &parent.children
}

func readEntity(je jsonEntity) (*Entity, error) {
	if err := checkName(je.Name); err != nil {
		return nil, err
	}
	e := &Entity{Name: je.Name, Transform: je.Transform, Style: je.Style}
	if err := checkTransform(je.Transform); err != nil {
		return nil, err
	}
	if err := checkColor(je.Style.Fill); err != nil {
		return nil, err
	}
	if err := checkColor(je.Style.Stroke); err != nil {
		return nil, err
	}
	if je.Kind == KindGroup {
		if len(je.Geometry) != 0 {
			return nil, errors.New("a group has no geometry")
		}
		return e, nil
	}
	shape, err := newShape(je.Kind)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(je.Geometry))
	dec.DisallowUnknownFields()
	if err := dec.Decode(shape); err != nil {
		return nil, fmt.Errorf("geometry: %w", err)
	}
	e.Shape = derefShape(shape)
	if err := e.Shape.validate(); err != nil {
		return nil, err
	}
	return e, nil
}

// newShape returns a pointer to decode a shape of kind into.
func newShape(k Kind) (any, error) {
	switch k {
	case KindLine:
		return &Line{}, nil
	case KindCircle:
		return &Circle{}, nil
	case KindRect:
		return &Rect{}, nil
	case KindEllipse:
		return &Ellipse{}, nil
	case KindRoundedRect:
		return &RoundedRect{}, nil
	case KindArc:
		return &Arc{}, nil
	case KindPolygon:
		return &Polygon{}, nil
	case KindPath:
		return &PathShape{}, nil
	case KindText:
		return &Text{}, nil
	}
	return nil, fmt.Errorf("unknown kind %q", k)
}

// derefShape turns the decode target into the Shape value the scene stores.
func derefShape(v any) Shape {
	switch x := v.(type) {
	case *Line:
		return *x
	case *Circle:
		return *x
	case *Rect:
		return *x
	case *Ellipse:
		return *x
	case *RoundedRect:
		return *x
	case *Arc:
		return *x
	case *Polygon:
		return *x
	case *PathShape:
		return x
	case *Text:
		return x
	}
	panic(fmt.Sprintf("scene: no shape for %T", v))
}

func checkTransform(t Transform) error {
	for _, v := range []Vec{t.Translate, t.Scale, t.Pivot} {
		if !finiteVec(v) {
			return fmt.Errorf("%w: transform values must be finite", ErrBadTransform)
		}
	}
	if t.Scale.X == 0 || t.Scale.Y == 0 {
		return fmt.Errorf("%w: scale (%v, %v) must be non-zero", ErrBadTransform, t.Scale.X, t.Scale.Y)
	}
	return finite("rotate", t.Rotate)
}
