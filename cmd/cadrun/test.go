package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	goruntime "runtime"
	"strings"

	"github.com/cadrun/cadrun/cadruntest"
	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/runtime"
)

func runTest(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("test", "test [-workspace DIR | DIR ...] [-run REGEXP] [-update] [-junit FILE] [-o DIR]", stderr)
	var dirs []string
	fs.Func("workspace", "a workspace, or a folder of workspaces (repeatable; default the current folder)", func(s string) error {
		dirs = append(dirs, s)
		return nil
	})
	runPattern := fs.String("run", "", "run only the tests whose names match this regular expression")
	update := fs.Bool("update", false, "rewrite the snapshots in __snapshots__/ with what is drawn now")
	junit := fs.String("junit", "", "also write the results as JUnit XML to this file")
	diffDir := fs.String("o", "", "write the old, new and diff pictures of each changed PNG snapshot to this folder")
	timeout := fs.Duration("timeout", runtime.DefaultLimits.Timeout, "wall-clock limit for each script")
	positional, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.ErrUsage
	}
	dirs = append(dirs, positional...)
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	opt := cadruntest.Options{
		Limits:  runtime.Limits{Timeout: *timeout},
		Update:  *update,
		CI:      os.Getenv("CI") == "true",
		DiffDir: *diffDir,
	}
	if *runPattern != "" {
		if opt.Run, err = regexp.Compile(*runPattern); err != nil {
			fmt.Fprintf(stderr, "cadrun test: -run %q is not a regular expression: %v\n", *runPattern, err)
			return cli.ErrUsage
		}
	}
	runner, stop := testRunner()
	defer stop()
	opt.Runner = runner
	results, err := cadruntest.RunDirs(context.Background(), dirs, opt)
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no tests matched -run %q in %s; run without -run to list every test's name", *runPattern, strings.Join(dirs, " "))
	}
	written := 0
	for _, r := range results {
		printResult(stdout, r, opt.Update)
		written += r.Written
	}
	if *junit != "" {
		if err := writeJUnit(*junit, results); err != nil {
			return err
		}
	}
	if opt.Update {
		fmt.Fprintf(stdout, "updated %d snapshot files\n", written)
	}
	passed, failed := cadruntest.Count(results)
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	if failed > 0 {
		return cli.ErrReported
	}
	return nil
}

// testRunner is what runs the tests' scripts: worker processes with every limit, as the
// MCP server runs them. It returns the function that stops it.
func testRunner() (runtime.Runner, func()) {
	p := runtime.NewPool(runtime.PoolOptions{Warm: goruntime.GOMAXPROCS(0)})
	return p, func() { p.Close() }
}

func printResult(w io.Writer, r cadruntest.Result, update bool) {
	note := ""
	switch {
	case r.Status == cadruntest.StatusNew:
		note = fmt.Sprintf(" (wrote %d snapshot files)", r.Written)
	case update && r.Written > 0:
		note = fmt.Sprintf(" (updated %d snapshot files)", r.Written)
	}
	fmt.Fprintf(w, "%-4s %s%s\n", r.Status, cli.Visible(r.Name), note)
	if r.Message != "" {
		for _, l := range strings.Split(cli.Visible(r.Message), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	for _, img := range r.Images {
		fmt.Fprintf(w, "    wrote %s\n", img)
	}
}

func writeJUnit(path string, results []cadruntest.Result) error {
	var b bytes.Buffer
	if err := cadruntest.WriteJUnit(&b, results); err != nil {
		return fmt.Errorf("writing -junit %s: %w", path, err)
	}
	if err := cadruntest.ReplaceFile(path, b.Bytes()); err != nil {
		return fmt.Errorf("writing -junit %s: %w", path, err)
	}
	return nil
}
