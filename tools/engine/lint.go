package engine

// The drawing lint in the answers: a change's answer carries what scene.Lint finds in the
// scene it landed, capped so that a drawing with many findings does not crowd out the rest of
// the answer; the scene tool's lint command lists them all.

import (
	"fmt"

	"github.com/cadrun/cadrun/scene"
)

// MaxLintListed caps the lint findings a change's answer lists.
const MaxLintListed = 10

// LintLines is the findings one line each, at most limit of them (0: all) and then a line
// saying how many more there are and where to see them.
func LintLines(found []scene.Finding, limit int) []string {
	var out []string
	for i, f := range found {
		if limit > 0 && i == limit {
			out = append(out, fmt.Sprintf("and %d more; scene lint lists all", len(found)-i))
			break
		}
		out = append(out, f.String())
	}
	return out
}
