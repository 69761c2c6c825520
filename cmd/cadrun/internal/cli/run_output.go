package cli

// `cadrun run -o` has its worker write the export straight into a temp file beside the output
// (runtime.ExportTo.File), or writes the pieces the worker streams there itself when the
// worker cannot, so that making the export and writing the file overlap; but a run or an
// export that fails must leave an existing output as it was, as when the file was written
// only once the whole export had arrived. So the temp file replaces the output only at the
// end (docs/decisions.md, "The export's way out").

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

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// output is where `run -o` writes the export.
type output struct {
	path string
	tmp  string   // the temp file beside path: for the worker to make, or made here
	made bool     // the worker made tmp and wrote the export there
	f    *os.File // tmp, when this process writes the streamed export there
	mem  bytes.Buffer
	err  error // why no temp file could be made here: the export is in mem
	// failed is the error of the Write that failed (the temp file's: a full disk).
	failed error
}

func newOutput(path string) *output {
	tmp := tempName(path)
	if abs, err := filepath.Abs(tmp); err == nil {
		tmp = abs // the worker's folder need not be this process's
	}
	return &output{path: path, tmp: tmp}
}

// streamed has the worker stream every export, as when it cannot make the temp file; tests
// set it to check that path.
var streamed = false

// to is where Pool.Export writes.
func (o *output) to() runtime.ExportTo {
	if streamed {
		return runtime.ExportTo{W: o}
	}
	return runtime.ExportTo{File: o.tmp, W: o}
}

// Write implements io.Writer, for an export the worker streams.
func (o *output) Write(p []byte) (int, error) {
	if o.f == nil && o.err == nil {
		o.f, o.err = createTemp(o.path)
		if o.f != nil {
			o.tmp = o.f.Name()
		}
	}
	if o.f == nil {
		// A folder where the output may be written but no file made (or none at all: the
		// error comes at the end, as it always did) keeps the export in memory.
		return o.mem.Write(p)
	}
	n, err := o.f.Write(p)
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
// the umask), as the worker makes its own.
func createTemp(path string) (*os.File, error) {
	for {
		f, err := os.OpenFile(tempName(path), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// abort drops what was written: the output stays as it was. The temp file is removed even
// when the worker did not say it made it (it may have died after making it).
func (o *output) abort() {
	if o.f != nil {
		o.f.Close()
	}
	os.Remove(o.tmp)
}

// commit puts the export in place of the output, through the one writer of output files
// (modules.HoldOutput: the folder held, judged against workspace ws's place rule as a whole,
// and the rename inside it). The temp file is renamed over the output when the output is
// missing or a plain file of this user's with no other links (keeping its permission bits);
// into anything else (a symlink, a file with other hard links or of another owner, a FIFO)
// the bytes are copied, as writing the file in place always did, so that the link, the owner
// and the inode stay.
func (o *output) commit(ws string) error {
	place, name, err := modules.HoldOutput(ws, "-o", o.path)
	if err != nil {
		o.abort()
		return err
	}
	defer place.Close()
	if !o.made && o.f == nil {
		return writeIn(place, name, bytes.NewReader(o.mem.Bytes()))
	}
	defer o.abort() // after a rename there is nothing left to remove
	if o.f != nil {
		if err := o.f.Close(); err != nil {
			return err
		}
		o.f = nil
	}
	st, err := os.Lstat(o.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err == nil && replaceable(st):
		if err := os.Chmod(o.tmp, st.Mode().Perm()); err != nil {
			return err
		}
	default:
		return o.copyInto(place, name)
	}
	// The output is no link here, so the held folder is its own, and the temp file's.
	return place.RenameIn(filepath.Base(o.tmp), name)
}

// replaceable reports whether a rename over the file loses nothing a write into it keeps.
func replaceable(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && st.Mode().IsRegular() && sys.Nlink == 1 && int(sys.Uid) == os.Geteuid()
}

// copyInto writes the temp file's bytes into the output in place: the file name of the
// held folder.
func (o *output) copyInto(place *modules.Place, name string) error {
	src, err := os.Open(o.tmp)
	if err != nil {
		return err
	}
	defer src.Close()
	return writeIn(place, name, src)
}

// writeIn writes r into the file name of the held folder in place (made if missing).
func writeIn(place *modules.Place, name string, r io.Reader) error {
	f, err := place.OpenIn(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
