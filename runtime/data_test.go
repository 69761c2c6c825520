package runtime

import (
	"context"
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

// BenchmarkReadJSON100K is a run that reads a 100 KB data file, against the same run without
// it: the difference is what readJSON adds.
func BenchmarkReadJSON100K(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"parts": [`)
	for i := 0; sb.Len() < 100<<10; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id": %d, "name": "part %d", "size": [%d.5, %d.25], "hole": true}`, i, i, i%40, i%17)
	}
	sb.WriteString("]}")
	data := map[string]string{"parts.json": sb.String()}
	for _, bc := range []struct{ name, src string }{
		{"without", "drawRect('r', 0, 0, 10, 10)"},
		{"with", "const p = readJSON('parts'); drawRect('r', 0, 0, p.parts.length, 10)"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := runWithData(b, bc.src, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
