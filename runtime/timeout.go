package runtime

// Where a timed-out run was. goja maps an instruction to a source position only at the
// expressions it compiles, so a loop with nothing to map (`while (true) {}`, `for (;;) {}`)
// is reported at the last expression before it: the line above the loop. When the reported
// position lies in no loop, the run cannot have been stuck there, so the diagnostic is moved
// to the first loop after it in the same function, which is the only place the run can be.
// A position inside a loop depends on the instruction the interrupt lands on (the body's
// expression, or the jump back that goja maps to the loop's start), so it is moved to the
// start of the narrowest loop of the same function around it: the same place every time.

import (
	"reflect"
	"unicode/utf8"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// pointAtStuckLoop moves a timeout diagnostic onto the loop the run was stuck in: from the
// statement before a loop that maps to no source position, or from inside a loop's body.
func (r *run) pointAtStuckLoop(d *Diagnostic) {
	if d.File == "" || d.Line == 0 {
		return
	}
	src := r.sourceOf(d.File)
	if src == nil {
		return
	}
	_, prog, perr := parse(src, d.File, r.limits.MaxNesting)
	if perr != nil {
		return
	}
	at := file.Idx(byteOffset(src, d.Line, d.Column) + 1) // goja Idx values are 1-based
	var loops, funcs [][2]file.Idx
	walkAST(reflect.ValueOf(prog), func(n ast.Node) {
		switch n.(type) {
		case *ast.ForStatement, *ast.ForInStatement, *ast.ForOfStatement, *ast.WhileStatement, *ast.DoWhileStatement:
			loops = append(loops, [2]file.Idx{n.Idx0(), n.Idx1()})
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			funcs = append(funcs, [2]file.Idx{n.Idx0(), n.Idx1()})
		}
	})
	inside := func(r [2]file.Idx, i file.Idx) bool { return r[0] <= i && i < r[1] }
	// innermost is the narrowest function around i, or the whole file.
	innermost := func(i file.Idx) [2]file.Idx {
		best := [2]file.Idx{0, file.Idx(len(src) + 2)}
		for _, f := range funcs {
			if inside(f, i) && f[1]-f[0] < best[1]-best[0] {
				best = f
			}
		}
		return best
	}
	fn := innermost(at)
	// The narrowest loop of the same function around the position, else the first loop of
	// that function after it.
	var target *[2]file.Idx
	for i, l := range loops {
		if inside(l, at) && innermost(l[0]) == fn && (target == nil || l[1]-l[0] < target[1]-target[0]) {
			target = &loops[i]
		}
	}
	if target == nil {
		for i, l := range loops {
			if l[0] > at && innermost(l[0]) == fn && (target == nil || l[0] < target[0]) {
				target = &loops[i]
			}
		}
	}
	if target == nil {
		return
	}
	pos := prog.File.Position(int(target[0]) - 1)
	d.Line, d.Source = pos.Line, lineOf(src, pos.Line)
	d.Column = charColumn(d.Source, pos.Column)
	if len(d.Stack) > 0 {
		d.Stack[0].Line, d.Stack[0].Column = d.Line, d.Column
	}
}

// byteOffset is the 0-based byte offset of a 1-based line and character column.
func byteOffset(src []byte, line, col int) int {
	off := 0
	for l := 1; l < line && off < len(src); off++ {
		if src[off] == '\n' {
			l++
		}
	}
	for c := 1; c < col && off < len(src) && src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

var nodeType = reflect.TypeFor[ast.Node]()

// walkAST calls visit for every AST node reachable from v, through struct fields, pointers,
// slices and interfaces.
func walkAST(v reflect.Value, visit func(ast.Node)) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			walkAST(v.Elem(), visit)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type().Implements(nodeType) {
			visit(v.Interface().(ast.Node))
		}
		walkAST(v.Elem(), visit)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[file.File]() {
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walkAST(v.Field(i), visit)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkAST(v.Index(i), visit)
		}
	}
}
