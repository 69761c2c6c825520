package render

// The side a picture of solids is seen from. The standard views are drafting's, third-angle,
// with Z up: front looks along +Y (from -Y), right along -X, top down -Z, and their opposites;
// iso is the view every picture of solids had before there was a choice. One type carries the
// choice from every caller (a tool's JSON, a command-line flag) to the renderer, and checks it
// in one place, so that every caller refuses the same values with the same words.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// ErrCamera is returned for a view that is neither a standard view's name, "sheet", nor a
// finite direction [x, y, z] of some length; the message lists what is accepted.
var ErrCamera = errors.New("bad view")

// Camera is the side a picture of solids shows them from: a standard view's Name (see
// StandardViews), SheetView, or, with Name "", the direction From that the camera looks from
// (towards the solids; its length does not matter). The zero value is the iso view.
type Camera struct {
	Name string
	From scene.Vec3
}

// SheetView names the four-view sheet: front, top, right and iso in one picture, each
// labelled, the three flat views at one scale and lined up as on a drawing.
const SheetView = "sheet"

// standardView is a view's direction (towards the camera) and the world direction that
// points up on the screen.
type standardView struct {
	name     string
	from, up scene.Vec3
	words    string // how the view is seen, for a picture's description
}

// standardViews are the standard views, iso first (the default). The bottom view is turned
// from the front about X, as drafting lays it out below the front view: Y points down on it.
var standardViews = []standardView{
	{"iso", scene.Vec3{1, -1, 1}, scene.Vec3{0, 0, 1}, "an isometric view of the solids (Z up, seen from the front-right-top, along (-1, 1, -1) towards the origin)"},
	{"front", scene.Vec3{0, -1, 0}, scene.Vec3{0, 0, 1}, "the front view of the solids (seen from -Y: X right, Z up)"},
	{"top", scene.Vec3{0, 0, 1}, scene.Vec3{0, 1, 0}, "the top view of the solids (seen from +Z: X right, Y up)"},
	{"right", scene.Vec3{1, 0, 0}, scene.Vec3{0, 0, 1}, "the right view of the solids (seen from +X: Y right, Z up)"},
	{"back", scene.Vec3{0, 1, 0}, scene.Vec3{0, 0, 1}, "the back view of the solids (seen from +Y: -X right, Z up)"},
	{"left", scene.Vec3{-1, 0, 0}, scene.Vec3{0, 0, 1}, "the left view of the solids (seen from -X: -Y right, Z up)"},
	{"bottom", scene.Vec3{0, 0, -1}, scene.Vec3{0, -1, 0}, "the bottom view of the solids (seen from -Z: X right, -Y up)"},
}

// StandardViews lists the standard views' names, iso (the default) first.
func StandardViews() []string {
	out := make([]string, len(standardViews))
	for i, v := range standardViews {
		out[i] = v.name
	}
	return out
}

// cameraChoices is the accepted values in words, for messages.
var cameraChoices = strings.Join(StandardViews(), ", ") + ", " + SheetView + ", or a direction [x, y, z] the camera looks from"

// ParseCamera reads a view as the command line gives it: a name (case-insensitive), or a
// direction "x,y,z".
func ParseCamera(s string) (Camera, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if strings.Contains(t, ",") {
		parts := strings.Split(strings.Trim(t, "[]"), ",")
		var c Camera
		if len(parts) != 3 {
			return Camera{}, fmt.Errorf("%w %q: give %s", ErrCamera, s, cameraChoices)
		}
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return Camera{}, fmt.Errorf("%w %q: give %s", ErrCamera, s, cameraChoices)
			}
			c.From[i] = v
		}
		if c.From == (scene.Vec3{}) {
			return Camera{}, fmt.Errorf("%w %q: a direction must not be zero; give %s", ErrCamera, s, cameraChoices)
		}
		return c, c.Check()
	}
	if t == "" {
		return Camera{}, fmt.Errorf("%w \"\": give %s", ErrCamera, cameraChoices)
	}
	c := Camera{Name: t}
	return c, c.Check()
}

// Check refuses an unknown name and a direction that is not finite or has no length.
func (c Camera) Check() error {
	if c.Name == "" && c.From != (scene.Vec3{}) {
		f := c.From
		if !finite3(f) || dot3(f, f) == 0 || math.IsInf(dot3(f, f), 0) {
			return fmt.Errorf("%w [%v, %v, %v]: a direction must be finite and not zero; give %s", ErrCamera, f[0], f[1], f[2], cameraChoices)
		}
		return nil
	}
	if c.Name == "" || c.Name == SheetView {
		return nil
	}
	for _, v := range standardViews {
		if v.name == c.Name {
			return nil
		}
	}
	return fmt.Errorf("%w %q: give %s", ErrCamera, c.Name, cameraChoices)
}

