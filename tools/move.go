package tools

import (
	"context"
	"fmt"
	"slices"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

const deleteDescription = "Delete a file. The program runs without it first: if main still imports it, nothing is deleted and the error shows where."

const moveDescription = "Rename a file (a module, or main) to a new name. The program runs with the new name first, so a module that other files import by its old name cannot be moved: write a copy under the new name, point the imports at it, then delete the old one."

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

func deleteTool(ctx context.Context, s *Session, in DeleteIn) (*ChangeResult, error) {
	return s.commit(ctx, in.File, func(_ []byte, exists bool) (change, error) {
		if !exists {
			return change{}, noFile(s.srv.ws, in.File, globNext)
		}
		return change{
			src:   without{Source: s.srv.ws, name: in.File},
			apply: func() (bool, error) { return false, s.srv.ws.Delete(in.File) },
		}, nil
	}, "")
}

func moveTool(ctx context.Context, s *Session, in MoveIn) (*ChangeResult, error) {
	if err := modules.CheckFileName(in.To); err != nil {
		return nil, notApplied(err)
	}
	res, err := s.commit(ctx, in.File, func(current []byte, exists bool) (change, error) {
		if !exists {
			return change{}, noFile(s.srv.ws, in.File, globNext)
		}
		if _, taken, _ := s.userFile(in.To); taken {
			return change{}, fmt.Errorf("%s already exists; delete it first or choose another name", runtime.PathOf(in.To))
		}
		return change{
			src:   runtime.Overlay{Base: without{Source: s.srv.ws, name: in.File}, Name: in.To, Content: current},
			apply: func() (bool, error) { return true, s.srv.ws.Move(in.File, in.To) },
			alone: in.To,
			also:  []string{in.To},
		}, nil
	}, "")
	if res != nil {
		res.MovedTo = in.To
	}
	return res, err
}

// without shows a workspace as if one file were gone.
type without struct {
	runtime.Source
	name string
}

// Read implements runtime.Source.
func (w without) Read(name string) ([]byte, string, error) {
	if name == w.name {
		return nil, runtime.PathOf(name), fmt.Errorf("%w: %q", runtime.ErrModuleNotFound, name)
	}
	return w.Source.Read(name)
}

// Names implements runtime.Source.
func (w without) Names() []string {
	return slices.DeleteFunc(w.Source.Names(), func(n string) bool { return n == w.name })
}
