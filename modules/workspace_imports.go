package modules

// Drawings to import are read from the workspace's imports/ folder and nowhere else: a tool
// that could read any path would let a client read the host's files through the importer's
// answer. The path is checked against the rule before any filesystem call, and the file is
// read as every workspace file is (through the workspace's root, so that no link leads
// outside; opened without blocking; a regular file with one link; capped).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"sync"
)

// ImportDir is the folder of the workspace that drawings are imported from.
const ImportDir = "imports"

// ErrBadImportPath is returned for a path that is not a file's in imports/.
var ErrBadImportPath = errors.New("bad import path")

// importPart is one folder or file name of a path in imports/: no leading dot (so no "..",
// no hidden or temp files), no slash or backslash. Compiled at first use: its counted repetition makes it a large program, and every process
// (`cadrun version` too) would compile it at start-up.
var importPart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9 _.,+()-]{0,127}$`)
})

// maxImportDepth is how many names deep a path in imports/ may go.
const maxImportDepth = 8

// CheckImportPath checks a path to a file in imports/ ("imports/plan.dxf", or "plan.dxf" for
// the same) and answers it from the workspace root.
func CheckImportPath(rel string) (string, error) {
	rel = strings.TrimPrefix(rel, ImportDir+"/")
	parts := strings.Split(rel, "/")
	ok := len(parts) <= maxImportDepth
	for _, p := range parts {
		ok = ok && importPart().MatchString(p)
	}
	if !ok {
		return "", fmt.Errorf("%w: %q: give a file in the workspace's %s/ folder, such as %s/plan.dxf "+
			"(names of letters, digits, spaces and _ . , + ( ) -, not starting with a dot; no absolute path, no ..); drawings are imported from there only",
			ErrBadImportPath, rel, ImportDir, ImportDir)
	}
	return ImportDir + "/" + rel, nil
}

// ReadImport reads a file in imports/ (CheckImportPath's rule) up to max bytes and one byte
// over, so that the importer refuses a file over its limit, naming the limit. It answers
// the bytes and the file's path from the workspace root.
//
// A drawing in imports/ is one of the files themselves: a symbolic link on its path is
// refused, wherever it leads (os.Root keeps a link inside the workspace, but a link to
// scene.code.js or .cadrun/ would read that file, and the importer's refusal would show its
// first line), and so is a file with other hard links (openFile's rule).
func (w *Workspace) ReadImport(rel string, max int64) ([]byte, string, error) {
	p, err := CheckImportPath(rel)
	if err != nil {
		return nil, "", err
	}
	if link := w.linkOnPath(p); link != "" {
		return nil, p, fmt.Errorf("reading %s: %w: %s is a symbolic link; copy the drawing itself into %s/ (links are not followed there, wherever they lead)",
			p, ErrNotRegular, link, ImportDir)
	}
	seen, lerr := w.root.Lstat(p)
	f, st, err := w.openFileStat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, p, fmt.Errorf("reading %s: no such file; put the drawing in the workspace's %s/ folder (%s/%s)", p, ImportDir, w.dir, ImportDir)
	case err != nil:
		return nil, p, fmt.Errorf("reading %s: %w", p, err)
	}
	defer f.Close()
	if lerr != nil || !os.SameFile(seen, st) {
		// A link put in the file's place between the look and the open.
		return nil, p, fmt.Errorf("reading %s: %w: the file changed while it was opened; import it again", p, ErrNotRegular)
	}
	b, err := readUpTo(f, st.Size(), max)
	if err != nil {
		return nil, p, fmt.Errorf("reading %s: %w", p, err)
	}
	return b, p, nil
}

// linkOnPath names the first folder or file on the workspace path p that is a symbolic link,
// or "" when none is.
func (w *Workspace) linkOnPath(p string) string {
	for i := range len(p) + 1 {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if st, err := w.root.Lstat(p[:i]); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return p[:i]
		}
	}
	return ""
}

// MaxImportsListed caps the drawings List names in imports/, so that a folder of thousands
// does not swell every listing.
const MaxImportsListed = 200

// importFiles lists the drawings in imports/ that ReadImport would read by name (regular
// files whose path keeps CheckImportPath's rule), in path order, at most MaxImportsListed.
func (w *Workspace) importFiles() []FileInfo {
	var out []FileInfo
	fs.WalkDir(w.root.FS(), ImportDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || len(out) == MaxImportsListed {
			return fs.SkipDir
		}
		if p == ImportDir {
			return nil
		}
		rel := strings.TrimPrefix(p, ImportDir+"/")
		if _, cerr := CheckImportPath(rel); cerr != nil {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil // folders are walked; links and other kinds are not read
		}
		// A file with other hard links is left out, as ReadImport refuses it.
		if info, ok := w.singleLinkStat(p); ok && info != nil {
			out = append(out, FileInfo{Name: p, Path: p, Kind: KindImport, Source: SourceUser, Size: info.Size()})
		}
		return nil
	})
	return out
}
