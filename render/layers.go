package render

// Export by layer: one scene holds the cut lines, the engraving and the dimensions of a part,
// and each file takes what it is for (the laser's DXF the cut layer, the shop's PDF every
// layer). The selection is made before any writer sees the scene (every caller of a
// Format's Render selects first), so every format keeps the same shapes, each writer stays as
// it is, and what a file leaves out is said of what was selected.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// ParseLayers reads -layers: layer names separated by commas, spaces around them ignored.
func ParseLayers(s string) ([]string, error) {
	var out []string
	for n := range strings.SplitSeq(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			return nil, fmt.Errorf("%w: layers %q holds an empty name; give layer names separated by commas", ErrExportOption, s)
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// SelectLayers is s with only the shapes on the named layers, each as Scene.Drawn resolves
// it (a shape on no layer of its own is on its group's), and the groups that hold them; s
// itself when layers is empty. A shape on no layer is on none of them. A name that is not a
// layer of s is refused naming the layers s has.
func SelectLayers(s *scene.Scene, layers []string) (*scene.Scene, error) {
	if len(layers) == 0 {
		return s, nil
	}
	for _, l := range layers {
		if _, ok := s.Layer(l); !ok {
			return nil, fmt.Errorf("%w: layer %q is not in the scene; %s", ErrExportOption, l, layerList(s))
		}
	}
	return s.Subset(func(e *scene.Entity) bool {
		return !e.IsGroup() && slices.Contains(layers, s.Drawn(e).Style.Layer)
	}), nil
}

// layerList names the scene's layers for an error.
func layerList(s *scene.Scene) string {
	ls := s.Layers()
	if len(ls) == 0 {
		return "the scene has no layers: createLayer makes one and setLayer puts shapes on it"
	}
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name
	}
	return "its layers are " + strings.Join(names, ", ")
}
