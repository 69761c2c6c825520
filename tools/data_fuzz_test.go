package tools

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDataWrite: any write or edit of a data file (or its schema) never panics, and one that
// fails leaves every file as it was.
func FuzzDataWrite(f *testing.F) {
	for _, s := range []string{
		`{"file":"door.json","code":"{\"width\": 700, \"height\": 1}"}`,
		`{"file":"door.json","content":{"width":700,"height":1}}`,
		`{"file":"door.json","content":"{\"width\":1}"}`,
		`{"file":"door.schema.json","code":"{\"$ref\":\"x.json\"}"}`,
		`{"file":"a/b.json","code":"[1,2"}`,
		`{"file":"door.json","old_code":"900","new_code":"-1"}`,
	} {
		f.Add("write", s)
	}
	f.Add("edit", `{"file":"door.json","old_code":"900","new_code":"950"}`)
	f.Add("move", `{"file":"door.json","to":"gate.json"}`)
	f.Fuzz(func(t *testing.T, tool, params string) {
		if tool != "write" && tool != "edit" && tool != "move" && tool != "delete" && tool != "read" {
			return
		}
		s, dir := doorSession(t)
		before := userFiles(t, dir)
		if _, err := s.Call(context.Background(), tool, json.RawMessage(params)); err != nil {
			if diff := cmp.Diff(before, userFiles(t, dir)); diff != "" {
				t.Fatalf("%s %s failed (%v) but changed files (-before +after):\n%s", tool, params, err, diff)
			}
		}
	})
}
