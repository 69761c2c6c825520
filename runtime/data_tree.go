package runtime

// readJSON's decoding. JSON.parse followed by a deep Object.freeze was slow: goja's parser
// reads encoding/json tokens one interface value at a time, and the freeze read every key back
// out of every object. Instead a data file is decoded once on the Go side into a dataNode
// tree, its strings, numbers, booleans and null already goja values (primitives belong to no
// realm), and kept in a small process-wide cache keyed by the file's bytes: a warm worker
// decodes a file once, not once per run. Each run then builds its frozen JS view of the tree
// lazily (data_view.go).

import (
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/internal/strictjson"
)

// dataNode is one decoded JSON value. A tree is never changed once built, so one tree serves
// every run (and every goroutine) that reads the same bytes.
type dataNode struct {
	prim  goja.Value // a string, number, boolean or null; nil for an object or array
	array bool
	keys  []string       // an object's keys in order (never one twice: strictjson refuses that)
	kids  []dataNode     // an object's values (by keys) or an array's items
	index map[string]int // the keys' positions, once an object has more than wideObject keys
	size  int            // the values in this one, itself included
	small bool           // an object or array of at most smallSize values in all
}

// smallSize is the most values below a small object or array ({x, y}, [r, g, b, a], a
// catalogue item with a size pair): building one whole and frozen costs less than wrapping it
// (see data_view.go), and a script that reads one of its values mostly reads the rest.
const smallSize = 16

// markSmall counts a finished object or array's values and marks it small when it is.
func (n *dataNode) markSmall() {
	n.size = 1
	for i := range n.kids {
		n.size += max(1, n.kids[i].size)
	}
	n.small = n.size-1 <= smallSize
}

// wideObject is the key count past which an object's keys are found by a map, not a scan.
const wideObject = 8

// find is the position of key k in an object node, or -1.
func (n *dataNode) find(k string) int {
	if n.index != nil {
		if i, ok := n.index[k]; ok {
			return i
		}
		return -1
	}
	for i, x := range n.keys {
		if x == k {
			return i
		}
	}
	return -1
}

// dataCacheBytes bounds the bytes of data files whose trees a process keeps (a tree takes
// about ten times its file's size in memory); past it the cache is emptied and refilled as
// files are read.
const dataCacheBytes = 2 << 20

var dataCache struct {
	sync.Mutex
	trees map[string]*dataNode // by the file's content
	bytes int
}

// dataTree returns the decoded tree of b, from the cache when the same bytes were decoded
// before; ok is false when b breaks the one rule for JSON input (strictjson.Check: not
// JSON, a key twice, invalid UTF-8, too deep) or holds a number past float64's range.
func dataTree(b []byte) (*dataNode, bool) {
	dataCache.Lock()
	t, hit := dataCache.trees[string(b)]
	dataCache.Unlock()
	if hit {
		return t, true
	}
	if strictjson.Check(b) != nil {
		return nil, false
	}
	p := dataParser{b: b}
	n, ok := p.value()
	if !ok {
		return nil, false // a number out of float64's range: valid JSON, but no JS number
	}
	t = &n
	if len(b) > dataCacheBytes {
		return t, true
	}
	dataCache.Lock()
	defer dataCache.Unlock()
	if dataCache.trees == nil || dataCache.bytes+len(b) > dataCacheBytes {
		dataCache.trees, dataCache.bytes = map[string]*dataNode{}, 0
	}
	if _, dup := dataCache.trees[string(b)]; !dup {
		dataCache.trees[string(b)] = t
		dataCache.bytes += len(b)
	}
	return t, true
}

// dataParser decodes JSON that strictjson.Check accepted, so it checks nothing but what Check
// does not: that numbers fit a float64. Its depth is bounded by Check's (strictjson.MaxDepth),
// and no object has a key twice.
type dataParser struct {
	b    []byte
	i    int
	kids []dataNode // the values of the objects and arrays open, innermost last
	keys []string   // the keys of the objects open
}

