package tools

// The lsp tool answers questions about the JS API from the one API table (runtime.API), so it
// cannot drift from what the bindings accept, and about a file's symbols from runtime.Symbols,
// the same parse a run does, so that what it lists, and the line:col of a syntax error, are
// exactly what a run would see. goja stays behind runtime: this file only converts.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

const lspDescription = "The JS API and a file's symbols: domains (their functions), describe (a domain's functions, or one function's signature, doc, example), schema (a function's parameters), symbols (a file's declarations, imports, exports, with lines)."

// lspOperations are the operations of the lsp tool.
var lspOperations = []string{"domains", "describe", "schema", "symbols"}

// LSPIn is one question.
type LSPIn struct {
	Operation string `json:"operation" jsonschema:"domains, describe, schema or symbols"`
	Domain    string `json:"domain,omitempty" jsonschema:"describe: a domain such as primitives"`
	Name      string `json:"name,omitempty" jsonschema:"describe, schema: a function such as drawCircle"`
	File      string `json:"file,omitempty" jsonschema:"symbols: 'main' or a module"`
}

// LSPOut holds the one field the operation fills.
type LSPOut struct {
	Domains   []LSPDomain   `json:"domains,omitempty"`
	Functions []LSPFunction `json:"functions,omitempty"`
	Schema    *LSPSchema    `json:"schema,omitempty"`
	Symbols   *LSPSymbols   `json:"symbols,omitempty"`
}

// LSPDomain is one domain of the API with its functions.
type LSPDomain struct {
	Name      string       `json:"name"`
	Functions []LSPSummary `json:"functions"`
}

// LSPSummary is a function's name and doc line.
type LSPSummary struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

// LSPFunction describes one API function.
type LSPFunction struct {
	Name       string   `json:"name"`
	Domain     string   `json:"domain"`
	Signatures []string `json:"signatures" jsonschema:"the accepted forms, TypeScript style"`
	Doc        string   `json:"doc"`
	Example    string   `json:"example,omitempty"`
	// Replacement marks a removed name: calling it throws an error naming the replacement.
	Replacement string `json:"replacement,omitempty" jsonschema:"set for a removed name: use this function instead"`
}

// LSPSchema is one API function in detail.
type LSPSchema struct {
	Name         string     `json:"name"`
	Domain       string     `json:"domain"`
	Signature    string     `json:"signature"`
	Doc          string     `json:"doc"`
	Params       []LSPParam `json:"params"`
	AltSignature string     `json:"alt_signature,omitempty" jsonschema:"a second accepted argument list"`
	AltParams    []LSPParam `json:"alt_params,omitempty"`
	Returns      string     `json:"returns"`
	Example      string     `json:"example,omitempty"`
	Replacement  string     `json:"replacement,omitempty" jsonschema:"set for a removed name: use this function instead"`
}

// LSPParam is one parameter.
type LSPParam struct {
	Name     string `json:"name"`
	Type     string `json:"type" jsonschema:"TypeScript type"`
	Unit     string `json:"unit,omitempty" jsonschema:"scene units, radians, ...; empty when unitless"`
	Default  string `json:"default,omitempty" jsonschema:"JS text of the default; empty for a required parameter"`
	Optional bool   `json:"optional,omitempty"`
	Doc      string `json:"doc,omitempty"`
}

// LSPSymbols are a file's top-level declarations. Lines are 1-based.
type LSPSymbols struct {
	File      string        `json:"file"`
	Path      string        `json:"path"`
	Classes   []LSPClass    `json:"classes,omitempty"`
	Functions []LSPFunc     `json:"functions,omitempty"`
	Variables []LSPVariable `json:"variables,omitempty"`
	Imports   []LSPImport   `json:"imports,omitempty"`
	Exports   []LSPExport   `json:"exports,omitempty"`
}

// LSPClass is a top-level class.
type LSPClass struct {
	Name    string      `json:"name"`
	Line    int         `json:"line"`
	Extends string      `json:"extends,omitempty" jsonschema:"the superclass expression's text"`
	Methods []LSPMethod `json:"methods,omitempty"`
}

// LSPMethod is a method of a class (the constructor included).
type LSPMethod struct {
	Name   string   `json:"name"`
	Line   int      `json:"line"`
	Params []string `json:"params,omitempty" jsonschema:"each parameter's source text: a name, a pattern, a default or ...rest"`
	Kind   string   `json:"kind,omitempty" jsonschema:"get or set for an accessor; empty for a method"`
	Static bool     `json:"static,omitempty"`
}

