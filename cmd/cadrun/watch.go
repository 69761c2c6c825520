package main

// cadrun watch: a person scripts in their own editor and sees every save run. The watching is
// modules.Watch, the debounce and the runs tools.Watch; this file is the command line, the one
// line printed per run, and the -out files, written after each good run.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/render"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/tools"
	"github.com/cadrun/cadrun/tools/watch"
	"github.com/cadrun/cadrun/viewer"
)

// outList collects repeated -out flags.
type outList []string

func (o *outList) String() string     { return strings.Join(*o, ", ") }
func (o *outList) Set(v string) error { *o = append(*o, v); return nil }

func runWatch(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("watch", "watch [-workspace DIR] [-out FILE ...] [-serve ADDR [-token T] [-serve-max-conns N]] [-poll DURATION] [-timeout D] [-width PX] [export flags]", stderr)
	ws := fs.String("workspace", "", "workspace directory (scene.code.js and modules/); default $CADRUN_HOME, else ~/.cadrun")
	var outs outList
	fs.Var(&outs, "out", "after each good run, write the scene to `FILE`; the extension picks the format: "+render.Extensions()+" (repeat for several)")
	serveFlag := fs.String("serve", "", "serve the live viewer of the scene on ADDR (host:port; :PORT means 127.0.0.1)")
	tokenFlag := fs.String("token", "", "token the viewer asks for; required for a non-loopback -serve ADDR (default $"+tokenEnv+")")
	serveConns := fs.Int("serve-max-conns", viewer.DefaultMaxConns, "the viewer: most connections open at once")
	poll := fs.Duration("poll", 0, "compare the files at this interval instead of waiting for OS events (network drives, containers, WSL2); between 20ms and 1m")
	timeout := fs.Duration("timeout", runtime.DefaultLimits.Timeout, "wall-clock limit for one run")
	width := fs.Int("width", 0, "PNG width in pixels (default: longest side 1024)")
	var export render.Options
	export.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return cli.ErrUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "cadrun watch: unexpected argument %q; the workspace is given with -workspace\n", fs.Arg(0))
		fs.Usage()
		return cli.ErrUsage
	}
	if *width < 0 || *width > render.MaxPNGSide {
		fmt.Fprintf(stderr, "cadrun watch: -width %d: give 1 to %d pixels (MaxPNGSide), or leave it out for %d on the longest side\n", *width, render.MaxPNGSide, render.DefaultPNGSide)
		return cli.ErrUsage
	}
	var outputs []output
	paperMM := 0.0 // the smallest paper a scene unit takes among the outputs, for the lint
	for _, p := range outs {
		export.PNG.Width = *width
		o, err := newOutput(p, export)
		if err != nil {
			fmt.Fprintf(stderr, "cadrun watch: %v\n", err)
			return cli.ErrUsage
		}
		outputs = append(outputs, o)
		if f, err := render.ByExt(p); err == nil {
			if mm, ok := render.PaperMM(nil, f.Ext, export); ok && (paperMM == 0 || mm < paperMM) {
				paperMM = mm
			}
		}
	}
	if err := modules.CheckPoll(*poll); err != nil {
		fmt.Fprintf(stderr, "cadrun watch: -poll: %v\n", err)
		return cli.ErrUsage
	}
	if *timeout <= 0 {
		fmt.Fprintf(stderr, "cadrun watch: -timeout %v: give a positive duration\n", *timeout)
		return cli.ErrUsage
	}
	token, err := tokenFrom(*tokenFlag)
	if err != nil {
		fmt.Fprintf(stderr, "cadrun watch: %v\n", err)
		return cli.ErrUsage
	}
	var viewAddr string
	if *serveFlag != "" {
		var err error
		if viewAddr, err = serveAddr(*serveFlag, token); err != nil {
			fmt.Fprintf(stderr, "cadrun watch: %v\n", err)
			return cli.ErrUsage
		}
	} else if *tokenFlag != "" {
		fmt.Fprintln(stderr, "cadrun watch: -token needs -serve")
		return cli.ErrUsage
	}
	if *serveConns < 1 {
		fmt.Fprintf(stderr, "cadrun watch: -serve-max-conns must be positive (got %d)\n", *serveConns)
		return cli.ErrUsage
	}
	dir, err := cli.WorkspaceDir(*ws)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the workspace: %w", err)
	}
	for i, o := range outputs {
		if err := modules.CheckOutputPlace(dir, "-out", o.path); err != nil {
			fmt.Fprintf(stderr, "cadrun watch: %v\n", err)
			return cli.ErrUsage
		}
		outputs[i].ws = dir
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pool := runtime.NewPool(runtime.PoolOptions{})
	defer pool.Close()
	setup := watchSetup{
		dir: dir, poll: *poll, outputs: outputs, runner: pool,
		options: runtime.Options{Limits: runtime.Limits{Timeout: *timeout}, Lint: true, PaperMM: paperMM}, // findings print as warnings, as cadrun run prints them
	}
	if viewAddr != "" {
		// The viewer keeps the selection in the workspace, so that an agent's cadrun mcp on
		// the same workspace sees what the person selects here.
		w, err := modules.Open(dir)
		if err != nil {
			return err
		}
		defer w.Close()
		logger := slog.New(slog.NewTextHandler(stderr, nil))
		vctx, stopViewer := context.WithCancel(ctx)
		// The journal's HTTP API rides on the viewer, as under cadrun mcp -serve; its server
		// notices the files the watch runs (each save first catches up with them).
		journal := tools.NewJournalAPI(tools.NewServer(vctx, w, pool, setup.options))
		v, wait, err := listenViewer(vctx, viewAddr, token, *serveConns, w, journal, logger)
		if err != nil {
			stopViewer()
			return err
		}
		defer wait()
		defer stopViewer()
		setup.viewer = v
	}
	return watchWorkspace(ctx, setup, stdout, stderr)
}

