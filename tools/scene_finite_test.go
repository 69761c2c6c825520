package tools

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/modules"
)

// A write whose numbers overflow (each finite, their product not) is refused like any failed
// run: the file is unchanged and the scene stays. It used to land and break every view.
func TestOverflowIsNotApplied(t *testing.T) {
	s, dir := newSession(t, map[string]string{"scene.code.js": "drawCircle('c', 0, 0, 1)\n"})
	if _, err := call[ReadOut](t, s, "read", ReadIn{File: "main"}); err != nil {
		t.Fatal(err)
	}
	_, err := call[*ChangeResult](t, s, "write", WriteIn{File: "main", Code: "drawCircle('c',0,0,1e15); scale('c',1e300)\n"})
	want := "scene.code.js:1:27: RangeError: scale: a number overflowed: the world bounds of \"c\" are [-Inf, -Inf]..[+Inf, +Inf]\n" +
		"    1 | drawCircle('c',0,0,1e15); scale('c',1e300)\n" +
		"                                  ^\n" +
		"hint: numbers beyond about 1.8e308 overflow to Infinity; keep coordinates, sizes and scale factors small enough that their products and sums stay finite\n" +
		"not applied; the file is unchanged"
	if err == nil {
		t.Fatal("the write landed")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got := fileBytes(t, dir, "scene.code.js"); got != "drawCircle('c', 0, 0, 1)\n" {
		t.Errorf("main changed: %q", got)
	}
	out, err := call[SceneOut](t, s, "scene", SceneIn{Command: "info"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"entities":1,"shapes":1,"groups":0,"bounds":{"min":[-1,-1],"max":[1,1]},"top":["c"],"top_count":1}`, string(out.Info.(json.RawMessage))); diff != "" {
		t.Errorf("info mismatch (-want +got):\n%s", diff)
	}
}

// A scene.json whose finite numbers overflow together (written before runs were checked) is
// not loaded: the server starts from an empty scene, and every view answers.
func TestOverflowingSavedSceneIsNotLoaded(t *testing.T) {
	doc := `{"format":"cadrun-scene","version":1,"entities":[
{"name":"c","kind":"circle","geometry":{"center":[0,0],"radius":1e300},"transform":{"translate":[0,0],"rotate":0,"scale":[1e300,1e300],"pivot":[0,0]},"style":{"fill":null,"stroke":[0,0,0,1],"strokeWidth":0}}
]}`
	s, _ := newSession(t, map[string]string{modules.SceneFile: doc})
	for _, cmd := range []string{"info", "tree", "groups", "draw_order", "svg", "json", "png"} {
		if _, err := call[SceneOut](t, s, "scene", SceneIn{Command: cmd}); err != nil {
			t.Errorf("scene %s: %v", cmd, err)
		}
	}
	if n := s.srv.Scene().Len(); n != 0 {
		t.Errorf("the scene has %d entities, want the empty scene", n)
	}
}
