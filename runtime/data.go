package runtime

// readJSON: a script's one way to read a file. It reads a data file (data/NAME.json) through
// the run's Source, like an import, so that the data a run read is part of that run (watch
// mode re-runs when it changes; a tool's overlay shows a data change before it lands). The
// value is deep-frozen, so one read can be shared by every caller in the run and no script
// can change what another sees; data_tree.go decodes it, data_view.go builds it lazily.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/internal/strictjson"
)

// DataName is the logical name of the data file a readJSON argument names: 'door' and
// 'door.json' are door.json (data/door.json); 'catalog/items' is catalog/items.json.
func DataName(arg string) string {
	if strings.HasSuffix(arg, ".json") {
		return arg
	}
	return arg + ".json"
}

// readJSON returns the frozen value of a data file, reading it on first use in the run.
func (c *call) readJSON(arg string) goja.Value {
	r := c.r
	name := DataName(arg)
	if v, ok := r.data[name]; ok {
		return v
	}
	b, path, err := r.src.Read(name)
	switch {
	case errors.Is(err, ErrModuleNotFound):
		c.fail("Error", "%s does not exist; write it first (the write tool with file '%s'), or check the name with glob", path, name)
	case err != nil:
		c.fail("Error", "reading %s: %v", path, err)
	}
	t, ok := dataTree(b)
	if !ok {
		c.fail("Error", "%s is not valid JSON: %s", path, JSONSyntaxError(b))
	}
	v := r.dataValue(t)
	if r.data == nil {
		r.data = map[string]goja.Value{}
	}
	r.data[name] = v
	return v
}

// JSONSyntaxError describes why b is refused as a data file, with the line and column
// (1-based, in characters) where it goes wrong; "" when b is accepted. A data file follows
// the one rule for JSON input (internal/strictjson): besides JSON's syntax, a key given twice
// and invalid UTF-8 are refused, so that readJSON, the schema check and the write all read
// the file the same way. A number past float64's range is refused too (JS has no such number).
func JSONSyntaxError(b []byte) string {
	if err := strictjson.Check(b); err != nil {
		var se *strictjson.Error
		if !errors.As(err, &se) {
			return err.Error()
		}
		line, col := LineCol(b, se.Offset)
		return fmt.Sprintf("%d:%d: %s", line, col, se.Problem())
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err.Error()
	}
	return ""
}

// LineCol is the 1-based line and column (in characters) of byte offset off in b.
func LineCol(b []byte, off int) (line, col int) {
	off = max(0, min(off, len(b)))
	line = 1 + strings.Count(string(b[:off]), "\n")
	start := strings.LastIndexByte(string(b[:off]), '\n') + 1
	return line, 1 + len([]rune(string(b[start:off])))
}
