package esm

// The scanner: import and export statements parsed from the lexer's tokens, and rewritten in
// place.

import "strings"

const msgDynamicImport = "dynamic import() is not supported; use a static import at the top level"

// scanner parses import and export statements from the lexer's tokens and rewrites them.
type scanner struct {
	lx      lexer
	out     []byte // the rewritten source, copied from src on the first change
	mod     Module
	back    token // a token given back by the parser
	hasBack bool

	exported map[string]bool
	locals   map[string]bool
}

func (s *scanner) next() token {
	if s.hasBack {
		s.hasBack = false
		return s.back
	}
	return s.lx.next()
}

func (s *scanner) backup(t token) { s.back, s.hasBack = t, true }

func (s *scanner) text(t token) string { return s.lx.src[t.start:t.end] }

func (s *scanner) isPunct(t token, p string) bool { return t.kind == tPunct && s.text(t) == p }

func (s *scanner) isWord(t token, w string) bool {
	return t.kind == tIdent && !t.prop && s.text(t) == w
}

func (s *scanner) errorAt(t token, format string, args ...any) error {
	return s.lx.errorAt(t.start, format, args...)
}

func (s *scanner) run() error {
	for {
		t := s.next()
		if t.kind == tEOF {
			break
		}
		if t.kind != tIdent || t.prop {
			continue
		}
		var err error
		switch s.text(t) {
		case "import":
			if len(s.lx.stack) == 0 {
				err = s.parseImport(t)
			} else {
				err = s.checkImportExpr(t)
			}
		case "export":
			if len(s.lx.stack) == 0 {
				err = s.parseExport(t)
			}
		}
		if err != nil {
			return err
		}
	}
	for _, f := range s.lx.stack {
		if f.open == '$' {
			return s.lx.errorAt(f.mark, "unterminated template literal")
		}
	}
	return nil
}

// checkImportExpr rejects import() and import.meta where an import declaration cannot be.
// In braces, `import(...)` may instead be a method named import (`{ import() {} }`); that is
// decided by the token after its ")".
func (s *scanner) checkImportExpr(kw token) error {
	before := s.lx.prev // kw itself, unless it was given back
	if before.start == kw.start {
		before = s.lx.before
	}
	t := s.next()
	switch {
	case s.isPunct(t, "."):
		return s.errorAt(kw, "import.meta is not supported in the sandbox")
	case s.isPunct(t, "("):
		n := len(s.lx.stack)
		if n >= 2 && s.lx.stack[n-2].open == '{' && s.mayPrecedeMethod(before) {
			s.lx.stack[n-1].check, s.lx.stack[n-1].mark = checkImportsMethod, kw.start
			return nil
		}
		return s.errorAt(kw, msgDynamicImport)
	case t.kind == tIdent:
		s.backup(t)
	}
	return nil
}

func (s *scanner) mayPrecedeMethod(t token) bool {
	switch t.kind {
	case tPunct:
		switch s.text(t) {
		case "{", ",", ";", "}", "*":
			return true
		}
	case tIdent:
		switch s.text(t) {
		case "static", "get", "set", "async":
			return !t.prop
		}
	}
	return false
}

// blank replaces src[start:end] with spaces in the output, keeping line terminators.
func (s *scanner) blank(start, end int) {
	if s.out == nil {
		s.out = []byte(s.lx.src)
	}
	for i := start; i < end; i++ {
		switch c := s.out[i]; {
		case c == '\n' || c == '\r':
		case c == 0xE2 && i+2 < end && isLineSep(s.lx.src, i):
			i += 2
		default:
			s.out[i] = ' '
		}
	}
}

// afterStatement reads the token after a complete import or export statement. The statement
// is over, so a "/" there starts a regular expression whatever the last token was.
func (s *scanner) afterStatement() token {
	s.lx.regexOK = true
	return s.next()
}

