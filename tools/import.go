package tools

// import turns a drawing made elsewhere (tools/importer) into modules/NAME.js and lands it
// through the write transaction (Session.Commit): main runs, nothing lands if the run fails,
// and one undo takes it back. The tool, the CLI runner and `cadrun import FILE` all go through
// Session.Import, so that they refuse the same drawings with the same words and answer the
// same summary (ImportOut, and ImportOut.Text for people). An agent names a file in the
// workspace's imports/ folder (modules.ReadImport: confined, capped, no FIFOs, no link out)
// or gives the file's text. The conversion runs in a worker process (importer.Pool), so that
// no drawing can take the server down.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/geom"
	"github.com/cadrun/cadrun/tools/engine"
	"github.com/cadrun/cadrun/tools/importer"
	"github.com/cadrun/cadrun/tools/importer/dxf"
	"github.com/cadrun/cadrun/tools/importer/svg"
)

const importDescription = "A DXF or SVG drawing as modules/NAME.js, landed as write lands code: a function main calls as the answer says."

// ImportIn says what to import and how.
type ImportIn struct {
	Path    string   `json:"path,omitempty" jsonschema:"a file in imports/"`
	Content string   `json:"content,omitempty" jsonschema:"or the file's text"`
	Format  string   `json:"format,omitempty" jsonschema:"dxf or svg; default: sniffed"`
	Module  string   `json:"module,omitempty" jsonschema:"default: file name"`
	Prefix  string   `json:"prefix,omitempty" jsonschema:"default: module"`
	Layers  []string `json:"layers,omitempty"`
	Layout  string   `json:"layout,omitempty"` // a DXF's paper-space layout, instead of the model
	Units   string   `json:"units,omitempty" jsonschema:"if the file names none"`
}

