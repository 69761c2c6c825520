package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
	"github.com/cadrun/cadrun/tools/picture"
)

const sceneDescription = "The scene and its history: info, tree, groups, draw_order, entity, svg, json, dxf, png (an image), selection (what the user picked in the viewer), " +
	"undo, redo (files and scene), snapshot, snapshots, restore, reset (empties main). omitted says what an answer left out. " +
	sceneDiffDescription + " " + sceneSketchDescription + " " + sceneLintDescription + " " +
	scenePicturesDescription // view.go

// sceneCommands are the commands of the scene tool built so far.
var sceneCommands = []string{"info", "tree", "groups", "draw_order", "entity", "svg", "json", "png", "dxf", "reset", "undo", "redo", "snapshot", "snapshots", "selection", "diff", "sketch", "restore", "lint"}

// SceneIn selects a view of the scene.
type SceneIn struct {
	Command string `json:"command" jsonschema:"one of the commands the description lists"`
	Name    string `json:"name,omitempty" jsonschema:"an entity (entity; svg, json, png: only it), or a snapshot (snapshot, undo, redo)"`
	Group   string `json:"group,omitempty" jsonschema:"tree, draw_order: a group (default the top)"`
	Width   int    `json:"width,omitempty" jsonschema:"png: px"`
	Height  int    `json:"height,omitempty"`
	Offset  int    `json:"offset,omitempty" jsonschema:"the nextOffset of the last page"`
	Depth   int    `json:"depth,omitempty" jsonschema:"tree levels (0: all)"`
	// Region is a world window [minX, minY, maxX, maxY].
	Region   []float64 `json:"region,omitempty" jsonschema:"svg, json, png: [minX, minY, maxX, maxY] to show"`
	MaxBytes int       `json:"max_bytes,omitempty" jsonschema:"the answer's byte budget, at most 4194304"`
	// DXFVersion is for dxf: "12" (R12, the default) or "2000".
	DXFVersion string `json:"dxf_version,omitempty" jsonschema:"12 (default) or 2000"`
	// Against is for diff (scene_diff.go): a snapshot name, or a negative number of steps.
	Against json.RawMessage `json:"against,omitempty" jsonschema:"diff: a snapshot, or -N steps back (default -1)"`
	Clear   bool            `json:"clear,omitempty" jsonschema:"sketch: remove the strokes"`
	Journal int64           `json:"journal,omitempty" jsonschema:"restore: a journal entry's id"`
	// Focus, Highlight and Grid mark a png; View asks undo, redo and reset for one, and is
	// png's side (view.go).
	Focus     Focus     `json:"focus,omitzero"`
	Highlight Highlight `json:"highlight,omitempty"`
	Grid      bool      `json:"grid,omitempty" jsonschema:"png: a labelled grid"`
	Rings     bool      `json:"rings,omitempty" jsonschema:"png: ring highlights under 6 px"`
	Geometry  bool      `json:"geometry,omitempty" jsonschema:"entity: every vertex, past 64"`
	View      ViewIn    `json:"view,omitzero"`
}

// errorDocs names the commands when command is missing: the schema's description points at
// the tool's, which lists them once for the tool list, but an error is read on its own.
func (SceneIn) errorDocs() map[string]string {
	return map[string]string{"command": "one of " + strings.Join(sceneCommands, ", ")}
}

// SceneOut holds the one field the command fills, and what was left out to fit the budget.
type SceneOut struct {
	Info   any             `json:"info,omitempty"`
	Tree   any             `json:"tree,omitempty"`
	Groups any             `json:"groups,omitempty"`
	Order  []string        `json:"order,omitempty"`
	Entity any             `json:"entity,omitempty"`
	SVG    string          `json:"svg,omitempty"`
	JSON   json.RawMessage `json:"json,omitempty"`
	// PNG is the picture, base64 in JSON. Over MCP it travels once, as the image content;
	// the structured content then holds only Image.
	PNG   []byte     `json:"png,omitempty"`
	DXF   string     `json:"dxf,omitempty"`
	Image *ImageInfo `json:"image,omitempty"`
	// Bytes is the size of the svg or json text; over MCP the text travels once, as the text
	// content, and the structured content holds only this.
	Bytes   int      `json:"bytes,omitempty"`
	Omitted *Omitted `json:"omitted,omitempty"`
	// Change answers reset, undo and redo, as write answers a change.
	Change *ChangeResult `json:"change,omitempty"`
	// History answers snapshot and snapshots.
	History *HistoryOut `json:"history,omitempty"`
	// Selection answers selection: what the user picked in the viewer.
	Selection *modules.Selection `json:"selection,omitempty"`
	// Diff answers diff, with PNG and Image (scene_diff.go).
	Diff *DiffOut `json:"diff,omitempty"`
	// Sketch answers sketch (sketch.go).
	Sketch *SketchOut `json:"sketch,omitempty"`
	// Lint answers lint: the drawing lint's findings, one line each (scene_lint.go).
	Lint []string `json:"lint,omitempty"`
	// Note says what an answer with nothing in it means (a clean lint), so that no answer is
	// a bare {}.
	Note string `json:"note,omitempty"`
}

