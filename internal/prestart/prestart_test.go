package prestart

import "testing"

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
