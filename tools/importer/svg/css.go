package svg

// Stylesheets: the rules of the file's <style> elements, applied before anything is drawn by
// writing each element's matched declarations over its presentation attributes, which is
// where CSS puts them (over the attributes, under the style attribute). So every reader of an
// attribute (paint, clip-path, mask, filter, markers) sees the cascade without knowing of it.
// Only what drawings use is matched: element names, classes, ids, * and the descendant and
// child combinators; a rule of any other selector, an at-rule and a sheet of another type are
// noted, so that a picture they would change is never wrong in silence.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// compound is one compound selector (rect.a#b): the element name ("" for any), id and
// classes; comb is the combinator that joins it to the compound before it (' ' or '>').
type compound struct {
	name, id string
	classes  []string
	comb     byte
}

// cssRule is one selector of a rule with the rule's declarations, its specificity and its
// place in the file.
type cssRule struct {
	sel   []compound // the subject last
	decls [][2]string
	spec  int // ids, classes, names, in that order of weight
	order int
}

// cssNotApplied is the end of the note on a rule of a selector not matched.
const cssNotApplied = "is not applied: only element names, classes, ids, * and the descendant and child combinators are"

// notCSS are declarations a rule may not make: the attributes that say what an element is,
// not how it is drawn.
var notCSS = map[string]bool{"id": true, "class": true, "style": true, "href": true}

