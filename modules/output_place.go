package modules

// Files the commands write outside the workspace's own bookkeeping (`cadrun run -o`, `cadrun
// watch -out`) may be anywhere the user says, even inside the workspace (out/scene.svg), but
// never where the workspace keeps its files: modules/, data/ (an output there would overwrite
// a data file, or become one) and .cadrun/ (the history, the journal). One rule for every such
// output, checked when the command starts and again at every write, on the file the write
// would really replace (a link followed), so that a link swapped in after the start cannot
// turn an output into the history log.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CheckOutputPlace refuses an output file out (given to the command line as flag, "-o" or
// "-out") that is, or through links leads, into workspace ws's modules/, data/ or .cadrun/.
// Paths are compared after symbolic links. A workspace that cannot be resolved is left to
// the command to report.
func CheckOutputPlace(ws, flag, out string) error {
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
	return judgeOutputPlace(ws, flag, out, target)
}

// judgeOutputPlace is CheckOutputPlace's rule for the file target (a path with no link in it)
// that writing out writes.
func judgeOutputPlace(ws, flag, out, target string) error {
	root, err := filepath.Abs(ws)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil
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

// HoldOutput holds the folder that writing the output file out writes into, for the one
// writer of output files (Place): out's own folder, or, when out is a symbolic link, the folder
// of the file it leads to, which is written through the link. name is the file's name in that
// folder. With ws given, the place is judged as CheckOutputPlace judges it, on the held folder's
// path (checked against the descriptor), so that a link swapped in since an earlier check
// cannot turn the output into a workspace file.
func HoldOutput(ws, flag, out string) (p *Place, name string, err error) {
	target := out
	if st, err := os.Lstat(out); err == nil && st.Mode()&os.ModeSymlink != 0 {
		target, err = filepath.EvalSymlinks(out)
		if errors.Is(err, fs.ErrNotExist) {
			// A link to a file yet to be made: the write makes it, where the link says.
			target, err = os.Readlink(out)
			if err == nil && !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(out), target)
			}
		}
		if err != nil {
			return nil, "", err
		}
	}
	p, err = HoldFolder(filepath.Dir(target))
	if err != nil {
		return nil, "", err
	}
	name = filepath.Base(target)
	if ws != "" {
		if err := judgeOutputPlace(ws, flag, out, filepath.Join(p.Real(), name)); err != nil {
			p.Close()
			return nil, "", err
		}
	}
	return p, name, nil
}
