package importer

// Linetypes: a DXF linetype cadrun has (DASHED, HIDDEN, CENTER, PHANTOM, DOT, and their
// half and double variants DASHED2 and DASHEDX2, and cadrun's own DASHED_X0_5) becomes the
// layer's linetype or a setLinetype on the entity, with the variant's scale times the
// entity's own (group 48). One of the other patterns CAD programs ship (acad.lin's DASHDOT,
// DIVIDE, BORDER, the ISO 128 ones) is drawn as cadrun's nearest pattern, the one with the
// same rhythm of dashes and dots, and noted: a centre line must still read as one. Any other
// linetype (with text or shapes in it) is drawn continuous and noted.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/drafting"
)

// linetypeCall is the setLinetype call for target (a JS expression) drawn in the DXF
// linetype name at scale, or "" for a continuous line or one cadrun does not have, which is
// noted against kind. A scale the scene cannot hold (over MaxCoord) is an entityError.
func (g *gen) linetypeCall(kind, name, target string, scale float64) (string, error) {
	base, k := g.linetype(kind, name)
	if base == "" {
		return "", nil
	}
	if scale <= 0 {
		scale = 1
	}
	if k *= scale; k == 1 {
		return fmt.Sprintf("setLinetype(%s, '%s');\n", target, base), nil
	}
	if err := checkNums(fmt.Sprintf("a linetype scale (%s times group 48)", name), k); err != nil {
		return "", err
	}
	return fmt.Sprintf("setLinetype(%s, '%s', {scale: %s});\n", target, base, num(k)), nil
}

// linetype is cadrun's linetype for a DXF linetype name and its scale, "" for a continuous
// line; a linetype drawn as another, or unscaled, or continuous for want of one, is noted
// against kind.
func (g *gen) linetype(kind, name string) (string, float64) {
	base, k, ok, unscaled := linetypeOf(name)
	if !ok {
		if name != "" {
			g.note(kind, fmt.Sprintf("linetype %s is not one of cadrun's (%s), drawn continuous", name, strings.Join(drafting.LinetypeNames(), ", ")))
		}
		return "", 1
	}
	if n := strings.ToLower(strings.TrimSpace(name)); base != "" && nearestOf(n) != "" {
		g.note(kind, fmt.Sprintf("linetype %s is not one of cadrun's, drawn as its nearest, %s", name, base))
	}
	if unscaled {
		g.note(kind, fmt.Sprintf("linetype %s: its scale is not a finite positive number, drawn %s unscaled", name, base))
	}
	return base, k
}

// nearest are the linetypes CAD programs ship that cadrun lacks, by the one of cadrun's with
// the same rhythm: dash-dot patterns as center, dash-dot-dot ones as phantom, a dash and a
// space as dashed. acad.lin's names take their 2 and X2 variants as cadrun's own do.
var nearest = map[string]string{
	"dashdot": "center", "border": "center", "divide": "phantom",
	"acad_iso02w100": "dashed", "acad_iso03w100": "dashed", "acad_iso04w100": "center",
	"acad_iso05w100": "phantom", "acad_iso06w100": "phantom", "acad_iso07w100": "dot",
	"acad_iso08w100": "center", "acad_iso09w100": "phantom", "acad_iso10w100": "center",
	"acad_iso11w100": "center", "acad_iso12w100": "phantom", "acad_iso13w100": "phantom",
	"acad_iso14w100": "phantom", "acad_iso15w100": "phantom",
	"dashdotdot": "phantom", "dash": "dashed",
}

// nearestOf is the nearest of cadrun's linetypes to a lower-case DXF linetype name that
// cadrun lacks, its 2 and X2 variants included, or "".
func nearestOf(n string) string {
	if lt, ok := nearest[n]; ok {
		return lt
	}
	for _, suffix := range []string{"x2", "2"} {
		if lt, ok := nearest[strings.TrimSuffix(n, suffix)]; ok && strings.HasSuffix(n, suffix) {
			return lt
		}
	}
	return ""
}

// linetypeOf reads a DXF linetype name: cadrun's linetype and its scale, "" for a continuous
// line (CONTINUOUS, BYLAYER, BYBLOCK, none), and false for a linetype cadrun does not have.
// A name of cadrun's own form whose scale is a number but not a finite positive one within
// MaxCoord (DASHED_Xinf, DASHED_X0) is the linetype unscaled (unscaled is true): the name
// says which linetype, and only its scale cannot be drawn.
func linetypeOf(name string) (base string, scale float64, ok, unscaled bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "", "continuous", "bylayer", "byblock":
		return "", 1, true, false
	}
	scale = 1.0
	switch {
	case strings.Contains(n, "_x"): // cadrun's own: DASHED_X0_5 is dashed at 0.5
		i := strings.Index(n, "_x")
		k, err := strconv.ParseFloat(strings.ReplaceAll(n[i+2:], "_", "."), 64)
		var numErr *strconv.NumError
		if err != nil && !(errors.As(err, &numErr) && numErr.Err == strconv.ErrRange) {
			return "", 0, false, false // not a number: a linetype of another name
		}
		n = n[:i]
		if k > 0 && k <= scene.MaxCoord {
			scale = k
		} else {
			unscaled = true
		}
	case nearest[n] != "":
		n = nearest[n]
	case strings.HasSuffix(n, "x2"): // acad.lin's double size
		n, scale = strings.TrimSuffix(n, "x2"), 2
	case strings.HasSuffix(n, "2"): // acad.lin's half size
		n, scale = strings.TrimSuffix(n, "2"), 0.5
	}
	if lt, ok := nearest[n]; ok {
		n = lt
	}
	if _, err := drafting.LookupLinetype(n); err != nil || n == "continuous" {
		return "", 0, false, false
	}
	return n, scale, true, unscaled
}
