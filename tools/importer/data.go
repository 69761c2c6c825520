package importer

// A drawing whose module would pass MaxSourceBytes even folded: most of a large drawing is
// its coordinates (a 1 MB DXF of contours is 90% the digits of its vertices, which the module
// writes as the file does), and no folding makes them fewer. So the longest point lists and
// paths go to data files the module reads with readJSON, as any script reads its data, and the
// module keeps one call per entity, its name, layer and style, with the coordinates as
// data[k]. A drawing that fits keeps every coordinate in its calls, as before.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// MaxDataFileBytes is the most one data file of an import holds: what a workspace's data file
// may hold (modules.MaxReadBytes), so that readJSON reads it.
const MaxDataFileBytes = modules.MaxReadBytes

// minDataBytes is the shortest literal moved to data: a few points; shorter ones stay in
// their calls, where a reference would save nothing.
const minDataBytes = 64

// dataLine matches a call whose argument after the name is a list of plain numbers or a
// string without escapes: a point list or a path, which data can hold.
var dataLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*[A-Za-z]\w*\((?:'[^'\\]*'|name(?: \+ '[^'\\]*')?), )(\[[-+0-9.eE, ]*\]|'[^'\\"]*')(.*)$`)
})

// foldData folds code (fold) into a module within MaxSourceBytes. When the folded module would
// pass it, the longest literals go to data files (Report.Data, named after the module: NAME/1.json,
// NAME/2.json, ...), the longest first, until the rest fits; hint says what to do with a file
// whose module is over the limit all the same.
func (g *gen) foldData(code, hint string) (string, error) {
	folded, err := fold(code, hint, g.clock)
	if err == nil || !g.overSource(err) {
		return folded, err
	}
	lines := strings.Split(code, "\n")
	var lits []literal
	for i, l := range lines {
		if m := dataLine().FindStringSubmatch(l); m != nil && len(m[2]) >= minDataBytes {
			lits = append(lits, literal{i, len(m[2])})
		}
	}
	slices.SortStableFunc(lits, func(a, b literal) int { return b.size - a.size })
	// Move the longest until what stays is under the limit with room to spare (the folding
	// only shrinks it); should the folded text still pass it, move them all.
	target := runtime.DefaultLimits.MaxSourceBytes * 7 / 8
	for _, all := range []bool{false, true} {
		left, n := len(code), 0
		for n < len(lits) && (all || left > target) {
			left -= lits[n].size - len("data[123456]")
			n++
		}
		moved := slices.Clone(lits[:n])
		slices.SortFunc(moved, func(a, b literal) int { return a.line - b.line })
		out, data, err := g.toData(lines, moved, hint)
		if err != nil {
			return "", err
		}
		folded, err = fold(out, hint, g.clock)
		if err == nil {
			g.rep.Data = data
			g.rep.DataFiles = slices.Sorted(func(yield func(string) bool) {
				for name := range data {
					if !yield(name) {
						return
					}
				}
			})
			return folded, nil
		}
		if !g.overSource(err) || n == len(lits) {
			break
		}
	}
	return "", fmt.Errorf("%w: the module would be over %d bytes, the limit on a script (MaxSourceBytes), even with its point lists and paths in data files; %s", ErrRefused, runtime.DefaultLimits.MaxSourceBytes, hint)
}

// literal is a literal that data can hold: its line in the module and its length.
type literal struct{ line, size int }

// overSource reports whether err is the folding's refusal over MaxSourceBytes.
func (g *gen) overSource(err error) bool {
	return err != nil && strings.Contains(err.Error(), "(MaxSourceBytes)")
}

// toData rewrites lines with the literals of the lines at moved (in order) as data[k], and
// writes them to data files of at most MaxDataFileBytes, one literal a line; the module reads
// them into data at the top of its function.
func (g *gen) toData(lines []string, moved []literal, hint string) (string, map[string]string, error) {
	out := slices.Clone(lines)
	files := map[string]string{}
	var names []string
	var file strings.Builder
	flush := func() {
		if file.Len() == 0 {
			return
		}
		name := fmt.Sprintf("%s/%d.json", g.mod, len(names)+1)
		files[name] = "[\n" + file.String() + "\n]\n"
		names = append(names, name)
		file.Reset()
	}
	for k, lit := range moved {
		m := dataLine().FindStringSubmatch(lines[lit.line])
		v := m[2]
		if v[0] == '\'' {
			v = `"` + v[1:len(v)-1] + `"`
		}
		if !json.Valid([]byte(v)) {
			return "", nil, fmt.Errorf("%w: a literal of the module is not JSON (%.40s...); %s", ErrRefused, v, hint)
		}
		if len(v)+8 > MaxDataFileBytes {
			return "", nil, fmt.Errorf("%w: one entity's point list or path is %d bytes, over a data file's %d (MaxDataFileBytes); %s", ErrRefused, len(v), MaxDataFileBytes, hint)
		}
		if file.Len()+len(v)+8 > MaxDataFileBytes {
			flush()
		}
		if file.Len() > 0 {
			file.WriteString(",\n")
		}
		file.WriteString(v)
		out[lit.line] = m[1] + "data[" + strconv.Itoa(k) + "]" + m[3]
		if err := g.clock.step(); err != nil {
			return "", nil, err
		}
	}
	flush()
	reads := make([]string, len(names))
	for i, n := range names {
		reads[i] = "...readJSON('" + strings.TrimSuffix(n, ".json") + "')"
	}
	decl := fmt.Sprintf("  // The longest point lists and paths are data (%s): with them the module would pass\n"+
		"  // the %d KiB a script may hold. data[k] is the k-th of them, in the order of the calls.\n"+
		"  const data = [%s];", strings.Join(quotedPaths(names), ", "), runtime.DefaultLimits.MaxSourceBytes>>10, strings.Join(reads, ", "))
	for i, l := range out {
		if strings.HasPrefix(l, "export function ") {
			out = slices.Insert(out, i+1, decl)
			break
		}
	}
	return strings.Join(out, "\n"), files, nil
}

// quotedPaths are the workspace paths of data files named by their logical names.
func quotedPaths(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = runtime.PathOf(n)
	}
	return out
}
