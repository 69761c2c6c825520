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
	return changed(se.Restore(ctx, link.Entry, link.State, fmt.Sprintf("journal entry %d", id)))
}