// applyStylesheets reads every <style> element of the tree and writes the declarations each
// element's rules make into its attributes, most specific (then latest) last.
func (c *converter) applyStylesheets(root *element) error {
	var rules []cssRule
	var find func(e *element)
	find = func(e *element) {
		if e.name == "style" && (e.space == "" || e.space == "http://www.w3.org/2000/svg") {
			// SVG's default type of a <style> element is CSS.
			if t := strings.TrimSpace(e.attr("type")); t != "" && !strings.EqualFold(t, "text/css") {
				c.skip("style", fmt.Sprintf("type %q is not CSS: not applied", clip(t)))
			} else {
				rules = c.parseSheet(e.text.String(), rules)
			}
		}
		for _, ch := range e.children {
			find(ch)
		}
	}
	find(root)
	if len(rules) == 0 {
		return nil
	}
	// Rules are found by their subject's id, first class, name, or else are tried on all.
	byID, byClass, byName := map[string][]int{}, map[string][]int{}, map[string][]int{}
	var all []int
	for i, r := range rules {
		s := r.sel[len(r.sel)-1]
		switch {
		case s.id != "":
			byID[s.id] = append(byID[s.id], i)
		case len(s.classes) > 0:
			byClass[s.classes[0]] = append(byClass[s.classes[0]], i)
		case s.name != "":
			byName[s.name] = append(byName[s.name], i)
		default:
			all = append(all, i)
		}
	}
	var walk func(e *element, anc []*element) error
	walk = func(e *element, anc []*element) error {
		if e.name == textNode {
			return nil
		}
		if time.Now().After(c.deadline) {
			return &LineError{e.line, fmt.Errorf("%w: applying the stylesheets took over %v (MaxTime)", ErrLimit, c.lim.MaxTime)}
		}
		var matched []int
		try := func(ids []int) {
			for _, i := range ids {
				if matches(rules[i].sel, len(rules[i].sel)-1, e, anc) {
					matched = append(matched, i)
				}
			}
		}
		try(byID[e.attr("id")])
		for _, cl := range classes(e) {
			try(byClass[cl])
		}
		try(byName[e.name])
		try(all)
		slices.SortFunc(matched, func(a, b int) int {
			if rules[a].spec != rules[b].spec {
				return rules[a].spec - rules[b].spec
			}
			return rules[a].order - rules[b].order
		})
		for _, i := range slices.Compact(matched) {
			for _, d := range rules[i].decls {
				if d[0] == "marker" {
					d[0] = cssMarker // a property, not a presentation attribute
				}
				e.attrs[d[0]] = d[1]
			}
		}
		anc = append(anc, e)
		for _, ch := range e.children {
			if err := walk(ch, anc); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, nil)
}

// cssMarker is where a rule's marker shorthand is kept among the attributes: apart from a
// marker attribute, which SVG does not read (the shorthand has no presentation attribute).
const cssMarker = "\x00marker"

// classes are the names of e's class attribute.
func classes(e *element) []string { return strings.Fields(e.attr("class")) }

// matches tells whether sel[:i+1] matches e, whose ancestors are anc (the parent last).
func matches(sel []compound, i int, e *element, anc []*element) bool {
	if !matchesOne(sel[i], e) {
		return false
	}
	if i == 0 {
		return true
	}
	if sel[i].comb == '>' {
		return len(anc) > 0 && matches(sel, i-1, anc[len(anc)-1], anc[:len(anc)-1])
	}
	// Where the rest joins by descendants only, the nearest ancestor its subject matches is
	// the one to try: any farther one has fewer ancestors to match the rest from. A child
	// combinator in the rest may need a farther one, tried in turn.
	greedy := true
	for _, s := range sel[1:i] {
		greedy = greedy && s.comb == ' '
	}
	for k := len(anc) - 1; k >= 0; k-- {
		if matches(sel, i-1, anc[k], anc[:k]) {
			return true
		}
		if greedy && matchesOne(sel[i-1], anc[k]) {
			return false
		}
	}
	return false
}

// matchesOne tells whether the compound s matches e on its own.
func matchesOne(s compound, e *element) bool {
	if s.name != "" && s.name != e.name || s.id != "" && s.id != e.attr("id") {
		return false
	}
	if len(s.classes) > 0 {
		has := classes(e)
		for _, cl := range s.classes {
			if !slices.Contains(has, cl) {
				return false
			}
		}
	}
	return true
}

// parseSheet reads a stylesheet's rules after rules, noting at-rules and selectors it does
// not apply.
func (c *converter) parseSheet(css string, rules []cssRule) []cssRule {
	css = stripComments(css)
	for {
		css = strings.TrimSpace(css)
		if css == "" {
			return rules
		}
		if css[0] == '@' {
			name := css[1:]
			if i := strings.IndexAny(name, " \t\r\n{;"); i >= 0 {
				name = name[:i]
			}
			c.skip("style", "@"+clip(name)+" is not applied")
			semi, open := strings.IndexByte(css, ';'), strings.IndexByte(css, '{')
			if open < 0 || semi >= 0 && semi < open {
				if semi < 0 {
					return rules
				}
				css = css[semi+1:]
				continue
			}
			css = css[blockEnd(css, open):]
			continue
		}
		open := strings.IndexByte(css, '{')
		if open < 0 {
			return rules
		}
		end := blockEnd(css, open)
		body := strings.TrimSuffix(css[open+1:end], "}")
		decls := declarations(body)
		for _, text := range strings.Split(css[:open], ",") {
			text = strings.Join(strings.Fields(text), " ")
			sel, spec, ok := parseSelector(text)
			if !ok {
				c.skip("style", fmt.Sprintf("a rule of selector %s %s", strconv.Quote(clip(text)), cssNotApplied))
				continue
			}
			rules = append(rules, cssRule{sel: sel, decls: decls, spec: spec, order: len(rules)})
		}
		css = css[end:]
	}
}

// blockEnd is the index just past the '}' that closes the block opened at open, or the end.
func blockEnd(css string, open int) int {
	depth := 0
	for i := open; i < len(css); i++ {
		switch css[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(css)
}

// stripComments drops CSS comments (/* ... */); an unclosed one runs to the end.
func stripComments(css string) string {
	var b strings.Builder
	for {
		i := strings.Index(css, "/*")
		if i < 0 {
			b.WriteString(css)
			return b.String()
		}
		b.WriteString(css[:i])
		b.WriteByte(' ')
		j := strings.Index(css[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		css = css[i+2+j+2:]
	}
}

// declarations reads a rule's block: property: value pairs, !important dropped (an important
// declaration is applied as any other).
func declarations(body string) [][2]string {
	var out [][2]string
	for _, decl := range strings.Split(body, ";") {
		k, v, ok := strings.Cut(decl, ":")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" || notCSS[k] {
			continue
		}
		v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important"))
		out = append(out, [2]string{k, v})
	}
	return out
}

// parseSelector reads a selector of compounds joined by descendant (space) and child (>)
// combinators; false for anything else (pseudo-classes, attributes, siblings, namespaces).
func parseSelector(text string) ([]compound, int, bool) {
	var sel []compound
	var spec int
	comb := byte(' ')
	for _, f := range strings.Fields(strings.ReplaceAll(text, ">", " > ")) {
		if f == ">" {
			if len(sel) == 0 || comb == '>' {
				return nil, 0, false
			}
			comb = '>'
			continue
		}
		s, n, ok := parseCompound(f)
		if !ok {
			return nil, 0, false
		}
		s.comb, comb = comb, ' '
		spec += n
		sel = append(sel, s)
	}
	if len(sel) == 0 || comb == '>' {
		return nil, 0, false
	}
	return sel, spec, true
}

// parseCompound reads rect, *, .a, #b, rect.a.b#c; n is its specificity.
func parseCompound(f string) (s compound, n int, ok bool) {
	name := f
	if i := strings.IndexAny(f, ".#"); i >= 0 {
		name, f = f[:i], f[i:]
	} else {
		f = ""
	}
	if name != "*" && name != "" {
		if !isIdent(name) {
			return s, 0, false
		}
		s.name, n = name, 1
	}
	for f != "" {
		kind := f[0]
		f = f[1:]
		part := f
		if i := strings.IndexAny(f, ".#"); i >= 0 {
			part, f = f[:i], f[i:]
		} else {
			f = ""
		}
		if !isIdent(part) {
			return s, 0, false
		}
		if kind == '#' {
			if s.id != "" && s.id != part {
				return s, 0, false
			}
			s.id, n = part, n+1_000_000
		} else {
			s.classes, n = append(s.classes, part), n+1_000
		}
	}
	return s, n, true
}

// isIdent tells whether v is a CSS name as drawings write them: letters, digits, - and _
// (and any character past ASCII), not starting with a digit.
func isIdent(v string) bool {
	if v == "" || v[0] >= '0' && v[0] <= '9' {
		return false
	}
	for _, r := range v {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f) {
			return false
		}
	}
	return true
}
