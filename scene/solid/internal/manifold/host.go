package manifold

// The host: what manifold's Emscripten build imports, done in Go. The build is made for its
// JavaScript glue (manifold.js), so it imports no WASI but embind's registrations (every
// class, method, function and value type announces itself when the module's constructors run),
// emval (JavaScript values the C++ side reads and makes: a mesh goes in and comes out as an
// object of typed arrays), and the C++ runtime's few calls into JS (throw, abort, growing the
// heap). The host records the registrations by name, and calls a registered function through
// the module's function table with the wire types embind gives it: integers and pointers as
// i32, doubles as f64, a class as a pointer to a heap object, a value object (vec3, box) as a
// pointer to one made and read through its registered constructor, fields and destructor.

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental/table"
)

// kind is what a registered type is on the wire.
type kind int

const (
	kindVoid kind = iota
	kindBool
	kindInt    // integers and enums, size bytes, signed or not
	kindFloat  // size 4 or 8
	kindBigInt // i64
	kindString // std::string, std::wstring (not used by the calls we make)
	kindEmval  // emscripten::val and std::optional (a handle)
	kindView   // typed_memory_view: {size, data} by value
	kindClass  // a pointer to a C++ object
	kindValue  // a value object: a pointer to one made for the call
)

type wireType struct {
	name   string
	kind   kind
	size   uint32
	signed bool
	view   uint32 // kindView: the typed array (0 Int8 ... 7 Float64)
	class  *class
	value  *valueObject
}

// fnRef is a function in the module's table with its embind signature ("dii": returns a
// double, takes two i32).
type fnRef struct {
	sig string
	idx uint32
}

// callable is a registered function, method or constructor: types[0] is what it returns,
// then (for a method) the object, then the arguments. first is passed before the arguments:
// the function's address, a method's context or a constructor's raw constructor.
type callable struct {
	name    string
	types   []uint32
	invoker fnRef
	first   uint32
}

type class struct {
	name    string
	dtor    fnRef
	ctors   map[int]*callable            // by argument count
	methods map[string]map[int]*callable // by name, then argument count
}

type valueObject struct {
	name   string
	ctor   fnRef
	dtor   fnRef
	fields []valueField
}

type valueField struct {
	name    string
	getType uint32
	getter  fnRef
	getCtx  uint32
	setType uint32
	setter  fnRef
	setCtx  uint32
}

// registry is what the module's constructors registered.
type registry struct {
	types   map[uint32]*wireType
	funcs   map[string]map[int]*callable
	classes map[string]*class
	values  map[uint32]*valueObject // by raw type, until finalized
	byName  map[string]uint32       // a finalized value type's raw type, by name
	enums   map[string]map[string]int64
	enumOf  map[uint32]string
}

func newRegistry() *registry {
	return &registry{
		types:   map[uint32]*wireType{},
		funcs:   map[string]map[int]*callable{},
		classes: map[string]*class{},
		values:  map[uint32]*valueObject{},
		byName:  map[string]uint32{},
		enums:   map[string]map[string]int64{},
		enumOf:  map[uint32]string{},
	}
}

// instKey carries the instance a call runs in to the host functions, which the runtime
// shares between instances.
type instKey struct{}

func instanceOf(ctx context.Context) *instance {
	return ctx.Value(instKey{}).(*instance)
}

// fault ends a call from inside a host function: wazero recovers the panic and the call
// returns it wrapped.
func (in *instance) fault(err error) {
	if in.err == nil {
		in.err = err
	}
	panic(in.err)
}

