package modules

// Files the commands write outside the workspace's own bookkeeping (`cadrun run -o`, `cadrun
// watch -out`) may be anywhere the user says, even inside the workspace (out/scene.svg), but
// never where the workspace keeps its files: modules/, data/ (an output there would overwrite
// a data file, or become one) and .cadrun/ (the history, the journal). One rule for every such
// output, checked when the command starts and again at every write, on the file the write
// would really replace (a link followed), so that a link swapped in after the start cannot
// turn an output into the history log.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckOutputPlace refuses an output file out (given to the command line as flag, "-o" or
// "-out") that is, or through links leads, into workspace ws's modules/, data/ or .cadrun/.
// Paths are compared after symbolic links. A workspace that cannot be resolved is left to
// the command to report.
func CheckOutputPlace(ws, flag, out string) error {
	root, err := filepath.Abs(ws)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil
	}
	target, err := filepath.Abs(out)
	if err != nil {
		return nil
	}
	// The file written: out, or what it links to (outputs are written through a link).
	if t, err := filepath.EvalSymlinks(target); err == nil {
		target = t
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(target)); err == nil {
		target = filepath.Join(dir, filepath.Base(target))
	}
	rel, err := filepath.Rel(root, target)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	switch first {
	case modulesDir, dataDir, ".cadrun":
		shown := fmt.Sprintf("%s %q", flag, out)
		if st, err := os.Lstat(out); err == nil && st.Mode()&os.ModeSymlink != 0 {
			shown += fmt.Sprintf(" (a link to %s)", target)
		}
		return fmt.Errorf("%s is in the workspace's %s/, where it would overwrite or become a workspace file; write it outside modules/, data/ and .cadrun/ (for example out/%s)",
			shown, first, filepath.Base(out))
	}
	return nil
}
