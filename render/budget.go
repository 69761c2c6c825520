package render

// Every writer draws a scene under the same budgets, checked before anything is drawn, so that
// a scene the sandbox would refuse (a shape scaled up after its linetype or hatch was set, a
// scene.json written by hand) is refused the same way in SVG, PNG, PDF and DXF, naming the
// limit, rather than drawn at whatever it costs in the process that draws it.

import "github.com/cadrun/cadrun/scene"

// budgeted checks the scene's dashes against scene.MaxDashSegments and returns its hatches,
// which scene.MaxHatchSegments bounds.
func budgeted(s *scene.Scene) (map[*scene.Entity]scene.Hatching, error) {
	if err := s.CheckDashes(); err != nil {
		return nil, err
	}
	return s.Hatches()
}