// removeStatement ends the import or export statement src[start:end] at t, the token after
// it: t may be an optional ";", and is otherwise on a new line, as automatic semicolon
// insertion requires. withSpec is set for statements with a module specifier, which may not
// carry import attributes. The whole statement is blanked, leaving a ";" where it began: that
// keeps automatic semicolon insertion working as it did (`x = a`, a removed import, then
// `[1].map(f)` must stay two statements).
func (s *scanner) removeStatement(start, end int, t token, withSpec bool, what string) error {
	switch {
	case s.isPunct(t, ";"):
		end = t.end
	case withSpec && (s.isWord(t, "with") || s.isWord(t, "assert") && !t.nl):
		return s.errorAt(t, `import attributes ("%s {...}") are not supported`, s.text(t))
	case t.kind != tEOF && !t.nl:
		return s.errorAt(t, `expected ";" or a line break after the %s statement`, what)
	default:
		s.backup(t)
	}
	s.blank(start, end)
	s.out[start] = ';'
	return nil
}

// spec decodes the module specifier t, reporting what was expected after the previous word.
func (s *scanner) spec(t token, after string) (string, error) {
	if t.kind != tString {
		return "", s.errorAt(t, `expected a module name string after "%s"`, after)
	}
	return s.stringValue(t)
}

func (s *scanner) stringValue(t token) (string, error) {
	v, ok := unquote(s.lx.src[t.start+1 : t.end-1])
	if !ok {
		return "", s.errorAt(t, "invalid escape sequence in string")
	}
	return v, nil
}

// identName returns the text of an identifier token used as a name in an import or export.
func (s *scanner) identName(t token) (string, error) {
	w := s.text(t)
	if strings.IndexByte(w, '\\') >= 0 {
		return "", s.errorAt(t, "escaped identifiers are not supported in import and export statements")
	}
	return w, nil
}

// localName checks t as a binding of this module.
func (s *scanner) localName(t token, shorthand bool) (string, error) {
	if t.kind != tIdent || s.lx.src[t.start] == '#' {
		return "", s.errorAt(t, `expected a local name`)
	}
	w, err := s.identName(t)
	if err != nil {
		return "", err
	}
	if reservedWord(w) {
		if shorthand {
			return "", s.errorAt(t, `"%s" is a reserved word and cannot name a local binding; rename it with "as"`, w)
		}
		return "", s.errorAt(t, `"%s" is a reserved word and cannot name a local binding`, w)
	}
	return w, nil
}

// moduleExportName reads an IdentifierName or a string (`{"a b" as c}`), reporting whether it
// was a string.
func (s *scanner) moduleExportName(t token) (name string, isString, ok bool, err error) {
	switch {
	case t.kind == tIdent && s.lx.src[t.start] != '#':
		name, err = s.identName(t)
		return name, false, true, err
	case t.kind == tString:
		name, err = s.stringValue(t)
		return name, true, true, err
	}
	return "", false, false, nil
}

func (s *scanner) addLocal(name string, t token) error {
	if s.locals == nil {
		s.locals = make(map[string]bool)
	}
	if s.locals[name] {
		return s.errorAt(t, "duplicate import binding %q", name)
	}
	s.locals[name] = true
	return nil
}

func (s *scanner) addExportName(name string, t token) error {
	if s.exported == nil {
		s.exported = make(map[string]bool)
	}
	if s.exported[name] {
		return s.errorAt(t, "duplicate export %q", name)
	}
	s.exported[name] = true
	return nil
}

func (s *scanner) addExport(local, exported string, t token) error {
	if err := s.addExportName(exported, t); err != nil {
		return err
	}
	s.mod.Exports = append(s.mod.Exports, Export{Local: local, Exported: exported})
	return nil
}

