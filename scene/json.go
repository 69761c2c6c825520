package scene

// The JSON form is the scene's lossless persistence (scene.json) and its wire format. It
// stores what each entity was drawn with, never derived data, so that scene -> JSON -> scene
// -> JSON gives the same bytes. The layout is documented in docs/scene-json.md.
//
// Both directions are hand-written, because through reflection a large scene was several times
// slower to write and to read. The writer produces exactly the bytes encoding/json did (with
// SetEscapeHTML(false)); a test compares the two on random scenes. The reader has a fast path
// for well-formed documents in the layout the writer produces (any whitespace and key order,
// except that "kind" comes before "geometry"); on anything else it gives up and encoding/json
// reads the document, so that every error message stays what encoding/json says. Both readers
// take an entity's geometry from one table, shapeKinds: per kind, the fields the fast reader
// knows (read by one loop, readFields) and the type encoding/json decodes into.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// Format identifies the document; Version is bumped on any incompatible change. A document
// is written as the lowest version that holds it: 1, or 2 when a polygon has arc edges
// (bulges), or 3 when it has layers or linetypes (the layer table and the style's drafting
// fields), or 4 when it has dimensions or hatches, so that scenes without them read the same
// in a cadrun that knows only the older versions, or 5 when it has solids, or 6 when a
// stroke has a cap, join or miter limit other than round.
const (
	JSONFormat  = "cadrun-scene"
	JSONVersion = 6
	// jsonVersionSolids is the version of a document with solids but no stroke corners.
	jsonVersionSolids = 5
	// jsonVersionDimensions is the version of a document with dimensions or hatches but no
	// solids.
	jsonVersionDimensions = 4
	// jsonVersionNoArcs is the version of a document without bulges or drafting.
	jsonVersionNoArcs = 1
	// jsonVersionArcs is the version of a document with bulges but no drafting.
	jsonVersionArcs = 2
	// jsonVersionDrafting is the version of a document with layers or linetypes but no
	// dimensions or hatches.
	jsonVersionDrafting = 3
)

// ErrBadJSON is returned when a scene document cannot be read; the message says where.
var ErrBadJSON = errors.New("bad scene JSON")

// jsonVersion is the version a document of the scene is written as: the oldest that holds
// everything in it.
func (s *Scene) jsonVersion() int {
	version := jsonVersionNoArcs
	if s.usesDrafting() {
		version = jsonVersionDrafting
	}
	for _, e := range s.Walk() {
		if st := &e.Style; st.Cap != "" || st.Join != "" || st.MiterLimit != 0 {
			return JSONVersion
		}
	}
	if s.HasSolids() {
		return jsonVersionSolids
	}
	for _, e := range s.Walk() {
		if e.Style.Hatch != "" {
			return jsonVersionDimensions
		}
		switch g := e.Shape.(type) {
		case *Dimension:
			return jsonVersionDimensions
		case Polygon:
			if g.HasArcs() {
				version = max(version, jsonVersionArcs)
			}
		case *Polygon:
			if g.HasArcs() {
				version = max(version, jsonVersionArcs)
			}
		}
	}
	return version
}

// MarshalJSON writes the scene: entities depth-first in z order, each group before its
// members, so that the order alone restores every z rank. Each entity is one line, so that
// diffs of scene.json read entity by entity.
func (s *Scene) MarshalJSON() ([]byte, error) {
	// About 250 bytes an entity for plain shapes; polygons grow the buffer as they need.
	b := make([]byte, 0, 64+250*s.Len())
	b = append(b, `{"format":`...)
	b = appendJSONString(b, JSONFormat)
	b = append(b, `,"version":`...)
	version := s.jsonVersion()
	b = strconv.AppendInt(b, int64(version), 10)
	var w jsonWriter
	w.drafting = version >= jsonVersionDrafting
	if len(s.layers) > 0 {
		b = w.layers(b, s.layers)
		if w.err != nil {
			return nil, fmt.Errorf("encoding the layers: %w", w.err)
		}
	}
	b = append(b, `,"entities":[`...)
	first := true
	for _, e := range s.Walk() {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '\n')
		b = w.entity(b, e)
		if w.err != nil {
			return nil, fmt.Errorf("encoding %q: %w", e.Name, w.err)
		}
	}
	return append(b, "\n]}\n"...), nil
}

// jsonWriter appends the JSON form of entities. The buffer is passed along rather than kept
// in the struct, so that appends stay in registers, free of write barriers. The first value
// encoding/json would refuse (a NaN or an infinity) sets err, with encoding/json's own error
// for that value; the caller stops there.
type jsonWriter struct {
	err error
	// drafting is set for a version 3 document: only it writes colorSet, which says
	// nothing in a scene without layers (see docs/scene-json.md).
	drafting bool
}

// layers writes the layer table as encoding/json writes []Layer, by layerFields.
func (w *jsonWriter) layers(b []byte, ls []Layer) []byte {
	b = append(b, `,"layers":[`...)
	for i := range ls {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = writeFields(b, ls[i], layerFields); !ok {
			w.refuse(ls[i])
			return b
		}
	}
	return append(b, ']')
}

// refuse records the error encoding/json gives for v, which it cannot encode.
func (w *jsonWriter) refuse(v any) {
	if w.err == nil {
		if _, err := json.Marshal(v); err != nil {
			w.err = err
		} else {
			w.err = fmt.Errorf("scene: %v has no JSON form", v) // not reached: only non-finite numbers come here
		}
	}
}

func (w *jsonWriter) num(b []byte, f float64) []byte {
	out, ok := appendNum(b, f)
	if !ok {
		w.refuse(f)
	}
	return out
}

func (w *jsonWriter) vec(b []byte, v geom.Vec) []byte {
	out, ok := appendVec(b, v)
	if !ok {
		w.refuse(v)
	}
	return out
}

func (w *jsonWriter) color(b []byte, c *Color) []byte {
	out, ok := appendColor(b, c)
	if !ok {
		w.refuse(c)
	}
	return out
}

// appendNum writes f; false, with nothing written, for a number JSON cannot hold (a NaN or an
// infinity). The append functions below answer the same way for any such number in their value.
func appendNum(b []byte, f float64) ([]byte, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, false
	}
	return geom.AppendFloat(b, f), true
}

