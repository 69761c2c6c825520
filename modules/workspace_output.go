package modules

// Exports an agent asks for are written into the workspace's out/ folder and nowhere else: a
// tool that could name any path would let a client overwrite main, a data file or the
// history, or reach outside the workspace. The name is checked before any filesystem call; the
// file is written by the one writer of output files (output_file.go): a temp file made in out/,
// which is held open from the workspace's root, synced and renamed over the file, so that
// neither a link nor an out/ swapped for one can lead the export elsewhere.

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sync"
)

// OutputDir is the folder of the workspace that exports are written to.
const OutputDir = "out"

// MaxOutputBytes caps one export file.
const MaxOutputBytes = 256 << 20

// ErrBadOutputName is returned for an export name that is not NAME.EXT with a known
// extension.
var ErrBadOutputName = errors.New("bad output name")

// Compiled at first use, as importPart.
var outputName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}\.(svg|png|pdf|dxf|json|stl|3mf|step|glb)$`)
})

// WriteOutput writes data to out/NAME.EXT, atomically and durably, and answers the file's
// path relative to the workspace. name is NAME.EXT (out/NAME.EXT is taken as the same).
func (w *Workspace) WriteOutput(name string, data []byte) (string, error) {
	if len(name) > len(OutputDir)+1 && name[:len(OutputDir)+1] == OutputDir+"/" {
		name = name[len(OutputDir)+1:]
	}
	if !outputName().MatchString(name) {
		return "", fmt.Errorf("%w: %q: give out/NAME.EXT, NAME 1-64 letters, digits, '_' or '-' starting with a letter or digit, EXT svg, png, pdf, dxf, json, stl, 3mf, step or glb (exports go to the workspace's out/ folder only)", ErrBadOutputName, name)
	}
	p := OutputDir + "/" + name
	if len(data) > MaxOutputBytes {
		return "", fmt.Errorf("writing %s: %w: %d bytes is over %d (MaxOutputBytes); export a part of the scene, or a smaller picture", p, ErrTooLarge, len(data), MaxOutputBytes)
	}
	if err := w.checkOutputDir(); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	mode, _, err := w.targetMode(p)
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	place, err := w.holdOutputDir()
	if err != nil {
		return "", writeError(p, err)
	}
	defer place.Close()
	if err := place.Replace(name, data, mode, true); err != nil {
		return "", writeError(p, err)
	}
	return p, nil
}

// checkOutputDir refuses an out/ that is not a folder of the workspace itself: through a
// link (out -> data, as a cloned repository can ship it) an export would replace a data file
// or a module, outside any write transaction and its history. os.Root keeps such a link
// inside the workspace, but does not refuse it. A missing out/ is made by the write.
func (w *Workspace) checkOutputDir() error {
	st, err := w.root.Lstat(OutputDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%w: %s is a symbolic link; exports go to a real %s/ folder of the workspace: remove the link (cadrun makes the folder)", ErrNotRegular, OutputDir, OutputDir)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is %s, not a folder; exports go to the workspace's %s/ folder: move it away", ErrNotRegular, OutputDir, KindOf(st.Mode()), OutputDir)
	}
	return nil
}
