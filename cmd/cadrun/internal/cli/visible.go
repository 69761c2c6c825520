package cli

import (
	"fmt"
	"strings"
)

// Visible shows the control characters of a script's text (console output, an error's
// message, a source line) as escapes, such as \x1b, so that a script cannot drive the
// terminal it is run from: clear it, retitle it, or set the clipboard with an escape
// sequence. Line breaks and tabs stay. `cadrun run` and `cadrun watch` print through it.
func Visible(s string) string {
	control := func(r rune) bool {
		return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0))
	}
	if !strings.ContainsFunc(s, control) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if control(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
