package importer

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

// FuzzDXF: any input is imported or refused, never a panic, within the reader's time limit.
func FuzzDXF(f *testing.F) {
	f.Add([]byte("0\nSECTION\n2\nENTITIES\n0\nLWPOLYLINE\n8\nA\n70\n1\n10\n0\n20\n0\n42\n1\n10\n1\n20\n0\n0\nENDSEC\n0\nEOF\n"))
	f.Add([]byte("0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\nB\n10\n1\n20\n1\n0\nCIRCLE\n40\n1\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n0\nINSERT\n2\nB\n50\n30\n0\nMTEXT\n1\n{\\fA;x}\\P\\S1^2;\n40\n2\n0\nENDSEC\n0\nEOF\n"))
	ents := func(body string) []byte {
		return []byte("0\nSECTION\n2\nBLOCKS\n0\nBLOCK\n2\n*D1\n0\nLINE\n11\n1\n0\nENDBLK\n0\nENDSEC\n0\nSECTION\n2\nENTITIES\n" + body + "0\nENDSEC\n0\nEOF\n")
	}
	f.Add(ents("0\nELLIPSE\n10\n1\n20\n2\n11\n3\n21\n4\n40\n0.5\n41\n1\n42\n5\n230\n-1\n"))
	f.Add(ents("0\nSPLINE\n70\n1\n71\n2\n40\n0\n40\n0\n40\n0\n40\n1\n40\n1\n40\n1\n41\n2\n10\n0\n20\n0\n10\n1\n20\n1\n10\n2\n20\n0\n"))
	f.Add(ents("0\nSOLID\n10\n0\n20\n0\n11\n1\n21\n0\n12\n0\n22\n1\n13\n1\n23\n1\n0\n3DFACE\n11\n1\n22\n1\n"))
	f.Add(ents("0\nHATCH\n2\nANSI31\n70\n0\n91\n2\n92\n3\n72\n1\n73\n1\n93\n3\n10\n0\n20\n0\n42\n1\n10\n4\n20\n0\n10\n4\n20\n4\n97\n0\n" +
		"92\n0\n93\n2\n72\n3\n10\n2\n20\n2\n11\n1\n21\n0\n40\n0.5\n50\n0\n51\n360\n73\n0\n72\n4\n94\n1\n73\n0\n74\n0\n95\n4\n96\n2\n40\n0\n40\n0\n40\n1\n40\n1\n10\n3\n20\n2\n10\n2\n20\n2\n97\n0\n52\n30\n41\n2\n"))
	// MTEXTs spaced and in columns, in the MTEXT's own groups and in an embedded object.
	f.Add(ents("0\nMTEXT\n10\n0\n20\n0\n40\n2\n71\n5\n1\nA B C\\PD\\PE\n44\n0.3\n46\n4\n75\n2\n76\n2\n48\n3\n49\n1\n50\n0\n50\n-4\n" +
		"0\nMTEXT\n40\n1\n1\nA\\PB\\PC\n101\nEmbedded Object\n71\n1\n72\n9\n44\n5\n45\n1e300\n41\n1\n"))
	f.Add(ents("0\nDIMENSION\n2\n*D1\n0\nINSERT\n2\n*D1\n70\n3\n71\n2\n44\n5\n45\n5\n50\n30\n"))
	// Hostile files: a negative vertex count; a spline of degree 4 flattened; a HATCH of many
	// rings; a linetype scale of inf and a coordinate past MaxCoord; %%nnn codes.
	f.Add([]byte("0\nSECTION\n2\nENTITIES\n0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n71\n0\n91\n1\n92\n2\n72\n0\n73\n1\n93\n-5\n0\nENDSEC\n0\nEOF\n"))
	f.Add(entitiesDXF(splineDXF(40, 4)))
	var rings strings.Builder
	rings.WriteString("0\nHATCH\n8\n0\n2\nSOLID\n70\n1\n71\n0\n91\n16\n")
	for k := range 16 {
		rings.WriteString("92\n2\n72\n0\n73\n1\n93\n4\n")
		x, y := k%4*10, k/4*10
		fmt.Fprintf(&rings, "10\n%d\n20\n%d\n10\n%d\n20\n%d\n10\n%d\n20\n%d\n10\n%d\n20\n%d\n97\n0\n", x, y, x+4, y, x+4, y+4, x, y+4)
	}
	f.Add(entitiesDXF(rings.String() + "75\n0\n76\n1\n98\n0\n"))
	f.Add(entitiesDXF("0\nLINE\n8\n0\n6\nDASHED_Xinf\n10\n0\n20\n0\n11\n1\n21\n1\n0\nLINE\n11\n1e20\n"))
	f.Add(entitiesDXF("0\nTEXT\n40\n2.5\n1\nX%%065Y it%%039s %%000\n0\nMTEXT\n40\n2\n1\na\\U+0003b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = DXF(data, Options{Limits: dxf.Limits{MaxTime: time.Second}})
	})
}

