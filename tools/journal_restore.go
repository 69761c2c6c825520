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

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
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
	entries, missing, err := j.Get(ctx, []int64{id})
	switch {
	case err != nil:
		return nil, err
	case len(missing) > 0:
		return nil, fmt.Errorf("%w: there is no journal entry %d; search lists the entries", ErrBadInput, id)
	case entries[0].HistoryEntry == 0:
		return nil, fmt.Errorf("%w: journal entry %d was saved in a workspace with no files and no history, so there is no state to restore", ErrBadInput, id)
	}
	histID := entries[0].HistoryEntry
	var restored []string
	planned := false
	out, err := se.commit(ctx, runtime.MainModule, func([]byte, bool) (change, error) {
		h, _ := se.srv.loadHistory()
		i := h.Index(histID)
		if i < 0 {
			return change{}, fmt.Errorf("journal entry %d speaks of history entry %d, which the history no longer holds (it keeps the newest %d entries, snapshots first); take a snapshot to keep a state for good", id, histID, modules.MaxHistory)
		}
		files, err := h.Files(h.Entries[i])
		if err != nil {
			return change{}, err
		}
		current, err := se.srv.ws.UserFiles()
		if err != nil {
			return change{}, fmt.Errorf("reading the workspace: %w", err)
		}
		differ := changedFiles(hashFiles(current), hashFiles(files))
		if len(differ) == 0 {
			return change{}, fmt.Errorf("the workspace already holds the files of history entry %d (journal entry %d); there is nothing to restore", histID, id)
		}
		planned = true
		return change{
			src: se.srv.ws.FilesSource(files),
			apply: func() (bool, error) {
				restored, err = se.srv.ws.Restore(files)
				if err != nil {
					return false, fmt.Errorf("restoring history entry %d failed midway (%w); restored so far: %v. Read the files, then write what is missing", histID, err, restored)
				}
				for _, n := range restored {
					if b, ok := files[n]; ok {
						se.noteRead(n, b)
					}
				}
				return false, nil
			},
			also: differ,
		}, nil
	}, "")
	if err != nil && planned && restored == nil {
		return nil, fmt.Errorf("history entry %d (journal entry %d) no longer runs:\n%w", histID, id, err)
	}
	if err != nil {
		return nil, err
	}
	out.File, out.Restored, out.Files = "", restored, restored
	return out, nil
}