func appendVec(b []byte, v geom.Vec) ([]byte, bool) {
	if !finiteVec(v) {
		return b, false
	}
	b = append(b, '[')
	b = geom.AppendFloat(b, v.X)
	b = append(b, ',')
	b = geom.AppendFloat(b, v.Y)
	return append(b, ']'), true
}

// appendNums writes null or an array of numbers.
func appendNums(b []byte, fs []float64) ([]byte, bool) {
	if fs == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendNum(b, f); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendVecs writes a point list; nil is null, as encoding/json writes a nil slice.
func appendVecs(b []byte, pts []geom.Vec) ([]byte, bool) {
	if pts == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, p := range pts {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendVec(b, p); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

func appendColor(b []byte, c *Color) ([]byte, bool) {
	if c == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, v := range c {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendNum(b, v); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

func (w *jsonWriter) entity(b []byte, e *Entity) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, e.Name)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, string(e.Kind()))
	if p := e.Parent(); p != "" {
		b = append(b, `,"parent":`...)
		b = appendJSONString(b, p)
	}
	if e.Shape != nil {
		b = append(b, `,"geometry":`...)
		b = w.shape(b, e.Shape)
	}
	t := &e.Transform
	b = append(b, `,"transform":{"translate":`...)
	b = w.vec(b, t.Translate)
	b = append(b, `,"rotate":`...)
	b = w.num(b, t.Rotate)
	b = append(b, `,"scale":`...)
	b = w.vec(b, t.Scale)
	b = append(b, `,"pivot":`...)
	b = w.vec(b, t.Pivot)
	b = append(b, `},"style":{"fill":`...)
	b = w.color(b, e.Style.Fill)
	b = append(b, `,"stroke":`...)
	b = w.color(b, e.Style.Stroke)
	b = append(b, `,"strokeWidth":`...)
	b = w.num(b, e.Style.StrokeWidth)
	if st := &e.Style; st.Linetype != "" || st.LinetypeScale != 0 || st.Layer != "" || st.Hatch != "" || st.ColorSet && w.drafting {
		b = w.draftingFields(b, st)
	}
	if st := &e.Style; st.Cap != "" || st.Join != "" || st.MiterLimit != 0 {
		b = w.strokeFields(b, st)
	}
	return append(b, "}}"...)
}

// draftingFields writes a style's drafting fields, each left out when empty as omitempty does.
func (w *jsonWriter) draftingFields(b []byte, st *Style) []byte {
	if st.Linetype != "" {
		b = append(b, `,"linetype":`...)
		b = appendJSONString(b, st.Linetype)
	}
	if st.LinetypeScale != 0 {
		b = append(b, `,"linetypeScale":`...)
		b = w.num(b, st.LinetypeScale)
	}
	if st.Layer != "" {
		b = append(b, `,"layer":`...)
		b = appendJSONString(b, st.Layer)
	}
	if st.ColorSet && w.drafting {
		b = append(b, `,"colorSet":true`...)
	}
	return w.hatchFields(b, st)
}

// strokeFields writes a style's cap, join and miter limit, each left out when empty as
// omitempty does, so that a scene of round strokes keeps its bytes.
func (w *jsonWriter) strokeFields(b []byte, st *Style) []byte {
	if st.Cap != "" {
		b = append(b, `,"cap":`...)
		b = appendJSONString(b, st.Cap)
	}
	if st.Join != "" {
		b = append(b, `,"join":`...)
		b = appendJSONString(b, st.Join)
	}
	if st.MiterLimit != 0 {
		b = append(b, `,"miterLimit":`...)
		b = w.num(b, st.MiterLimit)
	}
	return b
}

// hatchFields writes a style's hatch fields, each left out when empty as omitempty does.
func (w *jsonWriter) hatchFields(b []byte, st *Style) []byte {
	if st.Hatch != "" {
		b = append(b, `,"hatch":`...)
		b = appendJSONString(b, st.Hatch)
	}
	if st.HatchAngle != 0 {
		b = append(b, `,"hatchAngle":`...)
		b = w.num(b, st.HatchAngle)
	}
	if st.HatchScale != 0 {
		b = append(b, `,"hatchScale":`...)
		b = w.num(b, st.HatchScale)
	}
	if st.HatchColor != nil {
		b = append(b, `,"hatchColor":`...)
		b = w.color(b, st.HatchColor)
	}
	return b
}

// shape writes a geometry as encoding/json wrote the shape struct, by its kind's fields in
// shapeKinds (the table the fast reader reads by): fields in declaration order, omitempty
// honoured, nil slices and pointers as null.
func (w *jsonWriter) shape(b []byte, sh Shape) []byte {
	k := sh.Kind()
	for i := range shapeKinds {
		if shapeKinds[i].kind == k {
			if out, ok := shapeKinds[i].write(b, sh); ok {
				return out
			}
			break
		}
	}
	return w.reflected(b, sh)
}

// reflected writes a shape by encoding/json: a solid (its mesh in base64), the pointers to
// value shapes, which the scene never stores, and a shape with a value JSON cannot hold, for
// encoding/json's error.
func (w *jsonWriter) reflected(b []byte, sh Shape) []byte {
	js, err := marshalCompact(sh)
	if err != nil && w.err == nil {
		w.err = err
	}
	return append(b, js...)
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

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string exactly as encoding/json does with
// SetEscapeHTML(false): quote, backslash and control characters escaped (\b \f \n \r \t, else
// \u00XX), U+2028 and U+2029 escaped, and each byte of invalid UTF-8 replaced by \ufffd.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
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

// jsonScene is a document as read, before any validation.
type jsonScene struct {
	Format   string       `json:"format"`
	Version  int          `json:"version"`
	Layers   []Layer      `json:"layers,omitempty"`
	Entities []jsonEntity `json:"entities"`
}

type jsonEntity struct {
	Name      string          `json:"name"`
	Kind      Kind            `json:"kind"`
	Parent    string          `json:"parent,omitempty"`
	Geometry  json.RawMessage `json:"geometry,omitempty"`
	Transform Transform       `json:"transform"`
	Style     Style           `json:"style"`

	// shape is the geometry already decoded by the fast reader (not yet validated); when it
	// is nil, Geometry holds the raw value.
	shape Shape
}

// ReadJSON restores a scene written by MarshalJSON, validating every entity.
func ReadJSON(b []byte) (*Scene, error) { return ReadJSONWithFonts(b, nil) }

// ReadJSONWithFonts is ReadJSON for a scene whose text may use workspace fonts: a text in a
// font that is not embedded is laid out in fonts[name] (the JSON names the font only).
func ReadJSONWithFonts(b []byte, fonts map[string]*text.Font) (*Scene, error) {
	doc, ok := readJSONFast(b)
	if !ok {
		var err error
		if doc, err = decodeJSONReflect(b); err != nil {
			return nil, err
		}
	}
	return doc.build(fonts)
}

// decodeJSONReflect reads a document with encoding/json: the reader of record, used for
// whatever the fast reader does not take, and the source of every syntax and type error.
func decodeJSONReflect(b []byte) (*jsonScene, error) {
	var doc jsonScene
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadJSON, err)
	}
	return &doc, nil
}

// build validates a document and makes its scene.
func (doc *jsonScene) build(fonts map[string]*text.Font) (*Scene, error) {
	if doc.Format != JSONFormat {
		return nil, fmt.Errorf("%w: format is %q, want %q", ErrBadJSON, doc.Format, JSONFormat)
	}
	if doc.Version < jsonVersionNoArcs || doc.Version > JSONVersion {
		return nil, fmt.Errorf("%w: version %d is not supported; this cadrun reads versions %d to %d", ErrBadJSON, doc.Version, jsonVersionNoArcs, JSONVersion)
	}
	if len(doc.Entities) > MaxEntities {
		return nil, fmt.Errorf("%w: %d entities; the limit is %d (MaxEntities)", ErrLimit, len(doc.Entities), MaxEntities)
	}
	s := &Scene{byName: newNameIndex(len(doc.Entities))}
	if err := s.readLayers(doc.Layers); err != nil {
		return nil, err
	}
	// The entities are made in one block: one allocation instead of one each.
	block := make([]Entity, len(doc.Entities))
	for i := range doc.Entities {
		je := &doc.Entities[i]
		e := &block[i]
		err := readEntity(e, je, fonts)
		if err != nil {
			return nil, fmt.Errorf("%w: entity %d (%q): %w", ErrBadJSON, i, je.Name, err)
		}
		if s.Exists(e.Name) {
			return nil, fmt.Errorf("%w: entity %d: the name %q is used twice", ErrBadJSON, i, e.Name)
		}
		var parent *Entity
		if je.Parent != "" {
			p, ok := s.Lookup(je.Parent)
			if !ok || !p.IsGroup() {
				return nil, fmt.Errorf("%w: entity %d (%q): parent %q must be a group listed before it", ErrBadJSON, i, je.Name, je.Parent)
			}
			parent = p
		}
		if err := s.checkDrafting(e.Style); err != nil {
			return nil, fmt.Errorf("%w: entity %d (%q): %w", ErrBadJSON, i, je.Name, err)
		}
		if e.Style.Hatch != "" && !e.IsGroup() && !Hatchable(e) {
			return nil, fmt.Errorf("%w: entity %d (%q): %w: a %s cannot be hatched", ErrBadJSON, i, je.Name, ErrNotClosed, e.Kind())
		}
		if n := textSegments(e.Shape); n > 0 {
			// Each text is laid out as it is read: past the budget the reading stops,
			// holding at most the budget and the one text over it.
			if err := s.checkTextSegments(e.Name, e.Shape, n, nil); err != nil {
				return nil, fmt.Errorf("%w: entity %d: %w", ErrBadJSON, i, err)
			}
		}
		if n := solidTriangles(e.Shape); n > 0 {
			if err := s.checkTriangles(e.Name, n, nil); err != nil {
				return nil, fmt.Errorf("%w: entity %d: %w", ErrBadJSON, i, err)
			}
		}
		s.byName.add(e)
		s.attach(e, parent, s.siblingsOf(parent).len())
	}
	s.drafting = s.usesDrafting()
	return s, nil
}

// readLayers validates a document's layer table and makes it the scene's.
func (s *Scene) readLayers(ls []Layer) error {
	if len(ls) > MaxLayers {
		return fmt.Errorf("%w: %d layers; the limit is %d (MaxLayers)", ErrLimit, len(ls), MaxLayers)
	}
	for i := range ls {
		if err := ls[i].validate(); err != nil {
			return fmt.Errorf("%w: layer %d: %w", ErrBadJSON, i, err)
		}
		if s.layer(ls[i].Name) != nil {
			return fmt.Errorf("%w: layer %d: the name %q is used twice", ErrBadJSON, i, ls[i].Name)
		}
		s.layers = append(s.layers, ls[i])
	}
	return nil
}

// checkDrafting validates a style's drafting fields read from a document.
func (s *Scene) checkDrafting(st Style) error {
	if st.Linetype != "" {
		if _, err := drafting.LookupLinetype(st.Linetype); err != nil {
			return err
		}
	}
	if math.IsNaN(st.LinetypeScale) || math.IsInf(st.LinetypeScale, 0) || st.LinetypeScale < 0 {
		return fmt.Errorf("%w: linetype scale must be a number > 0, got %v", ErrBadGeometry, st.LinetypeScale)
	}
	if st.Layer != "" && s.layer(st.Layer) == nil {
		return fmt.Errorf("%w: %q is not in the layer table", ErrNoLayer, st.Layer)
	}
	return checkHatch(st)
}

// siblingsOf returns the child list of parent (nil: the top level).
func (s *Scene) siblingsOf(parent *Entity) *zlist {
	if parent == nil {
		return &s.roots
	}
	return &parent.children
}

// readEntity validates the document's entity je and makes e of it.
func readEntity(e *Entity, je *jsonEntity, fonts map[string]*text.Font) error {
	if err := checkName(je.Name); err != nil {
		return err
	}
	*e = Entity{Name: je.Name, Transform: je.Transform, Style: je.Style}
	if err := checkTransform(je.Transform); err != nil {
		return err
	}
	if err := checkColor(je.Style.Fill); err != nil {
		return err
	}
	if err := checkColor(je.Style.Stroke); err != nil {
		return err
	}
	if err := je.Style.CheckStroke(); err != nil {
		return err
	}
	if je.Kind == KindGroup {
		if len(je.Geometry) != 0 {
			return errors.New("a group has no geometry")
		}
		return nil
	}
	if je.shape != nil {
		e.Shape = je.shape
	} else {
		sk := shapeKindOf(je.Kind)
		if sk < 0 {
			return fmt.Errorf("unknown kind %q", je.Kind)
		}
		dec := json.NewDecoder(bytes.NewReader(je.Geometry))
		dec.DisallowUnknownFields()
		shape, err := shapeKinds[sk].decode(dec)
		if err != nil {
			return fmt.Errorf("geometry: %w", err)
		}
		e.Shape = shape
	}
	if t, ok := e.Shape.(*Text); ok {
		if err := t.useFontsNamed(fonts); err != nil {
			return err
		}
	}
	if err := e.Shape.validate(); err != nil {
		return err
	}
	if pg, ok := e.Shape.(Polygon); ok {
		var err error
		if e.Shape, err = applyHoleRule(pg); err != nil {
			return err
		}
	}
	return nil
}

func checkTransform(t Transform) error {
	for _, v := range []geom.Vec{t.Translate, t.Scale, t.Pivot} {
		if !finiteVec(v) {
			return fmt.Errorf("%w: transform values must be finite", ErrBadTransform)
		}
	}
	if t.Scale.X == 0 || t.Scale.Y == 0 {
		return fmt.Errorf("%w: scale (%v, %v) must be non-zero", ErrBadTransform, t.Scale.X, t.Scale.Y)
	}
	return finite("rotate", t.Rotate)
}

// readJSONFast reads a document in the layout MarshalJSON writes, with any whitespace and key
// order except that an entity's "kind" must come before its "geometry". ok is false when it
// meets anything else: a syntax or type error, an unknown or repeated key, a key with an
// escape, null for a string, number, point or object, a point or colour of the wrong length,
// a number out of range. What it accepts, it reads to the same values encoding/json would.
func readJSONFast(b []byte) (doc *jsonScene, ok bool) {
	r := jsonReader{b: b}
	doc = r.document()
	if r.bad {
		return nil, false
	}
	return doc, true
}

// jsonReader is a cursor over a document. The first failure sets bad and moves the cursor to
// the end, so that every later read fails at once and every loop ends.
type jsonReader struct {
	b   []byte
	i   int
	bad bool

	colors []Color // the rest of the block the next colours read are kept in
}

// colorBlock is how many colours the reader allocates at a time: a large scene has one or
// two for each of its entities, which one allocation each made a tenth of reading it.
const colorBlock = 256

func (r *jsonReader) fail() {
	r.bad = true
	r.i = len(r.b)
}

// peek skips whitespace and returns the next byte, or 0 at the end.
func (r *jsonReader) peek() byte {
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return c
		}
	}
	return 0
}