// FuzzSVG: any input is imported or refused, never a panic, within the reader's time limit.
func FuzzSVG(f *testing.F) {
	f.Add([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="10mm" viewBox="0 0 10 10"><g id="a" transform="rotate(30 5 5)"><rect width="4" height="2" rx="1"/><path d="m0 0 c1 2 3 4 5 6 a2 1 30 1 0 4 4z"/></g><use href="#a" x="3"/></svg>`))
	f.Add([]byte(`<svg><defs><symbol id="s"><circle r="1" style="fill:#abc;stroke:rgb(1,2,3)"/><use href="#s"/></symbol></defs><use href="#s"/><text x="1 2" font-size="2em">x</text><polygon points="1,2 3"/></svg>`))
	f.Add([]byte(`<svg><clipPath id="c" clip-rule="evenodd" clipPathUnits="objectBoundingBox" clip-path="url(#d)"><path d="M0 0h1v1z M.2 .2h.5v.5z"/><text y="1">A</text></clipPath><clipPath id="d"><circle r="9"/></clipPath><mask id="m"><rect width="5" height="5" fill="#fff"/></mask><g clip-path="url(#c)" mask="url(#m)"><path d="M0 0 C5 5 9 0 3 3" stroke="red"/><text x="1 2" dx="1" y="3" text-anchor="middle" dominant-baseline="central" xml:space="preserve"> a <tspan x="4" dy="1em" font-size="150%">b</tspan></text></g></svg>`))
	f.Add([]byte(`<svg viewBox="0 0 9 9"><symbol id="s" viewBox="0 0 2 2" overflow="hidden"><text y="3">A</text><circle cx="2" r="2"/></symbol><svg x="1" width="5" height="50%" viewBox="0 0 4 1" preserveAspectRatio="xMaxYMin slice"><svg width="2"><use href="#s" width="3" height="1"/><rect x="-1" width="9" height="1" stroke="red"/></svg></svg><use href="#s" transform="skewX(9)" width="1e308" height="1"/></svg>`))
	f.Add([]byte(`<svg width="30" height="27" viewBox="0 0 6e20 540"><style>/* x */ g.a > rect, #b .c { fill: red !important } @media print { * { fill: blue } } <!-- y --> rect:hover{}</style><g class="a"><rect width="6420" height="540"/><polygon points="1,2 3,4" class="c"/></g><switch><rect systemLanguage="de"/><path d="M0 0 L1 1" style="marker:url(#m);filter:url(#f);mix-blend-mode:screen"/></switch></svg>`))
	f.Add([]byte(`<svg><marker id="m" viewBox="0 0 2 2" refX="left" refY="50%" orient="auto-start-reverse" overflow="hidden"><path d="M0 0 L3 1 L0 2z" marker-end="url(#m)"/><line x2="1" style="marker:url(#n)"/></marker><marker id="n" markerUnits="userSpaceOnUse" markerWidth="0"><circle r="1"/></marker><g transform="skewX(9)"><polyline points="0,0 1,1 2,0 2,0" stroke-width="2" marker-mid="url(#m)" marker-end="url(#n)"/></g><path d="M0 0 A1 1 0 0 1 2 0Z M3 3 Q4 4 5 3" style="marker:url(#m)"/><text text-decoration="underline overline line-through wavy" transform="rotate(9)">a<tspan text-decoration="none" x="3">b</tspan></text></svg>`))
	f.Add([]byte(`<svg><marker id="c" fill="context-stroke"><g stroke="context-fill"><path d="M0 0 L3 1 L0 2z" marker-end="url(#c)"/></g></marker><line x2="5" stroke="url(#g) red" fill-opacity=".5" marker-end="url(#c)"/><line x2="5" stroke="blue" marker-start="url(#c)"/><rect width="1" height="1" fill="context-fill"/></svg>`))
	f.Add([]byte(`<svg><clipPath id="k"><circle cx="5" cy="5" r="5"/></clipPath><g clip-path="url(#k)" stroke="red" stroke-width="3" fill="none"><path d="M-2 5 C0 0 5 9 6 5 M1 1 H2 V2 Z" stroke-linecap="round"/><polyline points="5,5 12,7 5,9" stroke-linecap="square"/><rect x="4" y="-1" width="9" height="3" stroke-dasharray="1"/></g></svg>`))
	f.Add([]byte(`<svg><defs><g id="p"><circle r="2" fill="context-fill" stroke="context-stroke"/><use href="#q" fill="context-stroke"/></g><rect id="q" width="1" height="1" stroke="context-fill"/></defs><use href="#p" fill="red" stroke="url(#g) blue" fill-opacity=".5"/><use href="#p" transform="skewX(9)"/></svg>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = SVG(data, Options{SVGLimits: svg.Limits{MaxTime: time.Second}})
	})
}
