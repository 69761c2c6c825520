package svg

import (
	"slices"
	"testing"
)

// TestSwitch: a <switch> draws its first child whose conditions hold, as SVG does, not every
// child. The import has no user language, so no systemLanguage holds (librsvg's choice
// without one: rsvg-convert in the C locale draws the child without conditions), and passing
// a child over for its language is noted; a feature or extension cadrun does not draw (foreign
// content) fails its test, so a drawing's fallback is drawn.
func TestSwitch(t *testing.T) {
	t.Parallel()
	blue, green := Color{0, 0, 1, 1}, Color{0, 128.0 / 255, 0, 1}
	for _, c := range []struct {
		name, body string
		want       []Color
		notes      []string
	}{
		{"language", `<rect systemLanguage="de" fill="red" width="1" height="1"/><rect systemLanguage="en" fill="red" width="1" height="1"/><rect fill="blue" width="1" height="1"/>`,
			[]Color{blue}, []string{
				`switch: a child for systemLanguage "de" is not drawn: the import has no user language, so only a child without systemLanguage is`,
				`switch: a child for systemLanguage "en" is not drawn: the import has no user language, so only a child without systemLanguage is`,
			}},
		{"first that holds", `<title>t</title><rect requiredExtensions="" fill="blue" width="1" height="1"/><rect fill="red" width="1" height="1"/>`,
			[]Color{blue}, nil},
		{"features", `<foreignObject requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility" width="1" height="1"/>
			<rect requiredExtensions="http://example.com/x" fill="red" width="1" height="1"/>
			<rect requiredFeatures="http://www.w3.org/TR/SVG11/feature#Font" fill="red" width="1" height="1"/>
			<g requiredFeatures="http://www.w3.org/TR/SVG11/feature#Shape http://www.w3.org/TR/SVG11/feature#BasicText"><rect fill="green" width="1" height="1"/></g><rect fill="red" width="1" height="1"/>`,
			[]Color{green}, nil},
		{"none holds", `<rect systemLanguage="fr" fill="red" width="1" height="1"/>`,
			nil, []string{`switch: a child for systemLanguage "fr" is not drawn: the import has no user language, so only a child without systemLanguage is`}},
	} {
		d, err := Read([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><switch>`+c.body+`</switch></svg>`), Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []Color
		var walk func([]*Item)
		walk = func(items []*Item) {
			for _, it := range items {
				if it.Kind == Shape && it.Fill != nil {
					got = append(got, *it.Fill)
				}
				walk(it.Children)
			}
		}
		walk(d.Items)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: drew %v, want %v", c.name, got, c.want)
		}
		var notes []string
		for k := range d.Skipped {
			notes = append(notes, k)
		}
		slices.Sort(notes)
		if !slices.Equal(notes, c.notes) {
			t.Errorf("%s: noted %q, want %q", c.name, notes, c.notes)
		}
	}
}
