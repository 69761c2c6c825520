package render

import (
	"bytes"
	"testing"

	"github.com/cadrun/cadrun/examples"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
)

// TestExportBesideLint pins that writing a scene out only reads it, as the lint does, so that
// a worker may write a run's file while it lints the scene (runtime's exportToFile): every
// plane format written beside a lint is the bytes written alone, and the race detector (make
// check runs the tests with -race) sees the two share the scene without a race.
func TestExportBesideLint(t *testing.T) {
	t.Parallel()
	for _, sc := range []struct {
		name string
		make func() (*scene.Scene, error)
	}{
		{"kinds", examples.KindsScene},
		{"drafting", examples.DraftingScene},
		{"curves", examples.CurvesScene},
	} {
		s, err := sc.make()
		if err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".svg", ".dxf", ".pdf", ".png", ".json"} {
			req := []byte(`{"Ext":"` + ext + `"}`)
			var alone, beside bytes.Buffer
			if _, err := Export(&alone, s, req); err != nil {
				t.Fatalf("%s%s: %v", sc.name, ext, err)
			}
			linted := make(chan []lint.Finding, 1)
			go func() { linted <- lint.Check(s, lint.Options{}) }()
			_, err := Export(&beside, s, req)
			<-linted
			if err != nil {
				t.Fatalf("%s%s beside the lint: %v", sc.name, ext, err)
			}
			if !bytes.Equal(alone.Bytes(), beside.Bytes()) {
				t.Errorf("%s%s: written beside the lint, %d bytes differ from the %d written alone", sc.name, ext, beside.Len(), alone.Len())
			}
		}
	}
}