// The import names are the minified ones of manifold-3d's glue (its wasmImports table); they
// belong to this wasm, whose hash WasmSHA256 pins.
func hostFunctions() map[string]hostFunc {
	i := api.ValueTypeI32
	return map[string]hostFunc{
		"l": {hostCxaThrow, []api.ValueType{i, i, i}, nil},
		"C": {hostAbort, nil, nil},
		"D": {hostResizeHeap, []api.ValueType{i}, []api.ValueType{i}},
		"H": {regVoid, []api.ValueType{i, i}, nil},
		"G": {regBool, []api.ValueType{i, i, i, i}, nil},
		"p": {regInteger, []api.ValueType{i, i, i, i, i}, nil},
		"z": {regBigInt, []api.ValueType{i, i, i, api.ValueTypeI64, api.ValueTypeI64}, nil},
		"y": {regFloat, []api.ValueType{i, i, i}, nil},
		"F": {regString, []api.ValueType{i, i}, nil},
		"w": {regWString, []api.ValueType{i, i, i}, nil},
		"E": {regEmval, []api.ValueType{i}, nil},
		"n": {regOptional, []api.ValueType{i, i}, nil},
		"h": {regMemoryView, []api.ValueType{i, i, i}, nil},
		"x": {regEnum, []api.ValueType{i, i, i, i, i}, nil},
		"d": {regEnumValue, []api.ValueType{i, i, i}, nil},
		"j": {regClass, []api.ValueType{i, i, i, i, i, i, i, i, i, i, i, i, i}, nil},
		"i": {regClassConstructor, []api.ValueType{i, i, i, i, i, i}, nil},
		"a": {regClassFunction, []api.ValueType{i, i, i, i, i, i, i, i, i, i}, nil},
		"c": {regFunction, []api.ValueType{i, i, i, i, i, i, i, i}, nil},
		"m": {regIterable, []api.ValueType{i, i, i, i}, nil},
		"r": {regValueObject, []api.ValueType{i, i, i, i, i, i}, nil},
		"k": {regValueObjectField, []api.ValueType{i, i, i, i, i, i, i, i, i, i}, nil},
		"q": {regFinalizeValueObject, []api.ValueType{i}, nil},
		"b": {emvalDecref, []api.ValueType{i}, nil},
		"t": {emvalIncref, []api.ValueType{i}, nil},
		"s": {emvalNewCString, []api.ValueType{i}, []api.ValueType{i}},
		"A": {emvalNewObject, nil, []api.ValueType{i}},
		"B": {emvalGetProperty, []api.ValueType{i, i}, []api.ValueType{i}},
		"v": {emvalSetProperty, []api.ValueType{i, i, i}, nil},
		"o": {emvalEquals, []api.ValueType{i, i}, []api.ValueType{i}},
		"u": {emvalArrayToMemoryView, []api.ValueType{i, i}, nil},
		"g": {emvalCreateInvoker, []api.ValueType{i, i, i}, []api.ValueType{i}},
		"f": {emvalInvoke, []api.ValueType{i, i, i, i, i}, []api.ValueType{api.ValueTypeF64}},
		"e": {emvalRunDestructors, []api.ValueType{i}, nil},
	}
}

type hostFunc struct {
	fn      func(ctx context.Context, in *instance, s []uint64)
	params  []api.ValueType
	results []api.ValueType
}

// instantiateHost adds the host module "a" to the runtime.
func instantiateHost(ctx context.Context, rt wazero.Runtime) error {
	b := rt.NewHostModuleBuilder("a")
	for name, h := range hostFunctions() {
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, _ api.Module, s []uint64) {
			h.fn(ctx, instanceOf(ctx), s)
		}), h.params, h.results).Export(name)
	}
	_, err := b.Instantiate(ctx)
	return err
}

// Memory access. The wasm reads and writes its memory little-endian, as Go's binary does.

func (in *instance) bytes(ptr, n uint32) []byte {
	b, ok := in.mem.Read(ptr, n)
	if !ok {
		in.fault(fmt.Errorf("%w: the kernel addressed memory out of range (%d bytes at %#x)", ErrKernel, n, ptr))
	}
	return b
}

func (in *instance) u32(ptr uint32) uint32 { return binary.LittleEndian.Uint32(in.bytes(ptr, 4)) }

func (in *instance) cstring(ptr uint32) string {
	var sb strings.Builder
	for ; ; ptr++ {
		c, ok := in.mem.ReadByte(ptr)
		if !ok || c == 0 {
			return sb.String()
		}
		sb.WriteByte(c)
	}
}

func (in *instance) typeList(n, ptr uint32) []uint32 {
	ts := make([]uint32, n)
	for k := range ts {
		ts[k] = in.u32(ptr + 4*uint32(k))
	}
	return ts
}

