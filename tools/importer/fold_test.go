package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// foldModule has runs to fold (circles along a row, lines of a grid, their colours alike, a
// group listing them)
// and lines that must stay as they are: a run too short, serials that skip, calls that differ
// in a string, and a string holding numbers.
const foldModule = `// layer holes
drawCircle('holes-circle1', 0, 0, 2);
drawCircle('holes-circle2', 10, 0, 2);
drawCircle('holes-circle3', 20, -1.5e-3, 2);
drawCircle('holes-circle4', 30, 0, 2);
drawCircle('holes-circle5', 40, 0, 2);
createGroup('holes', ['holes-circle1', 'holes-circle2', 'holes-circle3', 'holes-circle4', 'holes-circle5']);
drawLine('grid-line1', [0, 0, 0, 5]);
drawLine('grid-line2', [1, 0, 1, 5]);
drawLine('grid-line3', [2, 0, 2, 5]);
drawLine('grid-line4', [3, 0, 3, 5]);
setStroke('grid-line1', [1, 0, 0, 1]);
setStroke('grid-line2', [1, 0, 0, 1]);
setStroke('grid-line3', [1, 0, 0, 1]);
setStroke('grid-line4', [1, 0, 0, 1]);
drawLine('short-line1', [0, 9, 1, 9]);
drawLine('short-line2', [0, 8, 1, 8]);
drawLine('skip-line1', [0, 7, 1, 7]);
drawLine('skip-line3', [0, 6, 1, 6]);
drawLine('skip-line4', [0, 5, 1, 5]);
drawLine('skip-line5', [0, 4, 1, 4]);
drawText('t-text1', 'A1', 0, 20, 3);
drawText('t-text2', 'A2', 0, 25, 3);
drawText('t-text3', 'A3', 0, 30, 3);
drawText('t-text4', 'A4', 0, 35, 3);
drawBezier('p-path1', 'M 0 0 L 1 1');
drawBezier('p-path2', 'M 0 0 L 2 2');
drawBezier('p-path3', 'M 0 0 L 3 3');
drawBezier('p-path4', 'M 0 0 L 4 4');
createGroup('all', ['grid-line1', 'grid-line2', 'grid-line3', 'grid-line4', 'short-line1']);
`