// ImportOut is what an import made, the module and nothing of main's scene: the importer's
// report (the export, how to use it, what it draws), the bounds of what the export draws, and
// of the write whether it created the file, its history entry and its warnings.
type ImportOut struct {
	Module string `json:"module"` // modules/NAME.js
	*importer.Report
	Bounds   geom.Box `json:"bounds"`
	Created  bool     `json:"created"`
	Entry    int      `json:"entry,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Removed are the data files an earlier import of the module wrote (NAME/1.json, ...) that
	// this one does not, deleted once the module that no longer reads them has landed.
	Removed []string `json:"removed,omitempty"`
}

// MaxPrefixBytes caps the prefix of an import's names, so that a name made of it, a layer
// and a kind with its number stays within a name's 64 characters.
const MaxPrefixBytes = 32

// checkPrefix refuses a prefix that would not start a valid name.
func checkPrefix(p string) error {
	if len(p) > MaxPrefixBytes {
		return fmt.Errorf("%w: import: prefix %q is %d bytes, over %d (MaxPrefixBytes); give a shorter one", ErrBadInput, p, len(p), MaxPrefixBytes)
	}
	for i, r := range p {
		if !(r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || i > 0 && (r == '_' || r == '-'))) {
			return fmt.Errorf("%w: import: prefix %q: use letters, digits, _ and -, starting with a letter or digit", ErrBadInput, p)
		}
	}
	return nil
}

// MaxImportBytes caps a drawing read from imports/: the importer's own limit, which it
// refuses a file over, naming it.
var MaxImportBytes = int64(max(dxf.DefaultLimits.MaxBytes, svg.DefaultLimits.MaxBytes))

// imports converts drawings for every server and command of this process, each in a worker
// process within importer.MaxImportTime and MaxImportMemory (a file is user input, and its
// conversion may panic or blow up): the process's shared pool, which tests replace.
var imports = importer.Shared()

func importTool(ctx context.Context, se *Session, in ImportIn) (*ImportOut, error) {
	switch {
	case (in.Path == "") == (in.Content == ""):
		return nil, fmt.Errorf("%w: import: give path (a file in imports/) or content (the file's text), one of them", ErrBadInput)
	case in.Content != "" && in.Module == "":
		return nil, fmt.Errorf("%w: import: give module, the name of the module to write, with content", ErrBadInput)
	}
	data, file := []byte(in.Content), ""
	if in.Path != "" {
		var err error
		data, file, err = se.srv.ws.ReadImport(in.Path, MaxImportBytes)
		switch {
		case errors.Is(err, modules.ErrBadImportPath):
			return nil, fmt.Errorf("%w: import: %v", ErrBadInput, err)
		case err != nil:
			return nil, engine.NotApplied(err)
		}
	}
	return se.Import(ctx, data, file, in)
}

// Import turns data, the drawing in file ("" for text given inline), into the module that
// in names (by default the file's name) and lands it as write does. in.Path and in.Content
// are not read.
func (se *Session) Import(ctx context.Context, data []byte, file string, in ImportIn) (*ImportOut, error) {
	name, err := importModule(file, in.Module)
	if err != nil {
		return nil, err
	}
	prefix := in.Prefix
	if prefix == "" {
		prefix = name
	}
	if err := checkPrefix(prefix); err != nil {
		return nil, err
	}
	source, base := file, path.Base(file)
	if file == "" {
		source, base = "the content given", ""
	}
	format, err := importer.Format(in.Format, file, data)
	if err != nil {
		return nil, fmt.Errorf("%w: import: %v", ErrBadInput, err)
	}
	if in.Layout != "" && format != "dxf" {
		return nil, fmt.Errorf("%w: import: layout %q: only a DXF has layouts; leave layout out", ErrBadInput, in.Layout)
	}
	code, rep, err := imports.Import(ctx, format, data, importer.Options{Source: base, Layers: in.Layers, Layout: in.Layout, Units: in.Units, Module: name, Prefix: prefix})
	switch {
	case errors.Is(err, importer.ErrUnits) || errors.Is(err, importer.ErrFormat) || errors.Is(err, importer.ErrLayout):
		return nil, fmt.Errorf("%w: import: %v", ErrBadInput, err)
	case err != nil && ctx.Err() != nil:
		return nil, err
	case err != nil:
		return nil, engine.NotApplied(fmt.Errorf("importing %s: %w", source, err))
	}
	// The export draws the drawing: run it as the answer tells main to, for its bounds.
	src := runtime.MapSource{name: code, runtime.MainModule: rep.Use + "\n"}
	maps.Copy(src, rep.Data)
	res, err := se.srv.runner.Run(ctx, src, runtime.MainModule, se.srv.opt)
	if err != nil {
		return nil, engine.NotApplied(fmt.Errorf("importing %s: the module does not run by itself: %w", source, err))
	}
	// The data files the module reads (a drawing whose coordinates pass a module's size) land
	// first, each a write of its own: nothing reads them yet, so none changes the scene. One
	// that was there and not read is said, as the module is.
	var warnings []string
	for _, f := range rep.DataFiles {
		res, err := changed(se.Commit(ctx, f, func([]byte, bool) (modules.Change, error) {
			return modules.Change{Name: f, Next: []byte(rep.Data[f])}, nil
		}, OverwriteWarning))
		if err != nil {
			return nil, fmt.Errorf("importing %s: writing %s: %w", source, runtime.PathOf(f), err)
		}
		if slices.Contains(res.Warnings, OverwriteWarning) {
			warnings = append(warnings, runtime.PathOf(f)+": "+OverwriteWarning)
		}
	}
	write, err := changed(se.Commit(ctx, name, func([]byte, bool) (modules.Change, error) {
		return modules.Change{Name: name, Next: []byte(code)}, nil
	}, OverwriteWarning))
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, write.Warnings...)
	removed, kept := se.removeStaleData(ctx, name, rep.DataFiles)
	return &ImportOut{Module: runtime.PathOf(name), Report: rep, Bounds: engine.RoundBox(res.Scene.Bounds()),
		Created: write.Created, Entry: write.Entry, Warnings: append(warnings, kept...), Removed: removed}, nil
}

// removeStaleData deletes the numbered data files of module (NAME/1.json, NAME/2.json, ...:
// the names an import gives them) that its new import does not write, so that a re-import
// needing fewer data files, or none, leaves no stale copy of the drawing's coordinates
// behind. Each is a delete of its own after the module has landed, run as every delete is:
// one that another file still reads is refused by that run and kept, and said (kept). A
// data file of another name in the folder is the user's, and is left alone.
func (se *Session) removeStaleData(ctx context.Context, module string, written []string) (removed, kept []string) {
	for _, f := range se.srv.ws.ListUser() {
		rest, ok := strings.CutPrefix(f.Name, module+"/")
		num, json := strings.CutSuffix(rest, ".json")
		if f.Kind != modules.KindData || !ok || !json || num == "" || strings.Trim(num, "0123456789") != "" || slices.Contains(written, f.Name) {
			continue
		}
		_, err := changed(se.Commit(ctx, f.Name, func(_ []byte, exists bool) (modules.Change, error) {
			if !exists {
				return modules.Change{}, noFile(se.srv.ws, f.Name, globNext)
			}
			return modules.Change{Name: f.Name, Delete: true}, nil
		}, ""))
		if err != nil {
			kept = append(kept, fmt.Sprintf("%s: kept, though this import does not write it: deleting it: %v", runtime.PathOf(f.Name), err))
			continue
		}
		removed = append(removed, runtime.PathOf(f.Name))
	}
	return removed, kept
}

// importModule is the module an import writes: the one named, else the file's name. It must
// be a module's name, not main's or a data file's.
func importModule(file, module string) (string, error) {
	if module == "" {
		module = importer.ModuleName(file)
	}
	if err := modules.CheckName(module); err != nil {
		return "", fmt.Errorf("%w: import: module: %v", ErrBadInput, err)
	}
	if module == runtime.MainModule {
		return "", fmt.Errorf("%w: import: module %q is the scene's main program; give module, a name for the drawing's own module", ErrBadInput, module)
	}
	return module, nil
}

// Text is the summary `cadrun import` prints: what was written, the units, bounds, entities
// by kind and layer, what was skipped with why, what came in as something else, and how to
// draw it from main.
func (o *ImportOut) Text() string {
	var b strings.Builder
	if o.Format == "svg" {
		fmt.Fprintf(&b, "wrote %s: exports %s; %d top-level groups, %d symbol functions\n", o.Module, o.Export, len(o.Layers), o.Blocks)
		fmt.Fprintf(&b, "units: %s\n", o.Units)
	} else {
		fmt.Fprintf(&b, "wrote %s: exports %s; %d layers, %d block functions\n", o.Module, o.Export, len(o.Layers), o.Blocks)
		if o.Units == importer.UnitName(o.InsUnits) {
			fmt.Fprintf(&b, "units: %s ($INSUNITS %d)\n", o.Units, o.InsUnits)
		} else {
			fmt.Fprintf(&b, "units: %s (as given; the file's $INSUNITS is %d)\n", o.Units, o.InsUnits)
		}
	}
	bounds := "empty"
	if o.Bounds.NonEmpty {
		bounds = fmt.Sprintf("[%g, %g] to [%g, %g]", o.Bounds.Min.X, o.Bounds.Min.Y, o.Bounds.Max.X, o.Bounds.Max.Y)
	}
	fmt.Fprintf(&b, "bounds: %s\n", bounds)
	if len(o.DataFiles) > 0 {
		paths := make([]string, len(o.DataFiles))
		for i, f := range o.DataFiles {
			paths[i] = runtime.PathOf(f)
		}
		fmt.Fprintf(&b, "data: %s (the longest point lists and paths, which the module reads)\n", strings.Join(paths, ", "))
	}
	if len(o.Removed) > 0 {
		fmt.Fprintf(&b, "removed: %s (an earlier import's data, which the module no longer reads)\n", strings.Join(o.Removed, ", "))
	}
	fmt.Fprintf(&b, "entities: %s\n", counts(o.Kinds))
	fmt.Fprintf(&b, "layers: %s\n", counts(o.Layers))
	for _, list := range []struct {
		title string
		m     map[string]int
	}{{"skipped", o.Skipped}, {"notes", o.Notes}} {
		if len(list.m) == 0 {
			continue
		}
		b.WriteString(list.title + ":\n")
		for _, k := range slices.Sorted(maps.Keys(list.m)) {
			fmt.Fprintf(&b, "  %d %s\n", list.m[k], k)
		}
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	fmt.Fprintf(&b, "to draw it, add to main (scene.code.js):\n  %s\n", strings.ReplaceAll(o.Use, "\n", "\n  "))
	if o.Prefix != "" {
		fmt.Fprintf(&b, "every name it draws starts with %s-; ", o.Prefix)
	}
	fmt.Fprintf(&b, "%s() returns the names it drew at the top level\n", o.Export)
	return b.String()
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
