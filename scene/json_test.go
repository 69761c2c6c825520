package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/golden"
	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// sampleScene holds every entity kind, holes, a custom pivot, nested groups, a changed z
// order, every style variant and text with options: what the JSON form must keep.
func sampleScene(t testing.TB) *Scene {
	t.Helper()
	s := New()
	puts := []struct {
		name  string
		shape Shape
	}{
		{"line", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 5}, {X: 20, Y: 0}}}},
		{"circle", Circle{Center: geom.Vec{X: 1.5, Y: -2.25}, Radius: 3}},
		{"rect", Rect{Center: geom.Vec{X: 30, Y: 0}, Width: 8, Height: 4}},
		{"ellipse", Ellipse{Center: geom.Vec{X: 0, Y: 20}, RX: 6, RY: 2}},
		{"rounded", RoundedRect{Center: geom.Vec{X: 20, Y: 20}, Width: 10, Height: 6, Radius: 1.5}},
		{"arc", Arc{Center: geom.Vec{X: -20, Y: 0}, Radius: 5, Start: 0.1, End: 2.9}},
		{"plate", Polygon{Parts: []PolygonPart{{
			Outer: []geom.Vec{{X: -10, Y: -30}, {X: 10, Y: -30}, {X: 10, Y: -20}, {X: -10, Y: -20}},
			Holes: [][]geom.Vec{{{X: -8, Y: -28}, {X: -8, Y: -22}, {X: -2, Y: -22}, {X: -2, Y: -28}}},
		}}}},
		{"curve", &PathShape{Data: "M 0 40 C 5 50 15 50 20 40 S 35 30 40 40 Q 45 45 50 40 A 5 5 0 0 1 60 40 Z"}},
		{"label", &Text{Text: "Hi, Ø20", Pos: geom.Vec{X: 0, Y: -40}, Size: 4, Align: text.AlignCenter, Font: "mono"}},
	}
	for _, p := range puts {
		if _, err := s.Put(p.name, p.shape); err != nil {
			t.Fatalf("Put(%q): %v", p.name, err)
		}
	}
	steps := []error{
		s.SetPivot("rect", geom.Vec{X: 26, Y: -2}),
		s.Rotate("rect", math.Pi/7, SpaceWorld),
		s.Scale("ellipse", -1, 2, SpaceWorld, nil),
		s.Translate("arc", geom.Vec{X: 0.1, Y: 1e-7}, SpaceWorld),
		s.SetFill("plate", &Color{0.2, 0.4, 0.6, 0.5}),
		s.SetStroke("circle", &Color{1, 0, 0, 1}, 0.25),
		s.SetStroke("line", nil, -1),
		s.DrawOrder("line", "front"),
		s.DrawOrder("arc", "back"),
	}
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if _, err := s.CreateGroup("inner", []string{"circle", "rect"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGroup("outer", []string{"inner", "ellipse"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Rotate("outer", 0.25, SpaceWorld); err != nil {
		t.Fatal(err)
	}
	if err := s.DrawOrder("ellipse", "back"); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJSONRoundTripIsLossless(t *testing.T) {
	t.Parallel()
	s := sampleScene(t)
	first, err := s.MarshalJSON()
	must(t, err)
	back, err := ReadJSON(first)
	must(t, err)
	second, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Fatalf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
	// What JSON does not show directly must survive too: world placement and z order.
	for _, e := range s.Walk() {
		b, err := back.Get(e.Name)
		must(t, err)
		if diff := cmp.Diff(s.WorldBounds(e), back.WorldBounds(b)); diff != "" {
			t.Errorf("%s: world bounds changed (-want +got):\n%s", e.Name, diff)
		}
		if s.ZRank(e) != back.ZRank(b) || e.Parent() != b.Parent() {
			t.Errorf("%s: rank/parent %d/%q became %d/%q", e.Name, s.ZRank(e), e.Parent(), back.ZRank(b), b.Parent())
		}
	}
	golden.Check(t, "testdata/scene_sample.json", first)
}

func TestReadJSONErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, want string
	}{
		{"not json", `{`, "bad scene JSON: unexpected EOF"},
		{"format", `{"format":"x","version":1,"entities":[]}`, `bad scene JSON: format is "x", want "cadrun-scene"`},
		{"version", `{"format":"cadrun-scene","version":9,"entities":[]}`, "bad scene JSON: version 9 is not supported; this cadrun reads versions 1 to 6"},
		{"kind", `{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"blob","transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}]}`,
			`bad scene JSON: entity 0 ("a"): unknown kind "blob"`},
		{"geometry", `{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":-1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}]}`,
			`bad scene JSON: entity 0 ("a"): bad geometry: radius must be a finite number > 0, got -1`},
		{"parent", `{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"circle","parent":"g","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}]}`,
			`bad scene JSON: entity 0 ("a"): parent "g" must be a group listed before it`},
		{"zero scale", `{"format":"cadrun-scene","version":1,"entities":[{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[0,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}]}`,
			`bad scene JSON: entity 0 ("a"): bad transform: scale (0, 1) must be non-zero`},
	}
	for _, tt := range tests {
		_, err := ReadJSON([]byte(tt.doc))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
		if err != nil && !errors.Is(err, ErrBadJSON) {
			t.Errorf("%s: %v does not wrap ErrBadJSON", tt.name, err)
		}
	}
}

func TestEmptySceneJSON(t *testing.T) {
	t.Parallel()
	b, err := New().MarshalJSON()
	must(t, err)
	want := "{\"format\":\"cadrun-scene\",\"version\":1,\"entities\":[\n]}\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// FuzzReadJSON: reading never panics, and whatever reads back writes out stably.
func FuzzReadJSON(f *testing.F) {
	good, err := sampleScene(f).MarshalJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte(`{"format":"cadrun-scene","version":1,"entities":[]}`))
	f.Add([]byte(`{"format":"cadrun-scene","version":1,"entities":[{"name":"g","kind":"group","transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":0}}]}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s, err := ReadJSON(doc)
		if err != nil {
			return
		}
		first, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(first)
		if err != nil {
			t.Fatalf("re-reading our own output: %v", err)
		}
		second, _ := back.MarshalJSON()
		if !bytes.Equal(first, second) {
			t.Fatalf("not stable:\n%s\n%s", first, second)
		}
	})
}

// marshalJSONReflect is the writer as it was before MarshalJSON was hand-written: encoding/json
// on each entity and its shape. It is kept as the reference the writer must match byte for
// byte, errors included.
func marshalJSONReflect(s *Scene) ([]byte, error) {
	var buf bytes.Buffer
	version := s.jsonVersion()
	fmt.Fprintf(&buf, "{\"format\":%q,\"version\":%d", JSONFormat, version)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if len(s.layers) > 0 {
		buf.WriteString(`,"layers":`)
		if err := enc.Encode(s.layers); err != nil {
			return nil, fmt.Errorf("encoding the layers: %w", err)
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteString(`,"entities":[`)
	first := true
	for _, e := range s.Walk() {
		je := jsonEntity{Name: e.Name, Kind: e.Kind(), Parent: e.Parent(), Transform: e.Transform, Style: e.Style}
		if version < jsonVersionDrafting {
			je.Style.ColorSet = false // only a document with drafting says it
		}
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

// readJSONReflect is ReadJSON without the fast reader: encoding/json reads every document.
func readJSONReflect(b []byte) (*Scene, error) {
	doc, err := decodeJSONReflect(b)
	if err != nil {
		return nil, err
	}
	return doc.build(nil)
}

// sceneGen makes random scenes straight from entities, past the validation Put does, so that
// the writer meets what encoding/json would: nil and empty lists, nil shape pointers, odd
// strings, every float format and, when nonFinite is set, NaN and infinities.
type sceneGen struct {
	rng       *rand.Rand
	nonFinite bool
	// plain leaves out the shapes the scene never holds: nil pointers, a *Circle.
	plain bool
}

var (
	// genFloats are the numbers at the edges of encoding/json's formats.
	genFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 1e-6, 9.99999e-7, 1e-7, -1e-7, 1e21, 9.999999999999999e20,
		-1e21, 1e20, 1 << 53, 1<<53 + 2, 1<<53 - 1, -(1 << 53), 1e15, 1e16, 123456789012345678, 5e-324, math.MaxFloat64,
		-math.MaxFloat64, math.SmallestNonzeroFloat64, 0.1, 1.0 / 3, 2.5e-8, 1.5e300, -4.9e-310, 13.603875471609676}
	// genStrings are pieces of names and text: every escape encoding/json makes, and some it does not.
	genStrings = []string{"a", "wall", "Ø20", "\"", "\\", "/", "<", ">", "&", "\x00", "\x01", "\x1f", "\x7f", "\b", "\f",
		"\n", "\r", "\t", "\u2028", "\u2029", "\u2027", "\u202a", "\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "é", "日本",
		"😀", "\ufffd", " ", "e1", "\\u0041"}
)

func (g *sceneGen) float() float64 {
	switch g.rng.IntN(6) {
	case 0:
		return genFloats[g.rng.IntN(len(genFloats))]
	case 1:
		return float64(g.rng.IntN(2001) - 1000)
	case 2:
		return g.rng.NormFloat64() * math.Pow(10, float64(g.rng.IntN(60)-30))
	case 3:
		return math.Float64frombits(g.rng.Uint64())
	case 4:
		if g.nonFinite && g.rng.IntN(8) == 0 {
			return []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[g.rng.IntN(3)]
		}
		return g.rng.Float64()
	}
	return float64(g.rng.IntN(100)) / 8
}

// num is a random number, finite unless nonFinite is set.
func (g *sceneGen) num() float64 {
	for {
		f := g.float()
		if g.nonFinite || !(math.IsNaN(f) || math.IsInf(f, 0)) {
			return f
		}
	}
}

func (g *sceneGen) vec() geom.Vec { return geom.Vec{X: g.num(), Y: g.num()} }

func (g *sceneGen) vecs() []geom.Vec {
	switch g.rng.IntN(8) {
	case 0:
		return nil
	case 1:
		return []geom.Vec{}
	}
	pts := make([]geom.Vec, g.rng.IntN(6))
	for i := range pts {
		pts[i] = g.vec()
	}
	return pts
}

func (g *sceneGen) str() string {
	var sb strings.Builder
	for range g.rng.IntN(5) {
		sb.WriteString(genStrings[g.rng.IntN(len(genStrings))])
	}
	return sb.String()
}

func (g *sceneGen) color() *Color {
	if g.rng.IntN(3) == 0 {
		return nil
	}
	return &Color{g.num(), g.num(), g.num(), g.num()}
}

func (g *sceneGen) shape() Shape {
	switch g.rng.IntN(13) {
	case 0:
		return Line{Points: g.vecs()}
	case 1:
		return Circle{Center: g.vec(), Radius: g.num()}
	case 2:
		return Rect{Center: g.vec(), Width: g.num(), Height: g.num()}
	case 3:
		return Ellipse{Center: g.vec(), RX: g.num(), RY: g.num()}
	case 4:
		return RoundedRect{Center: g.vec(), Width: g.num(), Height: g.num(), Radius: g.num()}
	case 5:
		return Arc{Center: g.vec(), Radius: g.num(), Start: g.num(), End: g.num()}
	case 6:
		var p Polygon
		if g.rng.IntN(6) > 0 {
			p.Parts = make([]PolygonPart, g.rng.IntN(3))
		}
		for i := range p.Parts {
			p.Parts[i].Outer = g.vecs()
			switch g.rng.IntN(3) {
			case 0:
				p.Parts[i].Holes = [][]geom.Vec{}
			case 1:
				for range g.rng.IntN(3) + 1 {
					p.Parts[i].Holes = append(p.Parts[i].Holes, g.vecs())
				}
			}
			if g.rng.IntN(2) == 0 {
				p.Parts[i].OuterBulges = []float64{}
				for range g.rng.IntN(4) {
					p.Parts[i].OuterBulges = append(p.Parts[i].OuterBulges, g.num())
				}
			}
			switch g.rng.IntN(3) {
			case 0:
				p.Parts[i].HoleBulges = [][]float64{}
			case 1:
				for range g.rng.IntN(3) + 1 {
					p.Parts[i].HoleBulges = append(p.Parts[i].HoleBulges, []float64{g.num()})
				}
			}
		}
		return p
	case 7:
		if !g.plain && g.rng.IntN(4) == 0 {
			return (*PathShape)(nil)
		}
		return &PathShape{Data: g.str()}
	case 8:
		if !g.plain && g.rng.IntN(4) == 0 {
			return (*Text)(nil)
		}
		t := &Text{Text: g.str(), Pos: g.vec(), Size: g.num(), Align: text.Align(g.str()), Font: g.str(), NoLint: g.rng.IntN(2) == 0}
		for range g.rng.IntN(3) {
			t.Fallback = append(t.Fallback, g.str())
		}
		return t
	case 10:
		if !g.plain && g.rng.IntN(4) == 0 {
			return (*Dimension)(nil)
		}
		d := &Dimension{Type: DimType(g.str()), Points: g.vecs(), Offset: g.num(), Radius: g.num(), Angle: g.num(),
			Outside: g.rng.IntN(2) == 0, Text: g.str(), Precision: g.rng.IntN(20) - 5, Units: g.str(), Size: g.num()}
		if g.rng.IntN(2) == 0 {
			v := g.vec()
			d.TextAt = &v
		}
		return d
	case 9:
		if !g.plain {
			// Never stored by the scene, but a Shape all the same: the writer's fallback.
			return &Circle{Center: g.vec(), Radius: g.num()}
		}
	}
	return nil // a group
}

// drafting gives a style random drafting fields, and the scene the layer they name.
func (g *sceneGen) drafting(s *Scene, st *Style) {
	if g.rng.IntN(2) == 0 {
		st.Linetype = drafting.Linetypes[g.rng.IntN(len(drafting.Linetypes))].Name
		st.LinetypeScale = math.Abs(g.num())
	}
	st.ColorSet = g.rng.IntN(2) == 0
	if g.rng.IntN(3) == 0 {
		st.Hatch = drafting.HatchPatterns[g.rng.IntN(len(drafting.HatchPatterns))].Name
		st.HatchAngle, st.HatchScale = g.num(), math.Abs(g.num())
		if g.rng.IntN(2) == 0 {
			st.HatchColor = g.color()
		}
	}
	if g.rng.IntN(2) == 0 {
		name := g.str()
		if s.layer(name) == nil {
			s.layers = append(s.layers, Layer{Name: name, Color: g.color(), Linetype: drafting.Linetypes[g.rng.IntN(len(drafting.Linetypes))].Name,
				Lineweight: math.Abs(g.num()), Plot: g.rng.IntN(2) == 0})
		}
		st.Layer = name
	}
}

// scene makes up to n entities, groups nested at random.
func (g *sceneGen) scene(n int) *Scene {
	s := New()
	var groups []*Entity
	for range g.rng.IntN(n + 1) {
		name := g.str()
		if s.Exists(name) {
			continue
		}
		e := &Entity{Name: name, Shape: g.shape(),
			Transform: Transform{Translate: g.vec(), Rotate: g.num(), Scale: g.vec(), Pivot: g.vec()},
			Style:     Style{Fill: g.color(), Stroke: g.color(), StrokeWidth: g.num()}}
		if g.rng.IntN(3) == 0 {
			g.drafting(s, &e.Style)
		}
		var parent *Entity
		if len(groups) > 0 && g.rng.IntN(2) == 0 {
			parent = groups[g.rng.IntN(len(groups))]
		}
		s.byName.add(e)
		s.attach(e, parent, g.rng.IntN(s.siblingsOf(parent).len()+1))
		if e.Shape == nil {
			groups = append(groups, e)
		}
	}
	return s
}

// checkWriterMatchesReflect compares MarshalJSON with the reflection writer on one scene.
func checkWriterMatchesReflect(t *testing.T, s *Scene) {
	t.Helper()
	want, wantErr := marshalJSONReflect(s)
	got, gotErr := s.MarshalJSON()
	if wantErr != nil || gotErr != nil {
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			t.Fatalf("errors differ: reflect %v, hand-written %v", wantErr, gotErr)
		}
		return
	}
	if !bytes.Equal(want, got) {
		t.Fatalf("output differs (-reflect +hand-written):\n%s", cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
}

func TestMarshalJSONMatchesReflect(t *testing.T) {
	t.Parallel()
	checkWriterMatchesReflect(t, sampleScene(t))
	checkWriterMatchesReflect(t, New())
	for seed := range uint64(500) {
		g := sceneGen{rng: rand.New(rand.NewPCG(seed, 7)), nonFinite: seed%4 == 3}
		checkWriterMatchesReflect(t, g.scene(20))
	}
}

// FuzzMarshalJSONMatchesReflect: for random scenes, the writer's bytes (or error) are the
// reflection writer's.
func FuzzMarshalJSONMatchesReflect(f *testing.F) {
	f.Add(uint64(1), uint64(2), false)
	f.Add(uint64(3), uint64(4), true)
	f.Fuzz(func(t *testing.T, s1, s2 uint64, nonFinite bool) {
		g := sceneGen{rng: rand.New(rand.NewPCG(s1, s2)), nonFinite: nonFinite}
		checkWriterMatchesReflect(t, g.scene(10))
	})
}

// FuzzJSONString: the string writer is encoding/json's with SetEscapeHTML(false).
func FuzzJSONString(f *testing.F) {
	for _, s := range genStrings {
		f.Add(s)
	}
	f.Add("a\u2028b\u2029c\xffd\xed\xa0\x80e\x00f<&>")
	f.Fuzz(func(t *testing.T, s string) {
		want, err := marshalCompact(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

// FuzzAppendFloat: numbers are written as encoding/json writes them.
func FuzzAppendFloat(f *testing.F) {
	for _, v := range genFloats {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := geom.AppendFloat(nil, v); !bytes.Equal(got, want) {
			t.Fatalf("%v (%#x): got %s, want %s", v, bits, got, want)
		}
	})
}

// checkReadersAgree reads doc with ReadJSON and with encoding/json alone, and wants the same
// error text or the same scene (same bytes out, and the same values: nil and empty lists
// apart, which the bytes do not show for holes).
func checkReadersAgree(t *testing.T, doc []byte) {
	t.Helper()
	want, wantErr := readJSONReflect(doc)
	got, gotErr := ReadJSON(doc)
	if wantErr != nil || gotErr != nil {
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			t.Fatalf("errors differ on %q:\nencoding/json: %v\nReadJSON:      %v", doc, wantErr, gotErr)
		}
		return
	}
	wantJSON, err := want.MarshalJSON()
	must(t, err)
	gotJSON, err := got.MarshalJSON()
	must(t, err)
	if !bytes.Equal(wantJSON, gotJSON) {
		t.Fatalf("scenes differ on %q (-encoding/json +ReadJSON):\n%s", doc, cmp.Diff(string(wantJSON), string(gotJSON)))
	}
	for _, e := range want.Walk() {
		g, err := got.Get(e.Name)
		must(t, err)
		if !reflect.DeepEqual(e.Shape, g.Shape) || !reflect.DeepEqual(e.Style, g.Style) || e.Transform != g.Transform {
			t.Fatalf("%q differs on %q:\nencoding/json: %#v %#v\nReadJSON:      %#v %#v", e.Name, doc, e.Shape, e.Style, g.Shape, g.Style)
		}
	}
}

// readerCases are documents at the edges of the fast reader: what it must read as encoding/json
// does, and what it must leave to encoding/json.
var readerCases = []string{
	``,
	` `,
	`null`,
	`{}`,
	`[]`,
	`{"format":"cadrun-scene","version":1,"entities":[]}`,
	`{"format":"cadrun-scene","version":1,"entities":null}`,
	`{"format":"cadrun-scene","version":1}`,
	`{"format":"cadrun-scene","version":1,"entities":[]} trailing`,
	`{"format":"cadrun-scene","version":1,"entities":[]}}`,
	` {"entities":[],"version":1,"format":"cadrun-scene"}`,
	`{"format":"cadrun-scene","version":1.0,"entities":[]}`,
	`{"format":"cadrun-scene","version":1e0,"entities":[]}`,
	`{"format":"cadrun-scene","version":-0,"entities":[]}`,
	`{"format":"cadrun-scene","version":01,"entities":[]}`,
	`{"format":"cadrun-scene","version":99999999999999999999,"entities":[]}`,
	`{"format":"cadrun-scene","version":1,"version":1,"entities":[]}`,
	`{"Format":"cadrun-scene","version":1,"entities":[]}`,
	`{"format":"cadrun-scen\u0065","version":1,"entities":[]}`,
	`{"f\u006frmat":"cadrun-scene","version":1,"entities":[]}`,
	`{"format":"cadrun-scene","version":1,"entities":[],"extra":0}`,
	`{"format":"cadrun-scene","version":1,"entities":[],}`,
	`{"format":"cadrun-scene","version":1,"entities":[{}]}`,
	`{"format":"cadrun-scene","version":1,"entities":[null]}`,
	"\ufeff{\"format\":\"cadrun-scene\",\"version\":1,\"entities\":[]}",
}

// readerGroup is the group "g", listed before the entities in some documents so that a
// parent can be found.
const readerGroup = `{"name":"g","kind":"group","transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":0}}`

// readerEntities are entity objects put into documents by TestReadersAgree.
var readerEntities = []string{
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":1}}`,
	` { "name" : "a" , "kind" : "circle" , "geometry" : { "radius" : 1 , "center" : [ 0 , 0 ] } , "style" : { "strokeWidth" : 1 , "stroke" : [ 0 , 0 , 0 , 1 ] , "fill" : null } , "transform" : { "pivot" : [ 0 , 0 ] , "scale" : [ 1 , 1 ] , "rotate" : 0 , "translate" : [ 0 , 0 ] } } `,
	`{"name":"a","geometry":{"center":[0,0],"radius":1},"kind":"circle","transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":null,"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1,"width":2},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0,5],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":null,"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1e999},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[-0,-0.0],"radius":1E+2},"transform":{"translate":[1e-400,123456789012345678901234567890],"rotate":-0,"scale":[1,1],"pivot":[0.1e1,0]},"style":{"fill":[0,0,0,0],"stroke":null,"strokeWidth":-1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[+1,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[.5,0],"radius":1.},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":[1,1,1],"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":[1,1,1,1,1],"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":nul,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1},"name":"b"}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1},"Name":"b"}`,
	`{"name":"a","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1},"\u212aind":"rect"}`,
	`{"name":"a\"b\\c\u2028\u00e9\ud83d\ude00\ud800","kind":"circ\u006ce","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	"{\"name\":\"a\xffb\",\"kind\":\"circle\",\"geometry\":{\"center\":[0,0],\"radius\":1},\"transform\":{\"translate\":[0,0],\"rotate\":0,\"scale\":[1,1],\"pivot\":[0,0]},\"style\":{\"fill\":null,\"stroke\":null,\"strokeWidth\":1}}",
	"{\"name\":\"a\tb\",\"kind\":\"circle\",\"geometry\":{\"center\":[0,0],\"radius\":1},\"transform\":{\"translate\":[0,0],\"rotate\":0,\"scale\":[1,1],\"pivot\":[0,0]},\"style\":{\"fill\":null,\"stroke\":null,\"strokeWidth\":1}}",
	`{"name":"a\x","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"","kind":"circle","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"a","kind":"blob","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"g","kind":"group","geometry":{},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":0}}`,
	readerGroup,
	`{"name":"p","kind":"polygon","geometry":{"parts":[{"outer":[[0,0],[1,0],[0,1]],"holes":[]}]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"p","kind":"polygon","geometry":{"parts":[{"holes":[[[0.1,0.1],[0.2,0.1],[0.1,0.2]]],"outer":[[0,0],[1,0],[0,1]]},{"outer":[[5,5],[6,5],[5,6]]}]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"p","kind":"polygon","geometry":{"parts":[{"outer":[[0,0],[1,0],[0,1]],"holes":null}]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"p","kind":"polygon","geometry":{"parts":[]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"l","kind":"line","geometry":{"points":[[0,0],[1,1]]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"l","kind":"line","geometry":{"points":[]},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"r","kind":"rounded_rect","geometry":{"center":[0,0],"width":4,"height":2,"radius":0.5},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"e","kind":"ellipse","geometry":{"center":[0,0],"rx":4,"ry":2},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"r","kind":"rect","geometry":{"center":[0,0],"width":4,"height":2},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"arc","kind":"arc","geometry":{"center":[0,0],"radius":4,"start":0,"end":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"d","kind":"path","geometry":{"d":"M 0 0 L 1 1 Z"},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
	`{"name":"t","kind":"text","geometry":{"text":"Hi \"there\"","pos":[0,0],"size":4,"align":"center","font":"mono"},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":[0,0,0,1],"stroke":null,"strokeWidth":1}}`,
	`{"name":"t","kind":"text","geometry":{"text":"x","pos":[0,0],"size":4,"align":"middle"},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":[0,0,0,1],"stroke":null,"strokeWidth":1}}`,
	`{"name":"c","kind":"circle","parent":"g","geometry":{"center":[0,0],"radius":1},"transform":{"translate":[0,0],"rotate":0,"scale":[1,1],"pivot":[0,0]},"style":{"fill":null,"stroke":null,"strokeWidth":1}}`,
}

func TestReadersAgree(t *testing.T) {
	t.Parallel()
	for _, doc := range readerCases {
		checkReadersAgree(t, []byte(doc))
	}
	const head = `{"format":"cadrun-scene","version":1,"entities":[`
	for i, e := range readerEntities {
		checkReadersAgree(t, []byte(head+e+"]}"))
		// After a group, followed by the next entity, and then cut short at every byte.
		doc := head + readerGroup + ",\n" + e + ",\n" + readerEntities[(i+1)%len(readerEntities)] + "\n]}\n"
		checkReadersAgree(t, []byte(doc))
		for n := range len(doc) {
			checkReadersAgree(t, []byte(doc[:n]))
		}
	}
	good, err := sampleScene(t).MarshalJSON()
	must(t, err)
	checkReadersAgree(t, good)
	if _, ok := readJSONFast(good); !ok {
		t.Error("the fast reader gave up on MarshalJSON's own output")
	}
	for seed := range uint64(200) {
		g := sceneGen{rng: rand.New(rand.NewPCG(seed, 11)), plain: true}
		doc, err := g.scene(20).MarshalJSON()
		must(t, err)
		checkReadersAgree(t, doc)
		if _, ok := readJSONFast(doc); !ok {
			t.Fatalf("the fast reader gave up on MarshalJSON's own output:\n%s", doc)
		}
	}
}

// FuzzReadersAgree: ReadJSON's fast reader reads whatever it accepts as encoding/json does,
// and everything else still gets encoding/json's answer.
func FuzzReadersAgree(f *testing.F) {
	good, err := sampleScene(f).MarshalJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	for _, doc := range readerCases {
		f.Add([]byte(doc))
	}
	for _, e := range readerEntities {
		f.Add([]byte(`{"format":"cadrun-scene","version":1,"entities":[` + e + `]}`))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkReadersAgree(t, doc)
	})
}
