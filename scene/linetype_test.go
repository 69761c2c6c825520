package scene

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/drafting"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/google/go-cmp/cmp"
)

// draftingScene is a group "walls" drawn dashed, holding a door with no linetype of its own
// and a window with its own; a hidden-line layer "hid" in blue, 0.5 wide; an axis on it and
// a label (text) on a layer that is not plotted.
func draftingScene(t *testing.T) *Scene {
	t.Helper()
	s := New()
	must(t, putShape(s, "door", Line{Points: []geom.Vec{{X: 0, Y: 0}, {X: 10, Y: 0}}}))
	must(t, putShape(s, "window", Line{Points: []geom.Vec{{X: 0, Y: 5}, {X: 10, Y: 5}}}))
	must(t, putShape(s, "axis", Line{Points: []geom.Vec{{X: 0, Y: 9}, {X: 10, Y: 9}}}))
	must(t, putShape(s, "red", Line{Points: []geom.Vec{{X: 0, Y: 12}, {X: 10, Y: 12}}}))
	_, err := s.CreateGroup("walls", []string{"door", "window"})
	must(t, err)
	must(t, s.SetLinetype("walls", "dashed", 0.5))
	must(t, s.SetLinetype("window", "phantom", 2))
	must(t, s.CreateLayer(Layer{Name: "hid", Color: &Color{0, 0, 1, 1}, Linetype: "hidden", Lineweight: 0.5, Plot: true}))
	must(t, s.CreateLayer(Layer{Name: "notes", Color: &Color{0, 1, 0, 1}}))
	must(t, s.SetLayer("axis", "hid"))
	must(t, s.SetLayer("red", "hid"))
	must(t, s.SetStroke("red", &Color{1, 0, 0, 1}, 0.25))
	must(t, s.SetLayer("walls", "notes"))
	return s
}

func putShape(s *Scene, name string, sh Shape) error { _, err := s.Put(name, sh); return err }

func TestDrawnInheritsFromGroupAndLayer(t *testing.T) {
	t.Parallel()
	s := draftingScene(t)
	type got struct {
		Linetype string
		Scale    float64
		Layer    string
		Stroke   Color
		Width    float64
		Plot     bool
		ByLayer  bool
	}
	want := map[string]got{
		// the group's linetype and layer; the layer's colour replaces the default black
		"door": {"dashed", 0.5, "notes", Color{0, 1, 0, 1}, 0, false, false},
		// its own linetype wins over the group's
		"window": {"phantom", 2, "notes", Color{0, 1, 0, 1}, 0, false, false},
		// everything from the layer
		"axis": {"hidden", 0, "hid", Color{0, 0, 1, 1}, 0.5, true, true},
		// its own colour and width win over the layer's
		"red": {"hidden", 0, "hid", Color{1, 0, 0, 1}, 0.25, true, true},
	}
	for name, w := range want {
		e, err := s.Get(name)
		must(t, err)
		d := s.Drawn(e)
		g := got{d.Style.Linetype, d.Style.LinetypeScale, d.Style.Layer, *d.Style.Stroke, d.Style.StrokeWidth, d.Plot, d.ByLayer}
		if diff := cmp.Diff(w, g); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
		}
	}
	e, _ := s.Get("door")
	if diff := cmp.Diff([]float64{3, 1.5}, s.Drawn(e).Dashes()); diff != "" {
		t.Errorf("door's dashes: mismatch (-want +got):\n%s", diff)
	}
}

func TestDraftingJSONRoundTrip(t *testing.T) {
	t.Parallel()
	s := draftingScene(t)
	first, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(first), `"version":3,"layers":[{"name":"hid","color":[0,0,1,1],"linetype":"hidden","lineweight":0.5,"plot":true},{"name":"notes","color":[0,1,0,1],"plot":false}]`) {
		t.Fatalf("version 3 document with the layer table expected, got\n%s", first)
	}
	back, err := ReadJSON(first)
	must(t, err)
	second, err := back.MarshalJSON()
	must(t, err)
	if diff := cmp.Diff(string(first), string(second)); diff != "" {
		t.Fatalf("scene -> JSON -> scene -> JSON changed (-first +second):\n%s", diff)
	}
	for _, e := range s.Walk() {
		b, err := back.Get(e.Name)
		must(t, err)
		if diff := cmp.Diff(s.Drawn(e), back.Drawn(b)); diff != "" {
			t.Errorf("%s: drawn style changed (-want +got):\n%s", e.Name, diff)
		}
	}
	checkWriterMatchesReflect(t, s)
	checkReadersAgree(t, first)
}

// A scene without linetypes or layers keeps the lowest version, and says nothing of colorSet.
func TestDraftingFreeSceneKeepsVersion1(t *testing.T) {
	t.Parallel()
	s := New()
	must(t, putShape(s, "c", Circle{Radius: 1}))
	must(t, s.SetStroke("c", &Color{1, 0, 0, 1}, 1))
	b, err := s.MarshalJSON()
	must(t, err)
	if !strings.Contains(string(b), `"version":1,"entities"`) || strings.Contains(string(b), "colorSet") {
		t.Fatalf("want a version 1 document without colorSet, got\n%s", b)
	}
}

func TestDraftingErrors(t *testing.T) {
	t.Parallel()
	s := New()
	must(t, putShape(s, "c", Circle{Radius: 1}))
	err := s.SetLinetype("c", "dashdot", 1)
	if !errors.Is(err, drafting.ErrBadLinetype) || err.Error() != `unknown linetype "dashdot": use one of continuous, dashed, hidden, center, phantom, dot` {
		t.Errorf("unknown linetype: got %v", err)
	}
	err = s.SetLayer("c", "cut")
	if !errors.Is(err, ErrNoLayer) || err.Error() != `no such layer: "cut"; create it first with createLayer("cut", {...})` {
		t.Errorf("unknown layer: got %v", err)
	}
	for i := range MaxLayers {
		must(t, s.CreateLayer(Layer{Name: "l" + strconv.Itoa(i), Plot: true}))
	}
	err = s.CreateLayer(Layer{Name: "one-more", Plot: true})
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "MaxLayers") {
		t.Errorf("layer %d: got %v, want the MaxLayers limit", MaxLayers+1, err)
	}
	must(t, s.CreateLayer(Layer{Name: "l0", Linetype: "center", Plot: true})) // redefining one is not a new one
	if l, _ := s.Layer("l0"); l.Linetype != "center" {
		t.Errorf("redefined layer: got %+v", l)
	}
}
