// Package strictjson is cadrun's one rule for JSON that comes from outside: tool parameters,
// journal entries, data files, the viewer's request bodies. Check says whether bytes are
// exactly one JSON value in valid UTF-8 with no key twice in any object, nested at most
// MaxDepth levels, with nothing after it; Decode checks and then decodes into a struct whose
// keys must match its fields exactly.
//
// encoding/json alone is too forgiving for input that lands on disk or in a database: it keeps
// the last of two equal keys (so two readers of the same bytes may disagree on what they say),
// turns invalid UTF-8 and lone surrogate escapes into U+FFFD (so what is stored is not what was
// sent), matches keys regardless of case (so {"a":1,"A":2} is a repeated key in disguise) and,
// with a Decoder, leaves whatever follows the first value unread. Each of these is refused here,
// with the byte offset or the key and its path, and what to send instead.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth caps how deeply arrays and objects nest. MCP clients refuse a message nested past
// 1,000 levels, so a value accepted here can always be given back; it also bounds the
// recursion of every decoder and schema validator that reads the value after the check
// (encoding/json's own cap is 10,000).
const MaxDepth = 1000

// The ways a text is refused; an *Error wraps one of them.
var (
	// ErrSyntax is returned for text that is not JSON.
	ErrSyntax = errors.New("not valid JSON")
	// ErrTruncated is returned for text that ends before its value does (empty text included).
	ErrTruncated = errors.New("the JSON text ends before its value does")
	// ErrTrailing is returned for text with more than white space after its one value.
	ErrTrailing = errors.New("more after the JSON value")
	// ErrInvalidUTF8 is returned for a byte that is not UTF-8, or a \u escape of half a
	// surrogate pair (which no UTF-8 text can hold).
	ErrInvalidUTF8 = errors.New("not valid UTF-8")
	// ErrDuplicateKey is returned for an object with a key twice (after unescaping).
	ErrDuplicateKey = errors.New("a key appears twice in one object")
	// ErrTooDeep is returned for arrays and objects nested more than MaxDepth levels.
	ErrTooDeep = errors.New("nested too deep")
	// ErrNotObject is returned by Decode when the value is not the object its struct needs
	// (null included).
	ErrNotObject = errors.New("not a JSON object")
	// ErrUnknownKey is returned by Decode for a key its struct has no field of that exact name
	// for.
	ErrUnknownKey = errors.New("unknown key")
)

// Error says why a text was refused and where.
type Error struct {
	Err    error  // one of the Err values above
	Offset int    // the byte offset in the text where the problem is
	Path   string // the value concerned: "" for the whole text, else like edits[0].old_code
	Key    string // the key given twice, or unknown
	Detail string // what is wrong there, in words (encoding/json's for a syntax error)
}

func (e *Error) Unwrap() error { return e.Err }

// Error is the refusal with its place: an offset, or for a key the path of its object.
func (e *Error) Error() string {
	switch e.Err {
	case ErrInvalidUTF8:
		return fmt.Sprintf("not valid UTF-8 (offset %d: %s); %s", e.Offset, e.Detail, utf8Hint(e.Detail))
	case ErrSyntax:
		return fmt.Sprintf("not valid JSON: %s (at offset %d)", e.Detail, e.Offset)
	case ErrTrailing:
		return fmt.Sprintf("there is more after the JSON value (at offset %d: %q); send exactly one value", e.Offset, e.Detail)
	case ErrTooDeep, ErrTruncated, ErrDuplicateKey, ErrUnknownKey, ErrNotObject:
		return e.Problem()
	}
	return fmt.Sprintf("%v (at offset %d)", e.Err, e.Offset)
}

// Problem is the refusal without the byte offset, for callers that name the place as a line
// and column of their own.
func (e *Error) Problem() string {
	switch e.Err {
	case ErrInvalidUTF8:
		return fmt.Sprintf("not valid UTF-8 (%s); %s", e.Detail, utf8Hint(e.Detail))
	case ErrSyntax:
		return e.Detail
	case ErrTruncated:
		return "the text ends before the JSON value does"
	case ErrTrailing:
		return "there is more after the JSON value; send exactly one value"
	case ErrTooDeep:
		return fmt.Sprintf("arrays and objects nest more than %d levels deep (strictjson.MaxDepth); flatten the value", MaxDepth)
	case ErrDuplicateKey:
		return fmt.Sprintf("the key %q appears twice in %s; send it once", e.Key, objectAt(e.Path))
	case ErrUnknownKey:
		if e.Path == "" {
			return fmt.Sprintf("unknown key %q; %s", e.Key, e.Detail)
		}
		return fmt.Sprintf("unknown key %q in the object at %s; %s", e.Key, e.Path, e.Detail)
	case ErrNotObject:
		return e.Detail
	}
	return e.Err.Error()
}

func objectAt(path string) string {
	if path == "" {
		return "one object"
	}
	return "the object at " + path
}

