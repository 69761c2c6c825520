package modules

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// holdPath holds the folder real (a path with no link in it): opened without following a link
// at its end, then checked by walking up from the descriptor with ".." that each folder met is
// the one the path names, up to /.
func holdPath(real string) (*Place, error) {
	chain, err := chainOf(real)
	if err != nil {
		return nil, err
	}
	fd, err := unix.Open(real, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	p := &Place{shown: real, real: real}
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return nil, p.changed()
	}
	if err != nil {
		return nil, err
	}
	p.dir = os.NewFile(uintptr(fd), real)
	if err := walkUp(fd, chain); err != nil {
		p.dir.Close()
		if errors.Is(err, errWrongFolder) {
			return nil, p.changed()
		}
		return nil, err
	}
	p.still = func() error {
		now, err := chainOf(real)
		if err != nil || !equalIDs(now, chain) {
			return p.changed()
		}
		return nil
	}
	return p, nil
}

// holdOutputDir holds the workspace's out/, made if missing: opened from the workspace's root
// without following a link, and checked to have the root as its parent.
func (w *Workspace) holdOutputDir() (*Place, error) {
	root, err := w.root.Open(".")
	if err != nil {
		return nil, err
	}
	p := &Place{shown: OutputDir, parent: root, hook: w.step}
	var out fileID
	err = withFd(root, func(rfd int) error {
		var rst unix.Stat_t
		if err := unix.Fstat(rfd, &rst); err != nil {
			return err
		}
		open := func() (int, error) {
			return unix.Openat(rfd, OutputDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		}
		fd, err := open()
		if errors.Is(err, unix.ENOENT) {
			if err := unix.Mkdirat(rfd, OutputDir, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				return err
			}
			fd, err = open()
		}
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return p.changed()
		}
		if err != nil {
			return err
		}
		p.dir = os.NewFile(uintptr(fd), OutputDir)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		out = idOf(&st)
		if err := walkUp(fd, []fileID{out, idOf(&rst)}); err != nil {
			if errors.Is(err, errWrongFolder) {
				return p.changed()
			}
			return err
		}
		return nil
	})
	if err != nil {
		p.Close()
		return nil, err
	}
	p.still = func() error {
		return withFd(root, func(rfd int) error {
			var st unix.Stat_t
			if err := unix.Fstatat(rfd, OutputDir, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || idOf(&st) != out {
				return p.changed()
			}
			return nil
		})
	}
	return p, nil
}

// errWrongFolder is walkUp's finding that a folder is not the one expected.
var errWrongFolder = errors.New("not the folder expected")

// walkUp checks that the folder fd and the folders above it, met through "..", are chain's, in
// order.
func walkUp(fd int, chain []fileID) error {
	cur := fd
	defer func() {
		if cur != fd {
			unix.Close(cur)
		}
	}()
	for i, want := range chain {
		var st unix.Stat_t
		if err := unix.Fstat(cur, &st); err != nil {
			return err
		}
		if idOf(&st) != want {
			return errWrongFolder
		}
		if i == len(chain)-1 {
			return nil
		}
		// O_PATH: a folder above may be one this user cannot read, only pass through.
		up, err := unix.Openat(cur, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		if cur != fd {
			unix.Close(cur)
		}
		cur = up
	}
	return nil
}

// chainOf is the identity of the folder real and of every folder above it up to /, as their
// paths name them now (a link on the way gives the link's own, which no folder has).
func chainOf(real string) ([]fileID, error) {
	var chain []fileID
	for p := real; ; p = filepath.Dir(p) {
		st, err := os.Lstat(p)
		if err != nil {
			return nil, err
		}
		sys, ok := st.Sys().(*syscall.Stat_t)
		if !ok {
			return nil, errors.ErrUnsupported
		}
		chain = append(chain, fileID{uint64(sys.Dev), sys.Ino})
		if p == filepath.Dir(p) {
			return chain, nil
		}
	}
}

func idOf(st *unix.Stat_t) fileID { return fileID{uint64(st.Dev), st.Ino} }

func equalIDs(a, b []fileID) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// create makes the new file name in the held folder, refusing anything already there.
func (p *Place) create(name string) (*os.File, error) {
	var f *os.File
	err := withFd(p.dir, func(fd int) error {
		n, err := unix.Openat(fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return &os.PathError{Op: "create", Path: filepath.Join(p.shown, name), Err: err}
		}
		f = os.NewFile(uintptr(n), filepath.Join(p.shown, name))
		return nil
	})
	return f, err
}

// OpenIn opens the file name of the held folder (never through a link) with flag, as
// os.OpenFile would.
func (p *Place) OpenIn(name string, flag int, perm os.FileMode) (*os.File, error) {
	var f *os.File
	err := withFd(p.dir, func(fd int) error {
		n, err := unix.Openat(fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err != nil {
			return &os.PathError{Op: "open", Path: filepath.Join(p.shown, name), Err: err}
		}
		f = os.NewFile(uintptr(n), filepath.Join(p.shown, name))
		return nil
	})
	return f, err
}

func (p *Place) remove(name string) { removeAt(p.dir, name) }

func (p *Place) rename(from, to string) error {
	if err := moveAt(p.dir, from, p.dir, to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(p.shown, from), New: filepath.Join(p.shown, to), Err: err}
	}
	return nil
}