// The C++ runtime's calls.

func hostCxaThrow(ctx context.Context, in *instance, s []uint64) {
	name := "an exception"
	if f := in.mod.ExportedFunction("K"); f != nil { // ___getTypeName: a malloc'd name
		if r, err := f.Call(ctx, s[1]); err == nil && r[0] != 0 {
			name = in.cstring(uint32(r[0]))
			_, _ = in.freeFn.Call(ctx, r[0])
		}
	}
	in.fault(fmt.Errorf("%w: it threw %s", ErrKernel, name))
}

func hostAbort(_ context.Context, in *instance, _ []uint64) {
	in.fault(fmt.Errorf("%w: it aborted", ErrKernel))
}

// hostResizeHeap grows the memory as Emscripten's glue does (a fifth more than asked, to
// grow seldom), but never past the instance's cap: past it the allocation fails, the kernel
// throws, and the call answers ErrMemoryLimit.
func hostResizeHeap(_ context.Context, in *instance, s []uint64) {
	if testHookResize != nil {
		testHookResize()
	}
	want := uint64(uint32(s[0]))
	if want > in.maxBytes {
		in.oom = true
		s[0] = 0
		return
	}
	old := uint64(in.mem.Size())
	size := min(max(want, old+old/5), want+96<<20, in.maxBytes)
	for _, target := range []uint64{size, want} {
		if target <= old {
			s[0] = 1
			return
		}
		if _, ok := in.mem.Grow(uint32((target - old + 65535) / 65536)); ok {
			s[0] = 1
			return
		}
	}
	in.oom = true
	s[0] = 0
}

// testHookResize, when set by a test, runs as the heap grows: a point inside a long call.
var testHookResize func()

// Registrations: each records a type, function, class or method by its raw type id.

func regVoid(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindVoid}
}

func regBool(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindBool, size: 1}
}

func regInteger(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindInt, size: uint32(s[2]), signed: int32(s[3]) != 0}
}

func regBigInt(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindBigInt, size: uint32(s[2]), signed: s[3] != 0}
}

func regFloat(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindFloat, size: uint32(s[2])}
}

func regString(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[1])), kind: kindString}
}

func regWString(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[2])), kind: kindString}
}

func regEmval(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: "emscripten::val", kind: kindEmval}
}

func regOptional(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: "std::optional", kind: kindEmval}
}

func regMemoryView(_ context.Context, in *instance, s []uint64) {
	in.reg.types[uint32(s[0])] = &wireType{name: in.cstring(uint32(s[2])), kind: kindView, view: uint32(s[1])}
}

func regEnum(_ context.Context, in *instance, s []uint64) {
	name := in.cstring(uint32(s[1]))
	in.reg.types[uint32(s[0])] = &wireType{name: name, kind: kindInt, size: uint32(s[2]), signed: s[3] != 0}
	in.reg.enums[name] = map[string]int64{}
	in.reg.enumOf[uint32(s[0])] = name
}

func regEnumValue(_ context.Context, in *instance, s []uint64) {
	enum := in.reg.enumOf[uint32(s[0])]
	t := in.reg.types[uint32(s[0])]
	v := int64(uint32(s[2]))
	if t != nil && t.signed {
		v = int64(int32(s[2]))
	}
	if m := in.reg.enums[enum]; m != nil {
		m[in.cstring(uint32(s[1]))] = v
	}
}

func regClass(_ context.Context, in *instance, s []uint64) {
	c := &class{
		name:    in.cstring(uint32(s[10])),
		dtor:    fnRef{in.cstring(uint32(s[11])), uint32(s[12])},
		ctors:   map[int]*callable{},
		methods: map[string]map[int]*callable{},
	}
	in.reg.classes[c.name] = c
	for _, raw := range s[0:3] { // the class, its pointer and its const pointer
		in.reg.types[uint32(raw)] = &wireType{name: c.name, kind: kindClass, class: c}
	}
}

func (in *instance) classOf(raw uint32) *class {
	if t := in.reg.types[raw]; t != nil && t.class != nil {
		return t.class
	}
	in.fault(fmt.Errorf("%w: a registration names class type %d before the class", ErrKernel, raw))
	return nil
}

