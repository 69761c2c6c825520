package importer

// MTEXT's line spacing (44) and columns (75 on, or the embedded object's 71 on): where each
// line's baseline and each column's left side lie, worked out by hand from the rules in
// textplace.go: the first baseline a height below the top, the next ones the factor times
// drawText's spacing below, and a column the width and gutter right of the one before.

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/scene/text"
)

func TestMTextFlow(t *testing.T) {
	t.Parallel()
	const head = "0\nSECTION\n2\nENTITIES\n"
	// Each MTEXT is top-left at (10, 50) in a height of 2; a column of the defined height 10
	// holds 4 lines at drawText's spacing: (10 - 2 - 2/3) / 2.4 is 3.06 steps below the first,
	// one of 5 or 4 only 1 (0.97 and 0.55 steps), one of 8 3 (2.2 steps).
	mtext := func(layer, text, groups string) string {
		return "0\nMTEXT\n8\n" + layer + "\n10\n10\n20\n50\n40\n2\n71\n1\n1\n" + text + "\n" + groups
	}
	const six = `L1\PL2\PL3\PL4\PL5\PL6`
	step := text.LineSpacing * 2
	type line struct{ x, base float64 }
	column := func(x float64, n int, step float64) []line { // a column's n lines
		var out []line
		for i := range n {
			out = append(out, line{x, 48 - float64(i)*step})
		}
		return out
	}
	tests := []struct {
		name, layer, text, groups string
		want                      []line
	}{
		{"double spacing", "spaced", `A\PB\PC`, "44\n2\n73\n2\n", column(10, 3, 2*step)},
		{"a factor past 4 drawn at 4, as CAD programs do", "far", `A\PB`, "44\n10\n", column(10, 2, 4*step)},
		{"columns in the MTEXT's groups", "cols", six,
			"46\n10\n75\n1\n76\n2\n48\n20\n49\n5\n", append(column(10, 4, step), column(35, 2, step)...)},
		{"columns' heights each their own", "heights", six,
			"75\n2\n76\n3\n48\n20\n49\n5\n50\n5\n50\n8\n50\n8\n", append(append(column(10, 1, step), column(35, 3, step)...), column(60, 2, step)...)},
		{"columns in the embedded object", "embedded", six,
			"62\n1\n101\nEmbedded Object\n70\n1\n10\n1\n20\n0\n11\n10\n21\n50\n40\n45\n41\n10\n71\n1\n72\n2\n44\n20\n45\n5\n",
			append(column(10, 4, step), column(35, 2, step)...)},
		{"the column's width wraps, not 41", "wraps", "HELLO WORLD AGAIN",
			"41\n100\n46\n4\n75\n1\n76\n3\n48\n12\n49\n2\n", append(append(column(10, 1, step), column(24, 1, step)...), column(38, 1, step)...)},
		{"spaced columns", "both", six,
			"44\n1.5\n46\n10\n75\n1\n76\n2\n48\n20\n49\n5\n", append(column(10, 3, 1.5*step), column(35, 3, 1.5*step)...)},
	}
	var data strings.Builder
	data.WriteString(head)
	for _, tc := range tests {
		data.WriteString(mtext(tc.layer, tc.text, tc.groups))
	}
	// Turned a quarter about its point, with its angle before the columns' heights: the second
	// column's first baseline, from (35, 48), runs up from (12, 75).
	data.WriteString(mtext("turned", six, "50\n90\n46\n10\n75\n2\n76\n2\n48\n20\n49\n5\n50\n10\n50\n10\n"))
	data.WriteString("0\nENDSEC\n0\nEOF\n")
	s, rep, code := importRun(t, []byte(data.String()))
	if len(rep.Skipped) != 0 || rep.Kinds["MTEXT"] != len(tests)+1 {
		t.Fatalf("kinds %v, skipped %v", rep.Kinds, rep.Skipped)
	}
	for _, tc := range tests {
		for i, w := range tc.want {
			b := outline(t, s, fmt.Sprintf("%s-mtext1-%d", tc.layer, i+1)).Bounds()
			if math.Abs(b.Min.X-w.x) > 0.3 || math.Abs(b.Min.Y-w.base) > 0.05 {
				t.Errorf("%s: line %d's box %v, want its left at %g and its foot at %g\n%s", tc.name, i+1, b, w.x, w.base, code)
			}
		}
		if _, err := s.Get(fmt.Sprintf("%s-mtext1-%d", tc.layer, len(tc.want)+1)); err == nil {
			t.Errorf("%s: more than %d lines", tc.name, len(tc.want))
		}
	}
	if strings.Count(code, "rotate(") != 1 {
		t.Errorf("want one text turned, the one whose angle is 90, not a column's height:\n%s", code)
	}
	if b := outline(t, s, "turned-mtext1-5").Bounds(); math.Abs(b.Max.X-12) > 0.05 || math.Abs(b.Min.Y-75) > 0.3 {
		t.Errorf("the turned text's second column %v, want it left of x = 12 from y = 75 up", b)
	}
}