func finite3(v scene.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// IsZero reports the default view (iso), given or not.
func (c Camera) IsZero() bool { return c.Name == "" && c.From == (scene.Vec3{}) || c.Name == "iso" }

// String is the view as ParseCamera reads it.
func (c Camera) String() string {
	if c.Name != "" {
		return c.Name
	}
	if c.From == (scene.Vec3{}) {
		return "iso"
	}
	return fmt.Sprintf("%s,%s,%s", fmtVec(c.From[0]), fmtVec(c.From[1]), fmtVec(c.From[2]))
}

func fmtVec(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Set implements flag.Value: -view front, -view 1,-1,1.
func (c *Camera) Set(s string) error {
	v, err := ParseCamera(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// UnmarshalJSON implements json.Unmarshaler: a name, or [x, y, z].
func (c *Camera) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err == nil {
		v := Camera{Name: strings.ToLower(name)}
		if v.Name == "" {
			return fmt.Errorf("%w \"\": give %s", ErrCamera, cameraChoices)
		}
		if err := v.Check(); err != nil {
			return err
		}
		*c = v
		return nil
	}
	var dir []float64
	if err := json.Unmarshal(b, &dir); err != nil || len(dir) != 3 {
		return fmt.Errorf("%w %s: give %s", ErrCamera, b, cameraChoices)
	}
	v := Camera{From: scene.Vec3{dir[0], dir[1], dir[2]}}
	if v.From == (scene.Vec3{}) {
		return fmt.Errorf("%w [0, 0, 0]: a direction must not be zero; give %s", ErrCamera, cameraChoices)
	}
	if err := v.Check(); err != nil {
		return err
	}
	*c = v
	return nil
}

// MarshalJSON implements json.Marshaler: the inverse of UnmarshalJSON.
func (c Camera) MarshalJSON() ([]byte, error) {
	if c.Name == "" && c.From != (scene.Vec3{}) {
		return json.Marshal([]float64{c.From[0], c.From[1], c.From[2]})
	}
	return json.Marshal(c.String())
}

// Describe says in words how the picture sees the solids.
func (c Camera) Describe() string {
	switch {
	case c.Name == SheetView:
		return "four views of the solids, each labelled: top (top left) over front (bottom left) and right (bottom right) beside front, " +
			"the three at one scale and lined up as on a drawing, and iso (top right)"
	case c.Name == "" && c.From != (scene.Vec3{}):
		up := "Z up"
		if b := c.basis(); b.up[1] == 1 {
			up = "Y up"
		} else if b.up[1] == -1 {
			up = "-Y up"
		}
		return fmt.Sprintf("the solids seen from (%s, %s, %s) towards the origin, %s", fmtVec(c.From[0]), fmtVec(c.From[1]), fmtVec(c.From[2]), up)
	}
	return c.standard().words
}

func (c Camera) standard() standardView {
	for _, v := range standardViews {
		if v.name == c.Name {
			return v
		}
	}
	return standardViews[0]
}

// camBasis is a camera's frame: right and up on the screen, and forward (away from the
// camera, into the picture); unit and square to each other, right-handed as (right, up,
// -forward).
type camBasis struct{ right, up, fwd scene.Vec3 }

// basis is the camera's frame. A direction has Z up on the screen, as far as it can: up is
// Z made square to the line of sight; looking along Z, it is Y (from above) or -Y (from
// below), as on the top and bottom views.
func (c Camera) basis() camBasis {
	from, up := c.From, scene.Vec3{0, 0, 1}
	if c.Name != "" || from == (scene.Vec3{}) {
		v := c.standard()
		from, up = v.from, v.up
	}
	f := normalize3(from)
	if c.Name == "" && math.Hypot(f[0], f[1]) < 1e-9 {
		up = scene.Vec3{0, math.Copysign(1, f[2]), 0}
	}
	up = normalize3(sub3(up, scale3(f, dot3(up, f))))
	return camBasis{right: cross3(up, f), up: up, fwd: scale3(f, -1)}
}

// screen is where p lands on the screen plane, in scene units along right and up.
func (b camBasis) screen(p scene.Vec3) geom.Vec {
	return geom.Vec{X: dot3(p, b.right), Y: dot3(p, b.up)}
}
