package sceneview

// Numbers in the scene views are rounded to what they can mean: a boolean result's vertices
// come out of float arithmetic with 17 significant digits, most of them noise, and an agent
// pays for every digit. Coordinates (and lengths) are rounded to a millionth of the scene's
// larger side, as a power of ten, which is also the SVG's precision; everything else (angles,
// scale factors, colours, matrices) keeps 8 significant digits. The JSON is rewritten number
// by number, so the answer's structure is exactly what encoding/json wrote.

import (
	"math"
	"strconv"
	"sync"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools/engine"
)

// coordinateKeys are the JSON keys whose numbers are coordinates or lengths in scene units.
var coordinateKeys = map[string]bool{
	"center": true, "radius": true, "rx": true, "ry": true, "width": true, "height": true,
	"points": true, "holes": true, "outer": true, "pos": true, "size": true, "translate": true,
	"pivot": true, "min": true, "max": true, "strokeWidth": true, "ascent": true, "descent": true,
}

// significantDigits is the precision of numbers that are not coordinates.
const significantDigits = engine.SignificantDigits

// Quantum is the rounding step for coordinates of s: a millionth of its larger side,
// as a power of ten (a millionth for an empty scene). Scenes do not change once served, so
// the last one's quantum is kept: the bounds of a large scene are not free.
func Quantum(s *scene.Scene) float64 {
	lastQuantum.mu.Lock()
	defer lastQuantum.mu.Unlock()
	if lastQuantum.scene != s {
		lastQuantum.scene, lastQuantum.q = s, engine.Quantum(s.Bounds())
	}
	return lastQuantum.q
}

var lastQuantum struct {
	mu    sync.Mutex
	scene *scene.Scene
	q     float64
}

// RoundJSON returns b (valid JSON) with its numbers rounded: those under a coordinate key to
// the quantum q, the others to significantDigits. Integers are kept as they are.
func RoundJSON(b []byte, q float64) []byte {
	out := make([]byte, 0, len(b))
	decimals := max(0, int(-math.Floor(math.Log10(q))))
	// One frame per open object or array: an object's key is the last one read in it, an
	// array's is the key it is the value of.
	type frame struct {
		object bool
		key    string
	}
	stack := []frame{{}}
	for i := 0; i < len(b); {
		top := &stack[len(stack)-1]
		switch c := b[i]; {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(b)) // past the closing quote
			str := b[i:j]
			out = append(out, str...)
			k := j
			for k < len(b) && (b[k] == ' ' || b[k] == '\n' || b[k] == '\t' || b[k] == '\r') {
				k++
			}
			if top.object && k < len(b) && b[k] == ':' { // a key
				if s, err := strconv.Unquote(string(str)); err == nil {
					top.key = s
				}
			}
			i = j
		case c == '{' || c == '[':
			stack = append(stack, frame{object: c == '{', key: top.key})
			if c == '{' {
				stack[len(stack)-1].key = ""
			}
			out = append(out, c)
			i++
		case c == '}' || c == ']':
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
			out = append(out, c)
			i++
		case c == '-' || ('0' <= c && c <= '9'):
			j := i + 1
			for j < len(b) && (b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-' || ('0' <= b[j] && b[j] <= '9')) {
				j++
			}
			num := b[i:j]
			f, err := strconv.ParseFloat(string(num), 64)
			switch {
			case err != nil || (f == math.Trunc(f) && math.Abs(f) < 1<<53):
				out = append(out, num...)
			case coordinateKeys[top.key]:
				out = appendRounded(out, math.Round(f/q)*q, decimals)
			default:
				out = appendRounded(out, f, -1)
			}
			i = j
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// appendRounded appends f with at most decimals decimals (decimals < 0: significantDigits
// significant digits), in JSON's number form, without trailing zeros.
func appendRounded(b []byte, f float64, decimals int) []byte {
	if decimals < 0 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', significantDigits, 64), 64)
		f, decimals = r, -1
	}
	if f == 0 {
		return append(b, '0')
	}
	if decimals < 0 {
		// The shortest form of the rounded value, as encoding/json writes it.
		abs := math.Abs(f)
		if abs < 1e-6 || abs >= 1e21 {
			b = strconv.AppendFloat(b, f, 'e', -1, 64)
			if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' { // e-09 -> e-9
				b[n-2] = b[n-1]
				b = b[:n-1]
			}
			return b
		}
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'f', decimals, 64)
	if decimals > 0 {
		for b[len(b)-1] == '0' {
			b = b[:len(b)-1]
		}
		if b[len(b)-1] == '.' {
			b = b[:len(b)-1]
		}
	}
	if string(b[start:]) == "-0" {
		b = append(b[:start], '0')
	}
	return b
}
