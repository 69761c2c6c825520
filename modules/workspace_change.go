package modules

// A change to one file is a value, not a pair of callbacks: the tool layer works out the
// change from the files it read under the workspace lock, runs the program against the
// workspace as the change would leave it (ChangeSource), makes it (Prepare, then Put and
// Sync) only when that run succeeds, and then knows the files after it as the files before plus the change
// (After), without reading back what it has just written. The files before are the ones a
// transaction read once under the lock; nil stands for "not known" (a file could not be
// read), and every step then asks the workspace itself, as it did before the value existed.

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cadrun/cadrun/runtime"
)

// Change is one change to one file of the workspace, by logical name: a write of Next (the
// file's complete new content; a new file or a replacement), a Delete, or a move to MoveTo.
// Delete and MoveTo exclude each other; with neither set the change is a write.
type Change struct {
	Name   string
	Next   []byte
	Delete bool
	MoveTo string
}

// IsWrite reports whether c writes Next to Name.
func (c Change) IsWrite() bool { return !c.Delete && c.MoveTo == "" }

// Files names the files c touches: Name, then MoveTo for a move.
func (c Change) Files() []string {
	if c.MoveTo != "" {
		return []string{c.Name, c.MoveTo}
	}
	return []string{c.Name}
}

// After is files (user files by logical name) with c applied, as a new map; files itself is
// not changed. A move keeps the moved file's bytes under the new name.
func After(files map[string][]byte, c Change) map[string][]byte {
	out := maps.Clone(files)
	if out == nil {
		out = map[string][]byte{}
	}
	switch {
	case c.Delete:
		delete(out, c.Name)
	case c.MoveTo != "":
		b, ok := out[c.Name]
		delete(out, c.Name)
		if ok {
			out[c.MoveTo] = b
		}
	default:
		out[c.Name] = c.Next
	}
	return out
}

// Prepared is a change made ready before it is decided. For a write every check is done and
// the new bytes wait, synced to disk, in a hidden temp file beside the file: the slow part of
// a durable write, which can so overlap the run that decides whether the change lands. Put
// makes the change and Sync makes it durable; Discard drops it. A delete or a move has nothing
// to prepare, and Put applies it. Callers hold Lock from Prepare to Sync or Discard.
type Prepared struct {
	w      *Workspace
	c      Change
	before map[string][]byte
	write  *pendingWrite
}

// Prepare readies c (see Prepared); a write that would fail (a bad name, too large, a case
// collision, a directory in the way) fails here. before is the user files as the caller read
// them under the workspace lock (nil when not known): a write checks its name's case against
// their names instead of listing modules/ again.
func (w *Workspace) Prepare(c Change, before map[string][]byte) (*Prepared, error) {
	p := &Prepared{w: w, c: c, before: before}
	if c.IsWrite() {
		pw, err := w.prepareWrite(c.Name, c.Next, before)
		if err != nil {
			return nil, err
		}
		pw.t.swap = pw.exists // Put swaps the old file out (workspace_swap.go)
		p.write = pw
	}
	return p, nil
}

// Put makes the change visible: a prepared write's bytes are renamed over the file (its
// directory not yet synced: see Sync); a delete or a move is made, durably. created reports a
// file that did not exist before: a write of a new name, or a move (whose new name is new by
// definition).
func (p *Prepared) Put() (created bool, err error) {
	switch {
	case p.write != nil:
		return p.write.put()
	case p.c.Delete:
		return false, p.w.Delete(p.c.Name)
	}
	return true, p.w.Move(p.c.Name, p.c.MoveTo)
}

// Sync makes a write that Put made durable (it syncs the file's directory), so that a caller
// can do other work while the disk catches up; it does nothing for a delete or a move.
func (p *Prepared) Sync() error {
	if p.write == nil {
		return nil
	}
	return p.write.sync()
}

// Discard drops a change that will not land: a prepared write's temp file is removed.
func (p *Prepared) Discard() {
	if p.write != nil {
		p.write.t.remove()
	}
}

// ChangeSource is the workspace as c would leave it, for the run that decides whether c may
// land: c's file from c, the other user files from before (the files read under the lock; nil
// reads them from the workspace), and every other name (a built-in module, or a file the
// workspace refuses, which then says why) from the workspace itself. Fonts are the
// workspace's.
func (w *Workspace) ChangeSource(before map[string][]byte, c Change) runtime.Source {
	return changeSource{w: w, c: c, before: before}
}

type changeSource struct {
	w      *Workspace
	c      Change
	before map[string][]byte
}

// Read implements runtime.Source.
func (s changeSource) Read(name string) ([]byte, string, error) {
	switch {
	case name == s.c.Name && s.c.IsWrite():
		return s.c.Next, runtime.PathOf(name), nil
	case name == s.c.Name: // deleted, or moved away: gone, built-in of that name included
		return nil, runtime.PathOf(name), fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	case name == s.c.MoveTo:
		b, _, err := s.readBefore(s.c.Name)
		return b, runtime.PathOf(name), err
	}
	return s.readBefore(name)
}

// readBefore reads a file as it is before the change.
func (s changeSource) readBefore(name string) ([]byte, string, error) {
	if b, ok := s.before[name]; ok {
		return b, runtime.PathOf(name), nil
	}
	return s.w.Read(name)
}

// Names implements runtime.Source: the modules after the change, built-ins included.
func (s changeSource) Names() []string {
	var names []string
	if s.before != nil {
		names = filesSource(s.before).Names()
	} else {
		names = s.w.Names()
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == s.c.Name && !s.c.IsWrite() })
	added := s.c.MoveTo
	if s.c.IsWrite() {
		added = s.c.Name
	}
	if added != "" && added != runtime.MainModule && !slices.Contains(names, added) {
		names = append(names, added)
		slices.Sort(names)
	}
	return names
}

// ReadFont implements runtime.FontSource.
func (s changeSource) ReadFont(name string) ([]byte, string, error) { return s.w.ReadFont(name) }

// FontNames implements runtime.FontSource.
func (s changeSource) FontNames() []string { return s.w.FontNames() }