// LSPFunc is a top-level function declaration.
type LSPFunc struct {
	Name   string   `json:"name"`
	Line   int      `json:"line"`
	Params []string `json:"params,omitempty" jsonschema:"each parameter's source text: a name, a pattern, a default or ...rest"`
}

// LSPVariable is a name a top-level const, let or var declares.
type LSPVariable struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	Kind string `json:"kind" jsonschema:"const, let or var"`
}

// LSPImport is one import statement.
type LSPImport struct {
	From string `json:"from" jsonschema:"the module imported"`
	Line int    `json:"line"`
	// Names are the bindings: "House", "House as H", "default as D", "* as ns"; none for
	// `import 'x'`, which makes every top-level declaration of x visible.
	Names []string `json:"names,omitempty" jsonschema:"the bindings (House, House as H, * as ns); none for import 'x', which makes all of x visible"`
}

// LSPExport is one exported name.
type LSPExport struct {
	Name    string `json:"name" jsonschema:"the name importers use; * for export * from"`
	Binding string `json:"binding,omitempty" jsonschema:"the top-level binding (or the name in from) when it differs from name"`
	From    string `json:"from,omitempty" jsonschema:"for a re-export, the module it comes from"`
}

func lspTool(ctx context.Context, se *Session, in LSPIn) (LSPOut, error) {
	switch in.Operation {
	case "domains":
		return LSPOut{Domains: lspDomains()}, nil
	case "describe":
		fns, err := lspDescribe(in.Domain, in.Name)
		return LSPOut{Functions: fns}, err
	case "schema":
		sc, err := lspSchema(in.Name)
		return LSPOut{Schema: sc}, err
	case "symbols":
		sym, err := lspSymbols(ctx, se.srv, in.File)
		return LSPOut{Symbols: sym}, err
	}
	return LSPOut{}, fmt.Errorf("%w: unknown lsp operation %q; use %s", ErrBadInput, in.Operation, strings.Join(lspOperations, ", "))
}

func lspDomains() []LSPDomain {
	var out []LSPDomain
	for _, f := range append(runtime.API(), runtime.Console()...) {
		if f.Replacement != "" {
			continue // removed names are found by name, not offered
		}
		if len(out) == 0 || out[len(out)-1].Name != f.Domain {
			out = append(out, LSPDomain{Name: f.Domain, Functions: []LSPSummary{}})
		}
		d := &out[len(out)-1]
		d.Functions = append(d.Functions, LSPSummary{Name: f.Name, Doc: f.Doc})
	}
	for _, alias := range slices.Sorted(maps.Keys(runtime.DomainAliases)) {
		d := LSPDomain{Name: alias, Functions: []LSPSummary{}}
		for _, f := range lspDomainFuncs(alias) {
			d.Functions = append(d.Functions, LSPSummary{Name: f.Name, Doc: f.Doc})
		}
		out = append(out, d)
	}
	return out
}

// lspDomainFuncs lists a domain's live functions (console's methods, an alias's members).
func lspDomainFuncs(domain string) []runtime.Func {
	if names, ok := runtime.DomainAliases[domain]; ok {
		out := make([]runtime.Func, 0, len(names))
		for _, n := range names {
			f, _ := runtime.Lookup(n)
			out = append(out, f)
		}
		return out
	}
	if domain == "console" {
		return runtime.Console()
	}
	var out []runtime.Func
	for _, f := range runtime.API() {
		if f.Domain == domain && f.Replacement == "" {
			out = append(out, f)
		}
	}
	return out
}

// lspDomainNames is every name describe accepts as a domain.
func lspDomainNames() []string {
	return append(slices.Clone(runtime.Domains), slices.Sorted(maps.Keys(runtime.DomainAliases))...)
}

func lspDescribe(domain, name string) ([]LSPFunction, error) {
	switch {
	case domain != "" && name != "":
		return nil, fmt.Errorf("%w: describe takes domain or name, not both", ErrBadInput)
	case name != "":
		f, err := lspLookup(name)
		if err != nil {
			return nil, err
		}
		return []LSPFunction{lspFunction(f)}, nil
	case domain != "":
		if !slices.Contains(lspDomainNames(), domain) {
			return nil, fmt.Errorf("%w: unknown domain %q; the domains are %s", ErrBadInput, domain, strings.Join(lspDomainNames(), ", "))
		}
		var out []LSPFunction
		for _, f := range lspDomainFuncs(domain) {
			out = append(out, lspFunction(f))
		}
		return out, nil
	}
	return nil, fmt.Errorf("%w: describe needs domain (one of %s) or name", ErrBadInput, strings.Join(lspDomainNames(), ", "))
}

