package svg

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// usesAtScales is the shape of a file that once took the importer tens of seconds and
// gigabytes: one path of n segments and uses of it, each at a scale of its own.
func usesAtScales(n, uses int) []byte {
	var b strings.Builder
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"><defs><path id="p" d="M0 0`)
	for i := range n {
		fmt.Fprintf(&b, " L%d.%02d %d", i%1000, i%97, (i*7)%1000)
	}
	b.WriteString(`"/></defs>`)
	for i := range uses {
		fmt.Fprintf(&b, "\n"+`<use href="#p" transform="scale(%g)"/>`, 1+float64(i)/100000)
	}
	b.WriteString("</svg>")
	return []byte(b.String())
}

// TestUseScalesOneSymbol: a symbol placed at many scales is converted once and placed by
// each <use> with its scale, instead of converted (and written) again for each scale.
func TestUseScalesOneSymbol(t *testing.T) {
	t.Parallel()
	d, err := Read(usesAtScales(1000, 200), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Symbols) != 1 {
		t.Fatalf("%d symbols for one path used at 200 scales, want 1", len(d.Symbols))
	}
	if d.Segments != 1001 {
		t.Errorf("%d segments converted, want the path's 1,001 once", d.Segments)
	}
	if n := len(d.Symbols[0].Items[0].Prim.Path); d.ShapeBytes != n {
		t.Errorf("%d bytes of shapes written, want the path's %d once", d.ShapeBytes, n)
	}
}

// TestConversionBudgets: what cannot be placed by a group's transform (a skewed <use>, a
// symbol under another style) is converted again for each <use>; the segments converted count
// against MaxSegments and the text written against MaxShapeBytes, refused at the <use> that
// passes them.
func TestConversionBudgets(t *testing.T) {
	t.Parallel()
	path := `<path id="p" d="M0 0` + strings.Repeat(" L1 2", 99) + `"/>` // 100 segments, 698 bytes written unskewed
	uses := func(attr string) string {
		var b strings.Builder
		for i := range 30 {
			fmt.Fprintf(&b, "\n<use href=\"#p\" %s/>", fmt.Sprintf(attr, i+1))
		}
		return b.String()
	}
	const (
		segs      = "line 12: over a limit: the drawing's paths come to over 1000 segments converted, more than a module can hold (MaxSegments)"
		bytes     = ": over a limit: the shapes' path data, points and text come to over 2000 bytes, more than a module may hold (MaxShapeBytes)"
		inUse     = " (<path> at line 1, drawn for the <use> of #p); a symbol is converted once for each style"
		splitting = "; split the drawing into a few files"
	)
	segments, text := Limits{MaxSegments: 1000}, Limits{MaxShapeBytes: 2000}
	for _, c := range []struct {
		name, body string
		lim        Limits
		want       string
	}{
		{"scales", "<defs>" + path + "</defs>" + uses(`transform="scale(%d)"`), segments, ""},
		{"scales' text", "<defs>" + path + "</defs>" + uses(`transform="scale(%d)"`), text, ""},
		{"skews", "<defs>" + path + "</defs>" + uses(`transform="skewX(%d)"`), segments, segs + inUse},
		{"styles", "<defs>" + path + "</defs>" + uses(`fill="#%02x0000"`), segments, segs + inUse},
		{"paths", strings.Repeat("\n"+path, 11), segments, segs + splitting},
		{"polylines", strings.Repeat("\n<polyline points=\""+strings.Repeat("0 0 ", 100)+"\"/>", 11), segments, segs + splitting},
		{"skews' text", "<defs>" + path + "</defs>" + uses(`transform="skewX(%d)"`), text, "line 3" + bytes + inUse},
		{"styles' text", "<defs>" + path + "</defs>" + uses(`fill="#%02x0000"`), text, "line 4" + bytes + inUse},
		{"text", strings.Repeat("\n<text>"+strings.Repeat("x", 600)+"</text>", 4), text, "line 5" + bytes + splitting},
	} {
		file := `<svg xmlns="http://www.w3.org/2000/svg">` + c.body + "</svg>"
		_, err := Read([]byte(file), Options{Limits: c.lim})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, ErrLimit) || !strings.Contains(fmt.Sprint(err), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