func sceneTool(ctx context.Context, se *Session, in SceneIn) (SceneOut, error) {
	sc := se.srv.Scene()
	var found []lint.Finding
	if in.Command == "lint" {
		sc, found = se.srv.Lint() // the findings kept with the scene (scene_lint.go)
	}
	if in.Command == "png" {
		sc = se.srv.sketched(sc) // the user's sketch over the scene (sketch.go)
	}
	var out SceneOut
	v, err := newView(sc, in)
	if err != nil {
		return out, err
	}
	if in.Name != "" && slices.Contains(entityCommands, in.Command) && !sc.Exists(in.Name) {
		return out, picture.NoEntity(sc, in.Name)
	}
	if in.Group != "" && (in.Command == "tree" || in.Command == "draw_order") && !sc.Exists(in.Group) {
		return out, picture.NoEntity(sc, in.Group)
	}
	switch in.Command {
	case "info":
		out.Info, err = v.Rounded(infoOf(sc))
	case "tree":
		out.Tree, out.Omitted, err = v.Tree()
	case "groups":
		out.Groups, out.Omitted = v.Groups()
	case "draw_order":
		out.Order, out.Omitted, err = v.DrawOrder()
	case "entity":
		if in.Name == "" {
			return out, fmt.Errorf("%w: entity needs name", ErrBadInput)
		}
		out.Entity, out.Omitted, err = v.Entity()
	case "svg":
		out.SVG, out.Omitted, err = v.SVG(ctx)
		out.Bytes = len(out.SVG)
	case "json":
		out.JSON, out.Omitted, err = v.JSON(ctx)
		out.Bytes = len(out.JSON)
	case "dxf":
		out.DXF, out.Omitted, err = v.dxf() // scene_export.go
		out.Bytes = len(out.DXF)
	case "reset":
		out.Change, err = changed(se.Commit(ctx, runtime.MainModule, func([]byte, bool) (modules.Change, error) {
			return modules.Change{Name: runtime.MainModule, Next: []byte{}}, nil
		}, ""))
	case "undo", "redo":
		out.Change, err = changed(se.Travel(ctx, in.Command == "undo", in.Name))
	case "snapshot":
		out.History, err = se.Snapshot(ctx, in.Name)
	case "snapshots":
		out.History = se.Snapshots()
	case "restore":
		out.Change, err = se.restoreJournal(ctx, in.Journal) // journal_restore.go
	case "selection":
		out.Selection, err = se.selection()
	case "png":
		out.PNG, out.Image, out.Omitted, err = v.png(ctx, se.lastLanded)
	case "diff":
		out.Diff, out.PNG, out.Image, out.Omitted, err = se.sceneDiff(ctx, v, in.Against)
	case "sketch":
		out.Sketch, out.Omitted, err = se.sceneSketch(ctx, v, in.Clear)
	case "lint":
		out.Lint, out.Omitted, out.Note = v.lint(found)
	default:
		return out, fmt.Errorf("%w: unknown scene command %q; use %s", ErrBadInput, in.Command, strings.Join(sceneCommands, ", "))
	}
	return out, err
}

// maxInfoNames caps the top-level names scene info lists.
const maxInfoNames = 50

// infoAnswer is scene info's answer: the counts and bounds, and the names at the top level,
// back to front, so that an agent knows what to ask about next.
type infoAnswer struct {
	scene.Info
	Top      []string `json:"top"`
	TopCount int      `json:"top_count"`
	Note     string   `json:"note,omitempty"`
}

func infoOf(sc *scene.Scene) infoAnswer {
	a := infoAnswer{Info: sc.Info(), Top: []string{}}
	for _, n := range sc.Tree() {
		a.TopCount++
		if len(a.Top) < maxInfoNames {
			a.Top = append(a.Top, n.Name)
		}
	}
	if a.TopCount > len(a.Top) {
		a.Note = fmt.Sprintf("top lists the first %d of %d top-level names; tree pages through them all", len(a.Top), a.TopCount)
	}
	return a
}
