package importer

// A module an import writes is one an agent builds on: main imports it next to other imported
// drawings and its own code, all in one realm, where two modules that declare the same name at
// their top level refuse to run together and two entities of one name clash. So the module
// declares one thing at its top level, the function it exports, named after the module, and
// keeps its helpers, block functions and layer lists inside it; and every name it draws starts
// with a prefix (the module's name unless the caller gives another).

import (
	"fmt"
	"strings"

	"github.com/cadrun/cadrun/runtime"
)

// reserved are the words an exported function may not be named.
var reserved = map[string]bool{
	"await": true, "break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true,
	"extends": true, "false": true, "finally": true, "for": true, "function": true, "if": true, "implements": true,
	"import": true, "in": true, "instanceof": true, "interface": true, "let": true, "new": true, "null": true,
	"package": true, "private": true, "protected": true, "public": true, "return": true, "static": true,
	"super": true, "switch": true, "this": true, "throw": true, "true": true, "try": true, "typeof": true,
	"var": true, "void": true, "while": true, "with": true, "yield": true, "eval": true, "arguments": true,
	"undefined": true, "NaN": true, "Infinity": true,
}

// ExportName is the function a module exports: the module's name in camelCase (t-part is
// tPart, Part_1 is part1), or "imported" and the name when that would start with a digit,
// be a JS word or shadow a function of the API or of JavaScript (0-plate is imported0Plate,
// drawCircle importedDrawCircle).
func ExportName(module string) string {
	words := strings.FieldsFunc(module, func(r rune) bool {
		return !(r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'))
	})
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(strings.ToLower(w[:1]) + w[1:])
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	name := b.String()
	_, api := runtime.Lookup(name)
	if name == "" || name[0] >= '0' && name[0] <= '9' || reserved[name] || api || globals[name] {
		if name == "" {
			return "imported"
		}
		return "imported" + strings.ToUpper(name[:1]) + name[1:]
	}
	return name
}

// globals are JavaScript's global names a module's export must not shadow.
var globals = map[string]bool{"Math": true, "Object": true, "Array": true, "String": true,
	"Number": true, "JSON": true, "Date": true, "Error": true, "Map": true, "Set": true, "Symbol": true,
	"Boolean": true, "Promise": true, "RegExp": true, "console": true, "globalThis": true, "parseFloat": true,
	"parseInt": true, "isNaN": true, "isFinite": true}

// naming sets the module's export and prefix from the options, and the report's words on
// how to use it.
func (g *gen) naming() {
	module := g.opt.Module
	if module == "" && g.opt.Source != "" {
		module = ModuleName(g.opt.Source)
	}
	if module == "" {
		module = "imported"
	}
	g.export, g.mod = ExportName(module), module
	g.names["fn:"+strings.ToLower(g.export)] = true
	if g.opt.Prefix != "" {
		g.prefix = g.opt.Prefix + "-"
	}
	g.layerN, g.layerC = map[string]string{}, map[string]string{}
	g.rep.Export, g.rep.Prefix = g.export, g.opt.Prefix
	g.rep.Use = fmt.Sprintf("import {%s} from '%s';\n%s();", g.export, module, g.export)
}

// wrap is the module: the header, then the exported function with the helpers the body
// calls, the body, and the return of the names drawn at the top level.
func (g *gen) wrap(helpers []string) string {
	body := g.out.String()
	var b strings.Builder
	b.WriteString(g.head)
	fmt.Fprintf(&b, "// From main: %s\n", strings.ReplaceAll(g.rep.Use, "\n", " "))
	what := "draws the drawing"
	if g.prefix != "" {
		what += fmt.Sprintf(", every name starting %s,", g.prefix)
	}
	fmt.Fprintf(&b, "// %s %s and returns the names it drew at the top level.\n\n", g.export, what)
	fmt.Fprintf(&b, "export function %s() {\n", g.export)
	first := true // no blank line opens the function
	if strings.Contains(body, "* deg") {
		b.WriteString("  const deg = Math.PI / 180;\n")
		first = false
	}
	for _, h := range helpers {
		if !first {
			b.WriteString("\n")
		}
		first = false
		indent(&b, h)
	}
	if first {
		body = strings.TrimPrefix(body, "\n")
	}
	indent(&b, body)
	fmt.Fprintf(&b, "\n  return [%s];\n}\n", strings.Join(g.drawn0, ", "))
	return b.String()
}

// indent writes s into b with every line but empty ones indented by two spaces.
func indent(b *strings.Builder, s string) {
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && l != "\n" {
			b.WriteString("  ")
		}
		b.WriteString(l)
	}
}

// ident is a JS identifier made of kind and s in camelCase (block Bolt head is blockBoltHead),
// unique among the module's functions and variables.
func (g *gen) ident(kind, s string) string {
	var b strings.Builder
	b.WriteString(kind)
	upper := true
	for _, r := range s {
		switch {
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			if upper && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	name := b.String()
	for i := 2; g.names["fn:"+strings.ToLower(name)]; i++ {
		name = b.String() + fmt.Sprint(i)
	}
	g.names["fn:"+strings.ToLower(name)] = true
	return name
}

// layerName is the scene layer of a DXF layer: its name made a valid name, unique among the
// module's layers (case-insensitively).
func (g *gen) layerName(l string) string {
	return g.uniqueIn("layer:", l, "layer")
}
