package render

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/cadrun/cadrun/scene"
)

// Request says what to write a scene as, in a form that crosses to a worker process: `cadrun
// run -o` has its worker write the file (runtime.Pool.Export) rather than send the scene back
// to be read and rendered.
type Request struct {
	Ext     string // the output's extension, as Format.Ext
	Options Options
}

// Export writes s to w as request, a Request in JSON, asks, and answers the warning of what
// the file leaves out (Format.LeftOut): the runtime.ExportFunc cadrun's workers serve with.
// An SVG, an STL and a 3MF are written in pieces as they are made (WriteSVG, WriteSTL,
// WriteThreeMF), so that the first bytes are on their way while the rest is written; the
// other formats in one Write.
func Export(w io.Writer, s *scene.Scene, request []byte) (warnings []string, err error) {
	var r Request
	if err := json.Unmarshal(request, &r); err != nil {
		return nil, fmt.Errorf("reading the export request: %w", err)
	}
	f, err := ByExt(r.Ext)
	if err != nil {
		return nil, err
	}
	if s, err = SelectLayers(s, r.Options.Layers); err != nil {
		return nil, err
	}
	if f.write != nil {
		err = f.write(w, s, r.Options)
	} else {
		var b []byte
		if b, err = f.Render(s, r.Options); err == nil {
			_, err = w.Write(b)
		}
	}
	if err != nil {
		return nil, err
	}
	if l := f.LeftOut(s); l != "" {
		warnings = append(warnings, l)
	}
	return warnings, nil
}
