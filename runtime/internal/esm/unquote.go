package esm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// unquote decodes the body of a string literal. Legacy octal escapes are rejected, as in
// strict code; a lone surrogate becomes U+FFFD.
func unquote(raw string) (string, bool) {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw, true
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		c = raw[i]
		i++
		switch c {
		case 'n':
			b = append(b, '\n')
		case 't':
			b = append(b, '\t')
		case 'r':
			b = append(b, '\r')
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'v':
			b = append(b, '\v')
		case '0':
			if i < len(raw) && isDecimalDigit(raw[i]) {
				return "", false
			}
			b = append(b, 0)
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			return "", false
		case '\r':
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case '\n':
		case 'x':
			v, ok := hexValue(raw, i, i+2)
			if !ok {
				return "", false
			}
			i += 2
			b = utf8.AppendRune(b, v)
		case 'u':
			v, n, ok := unicodeEscape(raw, i)
			if !ok {
				return "", false
			}
			i += n
			if 0xD800 <= v && v < 0xDC00 && strings.HasPrefix(raw[i:], `\u`) {
				if lo, m, ok := unicodeEscape(raw, i+2); ok && 0xDC00 <= lo && lo < 0xE000 {
					v = 0x10000 + (v-0xD800)<<10 + (lo - 0xDC00)
					i += 2 + m
				}
			}
			b = utf8.AppendRune(b, v)
		default:
			if c == 0xE2 && isLineSep(raw, i-1) {
				i += 2 // a line continuation
				continue
			}
			b = append(b, c) // an identity escape; a multi-byte character's tail follows as is
		}
	}
	return string(b), true
}

// unicodeEscape decodes XXXX or {X...} at raw[i:], returning the value and bytes used.
func unicodeEscape(raw string, i int) (rune, int, bool) {
	if i < len(raw) && raw[i] == '{' {
		j := strings.IndexByte(raw[i:], '}')
		if j < 2 {
			return 0, 0, false
		}
		v, ok := hexValue(raw, i+1, i+j)
		if !ok || v > unicode.MaxRune {
			return 0, 0, false
		}
		return v, j + 1, true
	}
	v, ok := hexValue(raw, i, i+4)
	return v, 4, ok
}

func hexValue(raw string, i, j int) (rune, bool) {
	if j > len(raw) || j-i > 8 {
		return 0, false
	}
	var v rune
	for ; i < j; i++ {
		c := raw[i]
		switch {
		case isDecimalDigit(c):
			v = v<<4 | rune(c-'0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			v = v<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