func (s *scanner) parseImport(kw token) error {
	imp := Import{Kind: ImportSideEffect}
	t := s.next()
	switch {
	case t.kind == tString:
	case s.isPunct(t, "("):
		return s.errorAt(kw, msgDynamicImport)
	case s.isPunct(t, "."):
		return s.errorAt(kw, "import.meta is not supported in the sandbox")
	case s.isPunct(t, "{"):
		imp.Kind = ImportNamed
		if err := s.importList(&imp); err != nil {
			return err
		}
		t = s.next()
	case s.isPunct(t, "*"):
		imp.Kind = ImportNamespace
		if err := s.importNamespace(&imp); err != nil {
			return err
		}
		t = s.next()
	case t.kind == tIdent:
		imp.Kind = ImportDefault
		name, err := s.localName(t, false)
		if err != nil {
			return err
		}
		if err := s.addLocal(name, t); err != nil {
			return err
		}
		imp.Bindings = append(imp.Bindings, Binding{Imported: "default", Local: name})
		t = s.next()
		if s.isPunct(t, ",") {
			t = s.next()
			switch {
			case s.isPunct(t, "{"):
				err = s.importList(&imp)
			case s.isPunct(t, "*"):
				err = s.importNamespace(&imp)
			default:
				err = s.errorAt(t, `expected "{" or "*" after "," in import`)
			}
			if err != nil {
				return err
			}
			t = s.next()
		}
	default:
		return s.errorAt(t, `expected a module name string, a binding name, "{" or "*" after "import"`)
	}
	if imp.Kind != ImportSideEffect {
		if !s.isWord(t, "from") {
			return s.errorAt(t, `expected "from" after import bindings`)
		}
		t = s.next()
	}
	spec, err := s.spec(t, "from")
	if err != nil {
		return err
	}
	imp.Spec = spec
	imp.Line, imp.Column = s.lx.position(t.start)
	s.mod.Imports = append(s.mod.Imports, imp)
	return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "import")
}

// importList parses `{a, b as c, "d e" as f}` after its "{".
func (s *scanner) importList(imp *Import) error {
	for {
		t := s.next()
		if s.isPunct(t, "}") {
			return nil
		}
		imported, isString, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name or "}" in import list`)
		}
		nameTok := t
		shorthand := true
		t = s.next()
		if s.isWord(t, "as") {
			nameTok, shorthand = s.next(), false
			if nameTok.kind != tIdent {
				return s.errorAt(nameTok, `expected a local name after "as"`)
			}
			t = s.next()
		} else if isString {
			return s.errorAt(t, `expected "as" after a string name in import list`)
		}
		local, err := s.localName(nameTok, shorthand)
		if err != nil {
			return err
		}
		if err := s.addLocal(local, nameTok); err != nil {
			return err
		}
		imp.Bindings = append(imp.Bindings, Binding{Imported: imported, Local: local})
		if s.isPunct(t, "}") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in import list`)
		}
	}
}

// importNamespace parses `as ns` after "*".
func (s *scanner) importNamespace(imp *Import) error {
	t := s.next()
	if !s.isWord(t, "as") {
		return s.errorAt(t, `expected "as" after "*"`)
	}
	t = s.next()
	if t.kind != tIdent {
		return s.errorAt(t, `expected a local name after "as"`)
	}
	local, err := s.localName(t, false)
	if err != nil {
		return err
	}
	if err := s.addLocal(local, t); err != nil {
		return err
	}
	imp.Bindings = append(imp.Bindings, Binding{Imported: "*", Local: local})
	return nil
}

func (s *scanner) parseExport(kw token) error {
	t := s.next()
	switch {
	case s.isPunct(t, "{"):
		return s.exportList(kw)
	case s.isPunct(t, "*"):
		return s.exportStar(kw)
	case s.isWord(t, "default"):
		return s.exportDefault(kw, t)
	case s.isWord(t, "var"), s.isWord(t, "let"), s.isWord(t, "const"):
		s.blank(kw.start, kw.end)
		return s.declarators(s.text(t))
	case s.isWord(t, "function"), s.isWord(t, "async"), s.isWord(t, "class"):
		s.blank(kw.start, kw.end)
		name, err := s.declarationName(t)
		if err != nil {
			return err
		}
		local, err := s.localName(name, false)
		if err != nil {
			return err
		}
		return s.addExport(local, local, name)
	}
	return s.errorAt(t, `expected a declaration, "{", "*" or "default" after "export"`)
}

