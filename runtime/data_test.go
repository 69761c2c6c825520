package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func runWithData(t testing.TB, main string, data map[string]string) (*Result, error) {
	src := MapSource{MainModule: main}
	for k, v := range data {
		src[k] = v
	}
	return Run(context.Background(), src, MainModule, Options{})
}

func TestReadJSON(t *testing.T) {
	t.Parallel()
	res, err := runWithData(t, `
const a = readJSON('door')
const b = readJSON('door.json')
const items = readJSON('catalog/items')
console.log(a === b, Object.isFrozen(a), Object.isFrozen(a.frame), Object.isFrozen(items[0]))
a.width = 1
a.frame.depth = 1
console.log(a.width, a.frame.depth, items.length)
try { 'use strict'; (function () { 'use strict'; a.width = 2 })() } catch (e) { console.log(e.name) }
drawRect('door', 0, 0, a.width, a.height)
`, map[string]string{"door.json": `{"width": 9, "height": 21, "frame": {"depth": 3}}`, "catalog/items.json": `[{"id": 1}]`})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"true true true true", "9 3 1", "TypeError"}, res.Logs); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestReadJSONErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		data map[string]string
		want string
	}{
		{"readJSON('door')", nil,
			"scene.code.js:1:1: Error: readJSON: data/door.json does not exist; write it first (the write tool with file 'door.json'), or check the name with glob"},
		{"readJSON('door')", map[string]string{"door.json": "{\n  \"width\": 9,\n}"},
			"scene.code.js:1:1: Error: readJSON: data/door.json is not valid JSON: 3:1: invalid character '}' looking for beginning of object key string"},
		{"readJSON('big')", map[string]string{"big.json": `{"far": [1e400]}`},
			"scene.code.js:1:1: Error: readJSON: data/big.json is not valid JSON: json: cannot unmarshal number 1e400 into Go value of type float64"},
		{"throw readJSON('big')", map[string]string{"big.json": `{"many": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]}`},
			"scene.code.js:1:1: Error: uncaught exception: an object that is not an Error"},
		{"throw Object.create(new Proxy({}, {}))", nil,
			"scene.code.js:1:1: Error: uncaught exception: a Proxy (not inspected)"},
		{"readJSON(5)", nil,
			"scene.code.js:1:1: TypeError: readJSON: name must be a string, got 5"},
		{"import 'door.json'", map[string]string{"door.json": "{}"},
			"scene.code.js:1:8: ModuleError: 'door.json' is a data file, which cannot be imported"},
	} {
		_, err := runWithData(t, tc.src, tc.data)
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("%q: mismatch (-want +got):\n%s", tc.src, diff)
		}
	}
}

