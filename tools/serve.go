package tools

// A call as a long-lived server answers it, whatever the transport: the scene follows the
// files first (another process or an editor may have changed them), the call runs, and the
// answer carries what this client should hear beside it: files changed by someone else since
// its last call, and what the user changed in the viewer (selection, sketch). A drawing or a
// picture in the answer is taken out of its structured form, so that a transport can send it
// once, as what it is. `cadrun tool`, which makes one call, uses Call.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/engine"
)

// Answer is a tool call's answer for a transport to show.
type Answer struct {
	// Out is the answer's structured form, without the drawing or picture below; a
	// transport sends it as JSON (AnswerJSON) and, over MCP, as structured content.
	Out any
	// Picture is a PNG to show as an image (scene png, or a change's view), then Out's JSON.
	Picture []byte
	// Drawing is a drawing as text (scene svg, dxf or json), shown instead of Out's JSON.
	Drawing string
	// Note is what the client should hear beside the answer, or "".
	Note string
}

// Serve calls a tool as a server does (see the top of this file). A failed call's error
// starts with the note, so that a refused change still ends with its last line. The call ends
// with ctx and when the server stops.
func (se *Session) Serve(ctx context.Context, name string, params json.RawMessage) (*Answer, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(se.srv.Context(), func() { cancel(errors.New("the server is stopping")) })
	defer stop()
	synced, changed, err := se.BeginCall(ctx)
	if err != nil {
		return nil, err
	}
	outside := outsideNote(changed)
	out, err := se.Call(ctx, name, params)
	se.EndCall()
	note := joinNotes(outside, se.SelectionNote(), se.SketchNote())
	if err != nil {
		if note != "" {
			err = fmt.Errorf("%s\n\n%w", note, err)
		}
		return nil, err
	}
	if _, isChange := out.(*ChangeResult); !isChange && synced.Error != "" && isSceneView(out) {
		// A view of the last good scene while main on disk does not run: say so.
		note = joinNotes("note: "+synced.Note(), note)
	}
	a := &Answer{Note: note}
	a.Out, a.Picture = takePicture(out)
	if a.Picture == nil {
		a.Out, a.Drawing = takeDrawing(a.Out)
	}
	return a, nil
}

// Part is one piece of an answer as a client is shown it: an image (a PNG) or a text.
type Part struct {
	PNG  []byte
	Text string
}

// Parts is the answer as a client is shown it, in order: a picture as an image followed by
// the answer's JSON, a drawing as text, any other answer as its JSON; then the note, as a
// text of its own.
func (a *Answer) Parts() ([]Part, error) {
	var parts []Part
	if a.Drawing != "" {
		parts = append(parts, Part{Text: a.Drawing})
	} else {
		b, err := AnswerJSON(a.Out)
		if err != nil {
			return nil, err
		}
		if a.Picture != nil {
			parts = append(parts, Part{PNG: a.Picture})
		}
		parts = append(parts, Part{Text: string(b)})
	}
	if a.Note != "" {
		parts = append(parts, Part{Text: a.Note})
	}
	return parts, nil
}

// isSceneView reports an answer that shows the scene (a scene command that is not a change).
func isSceneView(out any) bool {
	o, ok := out.(SceneOut)
	return ok && o.Change == nil
}

// takePicture takes the PNG out of an answer that carries one (scene png, or a change with
// view), and answers the rest.
func takePicture(out any) (rest any, png []byte) {
	withoutView := func(c *ChangeResult) *ChangeResult {
		if c == nil || c.View == nil || c.View.PNG == nil {
			return c
		}
		cp, v := *c, *c.View
		png, v.PNG = v.PNG, nil
		cp.View = &v
		return &cp
	}
	switch o := out.(type) {
	case SceneOut:
		png, o.PNG = o.PNG, nil
		if png == nil {
			o.Change = withoutView(o.Change)
		}
		return o, png
	case *ChangeResult:
		return withoutView(o), png
	}
	return out, nil
}

// takeDrawing takes a drawing as text (svg, dxf, json) out of a scene answer; the answer
// keeps its size and what was left out.
func takeDrawing(out any) (rest any, drawing string) {
	o, ok := out.(SceneOut)
	if !ok {
		return out, ""
	}
	switch {
	case o.SVG != "":
		drawing = o.SVG
	case o.DXF != "":
		drawing = o.DXF
	case o.JSON != nil:
		drawing = string(o.JSON)
	default:
		return out, ""
	}
	o.SVG, o.DXF, o.JSON = "", "", nil
	return o, drawing
}

// AnswerJSON is an answer as JSON text for its reader: like json.Marshal, but without
// escaping <, > and & (a script's `a > b` stays readable; no answer is put into HTML).
func AnswerJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// outsideNote is the answer line for files changed by someone else, or "".
func outsideNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = runtime.PathOf(n)
	}
	return fmt.Sprintf("changed on disk since your last call (by an editor, another process or another client): %s; read before you edit them", engine.NameList(paths))
}

// joinNotes joins the non-empty notes, one per line.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}
