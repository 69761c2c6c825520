package runtime

// Modules. Every file runs as a classic script in the run's one realm, imports first, each
// file once: so an upstream-style `import 'house_lib'` makes the library's top-level
// declarations visible to the importer, chains of such imports share one global scope, and
// standard `import {House} from 'house_lib'` and `import * as h` work on top. The import and
// export syntax is blanked out in place (esm.Scan), so every line and column goja reports
// is the user's own, with no source map. What a specifier names is decided here
// (moduleName, then load): esm knows JavaScript, not the workspace.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/cadrun/cadrun/runtime/internal/esm"
)

type loadState int

const (
	loading loadState = iota + 1
	loaded_
)

// loaded is a module of this run.
type loaded struct {
	name, path string
	state      loadState
	ns         *goja.Object // exported names to values
}

// load evaluates module name and, first, everything it imports. chain is the import path
// that led here, for cycle errors.
func (r *run) load(name string, from *importSite) error {
	if m, ok := r.modules[name]; ok {
		if m.state == loading {
			return r.cycleError(name, from)
		}
		return nil
	}
	if len(r.modules) >= r.limits.MaxModules {
		return &Diagnostic{Kind: KindLimit, Message: fmt.Sprintf("the program imports more than %d modules (MaxModules)", r.limits.MaxModules)}
	}
	if strings.HasSuffix(name, ".json") && from != nil {
		return from.diagnostic(KindModule, fmt.Sprintf("'%s' is a data file, which cannot be imported", name),
			fmt.Sprintf("read it with readJSON('%s')", strings.TrimSuffix(name, ".json")))
	}
	src, path, err := r.src.Read(name)
	if err != nil {
		return r.missingModule(name, from, err)
	}
	if len(src) > r.limits.MaxSourceBytes {
		return &Diagnostic{File: path, Line: 1, Column: 1, Kind: KindLimit,
			Message: fmt.Sprintf("%s is %d bytes; the limit is %d (MaxSourceBytes)", path, len(src), r.limits.MaxSourceBytes),
			Hint:    "split it into modules"}
	}
	mod, prog, d := parse(src, path, r.limits.MaxNesting)
	if d != nil {
		return d
	}
	m := &loaded{name: name, path: path, state: loading, ns: r.vm.NewObject()}
	r.modules[name] = m
	for _, imp := range mod.Imports {
		site := &importSite{module: m, spec: imp.Spec, line: imp.Line, column: imp.Column, src: src, parent: from}
		if err := r.load(imp.Spec, site); err != nil {
			return err
		}
	}
	for _, re := range mod.ReExports {
		site := &importSite{module: m, spec: re.Spec, line: re.Line, column: re.Column, src: src, parent: from}
		if err := r.load(re.Spec, site); err != nil {
			return err
		}
	}
	prg, err := r.compile(m, prog, src)
	if err != nil {
		return err
	}
	if err := r.bindImports(m, mod, src); err != nil {
		return err
	}
	if _, err := r.vm.RunProgram(prg); err != nil {
		return err
	}
	if err := r.collectExports(m, mod); err != nil {
		return err
	}
	m.state = loaded_
	r.order = append(r.order, name)
	return nil
}

// importSite is where a module was imported, for errors that point at the import.
type importSite struct {
	module       *loaded
	spec         string
	line, column int
	src          []byte
	parent       *importSite
}

func (s *importSite) diagnostic(kind, msg, hint string) *Diagnostic {
	line := lineOf(s.src, s.line)
	return &Diagnostic{File: s.module.path, Line: s.line, Column: charColumn(line, s.column), Kind: kind, Message: msg, Source: line, Hint: hint}
}

