package cadruntest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// sceneJSON runs a script in process and returns its scene.json.
func sceneJSON(t *testing.T, js string) []byte {
	t.Helper()
	res, err := runtime.Run(context.Background(), runtime.MapSource{runtime.MainModule: js}, runtime.MainModule, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := res.Scene.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const diffBase = `drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 10, 0, 3)
drawLine('edge', [0, -15, 40, -15])
createGroup('part', ['hole'])
`

func TestDiffScenes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, js string
		want     []string
	}{
		{"same", diffBase, nil},
		{"rounding noise passes", diffBase + "translate('plate', 1e-9, 0)", nil},
		{"added and removed", `drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 10, 0, 3)
createGroup('part', ['hole'])
drawCircle('pin', -10, 0, 1)`, []string{`added circle "pin" at (-10, 0)`, `removed line "edge" from (20, -15)`}},
		{"moved", diffBase + "translate('plate', 3, 4)", []string{`moved rect "plate" by 5 from (0, 0) to (3, 4)`}},
		{"moved group member", diffBase + "translate('part', 0, -2.5)", []string{
			`moved group "part" by 2.5 from (10, 0) to (10, -2.5)`}}, // its member's own data is unchanged
		{"members moved with their group are told once", diffBase + "translate('part', 2, 0)", []string{`moved group "part" by 2 from (10, 0) to (12, 0)`}},
		{"a member moved inside its group is told", `drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 12, 0, 3)
drawLine('edge', [0, -15, 40, -15])
createGroup('part', ['hole'])`, []string{`moved circle "hole" by 2 from (10, 0) to (12, 0)`}},
		{"resized", `drawRect('plate', 0, 0, 50, 20)
drawCircle('hole', 10, 0, 3)
drawLine('edge', [0, -15, 40, -15])
createGroup('part', ['hole'])`, []string{`resized rect "plate" from 40×20 to 50×20`}},
		{"reshaped in place", `drawRect('plate', 0, 0, 40, 20)
drawCircle('hole', 10, 0, 3)
drawLine('edge', [40, -15, 0, -15])
createGroup('part', ['hole'])`, []string{`reshaped line "edge": geometry.points[0] [0,-15] -> [40,-15]`}},
		{"restyled", diffBase + "setFill('plate', [1, 0, 0, 1])", []string{`restyled rect "plate": fill null -> [1,0,0,1]`}},
		{"changed kind", `drawCircle('plate', 0, 0, 20)
drawCircle('hole', 10, 0, 3)
drawLine('edge', [0, -15, 40, -15])
createGroup('part', ['hole'])`, []string{`changed "plate" from rect to circle`}},
		{"reordered", diffBase + "drawOrder('plate', 'front')", []string{`draw order changed: back to front it was "plate", "edge", "part", "hole", now "edge", "part", "hole", "plate"`}},
	}
	old := sceneJSON(t, diffBase)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DiffScenes(old, sceneJSON(t, tt.js), 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiffScenesBadSnapshot(t *testing.T) {
	t.Parallel()
	_, err := DiffScenes([]byte(`{"format":"cadrun-scene","version":9,"entities":[]}`), sceneJSON(t, diffBase), 0)
	if err == nil {
		t.Fatal("no error for a snapshot of another version")
	}
}
