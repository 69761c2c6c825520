// Package text turns text into outlines: it lays a string out in a font (Layout: the glyph
// outlines as a geom.Path, with the width, ascent, descent and lines in scene units), and
// holds the fonts it may use: the embedded ones by name (FontNames), a workspace's font files
// (LoadFont) and the machine's own as a last resort for a character (SystemFallback).
//
// Start with LayoutString, or MeasureString for the metrics alone; a text shape of package
// scene lays itself out with LayoutIn, in its workspace font and fallback fonts.
//
// text knows no scene: it imports geom for the outlines and golang.org/x/image for the
// fonts, and scene imports it.
package text