type watchSetup struct {
	dir     string
	poll    time.Duration
	outputs []output
	runner  runtime.Runner
	options runtime.Options
	viewer  *viewer.Server // nil without -serve
}

// watchWorkspace watches until ctx is done, printing a line per run on stdout and the rest on stderr.
func watchWorkspace(ctx context.Context, s watchSetup, stdout, stderr io.Writer) error {
	w, err := modules.Watch(s.dir, modules.WatchOptions{Poll: s.poll})
	if err != nil {
		return err
	}
	defer w.Close()
	how := "for changes"
	if s.poll > 0 {
		how = fmt.Sprintf("every %v", s.poll)
	}
	fmt.Fprintf(stderr, "watching %s %s; Ctrl-C stops\n", s.dir, how)
	p := printer{out: stdout, color: colorWanted(stdout)}
	return watch.Run(ctx, watch.Config{
		Open:    func() (runtime.Source, error) { return modules.Open(s.dir) },
		Feed:    w,
		Runner:  s.runner,
		Options: s.options,
		Publish: func(u watch.RunUpdate) {
			// The files first: whoever sees the line can open them. What a file leaves out
			// (the solids of an SVG) is a warning of the run that wrote it.
			for _, o := range s.outputs {
				if !u.OK() {
					break
				}
				leftOut, err := o.write(u.Scene)
				if err != nil {
					fmt.Fprintf(stderr, "cadrun watch: %v\n", err)
				}
				if leftOut != "" {
					u.Warnings = append(slices.Clip(u.Warnings), o.path+": "+leftOut)
				}
			}
			if s.viewer != nil { // before the line, so that whoever sees it finds the viewer current
				s.viewer.Publish(viewerState(u))
			}
			p.print(u)
		},
		Notice: func(msg string) { fmt.Fprintf(stderr, "cadrun watch: %s\n", msg) },
	})
}

// printer prints one line per run: `ok  42 entities  3.1 ms`, or the diagnostic with its
// source line and caret. Console output and warnings come first.
type printer struct {
	out   io.Writer
	color bool
}

// ANSI colours, used only when stdout is a terminal and NO_COLOR is unset.
const (
	ansiGreen = "\x1b[32m"
	ansiRed   = "\x1b[1;31m"
	ansiDim   = "\x1b[2m"
	ansiReset = "\x1b[0m"
)

func (p printer) paint(code, s string) string {
	if !p.color {
		return s
	}
	return code + s + ansiReset
}

