package modules

import (
	"slices"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// Kinds and sources of the files List reports.
const (
	KindMain   = "main"
	KindModule = "module"
	KindData   = "data"
	KindFont   = "font"
	// KindImport is a drawing in imports/ for the import tool; its Name is its path.
	KindImport = "import"

	SourceUser    = "user"
	SourceBuiltin = "builtin"
)

// FileInfo describes one file of the workspace, as the glob tool shows it.
type FileInfo struct {
	Name   string `json:"name"`   // logical name: main, a module's NAME, a data file's NAME.json, or a font's NAME
	Path   string `json:"path"`   // workspace path (builtin/NAME.js for a built-in module)
	Kind   string `json:"kind"`   // KindMain, KindModule, KindData, KindFont or KindImport
	Source string `json:"source"` // SourceUser or SourceBuiltin
	Size   int64  `json:"size"`   // bytes
}

// List is every file of the workspace: main first (when it exists), then the modules by name,
// user modules hiding the built-ins they override, then data/NAME.json by name, then the
// fonts, fonts/NAME.ttf|otf|ttc, by file name, then the drawings in imports/ by path (at
// most MaxImportsListed). Temp files,
// links and anything else that Read would refuse are left out.
func (w *Workspace) List() []FileInfo {
	return w.list(true, nil, nil)
}

// ListUser is List without the built-in modules and the fonts: the workspace's own files of
// the program and its data, main first, then the modules by name, then the data files.
func (w *Workspace) ListUser() []FileInfo {
	return w.list(false, nil, nil)
}

// ListUserLocked is ListUser for a caller that holds the workspace lock and has made no temp
// file under it yet. On a workspace opened ForOneCall, the first call also removes the
// temp files of killed writes that its listing of modules/ and the data folders finds: the
// sweep Open makes, without a listing of its own.
//
// The names it finds in each data folder serve the case check of a data file's write made
// under the same lock (checkDataCase), until the lock is released.
func (w *Workspace) ListUserLocked() []FileInfo {
	var temps *[]string
	if w.sweepPending.CompareAndSwap(true, false) {
		temps = new([]string)
	}
	names := map[string][]string{}
	out := w.list(false, temps, names)
	w.setLockedEntries(names)
	if temps != nil {
		for _, p := range *temps {
			w.root.Remove(p) // errors ignored, as Open's sweep ignores them
		}
	}
	return out
}

// setLockedEntries keeps (or, with nil, drops) the names ListUserLocked found in each data
// folder.
func (w *Workspace) setLockedEntries(names map[string][]string) {
	w.lockedMu.Lock()
	defer w.lockedMu.Unlock()
	w.lockedEntries = names
}

// lockedNames is the names ListUserLocked found in the data folder dir under the lock now
// held; ok is false when it did not list that folder.
func (w *Workspace) lockedNames(dir string) (names []string, ok bool) {
	w.lockedMu.Lock()
	defer w.lockedMu.Unlock()
	names, ok = w.lockedEntries[dir]
	return names, ok
}

// list is List (all) or ListUser; when temps is not nil, the temp files found in modules/ and
// the data folders are added to it, and when names is not nil, the names in each data folder
// listed (see listData).
func (w *Workspace) list(all bool, temps *[]string, names map[string][]string) []FileInfo {
	var out []FileInfo
	if st, ok := w.singleLinkStat(runtime.PathOf(runtime.MainModule)); ok && st.Mode().IsRegular() {
		out = append(out, FileInfo{Name: runtime.MainModule, Path: runtime.PathOf(runtime.MainModule), Kind: KindMain, Source: SourceUser, Size: st.Size()})
	}
	var mods []FileInfo
	user := map[string]bool{}
	for _, m := range w.userModuleFiles(temps) {
		user[m.name] = true
		mods = append(mods, FileInfo{Name: m.name, Path: runtime.PathOf(m.name), Kind: KindModule, Source: SourceUser, Size: m.size})
	}
	for _, n := range BuiltinNames() {
		if all && !user[n] {
			b, _ := builtinSource(n)
			mods = append(mods, FileInfo{Name: n, Path: builtinPath(n), Kind: KindModule, Source: SourceBuiltin, Size: int64(len(b))})
		}
	}
	slices.SortFunc(mods, func(a, b FileInfo) int { return strings.Compare(a.Name, b.Name) })
	out = append(out, mods...)
	out = append(out, w.listData(temps, names)...)
	if all {
		out = append(out, w.fontFiles()...)
		out = append(out, w.importFiles()...)
	}
	return out
}
