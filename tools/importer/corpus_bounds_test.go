package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene"
)

// TestLibreCADCorpusBounds imports every DXF file of LibreCAD's parts library and holds each
// imported file's world bounds to ezdxf's box of the same file (testdata/dxfbounds.py, one
// python process for the whole corpus, reading while the importer works) within 1e-6 of the
// size. Both sides count the same entities: the kinds the import drew, less what it skipped
// (the script applies the importer's rules for skipping), and no texts, whose extents depend
// on the font. It logs the counts by outcome: match, mismatch (by why), refused.
func TestLibreCADCorpusBounds(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the corpus takes seconds")
	}
	files := corpusFiles(t)
	ref := startReferee(t)
	imported := map[string]*scene.Scene{}
	outcomes := map[string]int{}
	for _, f := range files {
		s, rep, err := importCorpusFile(f)
		if err != nil {
			outcomes["refused: "+err.Error()]++
			continue
		}
		imported[f] = s
		ref.send(f, importedKinds(rep))
	}
	got := ref.results(t)
	for _, f := range files {
		s, ok := imported[f]
		if !ok {
			continue
		}
		why := boundsMismatch(s, got[f])
		if why == "" {
			outcomes["match"]++
			continue
		}
		outcomes["mismatch: "+why]++
		t.Errorf("%s: %s", f, why)
	}
	lines := make([]string, 0, len(outcomes))
	for _, k := range slices.Sorted(maps.Keys(outcomes)) {
		lines = append(lines, fmt.Sprintf("%s: %d", k, outcomes[k]))
	}
	t.Logf("bounds of %d files against ezdxf's:\n%s", len(files), strings.Join(lines, "\n"))
}

// corpusFiles lists the DXF files of LibreCAD's parts library, or skips the test when it is
// not installed.
func corpusFiles(t *testing.T) []string {
	t.Helper()
	if _, err := os.Stat(librecadLibrary); err != nil {
		needTool(t, "LibreCAD's parts library (Debian package librecad-data)")
	}
	var files []string
	_ = filepath.WalkDir(librecadLibrary, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".dxf") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no DXF files in the library")
	}
	return files
}

// importCorpusFile imports a file and runs the module; the error is the outcome's class.
func importCorpusFile(f string) (*scene.Scene, *Report, error) {
	data, err := os.ReadFile(f)
	if err != nil {
		return nil, nil, err
	}
	code, rep, err := Import("dxf", data, Options{Source: filepath.Base(f)})
	if err != nil {
		return nil, nil, refusal(err)
	}
	s, err := runModule(code)
	if err != nil {
		return nil, nil, fmt.Errorf("the imported module fails: %w", err)
	}
	return s, rep, nil
}

// refusal is the class of an import's refusal (its message without the file's particulars).
func refusal(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "MaxSourceBytes"):
		return errors.New("the module would be over the limit on a script (MaxSourceBytes)")
	case strings.Contains(msg, "MaxDrawnEntities"):
		return errors.New("over MaxDrawnEntities once its blocks are expanded")
	case strings.Contains(msg, "inserts itself"):
		return errors.New("a block inserts itself")
	}
	return err
}

// boundsMismatch says why the imported scene's bounds (texts left out) differ from the
// referee's box, or "" when they agree within 1e-6 of the size.
func boundsMismatch(s *scene.Scene, ref refereeResult) string {
	if ref.Error != "" {
		return "ezdxf cannot read the file: " + ref.Error
	}
	ours, theirs := geometryBounds(s), asBox(ref.Box)
	size := math.Max(boxSize(ours), boxSize(theirs))
	if d := boxOffEmpty(ours, theirs); d > 1e-6*size {
		return fmt.Sprintf("bounds %v, ezdxf's %v (off by %.3g of the size)", ours, theirs, d/size)
	}
	return ""
}
