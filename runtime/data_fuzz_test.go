package runtime

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/internal/strictjson"
)

// FuzzDataTree: the Go-side decoder never panics, refuses exactly what encoding/json refuses
// (JSON.parse's own decoder) and what the one rule for JSON input refuses besides
// (strictjson.Check: a key twice, invalid UTF-8, nesting), and decodes to the same values.
func FuzzDataTree(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, "x\u00e9"], "b": {"a": 1, "a": 2}}`, `[[], {}, null, true, false, -0, 1e308]`,
		`"\ud800"`, `{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k3":9}`, `[1e400]`, `{`, ` 1 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want any
		werr := json.Unmarshal(b, &want)
		if werr == nil {
			werr = strictjson.Check(b)
		}
		n, ok := decodeForTest(b)
		if (werr == nil) != ok {
			t.Fatalf("%q: encoding/json and strictjson say %v, the decoder ok=%v", b, werr, ok)
		}
		if !ok {
			return
		}
		if diff := cmp.Diff(want, treeValue(n)); diff != "" {
			t.Fatalf("%q: mismatch (-encoding/json +decoder):\n%s", b, diff)
		}
	})
}

// decodeForTest decodes b without the process cache.
func decodeForTest(b []byte) (*dataNode, bool) {
	if strictjson.Check(b) != nil {
		return nil, false
	}
	p := dataParser{b: b}
	n, ok := p.value()
	return &n, ok
}

// treeValue is a tree as encoding/json decodes into any.
func treeValue(n *dataNode) any {
	switch {
	case n.prim != nil:
		v := n.prim.Export()
		if i, isInt := v.(int64); isInt {
			return float64(i) // goja keeps whole numbers as integers
		}
		return v
	case n.array:
		out := make([]any, len(n.kids))
		for i := range n.kids {
			out[i] = treeValue(&n.kids[i])
		}
		return out
	}
	out := make(map[string]any, len(n.keys))
	for i, k := range n.keys {
		out[k] = treeValue(&n.kids[i])
	}
	return out
}