func (r *run) cycleError(name string, from *importSite) error {
	chain := []string{name}
	for s := from; s != nil; s = s.parent {
		chain = append(chain, s.module.name)
		if s.module.name == name {
			break
		}
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return from.diagnostic(KindModule, "import cycle: "+strings.Join(chain, " -> "),
		"move what both modules need into a third module that imports neither")
}

func (r *run) missingModule(name string, from *importSite, err error) error {
	if !errors.Is(err, ErrModuleNotFound) {
		msg := fmt.Sprintf("reading %s: %v", PathOf(name), err)
		if from == nil {
			return &Diagnostic{Kind: KindModule, Message: msg}
		}
		return from.diagnostic(KindModule, msg, "")
	}
	if from == nil {
		return &Diagnostic{File: PathOf(name), Kind: KindModule, Message: fmt.Sprintf("%s does not exist", PathOf(name)),
			Hint: "write it first"}
	}
	names := r.src.Names()
	hint := "available modules: " + strings.Join(names, ", ")
	if len(names) == 0 {
		hint = "there are no modules yet; write modules/" + name + ".js first"
	}
	if c := Closest(name, names); c != "" {
		hint = fmt.Sprintf("did you mean '%s'? %s", c, hint)
	}
	return from.diagnostic(KindModule, fmt.Sprintf("module '%s' not found", name), hint)
}

// parse reads a file the way a run does: the nesting guard, the import/export scan that
// blanks module syntax in place, and goja's parser (source maps off, so a comment cannot make
// it read files). Specifiers come back resolved to module names (moduleName). A failure is a
// Diagnostic at its line and character column.
func parse(src []byte, path string, maxNesting int) (*esm.Module, *ast.Program, *Diagnostic) {
	if d := checkNesting(src, path, maxNesting); d != nil {
		return nil, nil, d
	}
	mod, err := esm.Scan(string(src))
	if err != nil {
		var se *esm.Error
		if errors.As(err, &se) {
			line := lineOf(src, se.Line)
			d := &Diagnostic{File: path, Line: se.Line, Column: charColumn(line, se.Column), Kind: KindSyntax, Message: se.Msg, Source: line}
			unclosedLiteral(d, src, esm.Offset(string(src), se.Line, se.Column))
			return nil, nil, d
		}
		return nil, nil, &Diagnostic{File: path, Kind: KindSyntax, Message: err.Error()}
	}
	for i := range mod.Imports {
		mod.Imports[i].Spec = moduleName(mod.Imports[i].Spec)
	}
	for i := range mod.ReExports {
		mod.ReExports[i].Spec = moduleName(mod.ReExports[i].Spec)
	}
	prog, err := parser.ParseFile(nil, path, mod.Script, 0, parser.WithDisableSourceMaps)
	if err != nil {
		var list parser.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			e := list[0]
			line := lineOf(src, e.Position.Line)
			d := &Diagnostic{File: path, Line: e.Position.Line, Column: charColumn(line, e.Position.Column),
				Kind: KindSyntax, Message: e.Message, Source: line}
			return nil, nil, explainSyntax(d, src, mod.Script, e)
		}
		return nil, nil, &Diagnostic{File: path, Kind: KindSyntax, Message: err.Error()}
	}
	return mod, prog, nil
}

// moduleName turns a standard relative specifier into the module's logical name, so that
// './gear_lib.js', './gear_lib' and (from main, the true relative path) './modules/gear_lib.js'
// all import the module gear_lib. Modules live in one folder, so that is the only relative
// form there is; anything else is kept as written and checked as a name when loaded.
func moduleName(spec string) string {
	rest, ok := strings.CutPrefix(spec, "./")
	if !ok {
		return spec
	}
	rest = strings.TrimPrefix(rest, "modules/")
	rest = strings.TrimSuffix(rest, ".js")
	if rest == "" || strings.ContainsAny(rest, "/\\") {
		return spec
	}
	return rest
}

// compile checks a parsed file's top-level lexical declarations against the files already
// run (they share one scope, so a clash is an error naming both files) and compiles it.
func (r *run) compile(m *loaded, prog *ast.Program, src []byte) (*goja.Program, error) {
	for _, d := range topLevelLexical(prog) {
		pos := prog.File.Position(int(d.idx) - 1)
		line := lineOf(src, pos.Line)
		here := Note{File: m.path, Line: pos.Line, Column: charColumn(line, pos.Column), Source: line,
			Message: fmt.Sprintf("'%s' is first declared here", d.name)}
		if first, dup := r.declared[d.name]; dup {
			return nil, &Diagnostic{File: here.File, Line: here.Line, Column: here.Column, Kind: KindSyntax,
				Message: fmt.Sprintf("'%s' is declared in both %s:%d and %s:%d", d.name, first.File, first.Line, here.File, here.Line),
				Source:  line, Notes: []Note{first},
				Hint: "all modules share one scope: rename one, or declare it once and import that module"}
		}
		r.declared[d.name] = here
	}
	prg, err := goja.CompileAST(prog, false)
	if err != nil {
		return nil, err
	}
	return prg, nil
}

type declaration struct {
	name string
	idx  int
}

// topLevelLexical lists the let, const and class names a script declares at its top level.
func topLevelLexical(p *ast.Program) []declaration {
	var out []declaration
	for _, st := range p.Body {
		switch s := st.(type) {
		case *ast.LexicalDeclaration:
			for _, b := range s.List {
				for _, id := range boundNames(b.Target) {
					out = append(out, declaration{name: id.Name.String(), idx: int(id.Idx)})
				}
			}
		case *ast.ClassDeclaration:
			if s.Class != nil && s.Class.Name != nil {
				out = append(out, declaration{name: s.Class.Name.Name.String(), idx: int(s.Class.Name.Idx)})
			}
		}
	}
	return out
}

