package render

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzCamera: a view read from the command line or from JSON is accepted or refused with
// ErrCamera, never a panic; one accepted reads back the same from its String and its JSON,
// and frames a picture without error.
func FuzzCamera(f *testing.F) {
	for _, s := range []string{"iso", "front", "Sheet", "1,-1,1", "[0,0,-2]", "0,0,0", "1e308,1e308,1", "nan,1,1", ",", `"top"`, "[1,2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, read := range []func(string) (Camera, error){
			ParseCamera,
			func(s string) (Camera, error) { var c Camera; err := json.Unmarshal([]byte(s), &c); return c, err },
		} {
			c, err := read(s)
			if err != nil {
				var syntax *json.SyntaxError
				if !errors.Is(err, ErrCamera) && !errors.As(err, &syntax) {
					t.Fatalf("%q: %v, not ErrCamera", s, err)
				}
				continue
			}
			if err := c.Check(); err != nil {
				t.Fatalf("%q read as %v, which Check refuses: %v", s, c, err)
			}
			again, err := ParseCamera(c.String())
			if err != nil || again.basis() != c.basis() {
				t.Fatalf("%q read as %v; its String %q reads as %v, %v", s, c, c.String(), again, err)
			}
			b, err := json.Marshal(c)
			if err != nil {
				t.Fatal(err)
			}
			var back Camera
			if err := json.Unmarshal(b, &back); err != nil || back.basis() != c.basis() {
				t.Fatalf("%q read as %v; its JSON %s reads as %v, %v", s, c, b, back, err)
			}
		}
	})
}
