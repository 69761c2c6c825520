package cli

// `cadrun run -o` writes the export as it arrives from the worker (runtime.Pool.Export), so
// that making it, the pipe and the file write overlap; but a run or an export that fails must
// leave an existing output as it was, as when the file was written only once the whole export
// had arrived. So the bytes go to a temp file beside the output, made at the first byte, and
// replace the output only at the end (docs/decisions.md, "The export's way out").

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// output is where `run -o` writes the export.
type output struct {
	path string
	tmp  *os.File     // the temp file beside path, once the first byte came
	size int64        // the bytes written to it
	mem  bytes.Buffer // the export when no temp file could be made there
	err  error        // why not
	// failed is the error of the Write that failed (the temp file's: a full disk).
	failed error
}

// Write implements io.Writer, for Pool.Export.
func (o *output) Write(p []byte) (int, error) {
	if o.tmp == nil && o.err == nil {
		o.tmp, o.err = createTemp(o.path)
	}
	if o.tmp == nil {
		// A folder where the output may be written but no file made (or none at all: the
		// error comes at the end, as it always did) keeps the export in memory.
		return o.mem.Write(p)
	}
	preallocate(o.tmp, o.size, len(p))
	n, err := o.tmp.Write(p)
	o.size += int64(n)
	if err != nil {
		o.failed = err
	}
	return n, err
}

// tempName is a name for a temp file beside path: hidden, named after the output as watch's
// -out names its own.
func tempName(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".cadrun-tmp-"+strconv.FormatUint(rand.Uint64(), 36))
}

// createTemp makes a new temp file beside path, with the mode a new output gets (0644 less
// the umask).
func createTemp(path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(tempName(path), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// abort drops what was written: the output stays as it was.
func (o *output) abort() {
	if o.tmp != nil {
		o.tmp.Close()
		os.Remove(o.tmp.Name())
	}
}

// commit puts the export in place of the output. The temp file is renamed over it when the
// output is missing or a plain file of this user's with no other links (keeping its
// permission bits); into anything else (a symlink, a file with other hard links or of
// another owner, a FIFO) the bytes are copied, as writing the file in place always did, so
// that the link, the owner and the inode stay.
func (o *output) commit() error {
	if o.tmp == nil {
		return os.WriteFile(o.path, o.mem.Bytes(), 0o644)
	}
	defer o.abort() // after a rename there is nothing left to remove
	st, err := os.Lstat(o.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err == nil && replaceable(st):
		if err := o.tmp.Chmod(st.Mode().Perm()); err != nil {
			return err
		}
	default:
		return o.copyInto()
	}
	if err := o.tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(o.tmp.Name(), o.path); err != nil {
		return err
	}
	o.tmp = nil
	return nil
}

// replaceable reports whether a rename over the file loses nothing a write into it keeps.
func replaceable(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && st.Mode().IsRegular() && sys.Nlink == 1 && int(sys.Uid) == os.Geteuid()
}

// copyInto writes the temp file's bytes into the output in place.
func (o *output) copyInto() error {
	if _, err := o.tmp.Seek(0, io.SeekStart); err != nil {
		return err
	}
	f, err := os.OpenFile(o.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, o.tmp); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