// boundNames lists the identifiers a binding target declares, destructuring included.
func boundNames(t ast.BindingTarget) []*ast.Identifier {
	switch x := t.(type) {
	case *ast.Identifier:
		return []*ast.Identifier{x}
	case *ast.ArrayPattern:
		var out []*ast.Identifier
		for _, e := range x.Elements {
			if bt, ok := e.(ast.BindingTarget); ok {
				out = append(out, boundNames(bt)...)
			}
		}
		if bt, ok := x.Rest.(ast.BindingTarget); ok {
			out = append(out, boundNames(bt)...)
		}
		return out
	case *ast.ObjectPattern:
		var out []*ast.Identifier
		for _, p := range x.Properties {
			switch q := p.(type) {
			case *ast.PropertyShort:
				out = append(out, &q.Name)
			case *ast.PropertyKeyed:
				if bt, ok := q.Value.(ast.BindingTarget); ok {
					out = append(out, boundNames(bt)...)
				}
			}
		}
		if bt, ok := x.Rest.(ast.BindingTarget); ok {
			out = append(out, boundNames(bt)...)
		}
		return out
	}
	return nil
}

// bindImports makes the names an import statement introduces: a renamed binding, a default
// import or a namespace becomes a global of that name. A same-named binding needs nothing,
// since the imported module's declaration is already in the shared scope.
func (r *run) bindImports(m *loaded, mod *esm.Module, src []byte) error {
	for _, imp := range mod.Imports {
		dep := r.modules[imp.Spec]
		for _, b := range imp.Bindings {
			var v goja.Value
			switch b.Imported {
			case "*":
				v = dep.ns
			default:
				v = dep.ns.Get(b.Imported)
				if v == nil {
					site := &importSite{module: m, spec: imp.Spec, line: imp.Line, column: imp.Column, src: src}
					exported := dep.ns.Keys()
					hint := "it exports nothing; add export to its declarations, or use import '" + imp.Spec + "' for its globals"
					if len(exported) > 0 {
						hint = "it exports: " + strings.Join(exported, ", ")
					}
					return site.diagnostic(KindModule, fmt.Sprintf("module '%s' has no export '%s'", imp.Spec, b.Imported), hint)
				}
				if b.Local == b.Imported {
					continue
				}
			}
			if err := r.vm.Set(b.Local, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// collectExports fills the module's namespace from its export statements.
func (r *run) collectExports(m *loaded, mod *esm.Module) error {
	for _, e := range mod.Exports {
		v, err := r.vm.RunString(e.Local)
		if err != nil {
			return err
		}
		_ = m.ns.Set(e.Exported, v)
	}
	if mod.DefaultExport {
		v, err := r.vm.RunString(esm.DefaultExportVar)
		if err != nil {
			return err
		}
		_ = m.ns.Set("default", v)
	}
	for _, re := range mod.ReExports {
		dep := r.modules[re.Spec]
		if len(re.Bindings) == 0 {
			for _, k := range dep.ns.Keys() {
				if k != "default" {
					_ = m.ns.Set(k, dep.ns.Get(k))
				}
			}
			continue
		}
		for _, b := range re.Bindings {
			_ = m.ns.Set(b.Local, dep.ns.Get(b.Imported))
		}
	}
	return nil
}

// checkNesting refuses sources nested deeper than limit before the parser sees them: goja's
// recursive-descent parser would otherwise exhaust the goroutine stack, which no recover can
// catch. Brackets in comments and strings are counted too; a real program never comes close.
func checkNesting(src []byte, path string, limit int) *Diagnostic {
	depth, line, col := 0, 1, 0
	for _, c := range src {
		col++
		switch c {
		case '\n':
			line, col = line+1, 0
		case '(', '[', '{':
			depth++
			if depth > limit {
				l := lineOf(src, line)
				return &Diagnostic{File: path, Line: line, Column: charColumn(l, col), Kind: KindLimit,
					Message: fmt.Sprintf("brackets nested deeper than %d (MaxNesting)", limit), Source: l,
					Hint: "flatten the expression or build the data in a loop"}
			}
		case ')', ']', '}':
			depth = max(0, depth-1)
		}
	}
	return nil
}

// jsonToJS builds a plain JS value from v's JSON form with the realm's own JSON.parse,
// captured before user code could replace it.
func (r *run) jsonToJS(v any) (goja.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return r.jsonParse(goja.Undefined(), r.vm.ToValue(string(b)))
}