func (r *jsonReader) expect(c byte) {
	if r.peek() != c {
		r.fail()
		return
	}
	r.i++
}

// once marks a key as seen in an object, failing on a repeat (encoding/json would let the
// last one win, merging some values; that is left to it).
func (r *jsonReader) once(seen *uint64, bit uint64) {
	if *seen&bit != 0 {
		r.fail()
	}
	*seen |= bit
}

// objectStart consumes '{' and reports whether a member follows.
func (r *jsonReader) objectStart() bool {
	r.expect('{')
	if r.peek() == '}' {
		r.i++
		return false
	}
	return !r.bad
}

// objectNext consumes what ends a member: ',' (another follows) or '}'.
func (r *jsonReader) objectNext() bool {
	switch r.peek() {
	case ',':
		r.i++
		return true
	case '}':
		r.i++
		return false
	}
	r.fail()
	return false
}

// arrayStart consumes '[' and reports whether an element follows.
func (r *jsonReader) arrayStart() bool {
	r.expect('[')
	if r.peek() == ']' {
		r.i++
		return false
	}
	return !r.bad
}

// arrayNext consumes what ends an element: ',' (another follows) or ']'.
func (r *jsonReader) arrayNext() bool {
	switch r.peek() {
	case ',':
		r.i++
		return true
	case ']':
		r.i++
		return false
	}
	r.fail()
	return false
}

