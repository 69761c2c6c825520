package modules

// Data files: JSON kept beside the scripts (dimensions, part lists), named NAME.json for
// data/NAME.json and FOLDER/NAME.json for data/FOLDER/NAME.json, every segment following the
// name rule. They are read and written through the same paths as scripts (Read, Prepare,
// Delete, Move), so that containment, atomic writes and the file checks apply to them alike;
// runtime.PathOf maps the name to its file.

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// MaxDataDepth caps the folders of a data file's name (catalog/items.json is 2 deep).
const MaxDataDepth = 8

// SchemaSuffix ends the name of a data file's schema: data/NAME.schema.json is the schema of
// data/NAME.json.
const SchemaSuffix = ".schema.json"

// IsDataName reports whether a logical name names a data file (it ends in .json).
func IsDataName(name string) bool { return strings.HasSuffix(name, ".json") }

// CheckDataName refuses a data file name that breaks the rule, before any filesystem call.
func CheckDataName(name string) error {
	base, ok := strings.CutSuffix(name, ".json")
	segs := strings.Split(base, "/")
	if ok && len(segs) <= MaxDataDepth {
		last := &segs[len(segs)-1]
		*last = strings.TrimSuffix(*last, ".schema")
		ok = true
		for _, s := range segs {
			ok = ok && validName(s)
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("%w: %q: a data file is NAME.json or FOLDER/NAME.json (at most %d folders deep, MaxDataDepth; its schema NAME.schema.json), each part 1-64 letters, digits, '_' or '-', starting with a letter or digit", ErrBadName, name, MaxDataDepth-1)
}

// CheckFileName refuses a name that is neither a logical script name (CheckName) nor a data
// file name (CheckDataName).
func CheckFileName(name string) error {
	if IsDataName(name) {
		return CheckDataName(name)
	}
	return CheckName(name)
}

// SchemaOf is the name of the schema a data file must validate against; a schema has none.
func SchemaOf(name string) (string, bool) {
	if strings.HasSuffix(name, SchemaSuffix) || !IsDataName(name) {
		return "", false
	}
	return strings.TrimSuffix(name, ".json") + SchemaSuffix, true
}

// listData lists the data files under data/, by name, leaving out anything Read would refuse
// (links, FIFOs, temp files, names that break the rule). When temps is not nil, the temp
// files found are added to it. When names is not nil, every name in each folder it lists
// (whatever the entry is) is added to names under the folder's path.
func (w *Workspace) listData(temps *[]string, names map[string][]string) []FileInfo {
	var out []FileInfo
	fs.WalkDir(w.root.FS(), dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if names != nil && p != dataDir {
			names[path.Dir(p)] = append(names[path.Dir(p)], d.Name())
		}
		rel := strings.TrimPrefix(p, dataDir+"/")
		if d.IsDir() {
			if p != dataDir && (CheckName(d.Name()) != nil || strings.Count(rel, "/")+1 >= MaxDataDepth) {
				return fs.SkipDir
			}
			w.listing(p)
			if names != nil && names[p] == nil {
				names[p] = []string{}
			}
			return nil
		}
		if temps != nil && isTemp(d) {
			*temps = append(*temps, p)
		}
		if !d.Type().IsRegular() || CheckDataName(rel) != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out = append(out, FileInfo{Name: rel, Path: p, Kind: KindData, Source: SourceUser, Size: info.Size()})
		}
		return nil
	})
	return out
}

// checkDataCase refuses a new data file whose name differs only in case from a file in the
// same folder. except is the file being renamed. locked says that the caller holds the lock
// and read the files under it: the names ListUserLocked found in the folder then serve, and
// the folder is listed only when that listing did not reach it.
func (w *Workspace) checkDataCase(name, except string, locked bool) error {
	p := runtime.PathOf(name)
	dir := path.Dir(p)
	names, ok := []string(nil), false
	if locked {
		names, ok = w.lockedNames(dir)
	}
	if !ok {
		w.listing(dir)
		entries, err := fs.ReadDir(w.root.FS(), dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		for _, e := range entries {
			names = append(names, e.Name())
		}
	}
	var other string
	for _, n := range names {
		switch {
		case n == path.Base(p):
			return nil // it exists: an overwrite
		case strings.EqualFold(n, path.Base(p)) && path.Join(dir, n) != runtime.PathOf(except):
			other = path.Join(dir, n)
		}
	}
	if other != "" {
		return fmt.Errorf("%w: %s would collide with %s; use the existing name or choose another", ErrCaseCollision, p, other)
	}
	return nil
}

// CheckMoveKinds refuses a move that would turn a script into a data file or back.
func CheckMoveKinds(from, to string) error {
	if IsDataName(from) != IsDataName(to) {
		return fmt.Errorf("moving %s to %s: %w: a data file stays a data file (NAME.json) and a script a script", runtime.PathOf(from), runtime.PathOf(to), ErrBadName)
	}
	return nil
}

// dataDirs lists data/ and its folders, for the clean-up of temp files.
func (w *Workspace) dataDirs() []string {
	var dirs []string
	fs.WalkDir(w.root.FS(), dataDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if strings.Count(p, "/") >= MaxDataDepth {
				return fs.SkipDir
			}
			w.listing(p)
			dirs = append(dirs, p)
		}
		return nil
	})
	return dirs
}
