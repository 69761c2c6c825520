package scene

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		{"line", Line{Points: []Vec{{0, 0}, {10, 5}, {20, 0}}}},
		{"circle", Circle{Center: Vec{1.5, -2.25}, Radius: 3}},
		{"rect", Rect{Center: Vec{30, 0}, Width: 8, Height: 4}},
		{"ellipse", Ellipse{Center: Vec{0, 20}, RX: 6, RY: 2}},
		{"rounded", RoundedRect{Center: Vec{20, 20}, Width: 10, Height: 6, Radius: 1.5}},
		{"arc", Arc{Center: Vec{-20, 0}, Radius: 5, Start: 0.1, End: 2.9}},
		{"plate", Polygon{Parts: []PolygonPart{{
			Outer: []Vec{{-10, -30}, {10, -30}, {10, -20}, {-10, -20}},
			Holes: [][]Vec{{{-8, -28}, {-8, -22}, {-2, -22}, {-2, -28}}},
		}}}},
		{"curve", &PathShape{Data: "M 0 40 C 5 50 15 50 20 40 S 35 30 40 40 Q 45 45 50 40 A 5 5 0 0 1 60 40 Z"}},
		{"label", &Text{Text: "Hi, Ø20", Pos: Vec{0, -40}, Size: 4, Align: AlignCenter, Font: "mono"}},
	}
	for _, p := range puts {
		if _, err := s.Put(p.name, p.shape); err != nil {
			t.Fatalf("Put(%q): %v", p.name, err)
		}
	}
	steps := []error{
		s.SetPivot("rect", Vec{26, -2}),
		s.Rotate("rect", math.Pi/7, SpaceWorld),
		s.Scale("ellipse", -1, 2, SpaceWorld, nil),
		s.Translate("arc", Vec{0.1, 1e-7}, SpaceWorld),
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
	checkGolden(t, "testdata/scene_sample.json", first)
}

func TestReadJSONErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, doc, want string
	}{
		{"not json", `{`, "bad scene JSON: unexpected EOF"},
		{"format", `{"format":"x","version":1,"entities":[]}`, `bad scene JSON: format is "x", want "cadrun-scene"`},
		{"version", `{"format":"cadrun-scene","version":9,"entities":[]}`, "bad scene JSON: version 9 is not supported; this cadrun reads version 1"},
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

// checkGolden compares got with a file in testdata/, rewriting it when UPDATE_GOLDEN=1.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		must(t, os.MkdirAll(filepath.Dir(path), 0o755))
		must(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with UPDATE_GOLDEN=1 to create it): %v", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (run with UPDATE_GOLDEN=1 and review the diff):\n%s", path, cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
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
