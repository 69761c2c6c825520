package esm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Where a construct opens that the source never closes: brackets, template substitutions,
// strings, template literals and comments, with brackets inside literals, comments and
// regular expressions not counted.
func TestBalanceUnclosed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []Unclosed
	}{
		{"balanced", "f(a, [b, {c: 1}], `${d}`)\n", nil},
		{"paren at the end", "drawCircle('c', 0, 0,\n  5;\nx = 1\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 10, End: 33}}},
		{"closed over by the call's )", "f(1, [2, 3);\n",
			[]Unclosed{{Open: "[", Close: "]", Offset: 5, End: 10}}},
		{"closed over by a block's }", "function f() {\n  g(1, 2;\n}\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 18, End: 25}}},
		{"nested at the end", "function f() {\n  g(1\n",
			[]Unclosed{{Open: "{", Close: "}", Offset: 13, End: 21}, {Open: "(", Close: ")", Offset: 18, End: 21}}},
		{"a closer with nothing to close is skipped", "f(1));\n[2]]\n", nil},
		{"brackets in strings, comments, regular expressions", "s = \"([{\" + '{'; // ({[\n/* ) */ r = /[(]\\)/g;\ny = 4 / 2 / (1;\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 58, End: 62}}},
		{"a division after a closing bracket", "y = (a) / (b) / [c];\nz = (1;\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 25, End: 29}}},
		{"string", "s = 'abc;\nf(\n",
			[]Unclosed{{Open: "'", Close: "'", Offset: 4, End: 9}}},
		{"string inside an unclosed bracket", "f(\"abc);\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 1, End: 9}, {Open: `"`, Close: `"`, Offset: 2, End: 8}}},
		{"template literal", "s = `abc\n${1}\n",
			[]Unclosed{{Open: "`", Close: "`", Offset: 4, End: 14}}},
		{"template substitution", "s = `a ${b\n",
			[]Unclosed{{Open: "${", Close: "}", Offset: 7, End: 11}}},
		{"bracket closed over by a substitution's }", "s = `${f(a}`;\n",
			[]Unclosed{{Open: "(", Close: ")", Offset: 8, End: 10}}},
		{"nested template", "s = `${`${(`x`)}`}`; t = [\n",
			[]Unclosed{{Open: "[", Close: "]", Offset: 25, End: 27}}},
		{"comment", "x = 1 /* note\n(\n",
			[]Unclosed{{Open: "/*", Close: "*/", Offset: 6, End: 16}}},
	}
	for _, tt := range tests {
		got := Balance(tt.src, -1)
		if diff := cmp.Diff(tt.want, got.Unclosed); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
		if got.At != (Gap{Item: -1, Prev: -1, PrevEnd: -1, Next: len(tt.src), NextEnd: len(tt.src)}) {
			t.Errorf("%s: a gap %+v with no offset asked", tt.name, got.At)
		}
	}
}

// The gap at an offset: the list around it, the item before it and whether a comma could go
// there.
func TestBalanceGap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, at string // at: the text the offset asked about starts (the first match)
		want          Gap
		// wantItem and wantPrev are the texts the item and the previous token start at;
		// wantItem "" is -1.
		wantItem, wantPrev string
	}{
		{name: "array", src: "a = [1, 2\n  3, 4];\n", at: "3,", want: Gap{List: ListArray, Separable: true}, wantItem: "2\n", wantPrev: "2\n"},
		{name: "object", src: "o = {a: f(1)\n  b: 2};\n", at: "b:", want: Gap{List: ListObject, Separable: true}, wantItem: "a:", wantPrev: ")\n"},
		{name: "arguments", src: "f('a' 0, 1);\n", at: "0,", want: Gap{List: ListArguments, Separable: true}, wantItem: "'a'", wantPrev: "'a'"},
		{name: "after a comma", src: "[1, , 2]", at: ", 2", want: Gap{List: ListArray}, wantPrev: ", ,"},
		{name: "condition", src: "if (a b) {}", at: "b)", want: Gap{Separable: true}, wantPrev: "a b"},
		{name: "block", src: "{ a\n b }", at: "b }", want: Gap{Separable: true}, wantPrev: "a\n"},
		{name: "end of the source", src: "f(1, 2", at: "", want: Gap{List: ListArguments}, wantItem: "2", wantPrev: "2"},
		{name: "nested closed", src: "[f(x) y]", at: "y]", want: Gap{List: ListArray, Separable: true}, wantItem: "f(", wantPrev: ") y"},
	}
	for _, tt := range tests {
		at := len(tt.src)
		if tt.at != "" {
			at = strings.Index(tt.src, tt.at)
		}
		want := tt.want
		want.Item, want.Prev, want.PrevEnd = -1, -1, -1
		if tt.wantItem != "" {
			want.Item = strings.Index(tt.src, tt.wantItem)
		}
		if tt.wantPrev != "" {
			want.Prev = strings.Index(tt.src, tt.wantPrev)
			want.PrevEnd = want.Prev + 1
			if tt.wantPrev == "'a'" {
				want.PrevEnd = want.Prev + 3
			}
		}
		want.Next, want.NextEnd = at, at
		if tt.at != "" {
			want.NextEnd = at + 1
		}
		got := Balance(tt.src, at).At
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestOffsetPosition(t *testing.T) {
	t.Parallel()
	src := "a\r\nbc\rd\u2028ef\ng"
	for off := 0; off <= len(src); off++ {
		line, col := Position(src, off)
		if off < len(src) && (src[off] == '\n' && off > 0 && src[off-1] == '\r' || src[off] == 0x80 || src[off] == 0xA8) {
			continue // inside a line terminator: no position of its own
		}
		if got := Offset(src, line, col); got != off {
			t.Errorf("Offset(%d:%d) = %d, want %d", line, col, got, off)
		}
	}
	if got := Offset(src, 9, 1); got != len(src) {
		t.Errorf("Offset past the end = %d, want %d", got, len(src))
	}
}

// Balance never panics, reports openers in order within the source, and its gap lies within
// it. Its cost is linear by construction (each frame is pushed and popped once, and a closer
// with nothing to close is known by a count): no timing is asserted here.
func FuzzBalance(f *testing.F) {
	for _, s := range []string{
		"f(1, [2, 3);", "`${f(a}`", "s = `a ${b", "/* x", "'abc\n", "[[[[))))]]]]",
		"x = a / b / (c", "if (x) /re(/.test(y)", "{a: 1\n b: 2}", "`${`${(`x`)}`}`",
	} {
		f.Add(s, 3)
	}
	for _, tc := range scanCases {
		f.Add(tc.src, len(tc.src)/2)
	}
	f.Fuzz(func(t *testing.T, src string, at int) {
		rep := Balance(src, at)
		last := -1
		for _, u := range rep.Unclosed {
			if u.Offset < last || u.Offset < 0 || u.Offset >= len(src) || u.End < u.Offset || u.End > len(src) {
				t.Fatalf("unclosed %+v out of order or outside the source (%d bytes)", u, len(src))
			}
			if !strings.HasPrefix(src[u.Offset:], u.Open) {
				t.Fatalf("unclosed %+v: the source has %q there", u, src[u.Offset:min(len(src), u.Offset+2)])
			}
			last = u.Offset
		}
		g := rep.At
		if g.Next < 0 || g.Next > g.NextEnd || g.NextEnd > len(src) || g.PrevEnd > g.Next || g.Item > g.Prev {
			t.Fatalf("gap %+v out of place in %d bytes", g, len(src))
		}
	})
}
