package importer

// Linetypes: a DXF linetype cadrun has (DASHED, HIDDEN, CENTER, PHANTOM, DOT, and their
// half and double variants DASHED2 and DASHEDX2, and cadrun's own DASHED_X0_5) becomes a
// setLinetype on the layer's group or on the entity, with the variant's scale times the
// entity's own (group 48). Any other linetype is drawn continuous and noted.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// linetypeCall is the setLinetype call for target (a JS expression) drawn in the DXF
// linetype name at scale, or "" for a continuous line or one cadrun does not have, which is
// noted against kind.
func (g *gen) linetypeCall(kind, name, target string, scale float64) string {
	base, k, ok := linetypeOf(name)
	if !ok {
		if name != "" {
			g.note(kind, fmt.Sprintf("linetype %s is not one of cadrun's (%s), drawn continuous", name, strings.Join(scene.LinetypeNames(), ", ")))
		}
		return ""
	}
	if base == "" {
		return ""
	}
	if scale <= 0 {
		scale = 1
	}
	if k *= scale; k == 1 {
		return fmt.Sprintf("setLinetype(%s, '%s');\n", target, base)
	}
	return fmt.Sprintf("setLinetype(%s, '%s', {scale: %s});\n", target, base, num(k))
}

// linetypeOf reads a DXF linetype name: cadrun's linetype and its scale, "" for a continuous
// line (CONTINUOUS, BYLAYER, BYBLOCK, none), and false for a linetype cadrun does not have.
func linetypeOf(name string) (string, float64, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "", "continuous", "bylayer", "byblock":
		return "", 1, true
	}
	scale := 1.0
	switch {
	case strings.Contains(n, "_x"): // cadrun's own: DASHED_X0_5 is dashed at 0.5
		i := strings.Index(n, "_x")
		k, err := strconv.ParseFloat(strings.ReplaceAll(n[i+2:], "_", "."), 64)
		if err != nil || !(k > 0) {
			return "", 0, false
		}
		n, scale = n[:i], k
	case strings.HasSuffix(n, "x2"): // acad.lin's double size
		n, scale = strings.TrimSuffix(n, "x2"), 2
	case strings.HasSuffix(n, "2"): // acad.lin's half size
		n, scale = strings.TrimSuffix(n, "2"), 0.5
	}
	if _, err := scene.LookupLinetype(n); err != nil || n == "continuous" {
		return "", 0, false
	}
	return n, scale, true
}
