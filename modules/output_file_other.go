//go:build !linux

package modules

import (
	"os"
	"path/filepath"
)

// holdPath opens the folder real; outside Linux the check is by its path: it must still be
// that folder, and not a link, when the write began and just before the rename.
func holdPath(real string) (*Place, error) {
	d, err := os.Open(real)
	if err != nil {
		return nil, err
	}
	p := &Place{dir: d, shown: real, real: real}
	p.still = func() error {
		held, err := d.Stat()
		if err != nil {
			return err
		}
		now, err := os.Lstat(real)
		if err != nil || !os.SameFile(held, now) {
			return p.changed()
		}
		return nil
	}
	if err := p.still(); err != nil {
		d.Close()
		return nil, err
	}
	return p, nil
}

// holdOutputDir holds the workspace's out/, made if missing.
func (w *Workspace) holdOutputDir() (*Place, error) {
	if err := w.root.MkdirAll(OutputDir, 0o755); err != nil {
		return nil, err
	}
	p, err := holdPath(filepath.Join(w.dir, OutputDir))
	if err != nil {
		return nil, err
	}
	p.shown, p.real, p.hook = OutputDir, "", w.step
	return p, nil
}

func (p *Place) create(name string) (*os.File, error) {
	return os.OpenFile(filepath.Join(p.dir.Name(), name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

// OpenIn opens the file name of the held folder with flag, as os.OpenFile would.
func (p *Place) OpenIn(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(filepath.Join(p.dir.Name(), name), flag, perm)
}

func (p *Place) remove(name string) { os.Remove(filepath.Join(p.dir.Name(), name)) }

func (p *Place) rename(from, to string) error {
	return os.Rename(filepath.Join(p.dir.Name(), from), filepath.Join(p.dir.Name(), to))
}
