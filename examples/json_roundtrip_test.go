package examples_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/text"
	"github.com/google/go-cmp/cmp"
)

// TestSceneJSONRoundTrip: every example's scene, as kept (expected.json and the snapshot's
// scene.json), reads back and writes again to the same bytes: the scene JSON's reader and
// writer agree on every field the examples use, whatever drives them.
func TestSceneJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, dir := range examples(t) {
		for _, name := range []string{"expected.json", filepath.Join("__snapshots__", "scene.json")} {
			p := filepath.Join(dir, name)
			want, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scene.ReadJSONWithFonts(want, workspaceFonts(t, dir))
			if err != nil {
				t.Errorf("reading %s: %v", p, err)
				continue
			}
			got, err := s.MarshalJSON()
			if err != nil {
				t.Errorf("writing %s again: %v", p, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s written again differs (-kept +written):\n%s", p, cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
			}
		}
	}
}

// workspaceFonts loads the fonts in dir's fonts/ folder, by name.
func workspaceFonts(t *testing.T, dir string) map[string]*text.Font {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "fonts", "*.ttf"))
	fonts := map[string]*text.Font{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".ttf")
		if fonts[name], err = text.LoadFont(name, data); err != nil {
			t.Fatal(err)
		}
	}
	return fonts
}