func (p *dataParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *dataParser) value() (dataNode, bool) {
	p.space()
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s := p.string()
		return dataNode{prim: stringValue(s)}, true
	case c == 't':
		p.i += 4
		return dataNode{prim: boolValue(true)}, true
	case c == 'f':
		p.i += 5
		return dataNode{prim: boolValue(false)}, true
	case c == 'n':
		p.i += 4
		return dataNode{prim: goja.Null()}, true
	default:
		start := p.i
		for p.i < len(p.b) && isNumberByte(p.b[p.i]) {
			p.i++
		}
		f, err := strconv.ParseFloat(string(p.b[start:p.i]), 64)
		if err != nil {
			return dataNode{}, false
		}
		return dataNode{prim: numberValue(f)}, true
	}
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// object and array gather their items on the parser's stacks and copy them out at the end,
// so that every node's slices are allocated once, at their size.
func (p *dataParser) object() (dataNode, bool) {
	base, kbase := len(p.kids), len(p.keys)
	p.i++ // {
	for {
		p.space()
		if p.b[p.i] == '}' {
			p.i++
			break
		}
		if p.b[p.i] == ',' {
			p.i++
			p.space()
		}
		k := p.string()
		p.space()
		p.i++ // :
		v, ok := p.value()
		if !ok {
			return dataNode{}, false
		}
		p.keys = append(p.keys, k)
		p.kids = append(p.kids, v)
	}
	n := dataNode{}
	keys, kids := p.keys[kbase:], p.kids[base:]
	n.keys, n.kids = slices.Clone(keys), slices.Clone(kids)
	if len(n.keys) > wideObject {
		n.index = make(map[string]int, len(n.keys))
		for i, k := range n.keys {
			n.index[k] = i
		}
	}
	if n.keys == nil {
		n.keys, n.kids = []string{}, []dataNode{}
	}
	clear(kids)
	p.keys, p.kids = p.keys[:kbase], p.kids[:base]
	n.markSmall()
	return n, true
}

func (p *dataParser) array() (dataNode, bool) {
	base := len(p.kids)
	p.i++ // [
	for {
		p.space()
		if p.b[p.i] == ']' {
			p.i++
			break
		}
		if p.b[p.i] == ',' {
			p.i++
		}
		v, ok := p.value()
		if !ok {
			return dataNode{}, false
		}
		p.kids = append(p.kids, v)
	}
	kids := p.kids[base:]
	n := dataNode{array: true, kids: make([]dataNode, len(kids))}
	copy(n.kids, kids)
	clear(kids)
	p.kids = p.kids[:base]
	n.markSmall()
	return n, true
}

// string reads a JSON string at p.i; escapes are decoded by encoding/json. The text is valid
// UTF-8 with no half surrogate escape (strictjson.Check), so nothing becomes U+FFFD.
func (p *dataParser) string() string {
	start := p.i
	p.i++ // "
	escaped := false
	for {
		switch p.b[p.i] {
		case '\\':
			escaped = true
			p.i += 2
			continue
		case '"':
			p.i++
			if !escaped {
				return string(p.b[start+1 : p.i-1])
			}
			var s string
			_ = json.Unmarshal(p.b[start:p.i], &s) // valid: strictjson.Check said so
			return s
		}
		p.i++
	}
}

// Leaves are goja primitives, which belong to no realm; a private runtime makes them.
var primitives = sync.OnceValue(goja.New)

func stringValue(s string) goja.Value  { return primitives().ToValue(s) }
func numberValue(f float64) goja.Value { return primitives().ToValue(f) }
func boolValue(b bool) goja.Value      { return primitives().ToValue(b) }

// nativeFunc is a built-in function as goja exports it: called directly it skips the
// exception wrapper a goja.Callable adds, which Object.preventExtensions on a plain object
// never needs.
type nativeFunc = func(goja.FunctionCall) goja.Value