// declarationName reads the name token of `function f`, `function* f`, `async function f` or
// `class C`, t being the first word.
func (s *scanner) declarationName(t token) (token, error) {
	what := s.text(t)
	if what == "async" {
		t = s.next()
		if !s.isWord(t, "function") || t.nl {
			return t, s.errorAt(t, `expected "function" after "async"`)
		}
	}
	n := s.next()
	if what != "class" && s.isPunct(n, "*") {
		n = s.next()
	}
	if n.kind != tIdent || what == "class" && s.isWord(n, "extends") {
		if what == "class" {
			return n, s.errorAt(n, `expected a class name after "class"`)
		}
		return n, s.errorAt(n, `expected a function name after "function"`)
	}
	return n, nil
}

// exportList parses `export {a, b as c}` and `export {a as b} from 'x'` after the "{".
func (s *scanner) exportList(kw token) error {
	type spec struct {
		local, exported       string
		localTok, exportedTok token
		localIsString         bool
	}
	var specs []spec
	var t token
	for {
		t = s.next()
		if s.isPunct(t, "}") {
			break
		}
		local, isString, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name or "}" in export list`)
		}
		sp := spec{local: local, exported: local, localTok: t, exportedTok: t, localIsString: isString}
		t = s.next()
		if s.isWord(t, "as") {
			e := s.next()
			exported, _, ok, err := s.moduleExportName(e)
			if err != nil {
				return err
			}
			if !ok {
				return s.errorAt(e, `expected a name after "as"`)
			}
			sp.exported, sp.exportedTok = exported, e
			t = s.next()
		}
		specs = append(specs, sp)
		if s.isPunct(t, "}") {
			break
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in export list`)
		}
	}
	closeEnd := t.end
	t = s.afterStatement()
	if s.isWord(t, "from") {
		t = s.next()
		path, err := s.spec(t, "from")
		if err != nil {
			return err
		}
		re := ReExport{Spec: path}
		re.Line, re.Column = s.lx.position(t.start)
		for _, sp := range specs {
			if err := s.addExportName(sp.exported, sp.exportedTok); err != nil {
				return err
			}
			re.Bindings = append(re.Bindings, Binding{Imported: sp.local, Local: sp.exported})
		}
		s.mod.ReExports = append(s.mod.ReExports, re)
		return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "export")
	}
	for _, sp := range specs {
		if sp.localIsString {
			return s.errorAt(sp.localTok, `expected "from" after an export list that names a string`)
		}
		if reservedWord(sp.local) {
			return s.errorAt(sp.localTok, `"%s" is a reserved word and cannot name a local binding`, sp.local)
		}
		if err := s.addExport(sp.local, sp.exported, sp.exportedTok); err != nil {
			return err
		}
	}
	return s.removeStatement(kw.start, closeEnd, t, false, "export")
}

// exportStar parses `export * from 'x'` and `export * as ns from 'x'` after the "*".
func (s *scanner) exportStar(kw token) error {
	re := ReExport{Star: true}
	t := s.next()
	if s.isWord(t, "as") {
		t = s.next()
		name, _, ok, err := s.moduleExportName(t)
		if err != nil {
			return err
		}
		if !ok {
			return s.errorAt(t, `expected a name after "as"`)
		}
		if err := s.addExportName(name, t); err != nil {
			return err
		}
		re.Star = false
		re.Bindings = []Binding{{Imported: "*", Local: name}}
		t = s.next()
		if !s.isWord(t, "from") {
			return s.errorAt(t, `expected "from" after "export * as %s"`, name)
		}
	} else if !s.isWord(t, "from") {
		return s.errorAt(t, `expected "as" or "from" after "export *"`)
	}
	t = s.next()
	path, err := s.spec(t, "from")
	if err != nil {
		return err
	}
	re.Spec = path
	re.Line, re.Column = s.lx.position(t.start)
	s.mod.ReExports = append(s.mod.ReExports, re)
	return s.removeStatement(kw.start, t.end, s.afterStatement(), true, "export")
}

