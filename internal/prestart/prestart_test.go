package prestart

import (
	"slices"
	"testing"
)

// TestToolName: the tool a command line names is found past the flags and their values, as
// the flag package parses them.
func TestToolName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"read", "--params", "{}"}, "read"},
		{[]string{"--workspace", "ws", "read"}, "read"},
		{[]string{"-workspace=ws", "--params", `{"file":"x"}`, "glob"}, "glob"},
		{[]string{"--list"}, ""},
		{[]string{"--list", "write"}, "write"},
		{[]string{"--params-file", "-", "write"}, "write"},
		{[]string{"--", "read"}, "read"},
		{nil, ""},
	} {
		if got := toolName(c.args); got != c.want {
			t.Errorf("toolName(%q) = %q; want %q", c.args, got, c.want)
		}
	}
}

// TestRoles: run and tool start a script worker ahead, but not for a tool that runs no
// script; an import (`cadrun import`, `cadrun tool import`) starts the importer's worker too;
// the other commands start none.
func TestRoles(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "main.js"}, []string{"1"}},
		{[]string{"tool", "write", "--params", "{}"}, []string{"1"}},
		{[]string{"tool", "--workspace", "ws", "glob"}, nil},
		{[]string{"tool", "--list"}, nil},
		{[]string{"tool", "--params", "{}", "import"}, []string{"import", "1"}},
		{[]string{"import", "part.dxf", "-workspace", "ws"}, []string{"import", "1"}},
		{[]string{"mcp"}, nil},
		{[]string{"watch"}, nil},
		{nil, nil},
	} {
		if got := roles(c.args); !slices.Equal(got, c.want) {
			t.Errorf("roles(%q) = %q; want %q", c.args, got, c.want)
		}
	}
}
