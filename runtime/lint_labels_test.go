package runtime

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSizeLabelLint: the size-label lint compares a label with the nearest shape of the kind
// it states, by its outline ('Ø12' beside a Ø10 hole inside a Ø120 ring speaks of the hole),
// lets a general note pass when shapes measuring what it says are on the sheet, and leaves a
// text drawn with lint: false alone. Each case compares every finding of the run.
func TestSizeLabelLint(t *testing.T) {
	t.Parallel()
	const flange = "drawCircle('outer', 0, 0, 60); drawCircle('bore', 0, 0, 20)\n" +
		"for (let i = 0; i < 6; i++) drawCircle('hole' + i, 40 * Math.cos(i * Math.PI / 3), 40 * Math.sin(i * Math.PI / 3), 5)\n"
	tests := []struct {
		name, src string
		want      []string
	}{
		{"a label beside a hole inside a ring names the hole",
			flange + "drawText('label', 'Ø12', 48, -2, 3)",
			[]string{`size-label: text "label" says Ø12, but the nearest circle "hole0" measures Ø10 (at 51.0139, -0.9094)`}},
		{"a label beside its hole passes",
			flange + "drawText('label', 'Ø10', 48, -2, 3)", nil},
		{"a general note passes when such holes are on the sheet",
			flange + "drawText('note', '6 HOLES Ø10 EQ SP', -30, -80, 4)", nil},
		{"a general note is checked against the whole sheet",
			flange + "drawText('note', '6 HOLES Ø12 EQ SP', -30, -80, 4)",
			[]string{`size-label: text "note" says Ø12, but no shape in the drawing measures that; the nearest circle "outer" measures Ø120 (at -9.9551, -78.7354)`}},
		{"4x Ø10 is a general note",
			flange + "drawText('note', '4x Ø10', -30, -80, 4)", nil},
		{"lint: false silences it",
			flange + "drawText('label', 'Ø12', 48, -2, 3, {lint: false})", nil},
	}
	for _, tt := range tests {
		res, err := Run(context.Background(), MapSource{MainModule: tt.src}, MainModule, Options{Lint: true})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, f := range res.Lint {
			got = append(got, f.String())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: findings mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}