// exportDefault handles `export default` (kw and def are the two words).
func (s *scanner) exportDefault(kw, def token) error {
	t := s.next()
	isFunc := s.isWord(t, "function")
	if s.isWord(t, "async") {
		n := s.next()
		isFunc = s.isWord(n, "function") && !n.nl
		if !isFunc {
			// `export default async (x) => ...` or `async` as a value: an expression. Dropping
			// the word is harmless, only import and export words matter to the caller.
			t = n
		}
	}
	switch {
	case isFunc || s.isWord(t, "class"):
		n := s.next()
		if isFunc && s.isPunct(n, "*") {
			n = s.next()
		}
		if n.kind == tIdent && !s.isWord(n, "extends") {
			// A named declaration stays one: the name is the default export's binding.
			local, err := s.localName(n, false)
			if err != nil {
				return err
			}
			if err := s.addExport(local, "default", def); err != nil {
				return err
			}
			s.blank(kw.start, def.end)
			return nil
		}
		// Anonymous: an expression assigned to DefaultExportVar. Its body's "}" must not be
		// continued by the next line (see lexer.check).
		if s.isPunct(n, "{") {
			if len(s.lx.stack) == 1 {
				s.lx.stack[0].check, s.lx.stack[0].mark = checkDefaultBody, n.start
			}
		} else {
			s.lx.markBrace = true
		}
	case t.kind == tEOF || t.kind == tPunct && strings.Contains(";)]},", s.text(t)):
		return s.errorAt(t, `expected an expression after "export default"`)
	default:
		s.backup(t)
	}
	if err := s.addExportName("default", def); err != nil {
		return err
	}
	s.mod.DefaultExport = true
	return s.assignDefault(kw.start, def.end)
}

// assignDefault rewrites src[start:end], the text "export default", as an assignment to
// DefaultExportVar. The name must sit on one line: it goes in the first run of bytes between
// line terminators that is long enough, and "=" right after it (or, if the name filled a run,
// on the last byte of "default").
func (s *scanner) assignDefault(start, end int) error {
	src := s.lx.src
	const name = DefaultExportVar
	for i := start; i < end; {
		j := lineEnd(src[:end], i)
		room := j - i
		if j == end {
			room-- // the last run needs a byte for "=" too
		}
		if room >= len(name) {
			s.blank(start, end)
			copy(s.out[i:], name)
			eq := i + len(name)
			if eq >= j {
				eq = end - 1
			}
			s.out[eq] = '='
			return nil
		}
		if j == end {
			break
		}
		i = j + 1
		if isLineSep(src, j) {
			i = j + 3
		}
	}
	return s.lx.errorAt(start, `"export" and "default" must be on the same line`)
}

// declarators parses the bindings after `export var|let|const`, exporting each name.
func (s *scanner) declarators(kw string) error {
	for {
		t := s.next()
		if err := s.binding(t, kw, 0); err != nil {
			return err
		}
		t = s.next()
		if s.isPunct(t, "=") {
			var err error
			if t, err = s.skipExpr(); err != nil {
				return err
			}
		}
		if s.isPunct(t, ",") {
			continue
		}
		if !s.isPunct(t, ";") {
			s.backup(t)
		}
		return nil
	}
}

// binding parses a binding identifier or destructuring pattern starting with t.
func (s *scanner) binding(t token, kw string, depth int) error {
	if depth > maxPatternDepth {
		return s.errorAt(t, "destructuring pattern nested too deeply")
	}
	switch {
	case t.kind == tIdent:
		name, err := s.localName(t, false)
		if err != nil {
			return err
		}
		return s.addExport(name, name, t)
	case s.isPunct(t, "{"):
		return s.objectPattern(kw, depth)
	case s.isPunct(t, "["):
		return s.arrayPattern(kw, depth)
	}
	return s.errorAt(t, `expected a binding name or pattern in "%s" declaration`, kw)
}