func (p printer) print(u watch.RunUpdate) {
	var b strings.Builder
	for _, l := range u.Logs {
		b.WriteString(cli.Visible(l))
		b.WriteByte('\n')
	}
	for _, w := range u.Warnings {
		b.WriteString(p.paint(ansiRed, "warning:") + " " + cli.Visible(w) + "\n")
	}
	ms := fmt.Sprintf("%.1f ms", float64(u.Duration)/float64(time.Millisecond))
	switch {
	case u.OK():
		fmt.Fprintf(&b, "%s  %d entities  %s\n", p.paint(ansiGreen, "ok"), u.Entities, p.paint(ansiDim, ms))
	case u.Diagnostic != nil:
		lines := strings.SplitAfter(cli.Visible(u.Diagnostic.Render()), "\n")
		for i, l := range lines {
			switch {
			case i == 0:
				l = p.paint(ansiRed, strings.TrimSuffix(l, "\n")) + "\n"
			case strings.HasSuffix(l, "^\n") && u.Diagnostic.Source != "":
				l = strings.TrimSuffix(l, "^\n") + p.paint(ansiRed, "^") + "\n"
			}
			b.WriteString(l)
		}
	default:
		fmt.Fprintf(&b, "%s %s\n", p.paint(ansiRed, "error:"), cli.Visible(u.Err.Error()))
	}
	io.WriteString(p.out, b.String())
}

// colorWanted reports whether w is a terminal and NO_COLOR is unset (no-color.org).
func colorWanted(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// output is a file written after each good run.
type output struct {
	path   string
	ws     string // the workspace, whose own folders the file must stay out of at every write
	format render.Format
	opt    render.Options
}

// newOutput picks the renderer of an output file by its extension (render.ByExt, as for
// cadrun run -o), with the export options of the command line.
func newOutput(path string, opt render.Options) (output, error) {
	o := output{path: path, opt: opt}
	f, err := render.ByExt(path)
	if err != nil {
		return o, fmt.Errorf("-out %q: the extension picks the format; use %s", path, render.Extensions())
	}
	o.format = f
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return o, fmt.Errorf("-out %q: the directory %s does not exist; create it first", path, filepath.Dir(path))
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		// Every write would fail, after every good run.
		return o, fmt.Errorf("-out %q is %s; give the name of a file to write", path, modules.KindOf(st.Mode()))
	}
	return o, nil
}

// write writes the file, and answers what it leaves out of s (render.Format.LeftOut).
func (o output) write(s *scene.Scene) (leftOut string, err error) {
	s, err = render.SelectLayers(s, o.opt.Layers)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", o.path, err)
	}
	data, err := o.format.Render(s, o.opt)
	if err != nil {
		return "", fmt.Errorf("rendering %s: %w", o.path, err)
	}
	// Checked again at every write: a link swapped in since the start must not lead the
	// output into modules/, data/ or .cadrun/ (the history log).
	if o.ws != "" {
		if err := modules.CheckOutputPlace(o.ws, "-out", o.path); err != nil {
			return "", fmt.Errorf("not writing %s: %w", o.path, err)
		}
	}
	if err := writeFileAtomic(o.ws, o.path, data); err != nil {
		return "", fmt.Errorf("writing %s: %w", o.path, err)
	}
	return o.format.LeftOut(s), nil
}

// writeFileAtomic replaces path with data through the one writer of output files
// (modules.Place): a temp file in the folder, held, renamed over the file, so that a viewer or a
// build reading the file never sees half of it. The temp name starts with a dot, which the
// watch ignores when the file is inside the workspace. An existing file keeps its mode. A
// symbolic link is written through: the file it names is replaced, and the link stays
// (renaming over the link would leave its target stale). With ws given, the place is judged
// again on the folder held (modules.HoldOutput).
func writeFileAtomic(ws, path string, data []byte) error {
	p, name, err := modules.HoldOutput(ws, "-out", path)
	if err != nil {
		return err
	}
	defer p.Close()
	mode := os.FileMode(0o644)
	if st, err := os.Lstat(filepath.Join(p.Real(), name)); err == nil {
		if !st.Mode().IsRegular() {
			return errors.New("not a regular file")
		}
		mode = st.Mode().Perm()
	}
	return p.Replace(name, data, mode, false)
}

// viewerState is a run as the viewer shows it: a good run's scene, or why the run failed over
// the last good scene.
func viewerState(u watch.RunUpdate) viewer.State {
	if u.OK() {
		return viewer.State{Scene: u.Scene, Run: u.Duration}
	}
	var err error = u.Diagnostic
	if u.Diagnostic == nil {
		err = u.Err
	}
	return viewer.State{Diagnostic: viewer.DiagnosticOf(err), Run: u.Duration}
}
