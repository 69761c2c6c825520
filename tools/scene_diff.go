package tools

// scene diff compares the scene now with the scene of an earlier history entry. The history
// keeps every entry's scene (modules.History.Scene), so nothing is re-run: the old scene is
// read back from its JSON and compared entity by entity with the same comparison a write
// answer's added/removed/changed lists come from (engine.Compare), so the two never disagree.
// The words say what changed of each entity (geometry, transform, style, z, group); the
// picture shows where (picture.Diff): both scenes drawn in one frame, what was added, removed
// and changed in colours of their own over the unchanged shapes dimmed.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	scenetext "github.com/cadrun/cadrun/scene/text" // tools' tests have a helper named text
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/picture"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// DiffOut answers scene diff.
type DiffOut struct {
	Against DiffAgainst `json:"against"`
	// Counts are the whole numbers; the lists name at most engine.MaxListed each.
	Counts  DiffCounts     `json:"counts"`
	Added   []string       `json:"added"`
	Removed []string       `json:"removed"`
	Changed []EntityChange `json:"changed"`
	// Legend says what the picture's colours mean.
	Legend string `json:"legend"`
}

// DiffAgainst names the state compared with.
type DiffAgainst struct {
	Entry    int    `json:"entry" jsonschema:"the history entry compared with"`
	Snapshot string `json:"snapshot,omitempty" jsonschema:"its snapshot name, if it has one"`
	// Steps is how many entries back from the current state it is (negative).
	Steps int `json:"steps" jsonschema:"how far back it is: -1 is the entry before the current state"`
	// Current is the entry the workspace is at; 0 when the files changed outside cadrun
	// since (the next change records them).
	Current int `json:"current" jsonschema:"the current state's entry; 0 when it is not recorded yet"`
}

