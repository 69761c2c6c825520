package importer

// Linetypes: a DXF linetype cadrun has (DASHED, HIDDEN, CENTER, PHANTOM, DOT, and their
// half and double variants DASHED2 and DASHEDX2, and cadrun's own DASHED_X0_5) becomes a
// setLinetype on the layer's group or on the entity, with the variant's scale times the
// entity's own (group 48). Any other linetype is drawn continuous and noted.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
)

// linetypeCall is the setLinetype call for target (a JS expression) drawn in the DXF
// linetype name at scale, or "" for a continuous line or one cadrun does not have, which is
// noted against kind. A scale the scene cannot hold (over MaxCoord) is an entityError.
func (g *gen) linetypeCall(kind, name, target string, scale float64) (string, error) {
	base, k, ok, unscaled := linetypeOf(name)
	if !ok {
		if name != "" {
			g.note(kind, fmt.Sprintf("linetype %s is not one of cadrun's (%s), drawn continuous", name, strings.Join(scene.LinetypeNames(), ", ")))
		}
		return "", nil
	}
	if base == "" {
		return "", nil
	}
	if unscaled {
		g.note(kind, fmt.Sprintf("linetype %s: its scale is not a finite positive number, drawn %s unscaled", name, base))
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
	case strings.HasSuffix(n, "x2"): // acad.lin's double size
		n, scale = strings.TrimSuffix(n, "x2"), 2
	case strings.HasSuffix(n, "2"): // acad.lin's half size
		n, scale = strings.TrimSuffix(n, "2"), 0.5
	}
	if _, err := scene.LookupLinetype(n); err != nil || n == "continuous" {
		return "", 0, false, false
	}
	return n, scale, true, unscaled
}
