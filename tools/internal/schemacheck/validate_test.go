package schemacheck

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// FuzzPointerOffsets: any text and pointers give offsets inside the text, never a panic.
func FuzzPointerOffsets(f *testing.F) {
	f.Add(`{"a":[1,{"b~/c":2}]}`, "/a/1/b~0~1c")
	f.Add(`[[],[[3]]]`, "/1/0/0")
	f.Add(`{"a":`, "/a")
	f.Fuzz(func(t *testing.T, text, ptr string) {
		want := map[string]int{ptr: 0, "": 0}
		pointerOffsets([]byte(text), want)
		for p, off := range want {
			if off < 0 || off > len(text) {
				t.Fatalf("%q: offset %d outside %d bytes", p, off, len(text))
			}
		}
	})
}

// FuzzLineCols: one pass over the text gives each offset at a character's start (as a JSON
// value's always is) the line and column that runtime.LineCol counts from the text's start.
func FuzzLineCols(f *testing.F) {
	f.Add("{\n  \"a\": \"żółw\",\n\"b\": 1}", 3, 12, 20)
	f.Fuzz(func(t *testing.T, text string, a, b, c int) {
		offsets := map[string]int{}
		for name, off := range map[string]int{"a": a, "b": b, "c": c} {
			if off = max(0, min(off, len(text))); off == len(text) || utf8.RuneStart(text[off]) {
				offsets[name] = off
			}
		}
		got := lineCols([]byte(text), offsets)
		for _, off := range offsets {
			line, col := runtime.LineCol([]byte(text), off)
			if diff := cmp.Diff([2]int{line, col}, got[off]); diff != "" {
				t.Fatalf("offset %d of %q: mismatch (-want +got):\n%s", off, text, diff)
			}
		}
	})
}
