package engine

// The drawing lint in the answers: a change's answer carries what the lint found in the scene
// it landed, capped so that a drawing with many findings does not crowd out the rest of the
// answer; the scene tool's lint command lists them all.
//
// The server computes no lint for a change or a sync: every run lints its scene in the worker
// it ran in (runtime.Options.Lint, which the server always sets), under the run's deadline and
// the lint's own budget (lint.MaxLintChecks), and the server keeps the findings with the
// scene. Only a scene no run made (read from scene.json when main does not run) is linted
// here, once, when asked, under the same budget and runtime.MaxLintTime.

import (
	"fmt"
	"time"

	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
)

// MaxLintListed caps the lint findings a change's answer lists.
const MaxLintListed = 10

// LintLines is the findings one line each, at most limit of them (0: all) and then a line
// saying how many more there are and where to see them; the lint's notes about itself
// (lint.IsNote: where it stopped) come last, always listed.
func LintLines(found []lint.Finding, limit int) []string {
	var out, notes []string
	listed, more := 0, 0
	for _, f := range found {
		switch {
		case lint.IsNote(f):
			notes = append(notes, f.String())
		case limit > 0 && listed == limit:
			more++
		default:
			out = append(out, f.String())
			listed++
		}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more; scene lint lists all", more))
	}
	return append(out, notes...)
}

// lintOf is the findings of a good run, which was asked for them: never nil, so that the
// server tells a scene its run linted from one no run made.
func lintOf(res *runtime.Result) []lint.Finding {
	if res.Lint == nil {
		return []lint.Finding{}
	}
	return res.Lint
}

// Lint returns the last good scene and what the drawing lint found in it; callers must
// modify neither. The findings are those its run made; a scene no run made (scene.json) is
// linted now, once, without the boolean operations no run reported.
func (srv *Server) Lint() (*scene.Scene, []lint.Finding) {
	srv.buildPending(srv.ctx, nil)
	srv.mu.Lock()
	sc, found := srv.scene, srv.lint
	srv.mu.Unlock()
	if found != nil {
		return sc, found
	}
	// In the server, so under the time a run's lint has in its worker as well as the budget.
	found = lint.Check(sc, lint.Options{Deadline: time.Now().Add(runtime.MaxLintTime)})
	srv.mu.Lock()
	if srv.scene == sc && srv.lint == nil {
		srv.lint = found
	}
	srv.mu.Unlock()
	return sc, found
}