// DiffCounts counts the entities of a diff.
type DiffCounts struct {
	Added     int `json:"added"`
	Removed   int `json:"removed"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
}

// EntityChange is one changed entity of a diff.
type EntityChange struct {
	Name string     `json:"name"`
	Kind scene.Kind `json:"kind"`
	What []string   `json:"what" jsonschema:"what changed: geometry, transform, style, z (its place among its siblings), group (its parent)"`
	// Moved is how far the centre of its world bounds moved, when it did.
	Moved []float64 `json:"moved,omitempty" jsonschema:"how far the centre of its world bounds moved [dx, dy], when it did"`
}

// sceneDiff answers scene diff: the lists, and the picture of the difference.
func (se *Session) sceneDiff(ctx context.Context, v *view, against json.RawMessage) (*DiffOut, []byte, *ImageInfo, *Omitted, error) {
	srv := se.srv
	if v.in.MaxBytes == 0 {
		v.Budget = DefaultImageBudget // a picture, as png's
	}
	h, warnings := srv.LoadHistory()
	disk, err := srv.ws.UserFiles()
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("reading the workspace: %w", err)
	}
	ref, err := resolveAgainst(h, against, disk)
	if err != nil && len(warnings) > 0 {
		err = fmt.Errorf("%w (%s)", err, strings.Join(warnings, "; ")) // why there is no history
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	old, err := entryScene(h, h.Entries[ref.index], v.Scene.Fonts())
	if errors.Is(err, scenetext.ErrUnknownFont) { // a font the scene no longer uses
		old, err = entryScene(h, h.Entries[ref.index], workspaceFonts(srv.ws, v.Scene.Fonts()))
	}
	if err != nil {
		return nil, nil, nil, nil, err
	}
	cur := v.Scene
	d := scene.Compare(old, cur, 0)
	out := &DiffOut{
		Against: ref.DiffAgainst,
		Counts:  DiffCounts{Added: len(d.Added), Removed: len(d.Removed), Changed: len(d.Changed), Unchanged: d.Same},
		Legend:  picture.DiffLegend,
	}
	var cut []string
	out.Added, cut = capNamed(d.Added, "added", cut)
	out.Removed, cut = capNamed(d.Removed, "removed", cut)
	changed := d.Changed
	if len(changed) > engine.MaxListed {
		cut = append(cut, fmt.Sprintf("changed lists %d of %d", engine.MaxListed, len(changed)))
		changed = changed[:engine.MaxListed]
	}
	q := sceneview.Quantum(cur)
	out.Changed = make([]EntityChange, len(changed))
	for i, c := range changed {
		out.Changed[i] = EntityChange{Name: c.Name, Kind: c.Kind, What: c.What, Moved: moved(old, cur, c.Name, q)}
	}
	var omitted *Omitted
	if len(cut) > 0 {
		omitted = &Omitted{Note: strings.Join(cut, "; ") + " (counts has them all; the picture shows every one; scene entity with name shows one as it is now)"}
	}
	png, info, note, err := picture.Diff(ctx, old, cur, d, v.in.Width, v.Budget)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if note != "" {
		if omitted == nil {
			omitted = &Omitted{}
		}
		omitted.Note = picture.Join(omitted.Note, note)
	}
	return out, png, info, omitted, nil
}

func capNamed(names []string, what string, cut []string) ([]string, []string) {
	if names == nil {
		return []string{}, cut
	}
	if len(names) <= engine.MaxListed {
		return names, cut
	}
	return names[:engine.MaxListed], append(cut, fmt.Sprintf("%s lists %d of %d", what, engine.MaxListed, len(names)))
}

// moved is how far the centre of name's world bounds moved between the scenes, rounded to
// the scene's quantum, as [dx, dy]; nil when it did not.
func moved(old, cur *scene.Scene, name string, q float64) []float64 {
	o, err1 := old.Get(name)
	e, err2 := cur.Get(name)
	if err1 != nil || err2 != nil {
		return nil
	}
	a, b := old.WorldBounds(o), cur.WorldBounds(e)
	if !a.NonEmpty || !b.NonEmpty {
		return nil
	}
	dv := b.Center().Sub(a.Center())
	dx, dy := engine.RoundTo(dv.X, q), engine.RoundTo(dv.Y, q)
	if dx == 0 && dy == 0 {
		return nil
	}
	return []float64{dx, dy}
}

// againstRef is the entry a diff compares with.
type againstRef struct {
	DiffAgainst
	index int // in h.Entries
}

// resolveAgainst finds the entry named by against: a snapshot name, or a negative number of
// steps back from the current state ("-1" or -1: the entry before it); none means -1. The
// current state is the current entry when the files are still as it recorded them; else
// (edited outside cadrun since) it is a state after it, so one step back is that entry.
func resolveAgainst(h *modules.History, against json.RawMessage, disk map[string][]byte) (againstRef, error) {
	var ref againstRef
	if len(h.Entries) == 0 {
		return ref, fmt.Errorf("%w: there is no history yet to compare with; every change that lands is recorded, so make one (or take a snapshot) and diff after the next", ErrBadInput)
	}
	here := h.Pos + 1 // the current state's place in the history, counting an unrecorded one
	if cur, ok := h.Current(); ok && h.Matches(cur, disk) {
		here, ref.Current = h.Pos, cur.ID
	}
	steps := -1
	if a := bytes.TrimSpace(against); len(a) > 0 && string(a) != "null" {
		var name string
		var n json.Number
		switch {
		case json.Unmarshal(a, &name) == nil:
			if e, ok := h.Find(name); ok {
				i := h.Index(e.ID)
				ref.DiffAgainst.Entry, ref.Snapshot, ref.Steps, ref.index = e.ID, e.Label, i-here, i
				return ref, nil
			}
			k, err := strconv.Atoi(strings.TrimSpace(name))
			if err != nil {
				return ref, fmt.Errorf("%w: against %q: no snapshot has that name; %s; or give a number of steps back (-1 is the entry before the current state)", ErrBadInput, name, engine.SnapshotNames(h))
			}
			steps = k
		case json.Unmarshal(a, &n) == nil:
			k, err := n.Int64()
			if err != nil || k < math.MinInt32 {
				return ref, fmt.Errorf("%w: against %s: give a whole negative number of steps back (-1 is the entry before the current state) or a snapshot name", ErrBadInput, a)
			}
			steps = int(k)
		default:
			return ref, fmt.Errorf("%w: against %s: give a snapshot name or a negative number of steps back (-1 is the entry before the current state)", ErrBadInput, a)
		}
	}
	if steps >= 0 {
		return ref, fmt.Errorf("%w: against %d: give a negative number of steps back (-1 is the entry before the current state), or a snapshot name", ErrBadInput, steps)
	}
	i := here + steps
	if i < 0 {
		if here == 0 {
			return ref, fmt.Errorf("%w: against %d: the current state is the oldest entry in the history (%d); there is nothing earlier to compare with", ErrBadInput, steps, ref.Current)
		}
		return ref, fmt.Errorf("%w: against %d: the history has %d entries before the current state; give -1..-%d or a snapshot name", ErrBadInput, steps, here, here)
	}
	e := h.Entries[i]
	ref.DiffAgainst.Entry, ref.Snapshot, ref.Steps, ref.index = e.ID, e.Label, steps, i
	return ref, nil
}

// workspaceFonts is have with every other font of the workspace that loads.
func workspaceFonts(ws *modules.Workspace, have map[string]*scenetext.Font) map[string]*scenetext.Font {
	out := maps.Clone(have)
	if out == nil {
		out = map[string]*scenetext.Font{}
	}
	for _, name := range ws.FontNames() {
		if out[name] != nil {
			continue
		}
		if b, _, err := ws.ReadFont(name); err == nil {
			if f, err := scenetext.LoadFont(name, b); err == nil {
				out[name] = f
			}
		}
	}
	return out
}

// entryScene reads the scene an entry recorded, its texts in fonts (the workspace fonts the
// current scene uses; the JSON names a text's font only) so that an unchanged text compares
// equal.
func entryScene(h *modules.History, e modules.HistoryEntry, fonts map[string]*scenetext.Font) (*scene.Scene, error) {
	b, err := h.Scene(e)
	if err != nil {
		return nil, err
	}
	s, err := scene.ReadJSONWithFonts(b, fonts)
	if err == nil {
		err = runtime.CheckFinite(s)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the scene of entry %d: %w", e.ID, err)
	}
	return s, nil
}

// sceneDiffDescription is the scene tool's words on diff.
const sceneDiffDescription = "diff: what was added, removed, changed since against, and a picture."
