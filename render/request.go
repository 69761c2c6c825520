package render

import (
	"encoding/json"
	"fmt"

	"github.com/cadrun/cadrun/scene"
)

// Request says what to write a scene as, in a form that crosses to a worker process: `cadrun
// run -o` has its worker write the file (runtime.Pool.Export) rather than send the scene back
// to be read and rendered.
type Request struct {
	Ext     string // the output's extension, as Format.Ext
	Options Options
}

// Export writes s as request, a Request in JSON, asks: the runtime.ExportFunc cadrun's
// workers serve with.
func Export(s *scene.Scene, request []byte) ([]byte, error) {
	var r Request
	if err := json.Unmarshal(request, &r); err != nil {
		return nil, fmt.Errorf("reading the export request: %w", err)
	}
	f, err := ByExt(r.Ext)
	if err != nil {
		return nil, err
	}
	return f.Render(s, r.Options)
}