// BenchmarkReadJSON100KB is a run that reads a 100 KB data file, against the same run without
// it: the difference is what readJSON adds. "with" reads the file and one value; "cold" also
// decodes it (the first read of these bytes in a process, as in a fresh worker); "every
// value" reads every value in it, which builds the whole frozen copy.
func BenchmarkReadJSON100KB(b *testing.B) {
	data := map[string]string{"parts.json": partsJSON(100 << 10)}
	for _, bc := range []struct {
		name, src string
		cold      bool
	}{
		{"without", "drawRect('r', 0, 0, 10, 10)", false},
		{"with", "const p = readJSON('parts'); drawRect('r', 0, 0, p.parts.length, 10)", false},
		{"cold", "const p = readJSON('parts'); drawRect('r', 0, 0, p.parts.length, 10)", true},
		{"every value", `const p = readJSON('parts'); let w = 0
for (const q of p.parts) { w += q.id + q.name.length + q.size[0] + q.size[1] + (q.hole ? 1 : 0) }
drawRect('r', 0, 0, w, 10)`, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if bc.cold {
					forgetDataTrees()
				}
				if _, err := runWithData(b, bc.src, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadJSON100KBPool is the same through a warm worker process, as every cadrun
// command runs scripts: the file also crosses the worker's pipe on each run.
func BenchmarkReadJSON100KBPool(b *testing.B) {
	p := NewPool(PoolOptions{})
	defer p.Close()
	src := MapSource{"parts.json": partsJSON(100 << 10)}
	for _, bc := range []struct{ name, src string }{
		{"without", "drawRect('r', 0, 0, 10, 10)"},
		{"with", "const p = readJSON('parts'); drawRect('r', 0, 0, p.parts.length, 10)"},
	} {
		src[MainModule] = bc.src
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := p.Run(context.Background(), src, MainModule, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// partsJSON is a data file of about size bytes: {"parts": [{id, name, size: [w, h], hole}, ...]}.
func partsJSON(size int) string {
	var sb strings.Builder
	sb.WriteString(`{"parts": [`)
	for i := 0; sb.Len() < size; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id": %d, "name": "part %d", "size": [%d.5, %d.25], "hole": true}`, i, i, i%40, i%17)
	}
	sb.WriteString("]}")
	return sb.String()
}

// forgetDataTrees empties the process's cache of decoded data files.
func forgetDataTrees() {
	dataCache.Lock()
	defer dataCache.Unlock()
	dataCache.trees, dataCache.bytes = nil, 0
}

// TestReadJSONFrozen pins what a script can observe of readJSON's values, lazy or built
// whole: they read like JSON.parse's, are deeply frozen, and refuse every change.
func TestReadJSONFrozen(t *testing.T) {
	t.Parallel()
	var wide, long strings.Builder
	wide.WriteString("{")
	long.WriteString("[")
	for i := range 20 {
		if i > 0 {
			wide.WriteString(", ")
			long.WriteString(", ")
		}
		fmt.Fprintf(&wide, `"k%d": %d`, i, i)
		fmt.Fprintf(&long, `{"i": %d, "p": [%d, %d]}`, i, i, -i)
	}
	wide.WriteString(`}`)
	long.WriteString("]")
	data := map[string]string{
		"d.json":    `{"a": {"b": [1, {"c": "x\u00e9\n"}, [2, 3]], "n": null, "t": true, "z": -0}, "w": ` + wide.String() + `, "l": ` + long.String() + `}`,
		"copy.json": `{"a": {"b": [1, {"c": "x\u00e9\n"}, [2, 3]], "n": null, "t": true, "z": -0}, "w": ` + wide.String() + `, "l": ` + long.String() + `}`,
		"pts.json":  `{"ring": [[0, 0], [10, 0], [10, 10], [0, 10], [0, 5], [0, 4], [0, 3], [0, 2], [0, 1]], "flat": [0, 0, 4, 0, 4, 4, 0, 4, 0, 3, 0, 2]}`,
	}
	for _, tc := range []struct{ name, src, want string }{
		{"same as JSON.parse", `const d = readJSON('d'); console.log(JSON.stringify(d) === JSON.stringify(JSON.parse(JSON.stringify(d))), JSON.stringify(d.a))`,
			`true {"b":[1,{"c":"xé\n"},[2,3]],"n":null,"t":true,"z":0}`},
		{"values", `const d = readJSON('d'); console.log(d.a.b[1].c, d.a.n, d.a.t, Object.is(d.a.z, -0), d.a.b.length, d.l[19].p[1], d.w.k3, d.w.k19, d.missing, d.l[20])`,
			"xé\n null true true 3 -19 3 19 undefined undefined"},
		{"identity", `const d = readJSON('d'); console.log(d === readJSON('d.json'), d.a === d.a, d.l[3] === d.l[3], d !== readJSON('copy'))`,
			"true true true true"},
		{"frozen everywhere", `const d = readJSON('d'); console.log([d, d.a, d.a.b, d.a.b[1], d.a.b[2], d.w, d.l, d.l[5], d.l[5].p].map(Object.isFrozen).join())`,
			"true,true,true,true,true,true,true,true,true"},
		{"frozen before any other read", `const d = readJSON('d'); console.log(Object.isFrozen(d.l), Object.isExtensible(d.w), Object.isSealed(d.l[7]))`,
			"true false true"},
		{"arrays", `const l = readJSON('d').l; console.log(Array.isArray(l), l instanceof Array, l.map(x => x.i).slice(0, 3).join(), [...l].length, l.indexOf(l[4]), 3 in l, 20 in l, 'map' in l)`,
			"true true 0,1,2 20 4 true false true"},
		{"objects", `const d = readJSON('d'); console.log(Object.keys(d.w).length, Object.keys(d.w)[3], 'k2' in d.w, 'toString' in d.w, 'nope' in d.w, d.hasOwnProperty('a'), JSON.stringify(Object.getOwnPropertyDescriptor(d, 'a').writable))`,
			"20 k3 true true false true false"},
		{"descriptors", `const d = readJSON('d'); const x = Object.getOwnPropertyDescriptor(d.l, 'length'); console.log(x.value, x.writable, x.enumerable, x.configurable, Object.getOwnPropertyNames(d.a.b).join())`,
			"20 false false false 0,1,2,length"},
		{"spread and entries", `const d = readJSON('d'); const c = {...d.a}; c.t = false; console.log(c.t, d.a.t, Object.entries(d.w)[19].join('='), Object.getPrototypeOf(d) === Object.prototype)`,
			"false true k19=19 true"},
		{"sloppy sets fail silently", `const d = readJSON('d'); d.a.t = 5; d.l[0] = 1; d.extra = 1; delete d.a; d.l.length = 0; console.log(d.a.t, typeof d.l[0], d.extra, 'a' in d, d.l.length)`,
			"true object undefined true 20"},
		{"strict sets throw", `(function () { 'use strict'; const d = readJSON('d'); const out = []
for (const f of [() => { d.a.t = 5 }, () => { d.l[0] = 1 }, () => { d.w.k0 = 2 }, () => { d.w.k0 = 2 }, () => { delete d.a }, () => { d.l.push(1) }, () => { d.a.b[2][0] = 9 },
  () => { Object.defineProperty(d.l[9], 'i', {value: 0}) }, () => { Object.setPrototypeOf(d.l[10], null) }, () => { d.l.sort() }]) {
  try { f(); out.push('ok') } catch (e) { out.push(e.name) }
}
console.log(out.join()) })()`,
			"TypeError,TypeError,TypeError,TypeError,TypeError,TypeError,TypeError,TypeError,TypeError,TypeError"},
		{"a define that changes nothing is accepted", `const d = readJSON('d'); Object.defineProperty(d.l[9], 'i', {value: 9}); Object.freeze(d.l[11]); console.log(d.l[9].i, Object.isFrozen(d.l[11]))`,
			"9 true"},
		{"inherited from", `(function () { 'use strict'; const d = readJSON('d'); const o = Object.create(d.w), p = Object.create(d.l[12]); o.mine = 1; o.toString = () => 'o'; let e = 'ok'; try { p.i = 5 } catch (x) { e = x.name }
console.log(o.mine, String(o), o.k4, Object.keys(o).join(), e, p.i) })()`,
			"1 o 4 mine,toString TypeError 12"},
		{"drawing from data", `const p = readJSON('pts'); drawPolygon('ring', p.ring); drawLine('flat', p.flat); drawRect('r', p.ring[1][0], 0, 1, 1); const b = getWorldBounds('ring'); console.log(JSON.stringify([b.min, b.max]))`,
			`[[0,0],[10,10]]`},
	} {
		res, err := runWithData(t, tc.src, data)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if diff := cmp.Diff([]string{tc.want}, res.Logs); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestReadJSONDecoding: what the Go-side decoder makes of JSON's corners, against JSON.parse.
func TestReadJSONDecoding(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		`{"a": 1, "b": {"c": 1, "d": {"d": 2}}}`,
		`["\ud83d\ude00", "\u00e9", "tab\tand \"quotes\" and \\ and \/", "\u0000"]`,
		`[1e308, -1.5e-7, 123456789012345678901234567890, 0.1, -0, 1E2]`,
		` { "sp" : [ ] , "o" : { } } `,
		`"just a string"`, `42`, `null`, `true`,
		`{"__proto__": {"x": 1}, "constructor": 2}`,
	} {
		lit, _ := json.Marshal(text)
		res, err := runWithData(t, `const d = readJSON('d'), p = JSON.parse(`+string(lit)+`)
console.log(JSON.stringify(d) === JSON.stringify(p), d !== null && typeof d === 'object' ? Object.getPrototypeOf(d) === Object.getPrototypeOf(p) : d === p || Object.is(d, p))`,
			map[string]string{"d.json": text})
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if diff := cmp.Diff([]string{"true true"}, res.Logs); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", text, diff)
		}
	}
}

// TestReadJSONOneInputRule: a data file follows the one rule for JSON input (docs/decisions.md,
// "One input check"): a key given twice, invalid UTF-8, half a surrogate pair and nesting past
// strictjson.MaxDepth are refused with the line and column, where readJSON had kept the last
// value, or U+FFFD, as JSON.parse does.
func TestReadJSONOneInputRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, want string }{
		{"{\n  \"width\": 9,\n  \"width\": 10\n}",
			`scene.code.js:1:1: Error: readJSON: data/d.json is not valid JSON: 3:3: the key "width" appears twice in one object; send it once`},
		{`{"door": {"frame": [{"depth": 3, "depth": 4}]}}`,
			`scene.code.js:1:1: Error: readJSON: data/d.json is not valid JSON: 1:34: the key "depth" appears twice in the object at door.frame[0]; send it once`},
		{"{\"label\": \"caf\xe9\"}",
			`scene.code.js:1:1: Error: readJSON: data/d.json is not valid JSON: 1:15: not valid UTF-8 (byte 0xe9); send UTF-8 text`},
		{`["\ud800"]`,
			`scene.code.js:1:1: Error: readJSON: data/d.json is not valid JSON: 1:3: not valid UTF-8 (\ud800 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001),
			`scene.code.js:1:1: Error: readJSON: data/d.json is not valid JSON: 1:1001: arrays and objects nest more than 1000 levels deep (strictjson.MaxDepth); flatten the value`},
	} {
		_, err := runWithData(t, "readJSON('d')", map[string]string{"d.json": tc.text})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%.40q: mismatch (-want +got):\n%s", tc.text, diff)
		}
	}
}

// TestDataCacheBound: the process keeps decoded files up to dataCacheBytes, then starts over;
// a file bigger than the bound is decoded for its run and not kept.
func TestDataCacheBound(t *testing.T) {
	forgetDataTrees()
	t.Cleanup(forgetDataTrees)
	small := []byte(`{"a": 1}`)
	big := []byte(`"` + strings.Repeat("x", dataCacheBytes) + `"`)
	first, _ := dataTree(small)
	again, _ := dataTree(small)
	if first != again {
		t.Errorf("the same bytes were decoded twice")
	}
	if _, ok := dataTree(big); !ok {
		t.Fatal("a big file did not decode")
	}
	dataCache.Lock()
	n, bytes := len(dataCache.trees), dataCache.bytes
	dataCache.Unlock()
	if diff := cmp.Diff([]int{1, len(small)}, []int{n, bytes}); diff != "" {
		t.Errorf("files and bytes kept: mismatch (-want +got):\n%s", diff)
	}
	fill := []byte(`"` + strings.Repeat("y", dataCacheBytes-len(small)) + `"`)
	dataTree(fill) // past the bound: the cache starts over with it alone
	dataCache.Lock()
	n, bytes = len(dataCache.trees), dataCache.bytes
	dataCache.Unlock()
	if diff := cmp.Diff([]int{1, len(fill)}, []int{n, bytes}); diff != "" {
		t.Errorf("files and bytes kept: mismatch (-want +got):\n%s", diff)
	}
}
