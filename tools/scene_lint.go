package tools

// The scene tool's lint command: every finding of the drawing lint (lint.Check) on the
// current scene, one line each, a page at a time; a change's answer lists only the first few.
// The findings are those the run that made the scene found in its worker, kept with the
// scene (engine.Server.Lint), so that asking computes nothing and agrees with the change's
// answer; there are at most lint.MaxLintFindings of them and the lint's notes.

import (
	"fmt"

	"github.com/cadrun/cadrun/scene/lint"
	"github.com/cadrun/cadrun/tools/sceneview"
)

// sceneLintDescription is the lint command's part of the scene tool's description.
const sceneLintDescription = "lint: all drawing-lint findings (writes show 10)."

// lint lists the drawing lint's findings on the scene, a page at a time, or says that it
// found nothing: a bare {} reads as a failure to answer.
func (v *view) lint(all []lint.Finding) ([]string, *Omitted, string) {
	total := len(all)
	if total == 0 {
		return nil, nil, fmt.Sprintf("clean: the drawing lint found nothing in the scene's %d entities", v.Scene.Len())
	}
	offset := min(v.in.Offset, total)
	out := []string{}
	used := 0
	for _, f := range all[offset:] {
		line := f.String()
		n := sceneview.Size(line) + 1
		if len(out) > 0 && !v.Fits(used, n) {
			break
		}
		used += n
		out = append(out, line)
	}
	return out, sceneview.NextPage(offset, len(out), total, ""), ""
}
