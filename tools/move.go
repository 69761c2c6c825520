package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// ErrImported is returned when a delete would leave an import without its module.
var ErrImported = errors.New("still imported")

const deleteDescription = "Delete a file. The program runs without it first: if main still imports it, nothing is deleted and the error shows where."

const moveDescription = "Rename a file. The program runs with the new name first, so a module still imported by its old name cannot be moved: copy it, repoint the imports, delete the old."

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
		if err := stillImported(se.srv.ws, in.File); err != nil {
			return modules.Change{}, err
		}
		return modules.Change{Name: in.File, Delete: true}, nil
	}, ""))
}

// maxImportersListed caps the import lines a refused delete names.
const maxImportersListed = 5

// stillImported refuses to delete a module the workspace's files import, naming each import
// by file and line: the run without it would fail at the first of them with "module not
// found", which reads as if the agent had misspelt its name. A module that overrides a
// built-in is not refused (the imports then find the built-in), nor is main or a data file;
// a file that does not parse is left to the run, which says why.
func stillImported(ws *modules.Workspace, name string) error {
	if name == runtime.MainModule || modules.IsDataName(name) || modules.IsBuiltin(name) {
		return nil
	}
	var sites []string
	count := 0
	for _, f := range ws.ListUser() {
		if (f.Kind != modules.KindMain && f.Kind != modules.KindModule) || f.Name == name {
			continue
		}
		b, path, err := ws.Read(f.Name)
		if err != nil {
			continue
		}
		syms, err := runtime.Symbols(path, b)
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for _, imp := range syms.Imports {
			if imp.From != name {
				continue
			}
			if count++; len(sites) < maxImportersListed {
				src := ""
				if imp.Line-1 < len(lines) {
					src = engine.Clip([]byte(strings.TrimSpace(lines[imp.Line-1])), 60)
				}
				sites = append(sites, fmt.Sprintf("%s imports it at line %d (%s)", f.Name, imp.Line, src))
			}
		}
	}
	if count == 0 {
		return nil
	}
	more := ""
	if count > len(sites) {
		more = fmt.Sprintf(", and %d more imports", count-len(sites))
	}
	return fmt.Errorf("%w: %s: %s%s; remove the imports and what uses them, then delete %s", ErrImported, name, strings.Join(sites, "; "), more, name)
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