// TestFoldRuns folds the module's runs into loops and its group lists into names(), and the
// folded module draws the same scene, to the byte of its JSON.
func TestFoldRuns(t *testing.T) {
	t.Parallel()
	folded := foldRuns(foldModule)
	for _, want := range []string{
		"for (const [i, cx, cy] of [\n  [1, 0, 0],\n  [2, 10, 0],\n  [3, 20, -1.5e-3],",
		"]) drawCircle(`holes-circle${i}`, cx, cy, 2);",
		"createGroup('holes', names('holes-circle', 1, 5));",
		"for (const [i, x1, x2] of [",
		"]) drawLine(`grid-line${i}`, [x1, 0, x2, 5]);",
		"\nfor (let i = 1; i <= 4; i++) setStroke(`grid-line${i}`, [1, 0, 0, 1]);\n",
		"createGroup('all', [...names('grid-line', 1, 4), 'short-line1']);",
		"drawLine('short-line1', [0, 9, 1, 9]);",
		"drawLine('skip-line1', [0, 7, 1, 7]);\ndrawLine('skip-line3', [0, 6, 1, 6]);",
		"drawText('t-text4', 'A4', 0, 35, 3);",
		"drawBezier('p-path4', 'M 0 0 L 4 4');",
		"function names(prefix, from, to) {",
	} {
		if !strings.Contains(folded, want) {
			t.Errorf("the folded module lacks %q:\n%s", want, folded)
		}
	}
	if n := strings.Count(folded, "\ndrawCircle("); n != 0 {
		t.Errorf("%d drawCircle calls are left unfolded:\n%s", n, folded)
	}
	scene := func(code string) string {
		t.Helper()
		res, err := runtime.Run(context.Background(), runtime.MapSource{runtime.MainModule: code}, runtime.MainModule, runtime.Options{})
		if err != nil {
			t.Fatalf("%v\n%s", err, code)
		}
		b, err := res.Scene.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := scene(foldModule), scene(folded); a != b {
		t.Errorf("the folded module draws another scene:\n%s\nwant\n%s", b, a)
	}
	if again := foldRuns(folded); again != folded {
		t.Errorf("folding the folded module changed it:\n%s", again)
	}
}

// readableDXF has what a module once wrote as no person would: a row of lines (their
// numbers named points0..points3), a line given the default colour (a setStroke to black),
// an MTEXT whose baseline is worked out (0.7063999999999999), a fillet whose radius is
// worked out from a bulge of 8 digits (6.00000000382), and no block (yet the place, unique
// and names helpers were written).
const readableDXF = "0\nSECTION\n2\nENTITIES\n" +
	"0\nLINE\n8\ngrid\n10\n0\n20\n0\n11\n0\n21\n5\n" +
	"0\nLINE\n8\ngrid\n10\n1\n20\n0\n11\n1\n21\n5\n" +
	"0\nLINE\n8\ngrid\n10\n2\n20\n0\n11\n2\n21\n5\n" +
	"0\nLINE\n8\ngrid\n10\n3.5\n20\n0\n11\n3.5\n21\n5\n" +
	"0\nLINE\n8\ngrid\n62\n7\n10\n0\n20\n6\n11\n3.5\n21\n6\n" +
	"0\nMTEXT\n8\nnotes\n10\n0\n20\n3.2064\n40\n2.5\n1\nGRID\n" +
	"0\nARC\n8\nnotes\n10\n0\n20\n0\n40\n8\n50\n0\n51\n90\n" +
	"0\nLWPOLYLINE\n8\nnotes\n90\n2\n10\n24\n20\n-14\n42\n0.41421356\n10\n30\n20\n-8\n" +
	"0\nENDSEC\n0\nEOF\n"

// TestModuleReadsAsWritten: the whole module of a small drawing, as a person would write it:
// one export and nothing else at the top, the helpers it calls and no others, tuples named
// after what they are, no call that sets what is already so, numbers at the file's precision.
func TestModuleReadsAsWritten(t *testing.T) {
	t.Parallel()
	code, _, err := DXF([]byte(readableDXF), Options{Source: "grid.dxf", Prefix: "grid"})
	if err != nil {
		t.Fatal(err)
	}
	want := `// Imported from grid.dxf by ` + "`cadrun import`" + `. Units: unitless.
// Coordinates are the file's own numbers; angles are the file's degrees times deg.
// From main: import {grid} from 'grid'; grid();
// grid draws the drawing, every name starting grid-, and returns the names it drew at the top level.

export function grid() {
  const deg = Math.PI / 180;

  createLayer('grid');
  createLayer('notes');

  // layer grid
  for (const [i, x1, y1, x2, y2] of [
    [1, 0, 0, 0, 5],
    [2, 1, 0, 1, 5],
    [3, 2, 0, 2, 5],
    [4, 3.5, 0, 3.5, 5],
    [5, 0, 6, 3.5, 6],
  ]) drawLine(` + "`grid-grid-line${i}`" + `, [x1, y1, x2, y2]);
  const layerGrid = names('grid-grid-line', 1, 5);
  for (const name of layerGrid) setLayer(name, 'grid');

  // layer notes
  drawText('grid-notes-mtext1', 'GRID', 0, 0.7064, 2.5);
  drawArc('grid-notes-arc1', 0, 0, 8, 0, 90 * deg);
  drawBezier('grid-notes-lwpolyline1', 'M 24 -14 A 6 6 0 0 1 30 -8');
  const layerNotes = ['grid-notes-mtext1', 'grid-notes-arc1', 'grid-notes-lwpolyline1'];
  for (const name of layerNotes) setLayer(name, 'notes');

  return [...layerGrid, ...layerNotes];

  // names lists the names prefix + from, ..., prefix + to.
  function names(prefix, from, to) {
    return Array.from({length: to - from + 1}, (_, k) => prefix + (from + k));
  }
}
`
	if diff := cmp.Diff(want, code); diff != "" {
		t.Errorf("module mismatch (-want +got):\n%s", diff)
	}
	if _, err := runModule(code); err != nil {
		t.Errorf("the module does not run: %v", err)
	}
}
