package engine

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/scene/lint"
)

// TestLintLines: an answer lists the first findings and counts the rest, and always lists the
// lint's notes about itself (where it stopped), last.
func TestLintLines(t *testing.T) {
	t.Parallel()
	found := func(n int, notes ...string) []lint.Finding {
		var out []lint.Finding
		for i := range n {
			out = append(out, lint.Finding{Rule: lint.RuleTextSmall, Entities: []string{fmt.Sprint(i)}, Message: fmt.Sprint(i)})
		}
		for _, m := range notes {
			out = append(out, lint.Finding{Rule: lint.RuleLintLimit, Message: m})
		}
		return out
	}
	tests := []struct {
		name  string
		found []lint.Finding
		limit int
		want  []string
	}{
		{"none", nil, 2, nil},
		{"under the limit", found(2), 2, []string{"text-small: 0 (at 0, 0)", "text-small: 1 (at 0, 0)"}},
		{"over it", found(3), 2, []string{"text-small: 0 (at 0, 0)", "text-small: 1 (at 0, 0)", "and 1 more; scene lint lists all"}},
		{"a note past it", found(3, "stopped"), 2, []string{"text-small: 0 (at 0, 0)", "text-small: 1 (at 0, 0)", "and 1 more; scene lint lists all", "lint-limit: stopped"}},
		{"all", found(3, "kept", "stopped"), 0, []string{"text-small: 0 (at 0, 0)", "text-small: 1 (at 0, 0)", "text-small: 2 (at 0, 0)", "lint-limit: kept", "lint-limit: stopped"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, LintLines(tt.found, tt.limit)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}