func regClassConstructor(_ context.Context, in *instance, s []uint64) {
	c := in.classOf(uint32(s[0]))
	n := uint32(s[1])
	c.ctors[int(n)] = &callable{
		name:    c.name,
		types:   in.typeList(n, uint32(s[2])),
		invoker: fnRef{in.cstring(uint32(s[3])), uint32(s[4])},
		first:   uint32(s[5]),
	}
}

func regClassFunction(_ context.Context, in *instance, s []uint64) {
	c := in.classOf(uint32(s[0]))
	name := embindName(in.cstring(uint32(s[1])))
	n := uint32(s[2])
	if c.methods[name] == nil {
		c.methods[name] = map[int]*callable{}
	}
	c.methods[name][int(n)] = &callable{
		name:    c.name + "." + name,
		types:   in.typeList(n, uint32(s[3])),
		invoker: fnRef{in.cstring(uint32(s[4])), uint32(s[5])},
		first:   uint32(s[6]),
	}
}

func regFunction(_ context.Context, in *instance, s []uint64) {
	name := embindName(in.cstring(uint32(s[0])))
	n := uint32(s[1])
	if in.reg.funcs[name] == nil {
		in.reg.funcs[name] = map[int]*callable{}
	}
	in.reg.funcs[name][int(n)] = &callable{
		name:    name,
		types:   in.typeList(n, uint32(s[2])),
		invoker: fnRef{in.cstring(uint32(s[3])), uint32(s[4])},
		first:   uint32(s[5]),
	}
}

// embindName drops an argument list some registrations carry after the name.
func embindName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '('); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

func regIterable(context.Context, *instance, []uint64) {} // JS iteration only

func regValueObject(_ context.Context, in *instance, s []uint64) {
	in.reg.values[uint32(s[0])] = &valueObject{
		name: in.cstring(uint32(s[1])),
		ctor: fnRef{in.cstring(uint32(s[2])), uint32(s[3])},
		dtor: fnRef{in.cstring(uint32(s[4])), uint32(s[5])},
	}
}

func regValueObjectField(_ context.Context, in *instance, s []uint64) {
	v := in.reg.values[uint32(s[0])]
	if v == nil {
		in.fault(fmt.Errorf("%w: a field of value type %d before the type", ErrKernel, uint32(s[0])))
	}
	v.fields = append(v.fields, valueField{
		name:    in.cstring(uint32(s[1])),
		getType: uint32(s[2]),
		getter:  fnRef{in.cstring(uint32(s[3])), uint32(s[4])},
		getCtx:  uint32(s[5]),
		setType: uint32(s[6]),
		setter:  fnRef{in.cstring(uint32(s[7])), uint32(s[8])},
		setCtx:  uint32(s[9]),
	})
}

func regFinalizeValueObject(_ context.Context, in *instance, s []uint64) {
	raw := uint32(s[0])
	v := in.reg.values[raw]
	if v == nil {
		return
	}
	in.reg.types[raw] = &wireType{name: v.name, kind: kindValue, value: v}
	in.reg.byName[v.name] = raw
}

// Calls into the module.

// valueTypes turns an embind signature into wasm types: its first letter is the result.
func valueTypes(sig string) (params, results []api.ValueType, err error) {
	for k, c := range sig {
		var t api.ValueType
		switch c {
		case 'v':
			if k != 0 {
				return nil, nil, fmt.Errorf("void argument in signature %q", sig)
			}
			continue
		case 'i', 'p':
			t = api.ValueTypeI32
		case 'j':
			t = api.ValueTypeI64
		case 'f':
			t = api.ValueTypeF32
		case 'd':
			t = api.ValueTypeF64
		default:
			return nil, nil, fmt.Errorf("signature %q: unknown letter %q", sig, c)
		}
		if k == 0 {
			results = append(results, t)
		} else {
			params = append(params, t)
		}
	}
	return params, results, nil
}

