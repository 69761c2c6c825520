package tools

// The scene as DXF, for `scene dxf` and the cadrun://scene.dxf resource. A DXF is text an
// agent can read or hand on, but a large scene makes a large file, so the answer is capped
// and a bigger drawing is pointed at the export tool, which writes it to out/ with no cap (over
// MCP or `cadrun tool` alike, where `cadrun run -o` would need a shell the agent may not have).

import (
	"errors"
	"fmt"

	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// ErrDXFTooLarge is returned when the scene's DXF is over MaxDXFText.
var ErrDXFTooLarge = errors.New("dxf too large")

// MaxDXFText caps the DXF that `scene dxf` and cadrun://scene.dxf answer with, in bytes.
const MaxDXFText = 1 << 20

// sceneDXF writes the scene as DXF of the given version ("" or "12" for R12, "2000").
func sceneDXF(s *scene.Scene, version string) (string, error) {
	opt := render.DXFOptions{}
	if version != "" {
		v, err := render.ParseDXFVersion(version)
		if err != nil {
			return "", fmt.Errorf("%w: dxf_version %q: use 12 or 2000", ErrBadInput, version)
		}
		opt.Version = v
	}
	b, err := render.DXF(s, opt)
	if err != nil {
		return "", err
	}
	if len(b) > MaxDXFText {
		return "", fmt.Errorf("%w: the scene's DXF is %d bytes, over the %d-byte limit of an answer (MaxDXFText); write it to a file instead: export {\"path\":\"out/part.dxf\"}",
			ErrDXFTooLarge, len(b), MaxDXFText)
	}
	return string(b), nil
}

// dxf answers scene dxf: the DXF when it fits the answer's budget (max_bytes, 64 KiB by
// default, as svg); a bigger one is left out, named with the ways to get it.
func (v *view) dxf() (string, *Omitted, error) {
	text, err := sceneDXF(v.Scene, v.in.DXFVersion)
	if err != nil {
		return "", nil, err
	}
	if len(text) <= v.Budget {
		return text, sceneview.SolidsLeftOut(v.Scene, ".dxf"), nil
	}
	return "", &Omitted{Total: v.Scene.Len(), Note: fmt.Sprintf("the DXF of %d entities is %d bytes, over the budget of %d: write it to a file with export {\"path\":\"out/part.dxf\"}, or ask with a larger max_bytes (up to %d)",
		v.Scene.Len(), len(text), v.Budget, min(MaxAnswerBudget, MaxDXFText))}, nil
}
