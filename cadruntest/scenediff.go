package cadruntest

// Comparing scenes as data, not as bytes: two scene.json files are the same when they hold
// the same entities in the same order with numbers within a tolerance, so that a refactor
// whose arithmetic rounds differently, but moves nothing, passes. Which entities differ, and
// in what, is scene.Compare's answer, the one a change's answer and the scene diff tool give;
// the words here are this package's own. A difference is told in
// words a reviewer can check against the picture: which entity was added, removed, moved
// (and how far), resized, reshaped, restyled, regrouped or drawn in another order.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

// DefaultTolerance is how far apart two numbers of a scene may be and still count as equal:
// relative to the larger of the two, absolute below 1 (1e-6 of a scene unit).
const DefaultTolerance = 1e-6

// maxChanges is how many changes a report lists; the rest are counted.
const maxChanges = 20

// entityJSON is one entity as scene.json stores it.
type entityJSON struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Parent    string `json:"parent"`
	Geometry  any    `json:"geometry"`
	Transform any    `json:"transform"`
	Style     any    `json:"style"`
}

// DiffScenes compares two scene.json documents and describes what changed, one sentence per
// change; no sentences means the scenes are equal within tol (0 means DefaultTolerance).
func DiffScenes(oldJSON, newJSON []byte, tol float64) ([]string, error) {
	return diffScenes(oldJSON, newJSON, tol, nil)
}

// diffScenes is DiffScenes for scenes whose texts may use the workspace fonts fonts.
func diffScenes(oldJSON, newJSON []byte, tol float64, fonts map[string]*text.Font) ([]string, error) {
	if tol <= 0 {
		tol = DefaultTolerance
	}
	oldScene, oldEnts, err := readScene(oldJSON, fonts)
	if err != nil {
		return nil, fmt.Errorf("reading the snapshot scene: %w", err)
	}
	newScene, newEnts, err := readScene(newJSON, fonts)
	if err != nil {
		return nil, fmt.Errorf("reading the new scene: %w", err)
	}
	oldBy, newBy := byName(oldEnts), byName(newEnts)
	d := scene.Compare(oldScene, newScene, tol)
	var out []string
	for _, name := range d.Added {
		out = append(out, fmt.Sprintf("added %s %q at %s", newBy[name].Kind, name, at(centre(newScene, name))))
	}
	for _, name := range d.Removed {
		out = append(out, fmt.Sprintf("removed %s %q from %s", oldBy[name].Kind, name, at(centre(oldScene, name))))
	}
	changed := make(map[string]scene.EntityDiff, len(d.Changed))
	for _, c := range d.Changed {
		changed[c.Name] = c
	}
	moves := map[string]geom.Vec{} // how far each entity's centre moved
	for _, o := range oldEnts {
		if _, ok := newBy[o.Name]; ok {
			moves[o.Name] = centre(newScene, o.Name).Sub(centre(oldScene, o.Name))
		}
	}
	told := map[string]bool{}   // entities whose move is told, by themselves or with their group
	restacked := false          // an entity's place in the drawing order changed
	for _, o := range oldEnts { // parents come before their members
		c, ok := changed[o.Name]
		if !ok {
			continue
		}
		n := newBy[o.Name]
		restacked = restacked || c.Has("z") || c.Has("group")
		changes := entityChanges(o, n, c, oldScene, newScene, tol)
		// A member that only moved, as far as its group did, is told with the group, when the
		// group's move is told (a group whose own transform did not change tells nothing).
		if p, ok := moves[n.Parent]; ok && told[n.Parent] && n.Parent == o.Parent && len(changes) == 1 && strings.HasPrefix(changes[0], "moved ") {
			if d := moves[n.Name]; near(d.X, p.X, tol) && near(d.Y, p.Y, tol) {
				told[n.Name] = true
				continue
			}
		}
		for _, ch := range changes {
			if strings.HasPrefix(ch, "moved ") {
				told[n.Name] = true
			}
		}
		out = append(out, changes...)
	}
	if restacked {
		if s := orderChange(oldEnts, newBy, newEnts, oldBy); s != "" {
			out = append(out, s)
		}
	}
	if len(out) > maxChanges {
		n := len(out) - maxChanges
		out = append(out[:maxChanges], fmt.Sprintf("... and %d more changes", n))
	}
	return out, nil
}

// byName indexes entities by name.
func byName(ents []entityJSON) map[string]entityJSON {
	by := make(map[string]entityJSON, len(ents))
	for _, e := range ents {
		by[e.Name] = e
	}
	return by
}

