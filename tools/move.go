package tools

import (
	"context"
	"fmt"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

const deleteDescription = "Delete a file. The program runs without it first: if main still imports it, nothing is deleted and the error shows where."

const moveDescription = "Rename a file. The program runs with the new name first, so a module still imported by its old name cannot be moved: copy it, point the imports at the copy, then delete the old one."

// DeleteIn names the file to delete.
type DeleteIn struct {
	File string `json:"file" jsonschema:"'main' or a module name"`
	View ViewIn `json:"view,omitzero"` // a picture with the answer (view.go)
}

// MoveIn names the file and its new name.
type MoveIn struct {
	File string `json:"file" jsonschema:"the current name"`
	To   string `json:"to" jsonschema:"the new name"`
	View ViewIn `json:"view,omitzero"` // a picture with the answer (view.go)
}

func deleteTool(ctx context.Context, se *Session, in DeleteIn) (*ChangeResult, error) {
	return changed(se.Commit(ctx, in.File, func(_ []byte, exists bool) (modules.Change, error) {
		if !exists {
			return modules.Change{}, noFile(se.srv.ws, in.File, globNext)
		}
		return modules.Change{Name: in.File, Delete: true}, nil
	}, ""))
}

func moveTool(ctx context.Context, se *Session, in MoveIn) (*ChangeResult, error) {
	if err := modules.CheckFileName(in.To); err != nil {
		return nil, engine.NotApplied(err)
	}
	res, err := se.Commit(ctx, in.File, func(current []byte, exists bool) (modules.Change, error) {
		if !exists {
			return modules.Change{}, noFile(se.srv.ws, in.File, globNext)
		}
		if _, taken, _ := se.srv.UserFile(in.To); taken {
			return modules.Change{}, fmt.Errorf("%s already exists; delete it first or choose another name", runtime.PathOf(in.To))
		}
		return modules.Change{Name: in.File, MoveTo: in.To}, nil
	}, "")
	if res != nil {
		res.MovedTo = in.To
	}
	return changed(res, err)
}
