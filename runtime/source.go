package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
)

// ErrModuleNotFound is returned by a Source for a logical name it does not hold.
var ErrModuleNotFound = errors.New("module not found")

// MainModule is the logical name of the entry file.
const MainModule = "main"

// Source is a read-only view of a workspace's scripts by logical name: "main" for the entry,
// NAME for a module. Implementations must be safe for concurrent use.
type Source interface {
	// Read returns the module's bytes and the path errors should show (scene.code.js,
	// modules/NAME.js); a missing module wraps ErrModuleNotFound.
	Read(name string) (src []byte, path string, err error)
	// Names lists the modules that can be imported (main excluded), sorted.
	Names() []string
}

// PathOf is the workspace path of a logical module name, as the upstream tool lays it out.
func PathOf(name string) string {
	if name == MainModule {
		return "scene.code.js"
	}
	if strings.HasSuffix(name, ".json") {
		return "data/" + name // a data file, NAME.json
	}
	return "modules/" + name + ".js"
}

// MapSource is an in-memory Source: logical name to content.
type MapSource map[string]string

// Read implements Source.
func (m MapSource) Read(name string) ([]byte, string, error) {
	src, ok := m[name]
	if !ok {
		return nil, PathOf(name), fmt.Errorf("%w: %q", ErrModuleNotFound, name)
	}
	return []byte(src), PathOf(name), nil
}

// Names implements Source.
func (m MapSource) Names() []string {
	names := slices.Sorted(maps.Keys(m))
	return slices.DeleteFunc(names, func(n string) bool { return n == MainModule })
}

// Overlay shows content in place of one module of base, as the write-and-run tools need:
// the change is tried before it reaches the disk.
type Overlay struct {
	Base    Source
	Name    string
	Content []byte
	Path    string // the path errors show for it; empty means the workspace path of Name
}

// Read implements Source.
func (o Overlay) Read(name string) ([]byte, string, error) {
	if name == o.Name {
		if o.Path != "" {
			return o.Content, o.Path, nil
		}
		return o.Content, PathOf(name), nil
	}
	return o.Base.Read(name)
}

// Names implements Source.
func (o Overlay) Names() []string {
	names := o.Base.Names()
	if o.Name != MainModule && !slices.Contains(names, o.Name) {
		names = append(names, o.Name)
		slices.Sort(names)
	}
	return names
}

// FSSource reads a workspace laid out in an fs.FS (embedded examples, tests).
type FSSource struct{ FS fs.FS }

// Read implements Source.
func (s FSSource) Read(name string) ([]byte, string, error) {
	path := PathOf(name)
	b, err := fs.ReadFile(s.FS, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, fmt.Errorf("%w: %q", ErrModuleNotFound, name)
	}
	return b, path, err
}

// Names implements Source.
func (s FSSource) Names() []string {
	entries, _ := fs.ReadDir(s.FS, "modules")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".js"); ok && e.Type().IsRegular() {
			names = append(names, n)
		}
	}
	return names
}
