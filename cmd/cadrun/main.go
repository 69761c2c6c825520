// Command cadrun is the CAD scripting runtime: it runs scripts that draw 2D scenes and
// renders them headless. Run `cadrun help` for the subcommands.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli" // serves `cadrun run` from its init
	_ "github.com/cadrun/cadrun/internal/prestart"     // run and tool start their worker from this package's init, before the rest initialise
	_ "github.com/cadrun/cadrun/internal/worker"       // a Pool re-runs this binary as its workers: they serve from this package's init
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools"
	_ "github.com/cadrun/cadrun/tools/importer" // an import's worker converts the drawing: it serves from this package's init
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"run", "run a workspace or a script in the sandbox; with -o, render it to " + render.Extensions(), cli.Run},
		{"test", "test workspaces against their __snapshots__/ and run their tests/NAME.test.js scripts", runTest},
		{"mcp", "serve the tools to MCP clients over stdio, or streamable HTTP with -http", runMCP},
		{"watch", "run the workspace on every save and print the result; -out writes " + render.Extensions() + " after each good run", runWatch},
		{"import", "turn a DXF file into a module of draw* calls, written as the write tool writes", runImport},
		{"tool", "call one tool (listed below) and print one JSON reply", runTool},
		{"types", "print TypeScript declarations of the JS API (for editor autocomplete)", func(args []string, stdout, stderr io.Writer) error {
			fs := cli.NewFlags("types", "types > cadrun.d.ts", stderr)
			if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
				return cli.ErrUsage
			}
			_, err := io.WriteString(stdout, runtime.TypeScript())
			return err
		}},
		{"demo", "run the example workspaces and render each to SVG and PNG (in out/ by default)", runDemo},
		{"version", "print the version", func(_ []string, stdout, _ io.Writer) error {
			fmt.Fprintln(stdout, "cadrun", version)
			return nil
		}},
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		return cli.Status(c.name, c.run(args[1:], stdout, stderr), stderr)
	}
	fmt.Fprintf(stderr, "cadrun: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: cadrun <command> [flags]\n\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\ntools (cadrun tool NAME --params JSON, and over MCP):")
	for _, t := range tools.Tools() {
		fmt.Fprintf(w, "  %-8s %s\n", t.Name, firstSentence(t.Description))
	}
	fmt.Fprintln(w, "\nRun `cadrun <command> -h` for a command's flags, `cadrun tool --list` for the tools in full.")
}

// firstSentence is the text up to its first ". ", for one-line summaries.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
