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

// Export writes s to w as request, a Request in JSON, asks: the runtime.ExportFunc cadrun's
// workers serve with. An SVG is written in pieces as they are made (WriteSVG), so that its
// first bytes are on their way while the rest is written; the other formats in one Write.
func Export(w io.Writer, s *scene.Scene, request []byte) error {
	var r Request
	if err := json.Unmarshal(request, &r); err != nil {
		return fmt.Errorf("reading the export request: %w", err)
	}
	f, err := ByExt(r.Ext)
	if err != nil {
		return err
	}
	if f.Ext == ".svg" {
		return WriteSVG(w, s, SVGOptions{})
	}
	b, err := f.Render(s, r.Options)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
