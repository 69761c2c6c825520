package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A bad row in the registry's table panics at start-up, naming the tool: a name given twice,
// a row without a description, a type that is neither read nor edit.
func TestIndexRefusesBadRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		rows []*Tool
		want string
	}{
		{"duplicate", []*Tool{typed("glob", TypeRead, "d", globTool), typed("glob", TypeRead, "d", globTool)},
			"tools: duplicate, undocumented or untyped tool glob"},
		{"no description", []*Tool{typed("read", TypeRead, "", readTool)},
			"tools: duplicate, undocumented or untyped tool read"},
		{"no type", []*Tool{typed("write", "", "d", writeTool)},
			"tools: duplicate, undocumented or untyped tool write"},
		{"unknown type", []*Tool{ownInput[SaveIn]("save", "write", "d", saveInputSchema, saveTool)},
			"tools: duplicate, undocumented or untyped tool save"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if diff := cmp.Diff(tc.want, recover()); diff != "" {
					t.Errorf("panic mismatch (-want +got):\n%s", diff)
				}
			}()
			index(tc.rows)
		})
	}
}
