package runtime

// A file's symbols, read from the same parse a run does (parse: the import scan, then goja's
// parser), so that what `lsp symbols` lists, and the line:col of a syntax error, are exactly
// what a run would see. The walk lives here, beside the parse, so that goja's AST stays
// behind this package: callers get plain values.

import (
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// FileSymbols are a file's top-level declarations, imports and exports, each in source
// order. Lines are 1-based.
type FileSymbols struct {
	Classes   []ClassSymbol
	Functions []FuncSymbol
	Variables []VarSymbol
	Imports   []ImportSymbol
	Exports   []ExportSymbol
}

// ClassSymbol is a top-level class.
type ClassSymbol struct {
	Name    string
	Line    int
	Extends string // the superclass expression's text, or ""
	Methods []MethodSymbol
}

// MethodSymbol is a method of a class, the constructor included.
type MethodSymbol struct {
	Name   string   // an identifier, a string's value, #private, or [computed] as written
	Line   int      //
	Params []string // each parameter's source text: a name, a pattern, a default or ...rest
	Kind   string   // "get" or "set" for an accessor; "" for a method
	Static bool
}

// FuncSymbol is a top-level function declaration, or a const, let or var bound to an arrow
// function or a function expression.
type FuncSymbol struct {
	Name   string
	Line   int
	Params []string // as MethodSymbol.Params
}

// VarSymbol is a name a top-level const, let or var declares (each name of a destructuring
// pattern on its own).
type VarSymbol struct {
	Name string
	Line int
	Kind string // "const", "let" or "var"
}

// ImportSymbol is one import statement.
type ImportSymbol struct {
	From string // the module's name, resolved as a run resolves it
	Line int
	// Names are the bindings: "House", "House as H", "default as D", "* as ns"; none for
	// `import 'x'`, which makes every top-level declaration of x visible.
	Names []string
}

// ExportSymbol is one exported name.
type ExportSymbol struct {
	Name    string // the name importers use; "*" for `export * from`
	Binding string // the top-level binding (or the name in From) when it differs from Name
	From    string // for a re-export, the module it comes from
}

// Symbols parses src, the file at workspace path (for errors), as a run does and lists its
// symbols. A syntax error is a *Diagnostic at the error's line and character column, as a run
// would report it. Symbols runs no code, but goja's parser is superlinear on some inputs (a
// long chain of nested arrow functions): a caller serving many clients bounds it.
func Symbols(path string, src []byte) (*FileSymbols, error) {
	mod, prog, d := parse(src, path, DefaultLimits.MaxNesting)
	if d != nil {
		return nil, d
	}
	out := &FileSymbols{}
	w := symbolWalker{prog: prog, script: mod.Script}
	for _, st := range prog.Body {
		switch s := st.(type) {
		case *ast.FunctionDeclaration:
			if fn := s.Function; fn != nil && fn.Name != nil {
				out.Functions = append(out.Functions, FuncSymbol{Name: fn.Name.Name.String(), Line: w.line(fn.Name.Idx), Params: w.params(fn.ParameterList)})
			}
		case *ast.ClassDeclaration:
			if c := s.Class; c != nil && c.Name != nil {
				out.Classes = append(out.Classes, w.class(c))
			}
		case *ast.LexicalDeclaration:
			fns, vars := w.bindings(s.Token.String(), s.List)
			out.Functions, out.Variables = append(out.Functions, fns...), append(out.Variables, vars...)
		case *ast.VariableStatement:
			fns, vars := w.bindings("var", s.List)
			out.Functions, out.Variables = append(out.Functions, fns...), append(out.Variables, vars...)
		}
	}
	for _, imp := range mod.Imports {
		is := ImportSymbol{From: imp.Spec, Line: imp.Line}
		for _, b := range imp.Bindings {
			is.Names = append(is.Names, bindingText(b.Imported, b.Local))
		}
		out.Imports = append(out.Imports, is)
	}
	for _, e := range mod.Exports {
		es := ExportSymbol{Name: e.Exported}
		if e.Local != e.Exported {
			es.Binding = e.Local
		}
		out.Exports = append(out.Exports, es)
	}
	if mod.DefaultExport {
		out.Exports = append(out.Exports, ExportSymbol{Name: "default"})
	}
	for _, re := range mod.ReExports {
		if re.Star {
			out.Exports = append(out.Exports, ExportSymbol{Name: "*", From: re.Spec})
		}
		for _, b := range re.Bindings {
			es := ExportSymbol{Name: b.Local, From: re.Spec}
			if b.Imported != b.Local {
				es.Binding = b.Imported
			}
			out.Exports = append(out.Exports, es)
		}
	}
	return out, nil
}

func bindingText(imported, local string) string {
	if imported == local {
		return local
	}
	return imported + " as " + local
}

// symbolWalker turns goja AST nodes into symbols with lines and source text.
type symbolWalker struct {
	prog   *ast.Program
	script string
}

// line is the 1-based line of a position.
func (w symbolWalker) line(idx file.Idx) int { return w.prog.File.Position(int(idx) - 1).Line }

// text is the script's text of a node (the blanked script has the source's offsets).
func (w symbolWalker) text(n ast.Node) string {
	from, to := int(n.Idx0())-1, int(n.Idx1())-1
	if from < 0 || to > len(w.script) || from > to {
		return ""
	}
	return strings.TrimSpace(w.script[from:to])
}

func (w symbolWalker) params(pl *ast.ParameterList) []string {
	if pl == nil {
		return nil
	}
	var out []string
	for _, b := range pl.List {
		t := w.text(b.Target)
		if b.Initializer != nil {
			t += " = " + w.text(b.Initializer)
		}
		out = append(out, t)
	}
	if pl.Rest != nil {
		out = append(out, "..."+w.text(pl.Rest))
	}
	return out
}

func (w symbolWalker) class(c *ast.ClassLiteral) ClassSymbol {
	out := ClassSymbol{Name: c.Name.Name.String(), Line: w.line(c.Name.Idx)}
	if c.SuperClass != nil {
		out.Extends = w.text(c.SuperClass)
	}
	for _, el := range c.Body {
		m, ok := el.(*ast.MethodDefinition)
		if !ok || m.Body == nil {
			continue
		}
		ms := MethodSymbol{Name: w.key(m.Key, m.Computed), Line: w.line(m.Idx), Params: w.params(m.Body.ParameterList), Static: m.Static}
		if m.Kind == ast.PropertyKindGet || m.Kind == ast.PropertyKindSet {
			ms.Kind = string(m.Kind)
		}
		out.Methods = append(out.Methods, ms)
	}
	return out
}

// key is a method's name: an identifier, a string, #private, or [computed] as written.
func (w symbolWalker) key(k ast.Expression, computed bool) string {
	if computed {
		return "[" + w.text(k) + "]"
	}
	switch x := k.(type) {
	case *ast.StringLiteral:
		return x.Value.String()
	case *ast.Identifier:
		return x.Name.String()
	case *ast.PrivateIdentifier:
		return "#" + x.Name.String()
	}
	return w.text(k)
}

// bindings lists the names a const, let or var declares; a name bound to an arrow function
// or a function expression (const add = (a, b) => a + b) is listed as a function with its
// parameters.
func (w symbolWalker) bindings(kind string, list []*ast.Binding) (fns []FuncSymbol, vars []VarSymbol) {
	for _, b := range list {
		if id, ok := b.Target.(*ast.Identifier); ok {
			var params *ast.ParameterList
			switch f := b.Initializer.(type) {
			case *ast.ArrowFunctionLiteral:
				params = f.ParameterList
			case *ast.FunctionLiteral:
				params = f.ParameterList
			}
			if params != nil {
				fns = append(fns, FuncSymbol{Name: id.Name.String(), Line: w.line(id.Idx), Params: w.params(params)})
				continue
			}
		}
		for _, id := range boundNames(b.Target) {
			vars = append(vars, VarSymbol{Name: id.Name.String(), Line: w.line(id.Idx), Kind: kind})
		}
	}
	return fns, vars
}
