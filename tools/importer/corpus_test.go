package importer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/importer/dxf"
)

// librecadLibrary is where Debian's librecad-data puts LibreCAD's parts library.
const librecadLibrary = "/usr/share/librecad/library"

// TestLibreCADCorpus imports every DXF file of LibreCAD's parts library, a corpus nobody here
// wrote, and runs each module: every file imports and runs, or is refused with a reason;
// none crashes or hangs. It logs the counts by outcome.
func TestLibreCADCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes seconds")
	}
	if _, err := os.Stat(librecadLibrary); err != nil {
		needTool(t, "LibreCAD's parts library (Debian package librecad-data)")
	}
	var files []string
	filepath.WalkDir(librecadLibrary, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".dxf") {
			files = append(files, p)
		}
		return nil
	})
	outcomes := map[string]int{}
	skipped := map[string]int{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code, rep, err := DXF(b, Options{Source: filepath.Base(f)})
		switch {
		case errors.Is(err, dxf.ErrBinary):
			outcomes["refused: binary"]++
			continue
		case errors.Is(err, dxf.ErrSyntax):
			outcomes["refused: malformed"]++
			t.Logf("%s: %v", f, err)
			continue
		case errors.Is(err, dxf.ErrLimit), errors.Is(err, ErrRefused):
			outcomes["refused: limit or recursion"]++
			t.Logf("%s: %v", f, err)
			continue
		case err != nil:
			t.Errorf("%s: an error without a reason: %v", f, err)
			continue
		}
		for k, n := range rep.Skipped {
			skipped[k] += n
		}
		if _, err := runtime.Run(context.Background(), importedSource(code), runtime.MainModule, runtime.Options{}); err != nil {
			t.Errorf("%s: the imported module fails: %v", f, err)
			outcomes["module fails"]++
			continue
		}
		outcomes["imported"]++
	}
	if len(files) == 0 {
		t.Fatal("no DXF files in the library")
	}
	var lines []string
	for k, n := range outcomes {
		lines = append(lines, k+": "+itoa(n))
	}
	for k, n := range skipped {
		lines = append(lines, "  entities skipped, "+k+": "+itoa(n))
	}
	slices.Sort(lines)
	t.Logf("%d files:\n%s", len(files), strings.Join(lines, "\n"))
}

func itoa(n int) string { return strconv.Itoa(n) }