// key reads a member name and its colon. Only printable ASCII without escapes is taken: any
// other key could still match a field by encoding/json's case folding.
func (r *jsonReader) key() []byte {
	r.expect('"')
	start := r.i
	for i := start; i < len(r.b); i++ {
		c := r.b[i]
		if c == '"' {
			r.i = i + 1
			r.expect(':')
			return r.b[start:i]
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			break
		}
	}
	r.fail()
	return nil
}

// str reads a string value. A plain one (no escapes, valid UTF-8) is a slice of the input;
// any other is unquoted by encoding/json, so that it reads exactly as there.
func (r *jsonReader) str() []byte {
	r.expect('"')
	start := r.i
	plain, ascii := true, true
	for i := start; i < len(r.b); {
		c := r.b[i]
		switch {
		case c == '"':
			r.i = i + 1
			s := r.b[start:i]
			if plain && (ascii || utf8.Valid(s)) {
				return s
			}
			var out string
			if err := json.Unmarshal(r.b[start-1:i+1], &out); err != nil {
				r.fail()
				return nil
			}
			return []byte(out)
		case c < 0x20:
			r.fail()
			return nil
		case c == '\\':
			plain = false
			i += 2 // the escaped byte cannot end the string; encoding/json checks the rest
			continue
		case c >= utf8.RuneSelf:
			ascii = false
		}
		i++
	}
	r.fail()
	return nil
}

// num reads a number: JSON's grammar, then the float64 strconv.ParseFloat gives, as in
// encoding/json; out of range fails.
func (r *jsonReader) num() float64 {
	r.peek()
	b, start := r.b, r.i
	i := start
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		r.fail()
		return 0
	}
	intEnd := i
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			r.fail()
			return 0
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			r.fail()
			return 0
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	r.i = i
	digits := b[start:intEnd]
	if neg {
		digits = digits[1:]
	}
	if i == intEnd && len(digits) <= 15 {
		// An integer below 10^15 is exact in a float64: what ParseFloat returns.
		var n int64
		for _, c := range digits {
			n = n*10 + int64(c-'0')
		}
		f := float64(n)
		if neg {
			f = -f // -0 stays negative zero, as ParseFloat("-0") is
		}
		return f
	}
	f, err := strconv.ParseFloat(string(b[start:i]), 64)
	if err != nil {
		r.fail()
	}
	return f
}

