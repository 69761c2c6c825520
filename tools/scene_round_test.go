package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Coordinates are rounded to the scene's quantum, other numbers to 8 significant digits;
// integers, strings and the structure stay as they are.
func TestRoundJSON(t *testing.T) {
	t.Parallel()
	in := `{"name":"p 0.123456789","geometry":{"parts":[{"outer":[[0.30000000000000004,-1.0000000000000002e-7],[12.345678901234567,3]]}]},` +
		`"transform":{"translate":[1.23456789,0],"rotate":0.7853981633974483,"scale":[1.0000000000000002,2],"pivot":[-0.0000001,5]},` +
		`"style":{"fill":[0.2,0.4000000000000001,0.6,1],"strokeWidth":0.10000000000000009},"zRank":3,"worldTransform":[1,0,0,1,1e+300,-2.5e-9]}`
	want := `{"name":"p 0.123456789","geometry":{"parts":[{"outer":[[0.3,0],[12.3457,3]]}]},` +
		`"transform":{"translate":[1.2346,0],"rotate":0.78539816,"scale":[1,2],"pivot":[0,5]},` +
		`"style":{"fill":[0.2,0.4,0.6,1],"strokeWidth":0.1},"zRank":3,"worldTransform":[1,0,0,1,1e+300,-2.5e-9]}`
	if diff := cmp.Diff(want, string(roundJSON([]byte(in), 1e-4))); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
