// Package testfonts holds the fonts the tests of scene and scene/text draw with that are not
// embedded: a Korean font from the machine (Korean) and fonts of huge letters built for the
// test (Spiky). Start with the function that returns the bytes a test loads.
package testfonts

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// KoreanPath is a Korean font from Debian's fonts-nanum (listed in .ci/debian-packages).
const KoreanPath = "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"

// Korean reads the Korean test font; without it the test is skipped, or fails when the test
// setup promised every tool (CADRUN_REQUIRE_TOOLS=1, as make test sets).
func Korean(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(KoreanPath)
	if err != nil {
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%v: install fonts-nanum (.ci/deps does)", err)
		}
		t.Skipf("%v: install fonts-nanum (.ci/deps does)", err)
	}
	return b
}

// spikyScript writes, with fontTools, a font whose letters a to z are each one contour of
// argv[3] points (a zigzag), argv[2] distinct glyphs among them (the letters share them in
// turn): 26 KB of font for 11,000-point letters.
const spikyScript = `
import sys
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
out, glyphs, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = [".notdef", "space"] + ["g%d" % i for i in range(glyphs)]
fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder(names)
cmap = {ord(c): "g%d" % (i % glyphs) for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")}
cmap[32] = "space"
fb.setupCharacterMap(cmap)
pen = TTGlyphPen(None); pen.moveTo((0, 0)); pen.lineTo((0, 1)); pen.lineTo((1, 1)); pen.closePath()
shapes = {".notdef": pen.glyph(), "space": TTGlyphPen(None).glyph()}
for g in range(glyphs):
    pen = TTGlyphPen(None); pen.moveTo((0, 0))
    for i in range(1, n):
        pen.lineTo((int(i * 900 / n), (i % 2) * (700 - g)))
    pen.closePath(); shapes["g%d" % g] = pen.glyph()
fb.setupGlyf(shapes)
fb.setupHorizontalMetrics({g: (1000, 0) for g in names})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": "Spiky", "styleName": "Regular"}); fb.setupOS2(); fb.setupPost()
fb.save(out)
`

// Spiky builds a font of glyphs distinct letter shapes, each a contour of points points, with
// fontTools (Debian's python3-fonttools, listed in .ci/debian-packages); without it the test
// is skipped, or fails when CADRUN_REQUIRE_TOOLS=1 promised every tool.
func Spiky(t *testing.T, glyphs, points int) []byte {
	t.Helper()
	py := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} { // the system's first: Debian's package
		if exec.Command(p, "-c", "import fontTools").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		const why = "python3 with fontTools is not installed (Debian package python3-fonttools; .ci/deps installs it)"
		if os.Getenv("CADRUN_REQUIRE_TOOLS") == "1" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	path := filepath.Join(t.TempDir(), "spiky.ttf")
	if out, err := exec.Command(py, "-c", spikyScript, path, fmt.Sprint(glyphs), fmt.Sprint(points)).CombinedOutput(); err != nil {
		t.Fatalf("building the font: %v\n%s", err, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