// int reads an integer that fits an int, as encoding/json decodes into an int field.
func (r *jsonReader) int() int {
	r.peek()
	start := r.i
	r.num()
	lit := r.b[start:r.i]
	if r.bad || bytes.ContainsAny(lit, ".eE") {
		r.fail()
		return 0
	}
	n, err := strconv.ParseInt(string(lit), 10, 0)
	if err != nil {
		r.fail()
	}
	return int(n)
}

// vec reads [x, y]; any other length fails (encoding/json would drop or zero-fill).
func (r *jsonReader) vec() geom.Vec {
	r.expect('[')
	x := r.num()
	r.expect(',')
	y := r.num()
	r.expect(']')
	return geom.Vec{X: x, Y: y}
}

// null consumes a null if one comes next, as encoding/json reads it into a list: nil.
func (r *jsonReader) null() bool {
	if r.peek() != 'n' {
		return false
	}
	if !bytes.HasPrefix(r.b[r.i:], []byte("null")) {
		r.fail()
		return false
	}
	r.i += 4
	return true
}

// vecs reads a point list; [] is an empty, non-nil list and null is nil, as encoding/json
// makes them.
// nums reads null or an array of numbers.
func (r *jsonReader) nums() []float64 {
	if r.null() {
		return nil
	}
	fs := []float64{}
	for more := r.arrayStart(); more; more = r.arrayNext() {
		fs = append(fs, r.num())
	}
	return fs
}

func (r *jsonReader) vecs() []geom.Vec {
	if r.null() {
		return nil
	}
	pts := []geom.Vec{}
	for more := r.arrayStart(); more; more = r.arrayNext() {
		pts = append(pts, r.vec())
	}
	return pts
}

// strs reads null or an array of strings.
func (r *jsonReader) strs() []string {
	if r.null() {
		return nil
	}
	out := []string{}
	for more := r.arrayStart(); more; more = r.arrayNext() {
		out = append(out, string(r.str()))
	}
	return out
}

// color reads null or [r, g, b, a].
func (r *jsonReader) color() *Color {
	if r.null() {
		return nil
	}
	if len(r.colors) == 0 {
		r.colors = make([]Color, colorBlock)
	}
	c := &r.colors[0]
	r.colors = r.colors[1:]
	r.expect('[')
	for k := range c {
		if k > 0 {
			r.expect(',')
		}
		c[k] = r.num()
	}
	r.expect(']')
	return c
}

func (r *jsonReader) document() *jsonScene {
	doc := readFields(r, jsonScene{}, documentFields)
	return &doc
}

// documentFields are read only: MarshalJSON writes the document's few members itself, one
// entity to a line.
var documentFields = []field[jsonScene]{
	{key: "format", read: func(r *jsonReader, doc jsonScene) jsonScene { doc.Format = string(r.str()); return doc }},
	{key: "version", read: func(r *jsonReader, doc jsonScene) jsonScene { doc.Version = r.int(); return doc }},
	{key: "layers", read: func(r *jsonReader, doc jsonScene) jsonScene { doc.Layers = r.layers(); return doc }},
	{key: "entities", read: func(r *jsonReader, doc jsonScene) jsonScene { doc.Entities = r.entities(); return doc }},
}

// layers reads the layer table; null is nil, as encoding/json reads it.
func (r *jsonReader) layers() []Layer {
	if r.null() {
		return nil
	}
	ls := []Layer{}
	for more := r.arrayStart(); more; more = r.arrayNext() {
		ls = append(ls, readFields(r, Layer{}, layerFields))
	}
	return ls
}

var layerFields = []field[Layer]{
	{key: "name", read: func(r *jsonReader, l Layer) Layer { l.Name = string(r.str()); return l },
		write: func(b []byte, l Layer) ([]byte, bool) { return appendJSONString(b, l.Name), true }},
	{key: "color", read: func(r *jsonReader, l Layer) Layer { l.Color = r.color(); return l },
		write: func(b []byte, l Layer) ([]byte, bool) { return appendColor(b, l.Color) }},
	{key: "linetype", read: func(r *jsonReader, l Layer) Layer { l.Linetype = string(r.str()); return l },
		write: func(b []byte, l Layer) ([]byte, bool) { return appendJSONString(b, l.Linetype), true },
		omit:  func(l Layer) bool { return l.Linetype == "" }},
	{key: "lineweight", read: func(r *jsonReader, l Layer) Layer { l.Lineweight = r.num(); return l },
		write: func(b []byte, l Layer) ([]byte, bool) { return appendNum(b, l.Lineweight) },
		omit:  func(l Layer) bool { return l.Lineweight == 0 }},
	{key: "plot", read: func(r *jsonReader, l Layer) Layer { l.Plot = r.bool(); return l },
		write: func(b []byte, l Layer) ([]byte, bool) { return strconv.AppendBool(b, l.Plot), true }},
}

// bool reads true or false.
func (r *jsonReader) bool() bool {
	r.peek()
	switch {
	case bytes.HasPrefix(r.b[r.i:], []byte("true")):
		r.i += 4
		return true
	case bytes.HasPrefix(r.b[r.i:], []byte("false")):
		r.i += 5
		return false
	}
	r.fail()
	return false
}

func (r *jsonReader) entities() []jsonEntity {
	// The writer puts one entity on a line, and an entity takes well over 100 bytes: a first
	// capacity that fits its documents and stays small for a page of blank lines.
	rest := r.b[r.i:]
	ents := make([]jsonEntity, 0, min(bytes.Count(rest, []byte{'\n'}), len(rest)/100)+1)
	for more := r.arrayStart(); more; more = r.arrayNext() {
		ents = append(ents, jsonEntity{})
		r.entity(&ents[len(ents)-1])
	}
	return ents
}

// entity reads an entity object. The envelope of every entity (its own members, transform and
// style) is read by direct code, the geometry by the table of its kind: the envelope is most of
// a document's keys, and a call through a function value for each costs a few per cent of
// reading a large scene.
func (r *jsonReader) entity(je *jsonEntity) {
	var seen uint64
	sk := -1 // the kind's index in shapeKinds
	for more := r.objectStart(); more; more = r.objectNext() {
		switch string(r.key()) {
		case "name":
			r.once(&seen, 1)
			je.Name = string(r.str())
		case "kind":
			r.once(&seen, 2)
			je.Kind, sk = kindOf(r.str())
		case "parent":
			r.once(&seen, 4)
			je.Parent = string(r.str())
		case "geometry":
			r.once(&seen, 8)
			if sk < 0 {
				// No kind yet (the kind decides the fields; encoding/json reads this order),
				// or one that is not a shape: its error is left to the reader of record.
				r.fail()
				return
			}
			je.shape = shapeKinds[sk].read(r)
		case "transform":
			r.once(&seen, 16)
			r.transform(&je.Transform)
		case "style":
			r.once(&seen, 32)
			r.style(&je.Style)
		default:
			r.fail()
		}
	}
}

