package tools

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// fileParams are the input fields (by JSON name) that name a workspace file.
var fileParams = map[string]bool{"file": true, "to": true}

// withFileNames lets a tool take a file as cadrun's answers print it (scene.code.js,
// modules/NAME.js, data/NAME.json): every file parameter is turned into its logical name
// (modules.CleanName) before the tool sees it, on every entry point.
func withFileNames[In, Out any](fn func(ctx context.Context, s *Session, in In) (Out, error)) func(ctx context.Context, s *Session, in In) (Out, error) {
	return func(ctx context.Context, s *Session, in In) (Out, error) {
		v := reflect.ValueOf(&in).Elem()
		if v.Kind() == reflect.Struct {
			for i := range v.NumField() {
				f := v.Type().Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if fileParams[name] && f.Type.Kind() == reflect.String {
					v.Field(i).SetString(modules.CleanName(v.Field(i).String()))
				}
			}
		}
		return fn(ctx, s, in)
	}
}

// noFile is the error for a file that does not exist: it names the file whose name differs
// only in case, if there is one, and otherwise says what to do next. Where next is globNext
// and the workspace has few files, it lists them instead, which saves the glob.
func noFile(ws *modules.Workspace, name, next string) error {
	var names []string
	for _, f := range ws.List() {
		if f.Kind == modules.KindFont || f.Kind == modules.KindImport || f.Name == name {
			continue
		}
		if strings.EqualFold(f.Name, name) {
			return fmt.Errorf("%s does not exist; did you mean %s? (names are case-sensitive)", runtime.PathOf(name), f.Name)
		}
		names = append(names, f.Name)
	}
	if next == globNext {
		next = fewFiles(ws)
	}
	// A file name is suggested for a slip of a key or two ("mian"), not for any name of about
	// the same length, as an API name is.
	if c := runtime.Closest(name, names); c != "" && runtime.EditDistance(strings.ToLower(name), strings.ToLower(c)) <= 2 {
		return fmt.Errorf("%s does not exist; did you mean %s? (%s)", runtime.PathOf(name), c, next)
	}
	return fmt.Errorf("%s does not exist; %s", runtime.PathOf(name), next)
}

// maxFilesListed caps the workspace's files an error lists in place of globNext.
const maxFilesListed = 10

// fewFiles names the workspace's own files (main, the modules, the data files) when there are
// at most maxFilesListed, and otherwise says that glob lists them.
func fewFiles(ws *modules.Workspace) string {
	var names []string
	for _, f := range ws.ListUser() {
		names = append(names, f.Name)
	}
	switch {
	case len(names) == 0:
		return "the workspace has no files yet (write creates one)"
	case len(names) > maxFilesListed:
		return globNext
	case len(names) == 1:
		return "the only file is " + names[0]
	}
	return "the files are " + strings.Join(names, ", ")
}

// entityCommands are the scene commands whose name is an entity's (undo, redo and snapshot
// take a snapshot's).
var entityCommands = []string{"entity", "svg", "json", "png"}

// upstreamTools are the upstream tool's names that cadrun answers under another name, with
// what to call instead.
var upstreamTools = map[string]string{
	"bash":        `scene, whose commands run nothing but look at the drawing: scene {"command":"info"}, tree, entity, png; files change with write and edit`,
	"capture":     `scene {"command":"png"} (with name or region to show a part)`,
	"mama_save":   "save, which records a decision, a note or a fact in the design journal",
	"mama_search": "search, which searches the design journal",
}

// upstreamParams are parameter names other agents' file tools use, too far from cadrun's to
// be found by spelling (path is 4 edits from file), with cadrun's name: an unknown parameter
// is matched here when the tool has that name.
var upstreamParams = map[string]string{
	"path":      "file",
	"file_path": "file",
	"filename":  "file",
	"filepath":  "file",
	"content":   "code",
	"contents":  "code",
	"source":    "code",
	"text":      "code",
}

// upstreamTool is the error for an upstream tool's name, or nil for any other name.
func upstreamTool(name string) error {
	if use, ok := upstreamTools[name]; ok {
		return fmt.Errorf("%w %q: cadrun's tool for this is %s", ErrUnknownTool, name, use)
	}
	return nil
}

// globNext is what to do about a file that does not exist, for most tools.
const globNext = "glob lists the files there are"