func utf8Hint(detail string) string {
	if len(detail) > 0 && detail[0] == '\\' {
		return `escape a character past U+FFFF as both halves (\ud83d\ude00), or send it as UTF-8`
	}
	return "send UTF-8 text"
}

// Check returns nil when b is exactly one JSON value (with white space around it) in valid
// UTF-8, with no \u escape of half a surrogate pair, no key twice in any object and at most
// MaxDepth levels of nesting; otherwise an *Error wrapping the first problem found. It reads
// b once and allocates only for keys.
func Check(b []byte) error {
	if !utf8.Valid(b) {
		at := 0
		for at < len(b) {
			r, n := utf8.DecodeRune(b[at:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			at += n
		}
		return &Error{Err: ErrInvalidUTF8, Offset: at, Detail: fmt.Sprintf("byte 0x%02x", b[at])}
	}
	c := checker{b: b}
	c.space()
	if err := c.value(); err != nil {
		return err
	}
	end := c.i
	c.space()
	if c.i < len(b) {
		return &Error{Err: ErrTrailing, Offset: end, Detail: clip(bytes.TrimSpace(b[end:]), 20)}
	}
	return nil
}

// checker walks a text by recursive descent; MaxDepth bounds the recursion.
type checker struct {
	b     []byte
	i     int
	depth int
	path  []step   // the keys and indexes from the top to the value being read
	keys  [][]byte // the keys of the objects open, innermost last (unescaped ones in b itself)
}

// step is one element of a path: an object's key, or an array's index when key is unset.
type step struct {
	key      string
	keyBytes []byte // the checker's key, made a string only for an error
	index    int
	isKey    bool
}

func (c *checker) space() {
	for c.i < len(c.b) {
		switch c.b[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// fail is a syntax error at c.i, worded as encoding/json words it.
func (c *checker) fail() error {
	if c.i >= len(c.b) {
		return &Error{Err: ErrTruncated, Offset: len(c.b)}
	}
	detail := fmt.Sprintf("invalid character %s", quoteChar(c.b[c.i]))
	var se *json.SyntaxError
	if errors.As(json.Unmarshal(c.b, new(json.RawMessage)), &se) {
		detail = se.Error()
	}
	return &Error{Err: ErrSyntax, Offset: c.i, Detail: detail}
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(c))
	return "'" + s[1:len(s)-1] + "'"
}

func (c *checker) value() error {
	if c.i >= len(c.b) {
		return c.fail()
	}
	switch ch := c.b[c.i]; {
	case ch == '{':
		return c.object()
	case ch == '[':
		return c.array()
	case ch == '"':
		_, err := c.str()
		return err
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	case ch == '-' || '0' <= ch && ch <= '9':
		return c.number()
	}
	return c.fail()
}

func (c *checker) literal(word string) error {
	for k := 0; k < len(word); k++ {
		if c.i >= len(c.b) || c.b[c.i] != word[k] {
			return c.fail()
		}
		c.i++
	}
	return nil
}

func (c *checker) digits() bool {
	start := c.i
	for c.i < len(c.b) && '0' <= c.b[c.i] && c.b[c.i] <= '9' {
		c.i++
	}
	return c.i > start
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *checker) number() error {
	if c.b[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i < len(c.b) && c.b[c.i] == '0':
		c.i++
	case !c.digits():
		return c.fail()
	}
	if c.i < len(c.b) && c.b[c.i] == '.' {
		c.i++
		if !c.digits() {
			return c.fail()
		}
	}
	if c.i < len(c.b) && (c.b[c.i] == 'e' || c.b[c.i] == 'E') {
		c.i++
		if c.i < len(c.b) && (c.b[c.i] == '+' || c.b[c.i] == '-') {
			c.i++
		}
		if !c.digits() {
			return c.fail()
		}
	}
	return nil
}

// str reads a string at c.i and reports whether it holds an escape (the raw bytes between
// the quotes are then not its value).
func (c *checker) str() (escaped bool, err error) {
	c.i++ // "
	for c.i < len(c.b) {
		switch ch := c.b[c.i]; {
		case ch == '"':
			c.i++
			return escaped, nil
		case ch < 0x20:
			return false, c.fail()
		case ch == '\\':
			escaped = true
			if err := c.escape(); err != nil {
				return false, err
			}
		default:
			c.i++
		}
	}
	return false, c.fail()
}

// escape reads one escape at c.i (the backslash), refusing half a surrogate pair.
func (c *checker) escape() error {
	at := c.i
	c.i++
	if c.i >= len(c.b) {
		return c.fail()
	}
	switch c.b[c.i] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		c.i++
		return nil
	case 'u':
	default:
		return c.fail()
	}
	c.i++
	r, err := c.hex4()
	if err != nil {
		return err
	}
	if !utf16.IsSurrogate(r) {
		return nil
	}
	lone := &Error{Err: ErrInvalidUTF8, Offset: at, Detail: fmt.Sprintf(`\u%04x is half of a UTF-16 surrogate pair`, r)}
	if r >= 0xdc00 || c.i+1 >= len(c.b) || c.b[c.i] != '\\' || c.b[c.i+1] != 'u' {
		return lone
	}
	c.i += 2
	low, err := c.hex4()
	if err != nil {
		return err
	}
	if low < 0xdc00 || low > 0xdfff {
		return lone
	}
	return nil
}

func (c *checker) hex4() (rune, error) {
	var r rune
	for k := 0; k < 4; k++ {
		if c.i >= len(c.b) {
			return 0, c.fail()
		}
		ch := c.b[c.i]
		switch {
		case '0' <= ch && ch <= '9':
			ch -= '0'
		case 'a' <= ch && ch <= 'f':
			ch -= 'a' - 10
		case 'A' <= ch && ch <= 'F':
			ch -= 'A' - 10
		default:
			return 0, c.fail()
		}
		r = r<<4 | rune(ch)
		c.i++
	}
	return r, nil
}

func (c *checker) open() error {
	c.depth++
	if c.depth > MaxDepth {
		return &Error{Err: ErrTooDeep, Offset: c.i, Path: c.pathString()}
	}
	c.i++
	c.space()
	return nil
}

// smallObject is the key count up to which an object's keys are compared one by one; past it
// they go into a map.
const smallObject = 16

func (c *checker) object() error {
	if err := c.open(); err != nil {
		return err
	}
	base := len(c.keys)
	var seen map[string]struct{}
	c.path = append(c.path, step{isKey: true})
	if c.i < len(c.b) && c.b[c.i] == '}' {
		c.i++
		c.path = c.path[:len(c.path)-1]
		c.depth--
		return nil
	}
	for {
		if c.i >= len(c.b) || c.b[c.i] != '"' {
			return c.fail()
		}
		at := c.i
		escaped, err := c.str()
		if err != nil {
			return err
		}
		key := c.b[at+1 : c.i-1]
		if escaped {
			var k string
			_ = json.Unmarshal(c.b[at:c.i], &k) // checked: a valid string
			key = []byte(k)
		}
		dup := false
		if seen != nil {
			_, dup = seen[string(key)]
			seen[string(key)] = struct{}{}
		} else {
			for _, k := range c.keys[base:] {
				if bytes.Equal(k, key) {
					dup = true
					break
				}
			}
			c.keys = append(c.keys, key)
			if len(c.keys)-base > smallObject {
				seen = make(map[string]struct{}, 2*smallObject)
				for _, k := range c.keys[base:] {
					seen[string(k)] = struct{}{}
				}
			}
		}
		if dup {
			c.path = c.path[:len(c.path)-1]
			return &Error{Err: ErrDuplicateKey, Offset: at, Path: c.pathString(), Key: string(key)}
		}
		c.path[len(c.path)-1].keyBytes = key
		c.space()
		if c.i >= len(c.b) || c.b[c.i] != ':' {
			return c.fail()
		}
		c.i++
		c.space()
		if err := c.value(); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.b) {
			return c.fail()
		}
		switch c.b[c.i] {
		case ',':
			c.i++
			c.space()
		case '}':
			c.i++
			c.keys = c.keys[:base]
			c.path = c.path[:len(c.path)-1]
			c.depth--
			return nil
		default:
			return c.fail()
		}
	}
}

func (c *checker) array() error {
	if err := c.open(); err != nil {
		return err
	}
	c.path = append(c.path, step{})
	if c.i < len(c.b) && c.b[c.i] == ']' {
		c.i++
		c.path = c.path[:len(c.path)-1]
		c.depth--
		return nil
	}
	for {
		if err := c.value(); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.b) {
			return c.fail()
		}
		switch c.b[c.i] {
		case ',':
			c.i++
			c.space()
			c.path[len(c.path)-1].index++
		case ']':
			c.i++
			c.path = c.path[:len(c.path)-1]
			c.depth--
			return nil
		default:
			return c.fail()
		}
	}
}

func (c *checker) pathString() string {
	var s []byte
	for _, st := range c.path {
		if st.isKey {
			st.key = string(st.keyBytes)
		}
		s = appendStep(s, st)
	}
	return string(s)
}

// appendStep writes a key as .name when it is a plain name, ["..."] otherwise, and an index
// as [i]; the path starts without a dot.
func appendStep(s []byte, st step) []byte {
	if !st.isKey {
		return append(strconv.AppendInt(append(s, '['), int64(st.index), 10), ']')
	}
	if plainName(st.key) {
		if len(s) > 0 {
			s = append(s, '.')
		}
		return append(s, st.key...)
	}
	return append(strconv.AppendQuote(append(s, '['), st.key), ']')
}

func plainName(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// clip is b cut to about n bytes at a character boundary, marked when cut.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return string(b[:n]) + "..."
}
