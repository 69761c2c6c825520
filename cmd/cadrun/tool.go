package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

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

func runTool(args []string, stdout, stderr io.Writer) error {
	// A closed stdout must give an error exit, not death by SIGPIPE halfway through a call.
	signal.Ignore(syscall.SIGPIPE)
	fs := newFlags("tool", "tool --list | tool NAME [--params JSON | --params-file FILE] [--workspace DIR]", stderr)
	list := fs.Bool("list", false, "list the tools with their descriptions")
	params := fs.String("params", "", "the tool's parameters as a JSON object")
	paramsFile := fs.String("params-file", "", "read the parameters from this file ('-' for stdin)")
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return errUsage
	}
	if *list {
		var out []map[string]string
		for _, t := range tools.Tools() {
			out = append(out, map[string]string{"name": t.Name, "description": t.Description})
		}
		return printReply(stdout, toolReply{Status: "success", Data: out})
	}
	if len(positional) != 1 || (*params != "" && *paramsFile != "") {
		fs.Usage()
		return errUsage
	}
	raw := []byte(*params)
	if *paramsFile != "" {
		if *paramsFile == "-" {
			raw, err = io.ReadAll(os.Stdin)
		} else {
			raw, err = os.ReadFile(*paramsFile)
		}
		if err != nil {
			fmt.Fprintf(stderr, "cadrun tool: reading parameters: %v\n", err)
			return errUsage
		}
	}
	dir, err := workspaceDir(*ws)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the workspace: %w", err)
	}
	w, err := modules.Open(dir)
	if err != nil {
		return err
	}
	defer w.Close()
	ctx := context.Background()
	srv := tools.NewServer(ctx, w, tools.InProcess{}, runtime.Options{})
	data, err := srv.Session().Call(ctx, positional[0], json.RawMessage(raw))
	if err != nil {
		msg := err.Error()
		if perr := printReply(stdout, toolReply{Status: "error", Error: &msg}); perr != nil {
			return perr
		}
		if errors.Is(err, tools.ErrUnknownTool) || errors.Is(err, tools.ErrBadInput) {
			return errUsage
		}
		return errReported
	}
	return printReply(stdout, toolReply{Status: "success", Data: data})
}

// printReply writes the reply; a closed stdout is reported, never a panic.
func printReply(w io.Writer, r toolReply) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("writing the reply: %w", err)
	}
	return nil
}
