package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		in   string
		want string // the error's text, "" for none
		is   error
	}{
		{`{}`, "", nil},
		{` {"a": [1, -0.5e+3, "x\u00e9\ud83d\ude00", true, false, null, {}]} `, "", nil},
		{`"\u0000\"\\\/\b\f\n\r\t"`, "", nil},
		{`0`, "", nil},
		{deep(MaxDepth), "", nil},
		// A key is compared as decoded: \u0061 is a.
		{`{"a":1,"b":{"a":2},"\u0061":3}`, `the key "a" appears twice in one object; send it once`, ErrDuplicateKey},
		{`{"edits":[{"old_code":"x"},{"old_code":"x","new_code":"","old_code":"y"}]}`, `the key "old_code" appears twice in the object at edits[1]; send it once`, ErrDuplicateKey},
		{`{"a b":{"c":{"k":1,"k":2}}}`, `the key "k" appears twice in the object at ["a b"].c; send it once`, ErrDuplicateKey},
		{`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k3":3}`,
			`the key "k3" appears twice in one object; send it once`, ErrDuplicateKey},
		{"{\"a\":\"\xff\"}", `not valid UTF-8 (offset 6: byte 0xff); send UTF-8 text`, ErrInvalidUTF8},
		{`["\ud800"]`, `not valid UTF-8 (offset 2: \ud800 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`, ErrInvalidUTF8},
		{`["\udc00\ud800"]`, `not valid UTF-8 (offset 2: \udc00 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`, ErrInvalidUTF8},
		{`["\ud800\u0041"]`, `not valid UTF-8 (offset 2: \ud800 is half of a UTF-16 surrogate pair); escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`, ErrInvalidUTF8},
		{deep(MaxDepth + 1), `arrays and objects nest more than 1000 levels deep (strictjson.MaxDepth); flatten the value`, ErrTooDeep},
		{`{"a":1} {"b":2}`, `there is more after the JSON value (at offset 7: "{\"b\":2}"); send exactly one value`, ErrTrailing},
		{`1 2`, `there is more after the JSON value (at offset 1: "2"); send exactly one value`, ErrTrailing},
		{`{"a":1,}`, `not valid JSON: invalid character '}' looking for beginning of object key string (at offset 7)`, ErrSyntax},
		{`[01]`, `not valid JSON: invalid character '1' after array element (at offset 2)`, ErrSyntax},
		{`{"a":1`, `the text ends before the JSON value does`, ErrTruncated},
		{``, `the text ends before the JSON value does`, ErrTruncated},
		{"\"a\tb\"", `not valid JSON: invalid character '\t' in string literal (at offset 2)`, ErrSyntax},
	} {
		err := Check([]byte(tc.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%.60s: mismatch (-want +got):\n%s", tc.in, diff)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%.60s: %v is not %v", tc.in, err, tc.is)
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	type point struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	}
	type body struct {
		Selected []string `json:"selected"`
		Points   []point  `json:"points"`
		//lint:ignore U1000 an unexported field is no key, as for encoding/json
		skipped int
	}
	for _, tc := range []struct {
		in, want string
		is       error
	}{
		{`{"selected":["a"],"points":[{"x":1,"y":2}]}`, "", nil},
		{`null`, `want a JSON object ({...}), not null`, ErrNotObject},
		{`[]`, `want a JSON object ({...}), not an array`, ErrNotObject},
		{`{"selected":["a"],"Selected":["b"]}`, `unknown key "Selected"; did you mean "selected"? (keys are case-sensitive)`, ErrUnknownKey},
		{`{"points":[{"x":1,"Y":2}]}`, `unknown key "Y" in the object at points[0]; did you mean "y"? (keys are case-sensitive)`, ErrUnknownKey},
		{`{"picked":[]}`, `unknown key "picked"; the keys are points, selected`, ErrUnknownKey},
		{`{"skipped":1}`, `unknown key "skipped"; the keys are points, selected`, ErrUnknownKey},
		{`{"selected":["a"],"selected":["b"]}`, `the key "selected" appears twice in one object; send it once`, ErrDuplicateKey},
	} {
		var got body
		err := Decode([]byte(tc.in), &got)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if diff := cmp.Diff(tc.want, msg); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tc.in, diff)
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v is not %v", tc.in, err, tc.is)
		}
	}
}

