package main

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/cadrun/cadrun/internal/prestart"
	"github.com/cadrun/cadrun/internal/testws"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// countingRunner counts the scripts it runs.
type countingRunner struct{ runs atomic.Int32 }

func (c *countingRunner) Run(ctx context.Context, src runtime.Source, entry string, opt runtime.Options) (*runtime.Result, error) {
	c.runs.Add(1)
	return runtime.InProcess{}.Run(ctx, src, entry, opt)
}

// TestScriptlessToolsRunNoScript: `cadrun tool` starts no worker ahead for the tools in
// prestart.ScriptlessTools, so each of them, called as `cadrun tool` calls it (a workspace and a
// server opened for one call), must run no script.
func TestScriptlessToolsRunNoScript(t *testing.T) {
	t.Parallel()
	params := map[string]string{
		"glob":   `{}`,
		"read":   `{"file": "main"}`,
		"lsp":    `{"operation": "symbols", "file": "main"}`,
		"search": `{"query": "door"}`,
	}
	for _, name := range prestart.ScriptlessTools {
		if name == "" {
			continue // no tool: --list or a usage error, which open no workspace
		}
		p, ok := params[name]
		if !ok {
			t.Errorf("%s is in prestart.ScriptlessTools but not here: add its parameters", name)
			continue
		}
		dir := testws.Dir(t, `a workspace whose main runs
-- scene.code.js --
import { w } from 'walls'
drawRect('door', 0, 0, w, 2)
-- modules/walls.js --
export const w = 1
`)
		w, err := modules.Open(dir, modules.ForOneCall())
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		var runner countingRunner
		srv := tools.NewServer(context.Background(), w, &runner, runtime.Options{}, tools.ForOneCall())
		if _, err := srv.Session().Call(context.Background(), name, json.RawMessage(p)); err != nil {
			t.Errorf("%s %s: %v", name, p, err)
		}
		if n := runner.runs.Load(); n != 0 {
			t.Errorf("%s ran %d scripts; take it out of prestart.ScriptlessTools, or make it run none", name, n)
		}
	}
}
