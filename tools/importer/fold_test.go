package importer

import (
	"context"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/runtime"
)

// foldModule has runs to fold (circles along a row, lines of a grid, a group listing them)
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
		"for (const [i, points0, points2] of [",
		"]) drawLine(`grid-line${i}`, [points0, 0, points2, 5]);",
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