// function finds a table entry, checked against its signature, once per instance.
func (in *instance) function(r fnRef) (f api.Function, err error) {
	if f, ok := in.table[r]; ok {
		return f, nil
	}
	params, results, err := valueTypes(r.sig)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrKernel, err)
	}
	defer func() {
		if p := recover(); p != nil { // the lookup panics as call_indirect would trap
			f, err = nil, fmt.Errorf("%w: table entry %d is not a %q function: %v", ErrKernel, r.idx, r.sig, p)
		}
	}()
	f = table.LookupFunction(in.mod, 0, r.idx, params, results)
	in.table[r] = f
	return f, nil
}

// call runs a table function. Any failure (a throw, an abort, a trap, the context done,
// the memory cap) leaves the instance unusable: the wasm has no way to unwind its own
// stack, so the Kernel starts a fresh instance for the next call.
func (in *instance) call(ctx context.Context, r fnRef, args ...uint64) (uint64, error) {
	if in.broken != nil {
		return 0, in.broken
	}
	f, err := in.function(r)
	if err != nil {
		return 0, in.fail(ctx, err)
	}
	res, err := f.Call(context.WithValue(ctx, instKey{}, in), args...)
	if err != nil {
		return 0, in.fail(ctx, err)
	}
	if len(res) == 0 {
		return 0, nil
	}
	return res[0], nil
}

// fail names why a call failed and marks the instance broken.
func (in *instance) fail(ctx context.Context, err error) error {
	switch {
	case in.oom:
		err = fmt.Errorf("%w: the solids kernel needs more than %d MiB of memory (MaxKernelMemory); use fewer segments or fewer, smaller solids", ErrMemoryLimit, in.maxBytes>>20)
	case ctx.Err() != nil:
		err = fmt.Errorf("solids kernel stopped: %w", context.Cause(ctx))
	case in.err != nil:
		err = in.err
	case !errors.Is(err, ErrKernel):
		err = fmt.Errorf("%w: %v", ErrKernel, err)
	}
	in.broken = err
	return err
}

// lookup finds a registered function by name and argument count (the return value and,
// for a method, the object count as arguments, as embind counts them).
func (in *instance) lookup(className, name string, argCount int) (*callable, error) {
	var byCount map[int]*callable
	if className == "" {
		byCount = in.reg.funcs[name]
	} else if c := in.reg.classes[className]; c != nil {
		if name == "" {
			byCount = c.ctors
		} else {
			byCount = c.methods[name]
		}
	}
	fn := byCount[argCount]
	if fn == nil {
		return nil, fmt.Errorf("%w: this wasm registers no %s %s with %d arguments", ErrKernel, className, name, argCount)
	}
	return fn, nil
}

// callFunc calls a free function, callMethod a method on the object at this, construct a
// constructor. Arguments and the result are wire values.
func (in *instance) callFunc(ctx context.Context, name string, args ...uint64) (uint64, *callable, error) {
	fn, err := in.lookup("", name, len(args)+1)
	if err != nil {
		return 0, nil, err
	}
	r, err := in.call(ctx, fn.invoker, append([]uint64{uint64(fn.first)}, args...)...)
	return r, fn, err
}

func (in *instance) callMethod(ctx context.Context, className, name string, this uint32, args ...uint64) (uint64, *callable, error) {
	fn, err := in.lookup(className, name, len(args)+2)
	if err != nil {
		return 0, nil, err
	}
	r, err := in.call(ctx, fn.invoker, append([]uint64{uint64(fn.first), uint64(this)}, args...)...)
	return r, fn, err
}

func (in *instance) construct(ctx context.Context, className string, args ...uint64) (uint32, error) {
	fn, err := in.lookup(className, "", len(args)+1)
	if err != nil {
		return 0, err
	}
	r, err := in.call(ctx, fn.invoker, append([]uint64{uint64(fn.first)}, args...)...)
	return uint32(r), err
}

// destroy deletes a C++ object made by a call (a class returned by value is a heap copy the
// caller owns).
func (in *instance) destroy(ctx context.Context, className string, ptr uint32) error {
	c := in.reg.classes[className]
	if c == nil || ptr == 0 {
		return nil
	}
	_, err := in.call(ctx, c.dtor, uint64(ptr))
	return err
}

