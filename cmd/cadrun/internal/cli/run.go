package cli

// `cadrun run` serves from this package's init function, not from main: see the package
// comment.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
)

// runSynopsis is run's usage line and what it does.
const runSynopsis = `run [-workspace DIR | FILE.js] [-timeout D] [-o OUT [-width N] [-view SIDE] [-dxf 12|2000] [-dxf-text outlines|entities] [-layers a,b]]

Runs main (scene.code.js of the workspace, or FILE.js with the modules/ beside it) in a
worker process, under the same limits as the MCP server. With -o it writes the scene to OUT,
in the format its extension names (see -o); without -o it only runs the program and prints a one-line
summary ("ok: N entities in T"). Console output and warnings go to stderr; a failure prints
the diagnostic and exits 1.`

func init() {
	if len(os.Args) > 1 && os.Args[1] == "run" && !workerproc.IsWorker() {
		os.Exit(Status("run", Run(os.Args[2:], os.Stdout, os.Stderr), os.Stderr))
	}
}

// Run is `cadrun run`.
func Run(args []string, stdout, stderr io.Writer) error {
	fs := NewFlags("run", runSynopsis, stderr)
	ws := fs.String("workspace", "", "workspace directory (scene.code.js and modules/); default $CADRUN_HOME, else ~/.cadrun")
	out := fs.String("o", "", "output file; the extension picks the format: "+render.Extensions()+" (none: print a summary)")
	timeout := fs.Duration("timeout", runtime.DefaultLimits.Timeout, "wall-clock limit for the script")
	width := fs.Int("width", 0, "PNG width in pixels (default: longest side 1024)")
	var export render.Options
	export.Flags(fs)
	positional, err := ParseInterleaved(fs, args)
	if err != nil {
		return ErrUsage
	}
	if len(positional) > 1 || (len(positional) == 1 && *ws != "") {
		fmt.Fprintln(stderr, "cadrun run: give a workspace or one FILE.js, not both")
		fs.Usage()
		return ErrUsage
	}
	var format render.Format
	if *out != "" {
		if format, err = render.ByExt(*out); err != nil {
			fmt.Fprintf(stderr, "cadrun run: %v\n", err)
			return ErrUsage
		}
	}
	file := ""
	if len(positional) == 1 {
		file = positional[0]
	}
	// The output stays out of the workspace's own folders, as watch -out does (one rule,
	// modules.CheckOutputPlace), checked now and again as the file is written.
	wsDir := filepath.Dir(file)
	if file == "" {
		if wsDir, err = WorkspaceDir(*ws); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := modules.CheckOutputPlace(wsDir, "-o", *out); err != nil {
			fmt.Fprintf(stderr, "cadrun run: %v\n", err)
			return ErrUsage
		}
	}
	src, err := Source(*ws, file)
	if err != nil {
		return err
	}
	pool := NewPool()
	defer pool.Close()
	opt := runtime.Options{Limits: runtime.Limits{Timeout: *timeout}, Lint: true} // the drawing lint's findings are warnings too
	if *out == "" {
		res, n, err := pool.Count(context.Background(), src, runtime.MainModule, opt)
		if err := report(res, err, stderr); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "ok: %d entities in %v\n", n, res.Duration.Round(10_000))
		return nil
	}
	export.PNG.Width = *width
	if mm, ok := render.PaperMM(nil, format.Ext, export); ok {
		opt.PaperMM = mm // the lint's text heights on the PDF's or DXF's paper
	}
	request, jerr := json.Marshal(render.Request{Ext: format.Ext, Options: export})
	if jerr != nil {
		// Options JSON cannot carry (a scale that overflowed to +Inf) are refused by the
		// writer itself, here, after the run, as they always were.
		res, err := pool.Run(context.Background(), src, runtime.MainModule, opt)
		if err := report(res, err, stderr); err != nil {
			return err
		}
		sc, err := render.SelectLayers(res.Scene, export.Layers)
		if err != nil {
			return err
		}
		data, err := format.Render(sc, export)
		if err != nil {
			return err
		}
		if err := modules.CheckOutputPlace(wsDir, "-o", *out); err != nil {
			return fmt.Errorf("not writing %s: %w", *out, err)
		}
		o := newOutput(*out)
		o.mem.Write(data)
		if err := o.commit(wsDir); err != nil {
			return fmt.Errorf("writing %s: %w", *out, err)
		}
		if l := format.LeftOut(sc); l != "" {
			fmt.Fprintln(stderr, "warning:", Visible(l)) // as the worker's export says it
		}
		return nil
	}
	// The worker writes the file's bytes (see Pool.Export): the scene stays where it was made,
	// and the bytes go to a temp file beside the output as they are made (see output).
	o := newOutput(*out)
	res, made, err := pool.Export(context.Background(), src, runtime.MainModule, opt, request, o.to())
	o.made = made
	if err := report(res, err, stderr); err != nil {
		o.abort()
		if o.failed != nil || errors.Is(err, runtime.ErrExportFile) {
			return fmt.Errorf("writing %s: %w", *out, err)
		}
		return err
	}
	if err := modules.CheckOutputPlace(wsDir, "-o", *out); err != nil {
		o.abort()
		return fmt.Errorf("not writing %s: %w", *out, err)
	}
	if err := o.commit(wsDir); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	return nil
}

// report prints a run's console output and warnings to stderr, and its diagnostic if it
// failed (then ErrReported), all of it through Visible; other errors come back as they are.
func report(res *runtime.Result, err error, stderr io.Writer) error {
	if res != nil {
		for _, l := range res.Logs {
			fmt.Fprintln(stderr, Visible(l))
		}
		for _, w := range res.AllWarnings() {
			fmt.Fprintln(stderr, "warning:", Visible(w))
		}
	}
	if d, ok := err.(*runtime.Diagnostic); ok {
		fmt.Fprint(stderr, Visible(d.Render()))
		return ErrReported
	}
	return err
}
