package main

// `cadrun tool` calls one registry tool and prints exactly one JSON object on stdout, whatever
// happens: a success, a failed call, or a command line that makes no sense (then with exit
// status 2). Usage text and logs go to stderr. Scripts run in a worker process, as under
// `cadrun mcp`, so no script can end this process.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
)

// toolReply is the one JSON object `cadrun tool` prints.
type toolReply struct {
	Status string  `json:"status"`
	Data   any     `json:"data"`
	Error  *string `json:"error"`
}

// toolList is the answer to --list.
type toolList struct {
	Tools []toolEntry `json:"tools"`
	Total int         `json:"total"`
}

type toolEntry struct {
	Name        string `json:"name"`
	Type        string `json:"type"` // read or edit
	Description string `json:"description"`
}

// toolStdin is where --params-file - reads; tests replace it.
var toolStdin io.Reader = os.Stdin

const toolSynopsis = `tool --list | tool NAME [--params JSON | --params-file FILE] [--workspace DIR]

Calls one tool (the same tools, with the same parameters, as cadrun mcp serves) and prints
one JSON object {"status":"success"|"error","data":...,"error":null|"..."}. Exit status: 0 on
success, 1 when the call failed, 2 for a bad command line or bad parameters.`

func runTool(args []string, stdout, stderr io.Writer) error {
	// A closed stdout must give an error exit, not death by SIGPIPE halfway through a call.
	signal.Ignore(syscall.SIGPIPE)
	fs := cli.NewFlags("tool", toolSynopsis, stderr)
	list := fs.Bool("list", false, "list the tools with their type (read or edit) and description")
	params := fs.String("params", "", "the tool's parameters as one JSON object")
	paramsFile := fs.String("params-file", "", "read the parameters from this file ('-' for stdin), for large or multi-line parameters")
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun")
	usageError := func(msg string) error {
		fmt.Fprintf(stderr, "cadrun tool: %s\n", msg)
		fs.Usage()
		return printError(stdout, "usage: "+msg, cli.ErrUsage)
	}
	positional, err := cli.ParseInterleaved(fs, args)
	switch {
	case err != nil:
		// The flag package has printed the error (or, for -h, nothing) and the usage to
		// stderr; stdout still gets its one JSON object.
		return printError(stdout, "usage: "+err.Error(), cli.ErrUsage)
	case *list && len(positional) > 0:
		return usageError("--list takes no tool name")
	case *list:
		out := toolList{Tools: []toolEntry{}}
		for _, t := range tools.Tools() {
			out.Tools = append(out.Tools, toolEntry{Name: t.Name, Type: t.Type, Description: t.Description})
		}
		out.Total = len(out.Tools)
		return printReply(stdout, toolReply{Status: "success", Data: out})
	case len(positional) == 0:
		return usageError("no tool name; give one of " + toolNames() + ", or --list")
	case len(positional) > 1:
		return usageError(fmt.Sprintf("one tool at a time; got %q", positional))
	case *params != "" && *paramsFile != "":
		return usageError("give --params or --params-file, not both")
	}
	raw := []byte(*params)
	if *paramsFile != "" {
		if raw, err = readParams(*paramsFile); err != nil {
			return usageError(err.Error())
		}
	}
	data, err := callTool(positional[0], *ws, raw)
	if err != nil {
		code := cli.ErrReported
		if errors.Is(err, tools.ErrUnknownTool) || errors.Is(err, tools.ErrBadInput) {
			code = cli.ErrUsage
		}
		return printError(stdout, err.Error(), code)
	}
	return printReply(stdout, toolReply{Status: "success", Data: data})
}

// callTool opens the workspace and makes the call in a fresh session. The workspace and the
// server are opened for one call (modules.ForOneCall, tools.ForOneCall): the scene is
// built when the tool first needs it, and a change lists and reads the workspace once, under
// its lock.
func callTool(name, ws string, params []byte) (any, error) {
	return inSession(ws, func(ctx context.Context, se *tools.Session) (any, error) {
		return se.Call(ctx, name, json.RawMessage(params))
	})
}

// inSession opens the workspace and a server for one call, as callTool says, and calls fn
// with a fresh session.
func inSession[T any](ws string, fn func(ctx context.Context, se *tools.Session) (T, error)) (T, error) {
	var zero T
	dir, err := cli.WorkspaceDir(ws)
	if err != nil {
		return zero, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return zero, fmt.Errorf("creating the workspace: %w", err)
	}
	w, err := modules.Open(dir, modules.ForOneCall())
	if err != nil {
		return zero, err
	}
	defer w.Close()
	pool := cli.NewPool()
	defer pool.Close()
	ctx := context.Background()
	srv := tools.NewServer(ctx, w, pool, runtime.Options{}, tools.ForOneCall())
	return fn(ctx, srv.Session())
}

// readParams reads --params-file: a file, or stdin for "-", at most tools.MaxParamsBytes.
func readParams(file string) ([]byte, error) {
	var r io.Reader = toolStdin
	name := "stdin"
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("reading the parameters: %w", err)
		}
		defer f.Close()
		r, name = f, file
	}
	b, err := io.ReadAll(io.LimitReader(r, tools.MaxParamsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the parameters from %s: %w", name, err)
	}
	if len(b) > tools.MaxParamsBytes {
		return nil, fmt.Errorf("the parameters in %s are over %d bytes (MaxParamsBytes)", name, tools.MaxParamsBytes)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s holds no parameters; give a JSON object ({} for none)", name)
	}
	return b, nil
}

func toolNames() string {
	var names []string
	for _, t := range tools.Tools() {
		names = append(names, t.Name)
	}
	return fmt.Sprint(names)
}

// printError prints an error reply and returns code, or the printing's own error.
func printError(w io.Writer, msg string, code error) error {
	if err := printReply(w, toolReply{Status: "error", Error: &msg}); err != nil {
		return err
	}
	return code
}

// printReply writes the reply; a closed stdout is reported, never a panic.
func printReply(w io.Writer, r toolReply) error {
	b, err := tools.AnswerJSON(r)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the reply: %w", err)
	}
	return nil
}
