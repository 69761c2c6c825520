// Package esm finds the static imports and exports of a JavaScript module and rewrites the
// module to run as a classic script. It knows JavaScript's syntax and nothing of cadrun's
// workspace: what a specifier names (a module, a data file, a relative path) is the
// runtime's business (runtime/modules.go), and so is every error message's file.
//
// Start with Scan: it returns the Module (the rewritten Script, the Imports, Exports and
// ReExports), or an *Error at a line and byte column. Balance, for a file goja's parser
// rejects, finds what the file opens and never closes and the list around a place (balance.go),
// with the same lexer.
//
// Why rewrite rather than transpile: goja runs scripts, not ES modules, and the sandbox
// evaluates every module as a script in one shared realm (DESIGN.md, "The sandbox"). Removing
// the import/export syntax in place, byte for byte, keeps every line:column that goja reports
// pointing at the user's own text, so no source map is needed. Removed bytes become spaces;
// line terminators (\n, \r, U+2028, U+2029) are kept, because goja counts all of them when it
// numbers lines.
//
// Why a lexer of our own: an import inside a comment, string, template or regular expression
// is not one, and telling a regular expression from a division needs the previous token. goja's
// parser rejects import/export in scripts, so it cannot be asked. The lexer (lex.go) is one
// pass over the bytes with a bracket stack; only statements at bracket depth 0 are module
// syntax, which the scanner (scan.go) parses and rewrites.
package esm

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrSyntax is wrapped by every *Error: the module's import or export syntax is
// malformed or unsupported by the sandbox, or a literal or comment is not terminated.
var ErrSyntax = errors.New("module syntax error")

// Error is a malformed or unsupported import/export statement, or an unterminated
// literal or comment, at a position in the module source.
type Error struct {
	Line   int // 1-based
	Column int // 1-based, in bytes from the start of the line (goja counts columns the same way)
	Msg    string
}

// Error renders "line:column: message".
func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Unwrap returns ErrSyntax.
func (e *Error) Unwrap() error { return ErrSyntax }

// DefaultExportVar is the global that a rewritten `export default <expression>` assigns the
// value to. It replaces the text "export default" in place, so it is short enough to fit in
// those 14 bytes together with "=". Every module of a run assigns the same global: the loader
// reads it right after evaluating each module, and it must define the global (for example
// with vm.Set(DefaultExportVar, goja.Undefined())) before running a Script compiled as strict
// code, where assigning an undeclared name throws.
const DefaultExportVar = "__default__"

// ImportKind is the syntactic form of an import declaration.
type ImportKind int

const (
	// ImportSideEffect is `import 'x'`: the module runs and its top-level declarations become
	// visible to the importer through the shared realm.
	ImportSideEffect ImportKind = iota
	// ImportNamed is `import {a, b as c} from 'x'` (also `import {} from 'x'`).
	ImportNamed
	// ImportNamespace is `import * as ns from 'x'`.
	ImportNamespace
	// ImportDefault is `import d from 'x'` and the combined forms `import d, {a} from 'x'` and
	// `import d, * as ns from 'x'`, which give one Import with several bindings.
	ImportDefault
)

var importKindNames = [...]string{"ImportSideEffect", "ImportNamed", "ImportNamespace", "ImportDefault"}

// String returns the constant's name, so that test diffs are readable.
func (k ImportKind) String() string {
	if k >= 0 && int(k) < len(importKindNames) {
		return importKindNames[k]
	}
	return fmt.Sprintf("ImportKind(%d)", int(k))
}

// Binding is one name brought into a module by an import or passed through by a re-export.
type Binding struct {
	// Imported is the name in the imported module: "default" for a default import, "*" for a
	// namespace, otherwise the name (a string name's value for `{"a b" as c}`).
	Imported string
	// Local is the name bound in this module; for a ReExport, the name it is exported as.
	Local string
}

// Import is one static import declaration.
type Import struct {
	Kind ImportKind
	// Spec is the module specifier's string value, escapes decoded, as written: what module
	// it names is the caller's to decide.
	Spec     string
	Bindings []Binding // in source order; nil for ImportSideEffect
	// Line (1-based) and Column (1-based, in bytes) of the specifier's opening quote.
	Line, Column int
}

// Export is one name this module exports from its own top-level bindings.
type Export struct {
	Local    string // the top-level binding
	Exported string // the name importers use: "default" for a named default export
}

// ReExport is `export * from 'x'`, `export * as ns from 'x'` or `export {a as b} from 'x'`.
type ReExport struct {
	Spec string // as Import.Spec
	// Star is `export * from 'x'`: every name of Spec's module except "default".
	Star bool
	// Bindings are the names passed through: `export * as ns` gives {Imported: "*", Local:
	// "ns"}, `export {a as b}` gives {Imported: "a", Local: "b"}.
	Bindings     []Binding
	Line, Column int // of the specifier's opening quote, as Import
}

// Module is the result of Scan.
type Module struct {
	// Script is the source with its import/export syntax removed: the same length in bytes and
	// the same line terminators at the same offsets. An import, an export list and a
	// re-export become a ";" followed by spaces (the ";" keeps automatic semicolon insertion
	// working as it did: `x = a` followed by a removed import and then `[1].map(f)` must stay
	// two statements). `export` before a declaration becomes spaces. `export default` before
	// an expression, or before an anonymous function or class, becomes an assignment to
	// DefaultExportVar ("__default__=" and spaces); before a named function or class it
	// becomes spaces and the declaration stays one.
	Script    string
	Imports   []Import // in source order
	Exports   []Export // in source order
	ReExports []ReExport
	// DefaultExport reports that Script assigns the default export's value to the global
	// DefaultExportVar (`export default <expression>`, or an anonymous function or class). A
	// default export that is a named binding (`export default function f`, `export {a as
	// default}`) is an Exports entry with Exported "default" instead, and one passed through
	// (`export {a as default} from 'x'`) a ReExports binding with Local "default".
	DefaultExport bool
}

// Limits that keep hostile input from costing more than its length: a destructuring pattern
// is parsed recursively.
const maxPatternDepth = 256

// Scan finds the static imports and exports of src, a module's JavaScript source, and
// rewrites it to run as a classic script (see Module.Script). Only statements at the top
// level are module syntax; an export inside a block is left for goja to report. Dynamic
// import() and import.meta are errors anywhere, since the sandbox does not support them. Every
// error is a *Error wrapping ErrSyntax.
//
// Destructuring exports (`export const {a, b: [c]} = o`) export every name they bind.
// Duplicate exported names and duplicate import bindings are errors, as in a module.
//
// Known limits, all for code that is not valid in a module anyway or never written: depth is
// counted in brackets, so `if (x) export const a = 1` is rewritten instead of reported; in
// braces, `import(...)` directly followed by "{" is taken for a method named import (goja
// then rejects the import() itself); an anonymous default-exported function or class becomes
// an expression, so a next line that would continue it (`(f)()`, `[a] = b`) is an error
// asking for a ";".
func Scan(src string) (*Module, error) {
	s := &scanner{lx: lexer{src: src, regexOK: true}}
	err := s.run()
	// A lexer error ends the token stream early; the parser then reports an unexpected end
	// of input, which would hide the real cause.
	if s.lx.err != nil {
		return nil, s.lx.err
	}
	if err != nil {
		return nil, err
	}
	s.mod.Script = src
	if s.out != nil {
		// out is never written again: share it rather than copy the source a second time.
		s.mod.Script = unsafe.String(unsafe.SliceData(s.out), len(s.out))
	}
	return &s.mod, nil
}
