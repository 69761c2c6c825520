package main

// `cadrun import FILE` turns a drawing into a module and writes it with the write tool, so
// that the import is one write-and-run transaction: main runs, nothing lands if it fails, and
// one undo takes it back.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/cmd/cadrun/internal/cli"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/tools/importer"
	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

const importSynopsis = `import FILE [-workspace DIR] [-module NAME] [-layers L1,L2] [-units mm]

Reads an ASCII DXF or an SVG file (told apart by content) and writes modules/NAME.js: one
function per block or symbol, a group per layer or <g>, draw* calls with the file's own numbers. The write runs main first and lands only if it
succeeds; undo takes it back. Prints what was imported and what was skipped, with why.`

func runImport(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlags("import", importSynopsis, stderr)
	ws := fs.String("workspace", "", "workspace directory; default $CADRUN_HOME, else ~/.cadrun")
	module := fs.String("module", "", "the module to write (modules/NAME.js); default the file's name")
	layers := fs.String("layers", "", "import only these layers, comma-separated (DXF)")
	units := fs.String("units", "mm", "the scene unit an SVG with a width and height is drawn in: mm, cm, in, pt or px")
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
	opt := importer.Options{Source: filepath.Base(file), Units: *units}
	if *layers != "" {
		opt.Layers = strings.Split(*layers, ",")
	}
	code, rep, err := importer.Read(filepath.Base(file), data, opt)
	if err != nil {
		return fmt.Errorf("importing %s: %w", file, err)
	}
	name := *module
	if name == "" {
		name = importer.ModuleName(file)
	}
	bounds, err := importBounds(code)
	if err != nil {
		return fmt.Errorf("importing %s: the module does not run: %w", file, err)
	}
	params, _ := json.Marshal(map[string]string{"file": name, "code": code})
	if _, err := callTool("write", *ws, params); err != nil {
		return fmt.Errorf("writing modules/%s.js: %w", name, err)
	}
	printImport(stdout, name, rep, bounds)
	return nil
}

// readImport reads the file to import: a regular file (a FIFO would block), at most the
// reader's size limit.
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
	// One byte over the limit lets the reader refuse the file, naming the limit.
	return io.ReadAll(io.LimitReader(f, int64(max(dxf.DefaultLimits.MaxBytes, svg.DefaultLimits.MaxBytes))+1))
}

// importBounds runs the module alone and returns the world bounds of what it draws.
func importBounds(code string) (string, error) {
	pool := cli.NewPool()
	defer pool.Close()
	res, err := pool.Run(context.Background(), runtime.MapSource{runtime.MainModule: code}, runtime.MainModule, runtime.Options{})
	if err != nil {
		return "", err
	}
	b := res.Scene.Bounds()
	if !b.NonEmpty {
		return "empty", nil
	}
	return fmt.Sprintf("[%g, %g] to [%g, %g]", b.Min.X, b.Min.Y, b.Max.X, b.Max.Y), nil
}

func printImport(w io.Writer, name string, rep *importer.Report, bounds string) {
	if rep.Format == "svg" {
		fmt.Fprintf(w, "wrote modules/%s.js: %d top-level groups, %d symbol functions\n", name, len(rep.Layers), rep.Blocks)
		fmt.Fprintf(w, "units: %s\nbounds: %s\n", rep.Units, bounds)
	} else {
		fmt.Fprintf(w, "wrote modules/%s.js: %d layers, %d block functions\n", name, len(rep.Layers), rep.Blocks)
		fmt.Fprintf(w, "units: %s ($INSUNITS %d)\nbounds: %s\n", rep.Units, rep.InsUnits, bounds)
	}
	fmt.Fprintf(w, "entities: %s\n", counts(rep.Kinds))
	fmt.Fprintf(w, "layers: %s\n", counts(rep.Layers))
	if len(rep.Skipped) > 0 {
		fmt.Fprintln(w, "skipped:")
		for _, k := range slices.Sorted(maps.Keys(rep.Skipped)) {
			fmt.Fprintf(w, "  %d %s\n", rep.Skipped[k], k)
		}
	}
	fmt.Fprintf(w, "add `import '%s'` to main (scene.code.js) to draw it there\n", name)
}

// counts lists a count map as "KEY N, KEY N" in key order.
func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