// kindOf returns the Kind named by s, without allocating for the known kinds, and its index
// in shapeKinds: -1 for a group or an unknown kind.
func kindOf(s []byte) (Kind, int) {
	for i := range shapeKinds {
		if k := shapeKinds[i].kind; string(s) == string(k) {
			return k, i
		}
	}
	if string(s) == string(KindGroup) {
		return KindGroup, -1
	}
	return Kind(s), -1
}

func (r *jsonReader) transform(t *Transform) {
	var seen uint64
	for more := r.objectStart(); more; more = r.objectNext() {
		switch string(r.key()) {
		case "translate":
			r.once(&seen, 1)
			t.Translate = r.vec()
		case "rotate":
			r.once(&seen, 2)
			t.Rotate = r.num()
		case "scale":
			r.once(&seen, 4)
			t.Scale = r.vec()
		case "pivot":
			r.once(&seen, 8)
			t.Pivot = r.vec()
		default:
			r.fail()
		}
	}
}

func (r *jsonReader) style(st *Style) {
	var seen uint64
	for more := r.objectStart(); more; more = r.objectNext() {
		switch string(r.key()) {
		case "fill":
			r.once(&seen, 1)
			st.Fill = r.color()
		case "stroke":
			r.once(&seen, 2)
			st.Stroke = r.color()
		case "strokeWidth":
			r.once(&seen, 4)
			st.StrokeWidth = r.num()
		case "linetype":
			r.once(&seen, 8)
			st.Linetype = string(r.str())
		case "linetypeScale":
			r.once(&seen, 16)
			st.LinetypeScale = r.num()
		case "layer":
			r.once(&seen, 32)
			st.Layer = string(r.str())
		case "colorSet":
			r.once(&seen, 64)
			st.ColorSet = r.bool()
		case "hatch":
			r.once(&seen, 128)
			st.Hatch = string(r.str())
		case "hatchAngle":
			r.once(&seen, 256)
			st.HatchAngle = r.num()
		case "hatchScale":
			r.once(&seen, 512)
			st.HatchScale = r.num()
		case "hatchColor":
			r.once(&seen, 1024)
			st.HatchColor = r.color()
		case "cap":
			r.once(&seen, 2048)
			st.Cap = string(r.str())
		case "join":
			r.once(&seen, 4096)
			st.Join = string(r.str())
		case "miterLimit":
			r.once(&seen, 8192)
			st.MiterLimit = r.num()
		default:
			r.fail()
		}
	}
}

