package tools

// scene restore {journal: ID}: the workspace goes back to the state a journal entry speaks of,
// the files of the history entry it is linked to. It is a change like a write, not a move in
// the history like undo: main runs on those files first (nothing lands if it fails), they land
// together, and the result is recorded as a new history entry after the current one, so one
// undo brings back the workspace as it was before the restore, and nothing between that entry
// and now is lost. It lives in scene, with the other history commands, because search only
// reads.

import (
	"context"
	"fmt"
	"time"

	"github.com/cadrun/cadrun/modules"
)

// restoreJournal restores the files of the history entry journal entry id is linked to.
func (se *Session) restoreJournal(ctx context.Context, id int64) (*ChangeResult, error) {
	if id <= 0 {
		return nil, fmt.Errorf("%w: restore needs journal, the id of a journal entry (search answers them), got %d", ErrBadInput, id)
	}
	j, err := se.srv.journal(ctx)
	if err != nil {
		return nil, err
	}
	link, found, err := j.LinkOf(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, fmt.Errorf("%w: there is no journal entry %d; search lists the entries", ErrBadInput, id)
	case link.Entry == 0:
		return nil, fmt.Errorf("%w: journal entry %d was saved in a workspace with no files and no history, so there is no state to restore", ErrBadInput, id)
	}
	histID := link.Entry

	start := time.Now()
	srv := se.srv
	tx, err := srv.begin(ctx)
	if err != nil {
		return nil, refused(err)
	}
	defer tx.end()
	disk, err := tx.files()
	if err != nil {
		return nil, notApplied(err)
	}
	h, warnings := tx.history()
	i := h.Index(histID)
	if i < 0 {
		return nil, notApplied(fmt.Errorf("journal entry %d speaks of history entry %d, which the history no longer holds (it keeps the newest %d entries, snapshots first); take a snapshot to keep a state for good", id, histID, modules.MaxHistory))
	}
	if link.State != "" && link.State != historyState(h.Entries[i]) {
		return nil, notApplied(fmt.Errorf("journal entry %d speaks of history entry %d, but the history was started again since (its log was damaged or deleted) and its entry %d holds other files; the state the journal entry speaks of is gone", id, histID, histID))
	}
	files, err := h.Files(h.Entries[i])
	if err != nil {
		return nil, notApplied(err)
	}
	differ := changedFiles(hashFiles(disk), hashFiles(files))
	if len(differ) == 0 {
		return nil, notApplied(fmt.Errorf("the workspace already holds the files of history entry %d (journal entry %d); there is nothing to restore", histID, id))
	}
	if len(tx.synced.Files) > 0 {
		warnings = append(warnings, tx.synced.Note())
	}
	res, err := srv.run(ctx, srv.ws.FilesSource(files))
	if err != nil {
		return nil, fmt.Errorf("history entry %d (journal entry %d) no longer runs:\n%w", histID, id, notApplied(err))
	}
	restored, err := se.restoreFiles(disk, files)
	if err != nil {
		return nil, fmt.Errorf("restoring history entry %d failed midway (%w); restored so far: %v. Read the files, then write what is missing", histID, err, restored)
	}
	out := &ChangeResult{Warnings: warnings, Restored: restored, Files: restored}
	sceneJSON, old := srv.land(res, out, nil, nil)
	var warnHistory []string
	out.Entry, warnHistory = tx.record(files, old, sceneJSON)
	out.Warnings = append(out.Warnings, warnHistory...)
	if out.Entry > 0 {
		se.noteMade(out.Entry)
	}
	out.Millis = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}