func (s *scanner) objectPattern(kw string, depth int) error {
	for {
		t := s.next()
		switch {
		case s.isPunct(t, "}"):
			return nil
		case s.isPunct(t, "..."):
			if err := s.binding(s.next(), kw, depth+1); err != nil {
				return err
			}
			t = s.next()
		default:
			key := t
			switch {
			case t.kind == tIdent, t.kind == tString, t.kind == tNumber:
			case s.isPunct(t, "["):
				if err := s.skipToClose(); err != nil {
					return err
				}
			default:
				return s.errorAt(t, "expected a property name in destructuring pattern")
			}
			t = s.next()
			if s.isPunct(t, ":") {
				if err := s.binding(s.next(), kw, depth+1); err != nil {
					return err
				}
				t = s.next()
			} else if key.kind == tIdent {
				if err := s.binding(key, kw, depth+1); err != nil {
					return err
				}
			} else {
				return s.errorAt(t, `expected ":" after a property name in destructuring pattern`)
			}
			if s.isPunct(t, "=") {
				var err error
				if t, err = s.skipExpr(); err != nil {
					return err
				}
			}
		}
		if s.isPunct(t, "}") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "}" in destructuring pattern`)
		}
	}
}

func (s *scanner) arrayPattern(kw string, depth int) error {
	for {
		t := s.next()
		switch {
		case s.isPunct(t, "]"):
			return nil
		case s.isPunct(t, ","):
			continue // a hole
		case s.isPunct(t, "..."):
			if err := s.binding(s.next(), kw, depth+1); err != nil {
				return err
			}
			t = s.next()
		default:
			if err := s.binding(t, kw, depth+1); err != nil {
				return err
			}
			t = s.next()
			if s.isPunct(t, "=") {
				var err error
				if t, err = s.skipExpr(); err != nil {
					return err
				}
			}
		}
		if s.isPunct(t, "]") {
			return nil
		}
		if !s.isPunct(t, ",") {
			return s.errorAt(t, `expected "," or "]" in destructuring pattern`)
		}
	}
}

// skipExpr skips an initializer or default value and returns the token that ends it: a ","
// or ";" at its own bracket depth, the bracket that closes an enclosing one, a token that
// automatic semicolon insertion puts in a new statement, or the end of input.
func (s *scanner) skipExpr() (token, error) {
	base := len(s.lx.stack)
	prev := s.lx.prev
	for {
		depth := len(s.lx.stack) // before the token: an opener must be judged at this depth
		t := s.next()
		if t.kind == tEOF || len(s.lx.stack) < base {
			return t, nil
		}
		if depth == base {
			if s.isPunct(t, ",") || s.isPunct(t, ";") {
				return t, nil
			}
			if t.nl && s.lx.endsOperand(prev) && !s.lx.continuesExpr(t) {
				return t, nil
			}
		}
		if s.isWord(t, "import") || s.isWord(t, "export") {
			if len(s.lx.stack) == 0 {
				// Not part of an expression at the top level: the caller gives it back to
				// the main loop, which reports it as the statement it starts.
				return t, nil
			}
			if s.isWord(t, "import") {
				if err := s.checkImportExpr(t); err != nil {
					return t, err
				}
			}
		}
		prev = t
	}
}

// skipToClose skips a computed property name after its "[".
func (s *scanner) skipToClose() error {
	base := len(s.lx.stack)
	for {
		t, err := s.skipExpr()
		if err != nil {
			return err
		}
		if t.kind == tEOF || len(s.lx.stack) < base {
			return nil
		}
	}
}

// reservedWord reports a word that cannot name a binding in strict code (modules are strict).
func reservedWord(w string) bool {
	switch w {
	case "break", "case", "catch", "class", "const", "continue", "debugger", "default",
		"delete", "do", "else", "enum", "export", "extends", "false", "finally", "for",
		"function", "if", "import", "in", "instanceof", "new", "null", "return", "super",
		"switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
		"yield", "let", "static", "implements", "interface", "package", "private",
		"protected", "public", "await", "eval", "arguments":
		return true
	}
	return false
}