func lspFunction(f runtime.Func) LSPFunction {
	return LSPFunction{Name: f.Name, Domain: f.Domain, Signatures: f.Signatures(), Doc: f.Doc, Example: f.Example, Replacement: f.Replacement}
}

func lspSchema(name string) (*LSPSchema, error) {
	if name == "" {
		return nil, fmt.Errorf("%w: schema needs name, an API function such as drawCircle", ErrBadInput)
	}
	f, err := lspLookup(name)
	if err != nil {
		return nil, err
	}
	out := &LSPSchema{Name: f.Name, Domain: f.Domain, Signature: f.Signature(), Doc: f.Doc,
		Params: lspParams(f.Params), Returns: f.Returns, Example: f.Example, Replacement: f.Replacement}
	if sigs := f.Signatures(); len(sigs) > 1 {
		out.AltSignature = sigs[1]
		out.AltParams = lspParams(f.AltParams)
	}
	return out, nil
}

func lspParams(ps []runtime.Param) []LSPParam {
	out := make([]LSPParam, 0, len(ps))
	for _, p := range ps {
		out = append(out, LSPParam{Name: p.Name, Type: p.Type, Unit: p.Unit, Default: p.Default, Optional: p.Optional, Doc: p.Doc})
	}
	return out
}

// lspLookup finds an API function, or says which name was probably meant.
func lspLookup(name string) (runtime.Func, error) {
	if f, ok := runtime.Lookup(name); ok {
		return f, nil
	}
	for _, f := range runtime.Console() {
		if f.Name == name {
			return f, nil
		}
	}
	var names []string
	for _, f := range runtime.API() {
		if f.Replacement == "" {
			names = append(names, f.Name)
		}
	}
	if c := runtime.Closest(name, names); c != "" {
		f, _ := runtime.Lookup(c)
		return runtime.Func{}, fmt.Errorf("%w: unknown API function %q; did you mean %s? (%s)", ErrBadInput, name, c, f.Signature())
	}
	return runtime.Func{}, fmt.Errorf("%w: unknown API function %q; lsp domains lists them", ErrBadInput, name)
}

// lspSymbols reads file through the workspace (a user file, or a built-in module) and lists
// its top-level declarations. The parse is bounded by the run timeout (see lsp_parse.go).
func lspSymbols(ctx context.Context, srv *Server, file string) (*LSPSymbols, error) {
	if file == "" {
		return nil, fmt.Errorf("%w: symbols needs file, 'main' or a module name", ErrBadInput)
	}
	if err := modules.CheckName(file); err != nil {
		return nil, err
	}
	src, path, err := srv.ws.Read(file)
	if errors.Is(err, runtime.ErrModuleNotFound) {
		return nil, noFile(srv.ws, file, globNext)
	}
	if err != nil {
		return nil, err
	}
	timeout := srv.opt.Limits.Timeout
	if timeout <= 0 {
		timeout = runtime.DefaultLimits.Timeout
	}
	return srv.parses.symbols(ctx, path, src, timeout, func() (*LSPSymbols, error) { return fileSymbols(file, path, src) })
}

// fileSymbols parses src as the runtime does and lists its symbols. A syntax error is a
// diagnostic at the error's line:col (in characters), as a run would report it.
func fileSymbols(file, path string, src []byte) (*LSPSymbols, error) {
	sym, err := runtime.Symbols(path, src)
	if err != nil {
		var d *runtime.Diagnostic
		if errors.As(err, &d) {
			return nil, diagError(d)
		}
		return nil, err
	}
	// Each LSP type but LSPClass has its runtime type's fields, adding JSON names and schema
	// text, so it converts directly (and stops compiling if the two drift apart).
	out := &LSPSymbols{File: file, Path: path}
	for _, c := range sym.Classes {
		lc := LSPClass{Name: c.Name, Line: c.Line, Extends: c.Extends}
		for _, m := range c.Methods {
			lc.Methods = append(lc.Methods, LSPMethod(m))
		}
		out.Classes = append(out.Classes, lc)
	}
	for _, f := range sym.Functions {
		out.Functions = append(out.Functions, LSPFunc(f))
	}
	for _, v := range sym.Variables {
		out.Variables = append(out.Variables, LSPVariable(v))
	}
	for _, i := range sym.Imports {
		out.Imports = append(out.Imports, LSPImport(i))
	}
	for _, e := range sym.Exports {
		out.Exports = append(out.Exports, LSPExport(e))
	}
	return out, nil
}

// diagError is a diagnostic in full (source line and caret) as a tool error.
func diagError(d *runtime.Diagnostic) error {
	return errors.New(strings.TrimRight(d.Render(), "\n"))
}