// TestMTextSpacingFromEzdxf: ezdxf's MTEXT layout (its explode into TEXTs) puts lines the
// factor times 5/3 of the height apart, where drawText's spacing is 1.2 of the em. Up to
// drawText's distance (the factors 0.5, and 0.72, which cadrun's DXF writer writes) the lines
// are ezdxf's distance apart; from the factor 1 on, the distance is drawText's times the
// factor, as ezdxf's is its own times the factor. A top-left text's first baseline stays
// where it was, and a bottom-left one's last.
func TestMTextSpacingFromEzdxf(t *testing.T) {
	t.Parallel()
	factors := []float64{1, 1.5, 2, 0.5, 0.72}
	data, theirs := ezdxfSamples(t, samplesHead+`
from ezdxf.addons import MTextExplode
ms = []
for i, f in enumerate([1, 1.5, 2, 0.5, 0.72]):
    for att in [1, 7]:
        ms.append(msp.add_mtext('H\\PE\\PL', dxfattribs={'char_height': 2, 'insert': (20 * i, 10 * att), 'attachment_point': att, 'line_spacing_factor': f, 'layer': 'f%d-%d' % (i, att)}))
doc.saveas(sys.argv[1])
with MTextExplode(msp) as xpl:
    for m in ms:
        xpl.explode(m)
for t in msp.query('TEXT'):
    out.setdefault(t.dxf.layer, []).append([t.dxf.insert.x, t.dxf.insert.y])
print(json.dumps(out))
`)
	s, rep, code := importRun(t, data)
	if len(rep.Skipped) != 0 {
		t.Fatalf("skipped %v", rep.Skipped)
	}
	base := func(layer string) []float64 { // ezdxf's baselines, top down
		var ys []float64
		for _, p := range theirs[layer] {
			ys = append(ys, p[1])
		}
		slices.Sort(ys)
		slices.Reverse(ys)
		if len(ys) != 3 {
			t.Fatalf("ezdxf's %s has %d lines", layer, len(ys))
		}
		return ys
	}
	// At spacing 1 (and 0.72) the text is one drawText of three lines: its foot is the last
	// baseline (H, E and L stand on theirs), and its lines are drawText's spacing apart.
	ourStep, theirStep := text.LineSpacing*2, base("f0-1")[0]-base("f0-1")[1]
	ourLast := outline(t, s, "f0-7-mtext1").Bounds().Min.Y
	for i, f := range factors[1:] {
		for _, att := range []int{1, 7} {
			layer := fmt.Sprintf("f%d-%d", i+1, att)
			var ours []float64
			if f == 0.72 {
				b := outline(t, s, layer+"-mtext1").Bounds()
				// Bottom-left, ezdxf's last baseline is on the point and drawText's a descent
				// above: each is compared with its own at the factor 1.
				if d := ours0(b, att) - base(layer)[0]; att == 1 && math.Abs(d) > 1e-2 {
					t.Errorf("%s: the first baseline is %g from ezdxf's", layer, d)
				}
				if d := (ours0(b, att) - ourLast) - (base(layer)[2] - base("f0-7")[2]); att == 7 && math.Abs(d) > 1e-2 {
					t.Errorf("%s: the last baseline moved %g further than ezdxf's", layer, d)
				}
				if d := base(layer)[0] - base(layer)[1]; math.Abs(d-ourStep) > 1e-2 {
					t.Errorf("%s: ezdxf's lines are %g apart, drawText's %g", layer, d, ourStep)
				}
				continue
			}
			for l := range 3 {
				ours = append(ours, outline(t, s, fmt.Sprintf("%s-mtext1-%d", layer, l+1)).Bounds().Min.Y)
			}
			want := base(layer)
			for l := 1; l < 3; l++ {
				got, want := ours[l-1]-ours[l], want[l-1]-want[l]
				if f >= 1 { // as multiples of the distance at 1
					got, want = got/ourStep, want/theirStep
				}
				if math.Abs(got-want) > 1e-3*max(want, 1) {
					t.Errorf("%s: line %d is %.4g below the one above, ezdxf's %.4g\n%s", layer, l+1, got, want, code)
				}
			}
			if att == 1 && math.Abs(ours[0]-want[0]) > 1e-2 {
				t.Errorf("%s: the first baseline at %g, ezdxf's at %g", layer, ours[0], want[0])
			}
			if d, want := ours[2]-ourLast, want[2]-base("f0-7")[2]; att == 7 && math.Abs(d-want) > 1e-2 {
				t.Errorf("%s: the last baseline moved by %g from spacing 1's, ezdxf's by %g", layer, d, want)
			}
		}
	}
}

// ours0 is where a three-line text's first baseline lies (top-left, att 1) or its last
// (bottom-left, att 7), from its box: its foot is the last (H, E and L stand on their
// baselines), and the first is two of drawText's lines above it at the height 2.
func ours0(b geom.Box, att int) float64 {
	if att == 7 {
		return b.Min.Y
	}
	return b.Min.Y + 2*text.LineSpacing*2
}

// TestMTextColumnsFar: a gutter that puts a column past the coordinates cadrun draws is
// refused as a coordinate there is, naming the place, not written into a module that fails.
func TestMTextColumnsFar(t *testing.T) {
	t.Parallel()
	data := "0\nSECTION\n2\nENTITIES\n0\nMTEXT\n8\n0\n10\n0\n20\n0\n40\n1\n1\nA\\PB\\PC\n" +
		"101\nEmbedded Object\n71\n1\n72\n3\n44\n5\n45\n1e300\n41\n1\n0\nENDSEC\n0\nEOF\n"
	_, _, err := DXF([]byte(data), Options{Source: "test.dxf"})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "a column's place of") {
		t.Errorf("got %v, want the column's place refused", err)
	}
}