// Value objects (vec2, vec3, box): made field by field for an argument, read field by field
// from a result, then deleted.

func (in *instance) valueNamed(name string) (*valueObject, uint32, error) {
	if raw, ok := in.reg.byName[name]; ok {
		return in.reg.types[raw].value, raw, nil
	}
	return nil, 0, fmt.Errorf("%w: this wasm registers no value type %q", ErrKernel, name)
}

// newValue makes a value object from numbers, one per field in registration order.
func (in *instance) newValue(ctx context.Context, name string, nums ...float64) (uint32, func(), error) {
	v, _, err := in.valueNamed(name)
	if err != nil {
		return 0, nil, err
	}
	if len(nums) != len(v.fields) {
		return 0, nil, fmt.Errorf("%w: value type %s has %d fields, not %d", ErrKernel, name, len(v.fields), len(nums))
	}
	p, err := in.call(ctx, v.ctor)
	if err != nil {
		return 0, nil, err
	}
	ptr := uint32(p)
	free := func() { _, _ = in.call(ctx, v.dtor, uint64(ptr)) }
	for k, f := range v.fields {
		w, err := in.toWire(f.setType, nums[k])
		if err == nil {
			_, err = in.call(ctx, f.setter, uint64(f.setCtx), uint64(ptr), w)
		}
		if err != nil {
			free()
			return 0, nil, err
		}
	}
	return ptr, free, nil
}

// readValue reads a value object's numbers (nested ones flattened in field order) and
// deletes it.
func (in *instance) readValue(ctx context.Context, raw, ptr uint32) ([]float64, error) {
	t := in.reg.types[raw]
	if t == nil || t.kind != kindValue {
		return nil, fmt.Errorf("%w: type %d is not a value type", ErrKernel, raw)
	}
	var out []float64
	for _, f := range t.value.fields {
		w, err := in.call(ctx, f.getter, uint64(f.getCtx), uint64(ptr))
		if err != nil {
			return nil, err
		}
		ft := in.reg.types[f.getType]
		if ft != nil && ft.kind == kindValue {
			inner, err := in.readValue(ctx, f.getType, uint32(w))
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
			continue
		}
		x, err := in.fromWire(f.getType, w)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	_, err := in.call(ctx, t.value.dtor, uint64(ptr))
	return out, err
}

// toWire and fromWire convert a number for a scalar type.
func (in *instance) toWire(raw uint32, x float64) (uint64, error) {
	t := in.reg.types[raw]
	if t == nil {
		return 0, fmt.Errorf("%w: unknown type %d", ErrKernel, raw)
	}
	switch t.kind {
	case kindFloat:
		if t.size == 4 {
			return api.EncodeF32(float32(x)), nil
		}
		return api.EncodeF64(x), nil
	case kindInt, kindBool:
		return uint64(uint32(int32(int64(x)))), nil
	case kindBigInt:
		return uint64(int64(x)), nil
	}
	return 0, fmt.Errorf("%w: type %s is not a number", ErrKernel, t.name)
}

func (in *instance) fromWire(raw uint32, w uint64) (float64, error) {
	t := in.reg.types[raw]
	if t == nil {
		return 0, fmt.Errorf("%w: unknown type %d", ErrKernel, raw)
	}
	switch t.kind {
	case kindFloat:
		if t.size == 4 {
			return float64(api.DecodeF32(w)), nil
		}
		return api.DecodeF64(w), nil
	case kindBool:
		return float64(uint8(w) &^ 0xfe), nil
	case kindInt:
		return intOfSize(uint32(w), t.size, t.signed), nil
	case kindBigInt:
		if t.signed {
			return float64(int64(w)), nil
		}
		return float64(w), nil
	}
	return 0, fmt.Errorf("%w: type %s is not a number", ErrKernel, t.name)
}

func intOfSize(w, size uint32, signed bool) float64 {
	switch {
	case size == 1 && signed:
		return float64(int8(w))
	case size == 1:
		return float64(uint8(w))
	case size == 2 && signed:
		return float64(int16(w))
	case size == 2:
		return float64(uint16(w))
	case signed:
		return float64(int32(w))
	}
	return float64(w)
}
