package sceneview

import (
	"encoding/json"
	"math"
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
	if diff := cmp.Diff(want, string(RoundJSON([]byte(in), 1e-4))); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// Rounding keeps any JSON valid, with the same structure, and rounding again changes nothing.
func FuzzRoundJSON(f *testing.F) {
	f.Add(`{"center":[0.30000000000000004,1e-7],"rotate":0.7853981633974483,"name":"a\"b:[1.5]"}`, 1e-4)
	f.Add(`[1,2.5,-0.0000001,{"min":[1e300,-1e-300]}]`, 1.0)
	f.Add(`{"outer":[[1,2],[3,4]],"x":{"points":[]},"s":"\\u00e9"}`, 1e-6)
	f.Fuzz(func(t *testing.T, in string, q float64) {
		if !json.Valid([]byte(in)) || !(q > 1e-12 && q < 1e12) {
			return
		}
		q = math.Pow(10, math.Floor(math.Log10(q)))
		once := RoundJSON([]byte(in), q)
		if !json.Valid(once) {
			t.Fatalf("%q rounded to invalid JSON %q", in, once)
		}
		var a, b any
		if err := json.Unmarshal([]byte(in), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(once, &b); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(shape(a), shape(b)); diff != "" {
			t.Fatalf("structure changed: mismatch (-want +got):\n%s", diff)
		}
		if twice := RoundJSON(once, q); string(twice) != string(once) {
			t.Fatalf("rounding again changed %q to %q", once, twice)
		}
	})
}

// shape replaces every number of a decoded JSON value by 0.
func shape(v any) any {
	switch x := v.(type) {
	case float64:
		return 0
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = shape(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shape(e)
		}
		return out
	}
	return v
}