// shapeKinds is how the geometry of each shape kind is read and written: its fields for the
// fast reader and the writer, and the value encoding/json decodes into. Fields left out stay
// zero, as in encoding/json; the fields are in the struct's order, which the writer keeps.
var shapeKinds = []shapeKind{
	valueShape(KindLine,
		field[Line]{key: "points", read: func(r *jsonReader, g Line) Line { g.Points = r.vecs(); return g },
			write: func(b []byte, g Line) ([]byte, bool) { return appendVecs(b, g.Points) }}),
	valueShape(KindCircle,
		field[Circle]{key: "center", read: func(r *jsonReader, g Circle) Circle { g.Center = r.vec(); return g },
			write: func(b []byte, g Circle) ([]byte, bool) { return appendVec(b, g.Center) }},
		field[Circle]{key: "radius", read: func(r *jsonReader, g Circle) Circle { g.Radius = r.num(); return g },
			write: func(b []byte, g Circle) ([]byte, bool) { return appendNum(b, g.Radius) }}),
	valueShape(KindRect,
		field[Rect]{key: "center", read: func(r *jsonReader, g Rect) Rect { g.Center = r.vec(); return g },
			write: func(b []byte, g Rect) ([]byte, bool) { return appendVec(b, g.Center) }},
		field[Rect]{key: "width", read: func(r *jsonReader, g Rect) Rect { g.Width = r.num(); return g },
			write: func(b []byte, g Rect) ([]byte, bool) { return appendNum(b, g.Width) }},
		field[Rect]{key: "height", read: func(r *jsonReader, g Rect) Rect { g.Height = r.num(); return g },
			write: func(b []byte, g Rect) ([]byte, bool) { return appendNum(b, g.Height) }}),
	valueShape(KindEllipse,
		field[Ellipse]{key: "center", read: func(r *jsonReader, g Ellipse) Ellipse { g.Center = r.vec(); return g },
			write: func(b []byte, g Ellipse) ([]byte, bool) { return appendVec(b, g.Center) }},
		field[Ellipse]{key: "rx", read: func(r *jsonReader, g Ellipse) Ellipse { g.RX = r.num(); return g },
			write: func(b []byte, g Ellipse) ([]byte, bool) { return appendNum(b, g.RX) }},
		field[Ellipse]{key: "ry", read: func(r *jsonReader, g Ellipse) Ellipse { g.RY = r.num(); return g },
			write: func(b []byte, g Ellipse) ([]byte, bool) { return appendNum(b, g.RY) }}),
	valueShape(KindRoundedRect,
		field[RoundedRect]{key: "center", read: func(r *jsonReader, g RoundedRect) RoundedRect { g.Center = r.vec(); return g },
			write: func(b []byte, g RoundedRect) ([]byte, bool) { return appendVec(b, g.Center) }},
		field[RoundedRect]{key: "width", read: func(r *jsonReader, g RoundedRect) RoundedRect { g.Width = r.num(); return g },
			write: func(b []byte, g RoundedRect) ([]byte, bool) { return appendNum(b, g.Width) }},
		field[RoundedRect]{key: "height", read: func(r *jsonReader, g RoundedRect) RoundedRect { g.Height = r.num(); return g },
			write: func(b []byte, g RoundedRect) ([]byte, bool) { return appendNum(b, g.Height) }},
		field[RoundedRect]{key: "radius", read: func(r *jsonReader, g RoundedRect) RoundedRect { g.Radius = r.num(); return g },
			write: func(b []byte, g RoundedRect) ([]byte, bool) { return appendNum(b, g.Radius) }}),
	valueShape(KindArc,
		field[Arc]{key: "center", read: func(r *jsonReader, g Arc) Arc { g.Center = r.vec(); return g },
			write: func(b []byte, g Arc) ([]byte, bool) { return appendVec(b, g.Center) }},
		field[Arc]{key: "radius", read: func(r *jsonReader, g Arc) Arc { g.Radius = r.num(); return g },
			write: func(b []byte, g Arc) ([]byte, bool) { return appendNum(b, g.Radius) }},
		field[Arc]{key: "start", read: func(r *jsonReader, g Arc) Arc { g.Start = r.num(); return g },
			write: func(b []byte, g Arc) ([]byte, bool) { return appendNum(b, g.Start) }},
		field[Arc]{key: "end", read: func(r *jsonReader, g Arc) Arc { g.End = r.num(); return g },
			write: func(b []byte, g Arc) ([]byte, bool) { return appendNum(b, g.End) }}),
	valueShape(KindPolygon,
		field[Polygon]{key: "parts", read: func(r *jsonReader, g Polygon) Polygon { g.Parts = r.parts(); return g },
			write: func(b []byte, g Polygon) ([]byte, bool) { return appendParts(b, g.Parts) }}),
	pointerShape(KindPath,
		field[PathShape]{key: "d", read: func(r *jsonReader, g PathShape) PathShape { g.Data = string(r.str()); return g },
			write: func(b []byte, g PathShape) ([]byte, bool) { return appendJSONString(b, g.Data), true }}),
	pointerShape(KindText,
		field[Text]{key: "text", read: func(r *jsonReader, g Text) Text { g.Text = string(r.str()); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendJSONString(b, g.Text), true }},
		field[Text]{key: "pos", read: func(r *jsonReader, g Text) Text { g.Pos = r.vec(); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendVec(b, g.Pos) }},
		field[Text]{key: "size", read: func(r *jsonReader, g Text) Text { g.Size = r.num(); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendNum(b, g.Size) }},
		field[Text]{key: "align", read: func(r *jsonReader, g Text) Text { g.Align = text.Align(r.str()); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendJSONString(b, string(g.Align)), true },
			omit:  func(g Text) bool { return g.Align == "" }},
		field[Text]{key: "font", read: func(r *jsonReader, g Text) Text { g.Font = string(r.str()); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendJSONString(b, g.Font), true },
			omit:  func(g Text) bool { return g.Font == "" }},
		field[Text]{key: "fallback", read: func(r *jsonReader, g Text) Text { g.Fallback = r.strs(); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return appendStrs(b, g.Fallback), true },
			omit:  func(g Text) bool { return len(g.Fallback) == 0 }},
		field[Text]{key: "noLint", read: func(r *jsonReader, g Text) Text { g.NoLint = r.bool(); return g },
			write: func(b []byte, g Text) ([]byte, bool) { return strconv.AppendBool(b, g.NoLint), true },
			omit:  func(g Text) bool { return !g.NoLint }}),
	pointerShape(KindDimension,
		field[Dimension]{key: "type", read: func(r *jsonReader, g Dimension) Dimension { g.Type = DimType(r.str()); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendJSONString(b, string(g.Type)), true }},
		field[Dimension]{key: "points", read: func(r *jsonReader, g Dimension) Dimension { g.Points = r.vecs(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendVecs(b, g.Points) }},
		field[Dimension]{key: "offset", read: func(r *jsonReader, g Dimension) Dimension { g.Offset = r.num(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendNum(b, g.Offset) },
			omit:  func(g Dimension) bool { return g.Offset == 0 }},
		field[Dimension]{key: "radius", read: func(r *jsonReader, g Dimension) Dimension { g.Radius = r.num(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendNum(b, g.Radius) },
			omit:  func(g Dimension) bool { return g.Radius == 0 }},
		field[Dimension]{key: "angle", read: func(r *jsonReader, g Dimension) Dimension { g.Angle = r.num(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendNum(b, g.Angle) },
			omit:  func(g Dimension) bool { return g.Angle == 0 }},
		field[Dimension]{key: "outside", read: func(r *jsonReader, g Dimension) Dimension { g.Outside = r.bool(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return strconv.AppendBool(b, g.Outside), true },
			omit:  func(g Dimension) bool { return !g.Outside }},
		field[Dimension]{key: "text", read: func(r *jsonReader, g Dimension) Dimension { g.Text = string(r.str()); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendJSONString(b, g.Text), true },
			omit:  func(g Dimension) bool { return g.Text == "" }},
		field[Dimension]{key: "precision", read: func(r *jsonReader, g Dimension) Dimension { g.Precision = r.int(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return strconv.AppendInt(b, int64(g.Precision), 10), true }},
		field[Dimension]{key: "units", read: func(r *jsonReader, g Dimension) Dimension { g.Units = string(r.str()); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendJSONString(b, g.Units), true },
			omit:  func(g Dimension) bool { return g.Units == "" }},
		field[Dimension]{key: "size", read: func(r *jsonReader, g Dimension) Dimension { g.Size = r.num(); return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendNum(b, g.Size) }},
		field[Dimension]{key: "textAt", read: func(r *jsonReader, g Dimension) Dimension { v := r.vec(); g.TextAt = &v; return g },
			write: func(b []byte, g Dimension) ([]byte, bool) { return appendVec(b, *g.TextAt) },
			omit:  func(g Dimension) bool { return g.TextAt == nil }}),
	{kind: KindSolid,
		// A solid's mesh is base64 in an object of its own: the reader of record reads it, and
		// encoding/json writes it.
		read:  func(r *jsonReader) Shape { r.fail(); return nil },
		write: func(b []byte, sh Shape) ([]byte, bool) { return b, false },
		decode: func(dec *json.Decoder) (Shape, error) {
			g := new(Solid)
			err := dec.Decode(g)
			return g, err
		}},
}

// shapeKind reads and writes the geometry of one kind of shape: read with the fast reader,
// decode with encoding/json (into the same type, so that its errors name it), write as
// encoding/json would.
type shapeKind struct {
	kind   Kind
	read   func(r *jsonReader) Shape
	write  func(b []byte, sh Shape) ([]byte, bool) // false: encoding/json writes it (see jsonWriter.shape)
	decode func(dec *json.Decoder) (Shape, error)
}

// shapeKindOf is the index in shapeKinds of kind k, or -1 when k is not a shape kind.
func shapeKindOf(k Kind) int {
	for i := range shapeKinds {
		if shapeKinds[i].kind == k {
			return i
		}
	}
	return -1
}

// valueShape is the entry of a shape the scene stores by value.
func valueShape[T Shape](k Kind, fields ...field[T]) shapeKind {
	return shapeKind{
		kind: k,
		read: func(r *jsonReader) Shape {
			var zero T
			return readFields(r, zero, fields)
		},
		write: func(b []byte, sh Shape) ([]byte, bool) {
			g, ok := sh.(T)
			if !ok {
				return b, false // a pointer to the value, never in a scene: encoding/json writes it
			}
			return writeFields(b, g, fields)
		},
		decode: func(dec *json.Decoder) (Shape, error) {
			var g T
			err := dec.Decode(&g)
			return g, err
		},
	}
}

// pointerShape is the entry of a shape the scene stores by pointer.
func pointerShape[T any, P interface {
	*T
	Shape
}](k Kind, fields ...field[T]) shapeKind {
	return shapeKind{
		kind: k,
		read: func(r *jsonReader) Shape {
			var zero T
			g := readFields(r, zero, fields)
			return P(&g)
		},
		write: func(b []byte, sh Shape) ([]byte, bool) {
			g, ok := sh.(P)
			if !ok {
				return b, false
			}
			if g == nil {
				return append(b, "null"...), true
			}
			return writeFields(b, *g, fields)
		},
		decode: func(dec *json.Decoder) (Shape, error) {
			g := P(new(T))
			err := dec.Decode(g)
			return g, err
		},
	}
}

// field is one member of an object the fast reader and the writer know: its key, how to read
// its value into the value being built, how to write it, and when to leave it out (omitempty;
// nil: always written). The value goes in and out by copy, not by pointer: through a call to
// a function value a pointer would make it escape to the heap, one more allocation for every
// shape read or written. For the same reason a write gets no writer state: it reports a value
// JSON cannot hold (a NaN or an infinity) as false, and the caller asks encoding/json for the
// error.
type field[T any] struct {
	key   string
	read  func(r *jsonReader, v T) T
	write func(b []byte, v T) ([]byte, bool)
	omit  func(v T) bool
}

// readFields reads an object whose members are among fields (at most 64), in any order, each
// at most once; any other key fails, and so does a repeated one (as once).
func readFields[T any](r *jsonReader, v T, fields []field[T]) T {
	var seen uint64
	for more := r.objectStart(); more; more = r.objectNext() {
		k := r.key()
		i := 0
		for ; i < len(fields); i++ {
			// Length and first byte first: they tell the keys of every table apart but
			// "rx" and "ry", and cost no call.
			if f := fields[i].key; len(f) == len(k) && f[0] == k[0] && string(k) == f {
				break
			}
		}
		if i == len(fields) || seen&(1<<i) != 0 {
			r.fail()
			return v
		}
		seen |= 1 << i
		v = fields[i].read(r, v)
	}
	return v
}

// writeFields writes v as an object of fields, in their order, each left out when its omit
// says so: as encoding/json writes the struct. false: a value JSON cannot hold.
func writeFields[T any](b []byte, v T, fields []field[T]) ([]byte, bool) {
	b = append(b, '{')
	first := true
	for i := range fields {
		f := &fields[i]
		if f.omit != nil && f.omit(v) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, f.key...)
		b = append(b, '"', ':')
		var ok bool
		if b, ok = f.write(b, v); !ok {
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendParts writes a polygon's parts; nil is null.
func appendParts(b []byte, parts []PolygonPart) ([]byte, bool) {
	if parts == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = writeFields(b, parts[i], partFields); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendStrs writes a list of strings; nil is null.
func appendStrs(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s)
	}
	return append(b, ']')
}

// parts reads a polygon's parts; as with points, [] is empty and non-nil, null is nil.
func (r *jsonReader) parts() []PolygonPart {
	if r.null() {
		return nil
	}
	parts := []PolygonPart{}
	for more := r.arrayStart(); more; more = r.arrayNext() {
		parts = append(parts, readFields(r, PolygonPart{}, partFields))
	}
	return parts
}

var partFields = []field[PolygonPart]{
	{key: "outer", read: func(r *jsonReader, p PolygonPart) PolygonPart { p.Outer = r.vecs(); return p },
		write: func(b []byte, p PolygonPart) ([]byte, bool) { return appendVecs(b, p.Outer) }},
	{key: "holes", read: func(r *jsonReader, p PolygonPart) PolygonPart {
		if r.null() {
			p.Holes = nil
			return p
		}
		p.Holes = [][]geom.Vec{}
		for more := r.arrayStart(); more; more = r.arrayNext() {
			p.Holes = append(p.Holes, r.vecs())
		}
		return p
	},
		write: func(b []byte, p PolygonPart) ([]byte, bool) {
			b = append(b, '[')
			for k, h := range p.Holes {
				if k > 0 {
					b = append(b, ',')
				}
				var ok bool
				if b, ok = appendVecs(b, h); !ok {
					return b, false
				}
			}
			return append(b, ']'), true
		},
		omit: func(p PolygonPart) bool { return len(p.Holes) == 0 }},
	{key: "outerBulges", read: func(r *jsonReader, p PolygonPart) PolygonPart { p.OuterBulges = r.nums(); return p },
		write: func(b []byte, p PolygonPart) ([]byte, bool) { return appendNums(b, p.OuterBulges) },
		omit:  func(p PolygonPart) bool { return len(p.OuterBulges) == 0 }},
	{key: "holeBulges", read: func(r *jsonReader, p PolygonPart) PolygonPart {
		if r.null() {
			p.HoleBulges = nil
			return p
		}
		p.HoleBulges = [][]float64{}
		for more := r.arrayStart(); more; more = r.arrayNext() {
			p.HoleBulges = append(p.HoleBulges, r.nums())
		}
		return p
	},
		write: func(b []byte, p PolygonPart) ([]byte, bool) {
			b = append(b, '[')
			for k, h := range p.HoleBulges {
				if k > 0 {
					b = append(b, ',')
				}
				var ok bool
				if b, ok = appendNums(b, h); !ok {
					return b, false
				}
			}
			return append(b, ']'), true
		},
		omit: func(p PolygonPart) bool { return len(p.HoleBulges) == 0 }},
}