// surrogateEscape finds what may be a \u escape of a surrogate half; the fuzz target leaves
// such inputs to TestCheck rather than decide them a second way.
var surrogateEscape = regexp.MustCompile(`(?i)\\ud[89a-f]`)

// FuzzCheck: Check never panics, every refusal is an *Error, and it agrees with json.Valid
// on every input its own rules do not concern: a text json.Valid accepts is refused only for
// a key given twice (found here by a token walk), nesting past MaxDepth, invalid UTF-8 or a
// surrogate escape; a text json.Valid refuses is refused.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"file":"main","code":"x"}`, `{"a":1,"a":2}`, `{"a":{"b":[1,{"c":2,"c":3}]}}`, `[1,2,3]`,
		`"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", `{"a":1} x`, `{"a":`, `-0.0e-0`, `01`, ` null `,
		`{"\u0061":1,"a":2}`, strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		err := Check(b)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%q: %v is not an *Error", b, err)
		}
		if err != nil && (e.Offset < 0 || e.Offset > len(b)) {
			t.Fatalf("%q: offset %d outside the text", b, e.Offset)
		}
		if !json.Valid(b) {
			if err == nil {
				t.Fatalf("%q: accepted, but json.Valid refuses it", b)
			}
			return
		}
		dup, depth := walk(t, b)
		switch {
		case err == nil:
			if dup || depth > MaxDepth || !utf8.Valid(b) {
				t.Fatalf("%q: accepted, with a key twice %v, depth %d, valid UTF-8 %v", b, dup, depth, utf8.Valid(b))
			}
		case errors.Is(err, ErrDuplicateKey):
			if !dup {
				t.Fatalf("%q: %v, but no key repeats", b, err)
			}
		case errors.Is(err, ErrTooDeep):
			if depth <= MaxDepth {
				t.Fatalf("%q: %v, but the depth is %d", b, err, depth)
			}
		case errors.Is(err, ErrInvalidUTF8):
			if utf8.Valid(b) && !surrogateEscape.Match(b) {
				t.Fatalf("%q: %v", b, err)
			}
		default:
			t.Fatalf("%q: json.Valid accepts it, Check says %v", b, err)
		}
	})
}

// walk decodes b (valid JSON) token by token and answers whether some object holds a key
// twice, and the deepest nesting.
func walk(t *testing.T, b []byte) (dup bool, deepest int) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()               // numbers past float64 are valid JSON
	var objects []map[string]bool // nil for an array
	var expectKey []bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return dup, deepest
		}
		if err != nil {
			t.Fatalf("%q: json.Valid accepts it, but a token walk says %v", b, err)
		}
		n := len(objects)
		if n > 0 && objects[n-1] != nil && expectKey[n-1] {
			if _, ok := tok.(string); ok {
				k := tok.(string)
				dup = dup || objects[n-1][k]
				objects[n-1][k] = true
				expectKey[n-1] = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			objects, expectKey = append(objects, map[string]bool{}), append(expectKey, true)
		case json.Delim('['):
			objects, expectKey = append(objects, nil), append(expectKey, false)
		case json.Delim('}'), json.Delim(']'):
			objects, expectKey = objects[:n-1], expectKey[:n-1]
		}
		deepest = max(deepest, len(objects))
		if m := len(objects); m > 0 && objects[m-1] != nil && m == n {
			expectKey[m-1] = true // a value ended in an object: a key comes next
		} else if m := len(objects); m > 0 && m < n && objects[m-1] != nil {
			expectKey[m-1] = true // an object or array value closed
		}
	}
}

// BenchmarkCheck100KB checks a 100 KB data file of the shape catalogues have (objects of a
// few keys, number pairs, strings), beside json.Valid on the same bytes.
func BenchmarkCheck100KB(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"items": [`)
	for i := 0; buf.Len() < 100<<10; i++ {
		if i > 0 {
			buf.WriteString(", ")
		}
		fmt.Fprintf(&buf, `{"id": %d, "name": "part %d é", "size": [%d.5, %d], "tags": ["a", "b"], "ok": true}`, i, i, i, -i)
	}
	buf.WriteString(`]}`)
	data := buf.Bytes()
	b.Run("Check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := Check(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if !json.Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
}
