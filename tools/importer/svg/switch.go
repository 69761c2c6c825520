package svg

// Conditional processing: a <switch> draws the first of its children whose conditions hold.
// The import runs for no user and on any machine, so it has no user language: no
// systemLanguage holds, which is what librsvg does without one (rsvg-convert in the C locale
// draws a switch's child without systemLanguage), and a child passed over for its language is
// noted, since a reader with a language may draw it. Outside a <switch> the conditions are
// not tested, as librsvg does not test them.

import (
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/scene/geom"
)

// svg11Features are the SVG 1.1 feature strings a requiredFeatures test finds drawn: what the
// import draws. Any other (fonts, animation, scripts, foreign content) fails the test, so
// that a drawing's fallback for it is drawn.
var svg11Features = map[string]bool{}

func init() {
	for _, f := range []string{"SVG", "SVG-static", "CoreAttribute", "Structure", "BasicStructure",
		"ContainerAttribute", "ConditionalProcessing", "Style", "ViewportAttribute", "Shape", "Text",
		"BasicText", "PaintAttribute", "BasicPaintAttribute", "OpacityAttribute", "GraphicsAttribute",
		"BasicGraphicsAttribute", "Clip", "BasicClip", "Hyperlinking", "XlinkAttribute"} {
		svg11Features["http://www.w3.org/TR/SVG11/feature#"+f] = true
	}
}

// switchGroup draws the first child of a <switch> whose conditions hold, as a group.
func (c *converter) switchGroup(e *element, m geom.Affine, st style) ([]*Item, error) {
	for _, ch := range e.children {
		if ch.name == textNode || ch.space != "" && ch.space != "http://www.w3.org/2000/svg" || ignored[ch.name] {
			continue // not a child a switch chooses among: text, metadata, definitions
		}
		if lang, ok := ch.attrs["systemLanguage"]; ok {
			c.skip(e.name, fmt.Sprintf("a child for systemLanguage %q is not drawn: the import has no user language, so only a child without systemLanguage is", clip(strings.TrimSpace(lang))))
			continue
		}
		if !holds(ch) {
			continue
		}
		kids, err := c.element(ch, m, st)
		if err != nil || len(kids) == 0 {
			return nil, err
		}
		return c.made(&Item{Kind: Group, Element: e.name, Line: e.line, ID: label(e), Children: kids})
	}
	return nil, nil
}

// holds tests a child's requiredFeatures and requiredExtensions: every feature one the import
// draws, no extension (the import has none); an empty list holds, as in librsvg.
func holds(e *element) bool {
	for _, f := range strings.Fields(e.attr("requiredFeatures")) {
		if !svg11Features[f] {
			return false
		}
	}
	return len(strings.Fields(e.attr("requiredExtensions"))) == 0
}
