package main

// `cadrun import FILE` turns a drawing into a module through the same code as the import tool
// (tools.Session.Import), so that it is one write-and-run transaction (main runs, nothing
// lands if it fails, one undo takes it back), refuses what the tool refuses in the same words
// and prints the tool's answer as text. FILE is any file the user names; the tool reads only
// from the workspace's imports/ folder.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/tools"
)

const importSynopsis = `import FILE [-workspace DIR] [-module NAME] [-prefix P] [-layers L1,L2] [-layout NAME] [-units U]

Reads an ASCII DXF or an SVG file (told apart by content) and writes modules/NAME.js, which
exports one function that draws the drawing: draw* calls with the file's own numbers, a
layer per DXF layer, a function per block or symbol, a group per <g>, every name starting
with the prefix. The write runs main first and lands only if it succeeds; undo takes it
back. Prints what was imported and skipped, with why, and the lines that draw it from main.`

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("import", importSynopsis, stderr)
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun")
	module := fs.String("module", "", "the module to write (modules/NAME.js); default the file's name")
	prefix := fs.String("prefix", "", "what every name the module draws starts with; default the module's name")
	layers := fs.String("layers", "", "import only these layers, comma-separated")
	layout := fs.String("layout", "", "a DXF's paper-space layout to import instead of the model (the report names the file's layouts)")
	units := fs.String("units", "", "a DXF's units when the file names none or the wrong ones (mm, in, ...), not converted; the unit an SVG with a width and height is drawn in (mm, the default, cm, in, pt or px)")
	positional, err := cli.ParseInterleaved(fs, args)
	if err != nil {
		return cli.ErrUsage
	}
	if len(positional) != 1 {
		fmt.Fprintf(stderr, "cadrun import: give one DXF or SVG file; got %q\n", positional)
		fs.Usage()
		return cli.ErrUsage
	}
	file := positional[0]
	data, err := readImport(file)
	if err != nil {
		return err
	}
	in := tools.ImportIn{Module: *module, Prefix: *prefix, Layout: *layout, Units: *units}
	if *layers != "" {
		in.Layers = strings.Split(*layers, ",")
	}
	out, err := inSession(*ws, func(ctx context.Context, se *tools.Session) (*tools.ImportOut, error) {
		return se.Import(ctx, data, file, in)
	})
	if errors.Is(err, tools.ErrBadInput) {
		fmt.Fprintf(stderr, "cadrun import: %v\n", err)
		return cli.ErrUsage
	}
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, out.Text())
	return nil
}

// readImport reads the file to import: a regular file (a FIFO would block), at most the
// importer's size limit and one byte over, so that the importer refuses it naming the limit.
func readImport(file string) ([]byte, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; give a DXF or SVG file", file)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, tools.MaxImportBytes+1))
}
