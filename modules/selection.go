package modules

// The selection is kept in the workspace, not in a viewer's memory, so that every process on
// one workspace sees the same one: a person selects in the viewer of `cadrun watch -serve`,
// and an agent's `cadrun mcp` names it in its next answer. It is derived state like
// scene.json: replaced atomically (a reader sees the old or the new list, never a mixture)
// without the fsyncs a user's own file gets.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"unicode/utf8"
)

// SelectionFile is where the selection is kept, inside the workspace.
const SelectionFile = ".cadrun/selection.json"

// MaxSelectionNames caps each list of a selection (selected, locked, hidden).
const MaxSelectionNames = 10_000

// maxSelectionNameBytes is an entity name's cap (scene.MaxNameBytes).
const maxSelectionNameBytes = 256

// maxSelectionBytes caps selection.json when read: three full lists of the longest names.
const maxSelectionBytes = 3 * MaxSelectionNames * (maxSelectionNameBytes*6 + 4)

// ErrBadSelection is returned for a selection that breaks a rule: a name that is empty, too
// long or not UTF-8, or a list over MaxSelectionNames.
var ErrBadSelection = errors.New("bad selection")

// Selection is what a person picked in a viewer: entities selected (in the order picked),
// locked (a change to them lands with a warning) and hidden (hidden in viewers only). Names
// are entity names; an entity that no longer exists may stay listed.
type Selection struct {
	Selected []string `json:"selected"`
	Locked   []string `json:"locked"`
	Hidden   []string `json:"hidden"`
}

// Normalize checks every name and returns the selection with duplicates removed (the first
// occurrence stays) and nil lists made empty, so that equal selections encode equally.
func (s Selection) Normalize() (Selection, error) {
	var out Selection
	for _, l := range []struct {
		field string
		in    []string
		out   *[]string
	}{{"selected", s.Selected, &out.Selected}, {"locked", s.Locked, &out.Locked}, {"hidden", s.Hidden, &out.Hidden}} {
		if len(l.in) > MaxSelectionNames {
			return Selection{}, fmt.Errorf("%w: %s lists %d names, over %d (MaxSelectionNames)", ErrBadSelection, l.field, len(l.in), MaxSelectionNames)
		}
		seen := make(map[string]bool, len(l.in))
		list := make([]string, 0, len(l.in))
		for i, n := range l.in {
			switch {
			case n == "":
				return Selection{}, fmt.Errorf("%w: %s[%d] is empty; give entity names", ErrBadSelection, l.field, i)
			case len(n) > maxSelectionNameBytes:
				return Selection{}, fmt.Errorf("%w: %s[%d] is %d bytes, over the %d of an entity name", ErrBadSelection, l.field, i, len(n), maxSelectionNameBytes)
			case !utf8.ValidString(n):
				return Selection{}, fmt.Errorf("%w: %s[%d] is not UTF-8", ErrBadSelection, l.field, i)
			}
			if !seen[n] {
				seen[n] = true
				list = append(list, n)
			}
		}
		*l.out = list
	}
	return out, nil
}

// Equal reports whether two normalized selections are the same.
func (s Selection) Equal(o Selection) bool {
	return slices.Equal(s.Selected, o.Selected) && slices.Equal(s.Locked, o.Locked) && slices.Equal(s.Hidden, o.Hidden)
}

// LoadSelection reads the workspace's selection. A workspace without one has the empty
// selection; a file that cannot be decoded is an error naming it.
func (w *Workspace) LoadSelection() (Selection, error) {
	f, _, err := w.openFileStat(SelectionFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Selection{}.Normalize()
	}
	if err != nil {
		return Selection{}, fmt.Errorf("reading %s: %w", SelectionFile, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSelectionBytes+1))
	if err != nil {
		return Selection{}, fmt.Errorf("reading %s: %w", SelectionFile, err)
	}
	if len(b) == 0 {
		// A power cut after the rename of a write without fsync: treat as no selection.
		return Selection{}.Normalize()
	}
	if len(b) > maxSelectionBytes {
		return Selection{}, fmt.Errorf("reading %s: %w: over %d bytes", SelectionFile, ErrTooLarge, maxSelectionBytes)
	}
	var s Selection
	if err := json.Unmarshal(b, &s); err != nil {
		return Selection{}, fmt.Errorf("reading %s: %w: %v; delete the file to clear the selection", SelectionFile, ErrBadSelection, err)
	}
	s, err = s.Normalize()
	if err != nil {
		return Selection{}, fmt.Errorf("reading %s: %w", SelectionFile, err)
	}
	return s, nil
}

// SaveSelection checks and normalizes s and replaces the workspace's selection with it,
// atomically. It returns the selection as saved.
func (w *Workspace) SaveSelection(s Selection) (Selection, error) {
	s, err := s.Normalize()
	if err != nil {
		return Selection{}, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return Selection{}, err
	}
	b = append(b, '\n')
	if err := w.writeDerived(SelectionFile, b, newFileMode); err != nil {
		return Selection{}, fmt.Errorf("writing %s: %w", SelectionFile, err)
	}
	return s, nil
}
