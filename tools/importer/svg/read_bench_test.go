package svg

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkRead reads a drawing of 5,000 stroked shapes, half of them dashed paths with
// corners, the per-shape work the stroke's caps, joins and dashes add.
func BenchmarkRead(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"><g stroke="black" stroke-width="0.5" fill="none">`)
	for i := range 2500 {
		fmt.Fprintf(&sb, "\n"+`<path d="M%d %d l 10 0 l 0 10 q 5 5 10 0 c 3 3 6 3 9 0 z" stroke-dasharray="2 1"/>`, i%1000, i/10)
		fmt.Fprintf(&sb, "\n"+`<rect x="%d" y="%d" width="8" height="4" transform="rotate(%d)"/>`, i%1000, i/10, i%90)
	}
	sb.WriteString("</g></svg>")
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadClipped reads a plot as matplotlib writes one: 200 lines of 60 points and 200
// round markers, each with the axes' frame as its clip-path, a tenth of them crossing it, the
// per-shape work that deciding and cutting each clip adds.
func BenchmarkReadClipped(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"><defs><clipPath id="frame"><rect x="50" y="50" width="900" height="900"/></clipPath></defs>`)
	for i := range 200 {
		sb.WriteString("\n" + `<path clip-path="url(#frame)" style="fill:none;stroke:#1f77b4;stroke-width:1.5" d="M`)
		y0 := 60 + float64(i)*4
		if i%10 == 0 {
			y0 = 20 // crosses the frame's top
		}
		for k := range 60 {
			fmt.Fprintf(&sb, " %g %g", 60+14.5*float64(k), y0+20*float64(k%7)/7)
		}
		fmt.Fprintf(&sb, `"/>`+"\n"+`<circle clip-path="url(#frame)" cx="%d" cy="%d" r="4" fill="#ff7f0e"/>`, 50+(i%10)*90+i%10/9, 100+i*4)
	}
	sb.WriteString("</svg>")
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadText reads 2,000 labels as a drawing has them: a line of text anchored at its
// middle, and a second in a tspan of its own size and position, the per-character work the
// layout adds (each character's advance, each run's).
func BenchmarkReadText(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"><g font-family="sans-serif" font-size="3">`)
	for i := range 2000 {
		fmt.Fprintf(&sb, "\n"+`<text x="%d" y="%d" text-anchor="middle">Room %d, level 2<tspan x="%d" dy="4" font-size="2">%d.5 m² floor</tspan></text>`, i%40*25, i/40*20, i, i%40*25, i)
	}
	sb.WriteString("</g></svg>")
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadViewports reads a sheet of 400 icons as an icon sprite places them: each a
// nested <svg> with a viewBox holding three shapes and a placed symbol, a quarter of them
// drawing past their viewport, and 400 <use>s of a symbol, a quarter of a symbol that draws
// past its viewBox: the work that measuring each viewport's content, and converting it again
// cut where it passes, adds.
func BenchmarkReadViewports(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 1000"><defs>`)
	for id, r := range map[string]int{"s": 10, "t": 14} {
		fmt.Fprintf(&sb, `<symbol id="%s" viewBox="0 0 24 24"><circle cx="12" cy="12" r="%d" fill="teal"/><path d="M6 12 l4 4 l8 -8" stroke="white" stroke-width="2" fill="none"/></symbol>`, id, r)
	}
	sb.WriteString(`</defs>`)
	for i := range 400 {
		r, id := 8, "s"
		if i%4 == 0 {
			r, id = 14, "t" // passes its 24-unit viewport
		}
		fmt.Fprintf(&sb, "\n"+`<svg x="%d" y="%d" width="20" height="20" viewBox="0 0 24 24"><rect x="2" y="2" width="20" height="20" rx="3" fill="#eee"/><circle cx="12" cy="12" r="%d" fill="navy"/><path d="M4 20 L12 4 L20 20 Z" fill="orange"/><use href="#s" x="6" y="6" width="12" height="12"/></svg>`, i%20*50, i/20*50, r)
		fmt.Fprintf(&sb, "\n"+`<use href="#%s" x="%d" y="%d" width="24" height="24"/>`, id, i%20*50+25, i/20*50+25)
	}
	sb.WriteString("</svg>")
	data := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
