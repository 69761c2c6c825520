package journal

import (
	"errors"
	"testing"
)

// FuzzParseSave: any parameters either parse into an entry with a title, a text and allowed
// enum values, or fail with ErrBadInput; never a panic.
func FuzzParseSave(f *testing.F) {
	f.Add(`{"title":"t","text":"x","type":"decision","facts":["a"],"extra":{"k":1}}`)
	f.Add(`{"title":"t","text":"x","visibility":"nope"}`)
	f.Add(`{"title":null,"text":[1]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, params string) {
		in, err := ParseSave([]byte(params), "p")
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("%q: %v is not ErrBadInput", params, err)
			}
			return
		}
		if in.Title == "" || in.Text == "" || in.MemorySessionID == "" || in.Type == "" || in.Visibility == "" {
			t.Fatalf("%q parsed into %+v", params, in)
		}
	})
}