func readScene(b []byte, fonts map[string]*text.Font) (*scene.Scene, []entityJSON, error) {
	s, err := scene.ReadJSONWithFonts(b, fonts)
	if err != nil {
		return nil, nil, err
	}
	var doc struct {
		Entities []entityJSON `json:"entities"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, nil, err
	}
	return s, doc.Entities, nil
}

// entityChanges words what c says differs of one entity, o before and n after: the kind, the
// group, the place and size (or the shape's first difference), the style.
func entityChanges(o, n entityJSON, c scene.EntityDiff, os, ns *scene.Scene, tol float64) []string {
	var out []string
	if o.Kind != n.Kind {
		return []string{fmt.Sprintf("changed %q from %s to %s", o.Name, o.Kind, n.Kind)}
	}
	if c.Has("group") {
		out = append(out, fmt.Sprintf("regrouped %s %q from %s to %s", n.Kind, n.Name, group(o.Parent), group(n.Parent)))
	}
	shapeDiff := ""
	if c.Has("geometry") {
		shapeDiff = firstDiff("geometry", o.Geometry, n.Geometry, tol)
	}
	if shapeDiff == "" && c.Has("transform") {
		shapeDiff = firstDiff("transform", o.Transform, n.Transform, tol)
	}
	if shapeDiff != "" {
		ob, nb := bounds(os, o.Name), bounds(ns, n.Name)
		oc, nc := ob.Min.Add(ob.Max).Mul(0.5), nb.Min.Add(nb.Max).Mul(0.5)
		osz, nsz := ob.Max.Sub(ob.Min), nb.Max.Sub(nb.Min)
		moved := ob.NonEmpty && nb.NonEmpty && (!near(oc.X, nc.X, tol) || !near(oc.Y, nc.Y, tol))
		resized := ob.NonEmpty && nb.NonEmpty && (!near(osz.X, nsz.X, tol) || !near(osz.Y, nsz.Y, tol))
		if moved {
			out = append(out, fmt.Sprintf("moved %s %q by %s from %s to %s", n.Kind, n.Name, num(nc.Sub(oc).Len()), at(oc), at(nc)))
		}
		if resized {
			out = append(out, fmt.Sprintf("resized %s %q from %s×%s to %s×%s", n.Kind, n.Name, num(osz.X), num(osz.Y), num(nsz.X), num(nsz.Y)))
		}
		if !moved && !resized {
			out = append(out, fmt.Sprintf("reshaped %s %q: %s", n.Kind, n.Name, shapeDiff))
		}
	}
	if c.Has("style") {
		if d := firstDiff("", o.Style, n.Style, tol); d != "" {
			out = append(out, fmt.Sprintf("restyled %s %q: %s", n.Kind, n.Name, d))
		}
	}
	return out
}

// orderChange names entities drawn in another order, among those in both scenes.
func orderChange(oldEnts []entityJSON, newBy map[string]entityJSON, newEnts []entityJSON, oldBy map[string]entityJSON) string {
	var a, b []string
	for _, e := range oldEnts {
		if _, ok := newBy[e.Name]; ok {
			a = append(a, e.Name)
		}
	}
	for _, e := range newEnts {
		if _, ok := oldBy[e.Name]; ok {
			b = append(b, e.Name)
		}
	}
	if slices.Equal(a, b) {
		return ""
	}
	if len(a) <= 8 {
		return fmt.Sprintf("draw order changed: back to front it was %s, now %s", quoteAll(a), quoteAll(b))
	}
	var moved []string
	for i := range a {
		if a[i] != b[i] {
			moved = append(moved, b[i])
		}
	}
	if len(moved) > 5 {
		return fmt.Sprintf("draw order changed: %s and %d more are at other places", quoteAll(moved[:5]), len(moved)-5)
	}
	return fmt.Sprintf("draw order changed: %s are at other places", quoteAll(moved))
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}

func group(name string) string {
	if name == "" {
		return "the top level"
	}
	return strconv.Quote(name)
}

func bounds(s *scene.Scene, name string) geom.Box {
	e, err := s.Get(name)
	if err != nil {
		return geom.Box{}
	}
	return s.WorldBounds(e)
}

func centre(s *scene.Scene, name string) geom.Vec {
	b := bounds(s, name)
	return b.Min.Add(b.Max).Mul(0.5)
}

func at(p geom.Vec) string { return "(" + num(p.X) + ", " + num(p.Y) + ")" }

// num prints a distance or coordinate for people: at most 4 decimals, no trailing zeros.
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// near reports whether a and b are equal within tol, as the scenes' comparison counts them.
func near(a, b, tol float64) bool { return scene.NearlyEqual(a, b, tol) }

// firstDiff finds the first difference between two JSON values ("radius 10 -> 12"), or "".
func firstDiff(path string, a, b any, tol float64) string {
	switch av := a.(type) {
	case float64:
		if bv, ok := b.(float64); ok && near(av, bv, tol) {
			return ""
		}
	case map[string]any:
		if bv, ok := b.(map[string]any); ok && len(av) == len(bv) {
			keys := make([]string, 0, len(av))
			for k := range av {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				bx, ok := bv[k]
				if !ok {
					return describeDiff(path, a, b)
				}
				if d := firstDiff(join(path, k), av[k], bx, tol); d != "" {
					return d
				}
			}
			return ""
		}
	case []any:
		if bv, ok := b.([]any); ok && len(av) == len(bv) {
			if isNumbers(av) && isNumbers(bv) {
				for i := range av {
					if !near(av[i].(float64), bv[i].(float64), tol) {
						return describeDiff(path, a, b)
					}
				}
				return ""
			}
			for i := range av {
				if d := firstDiff(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i], tol); d != "" {
					return d
				}
			}
			return ""
		}
	default:
		if a == b {
			return ""
		}
	}
	return describeDiff(path, a, b)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// rounded is v with its numbers at 4 decimals, for messages.
func rounded(v any) any {
	switch x := v.(type) {
	case float64:
		return json.Number(num(x))
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = rounded(x[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = rounded(e)
		}
		return out
	}
	return v
}

func isNumbers(list []any) bool {
	for _, v := range list {
		if _, ok := v.(float64); !ok {
			return false
		}
	}
	return true
}

func describeDiff(path string, a, b any) string {
	return fmt.Sprintf("%s %s -> %s", path, short(a), short(b))
}

func short(v any) string {
	b, _ := json.Marshal(rounded(v))
	s := string(b)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
