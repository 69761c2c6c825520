package manifold

// emval: the JavaScript values manifold's bindings pass a mesh in and out as. The C++ side
// holds handles; the host keeps the values (objects, numbers, typed arrays) in a table with
// reference counts, as the glue does. Only what the mesh calls use is there: objects with
// properties, numbers, casts between a value and a number or a typed array, a typed array's
// length and slice, and copying an array into the wasm's memory.

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// jsUndefined is JavaScript's undefined; nil is null.
type jsUndefined struct{}

// jsObject is a plain object; a pointer, so two handles to one object compare equal.
type jsObject struct{ props map[string]any }

// typedArray is a typed array the host owns (a copy); memView one over the wasm's memory.
type typedArray struct {
	view uint32 // 0 Int8, 1 Uint8, 2 Int16, 3 Uint16, 4 Int32, 5 Uint32, 6 Float32, 7 Float64, 8 BigInt64, 9 BigUint64
	data []byte
}

type memView struct {
	view, ptr, n uint32
}

var viewSizes = [...]uint32{1, 1, 2, 2, 4, 4, 4, 8, 8, 8}

func viewSize(view uint32) uint32 {
	if view < uint32(len(viewSizes)) {
		return viewSizes[view]
	}
	return 1
}

// The handles below 10 are fixed, as the C++ side expects (val::undefined() is 2).
const (
	handleUndefined = 2
	handleNull      = 4
	handleTrue      = 6
	handleFalse     = 8
	firstHandle     = 10
)

type emvalSlot struct {
	v    any
	refs int
}

type emvals struct {
	slots   map[uint32]*emvalSlot
	next    uint32
	free    []uint32
	invoker []emvalInvoker
}

type emvalInvoker struct {
	ret  uint32
	args []uint32
	kind uint32 // 0 call, 1 method, 2 new, 3 cast
}

func (e *emvals) handle(v any) uint32 {
	switch v := v.(type) {
	case jsUndefined:
		return handleUndefined
	case nil:
		return handleNull
	case bool:
		if v {
			return handleTrue
		}
		return handleFalse
	}
	if e.slots == nil {
		e.slots = map[uint32]*emvalSlot{}
		e.next = firstHandle
	}
	var h uint32
	if n := len(e.free); n > 0 {
		h, e.free = e.free[n-1], e.free[:n-1]
	} else {
		h = e.next
		e.next += 2
	}
	e.slots[h] = &emvalSlot{v: v, refs: 1}
	return h
}

func (in *instance) emval(h uint32) any {
	switch h {
	case handleUndefined:
		return jsUndefined{}
	case handleNull:
		return nil
	case handleTrue:
		return true
	case handleFalse:
		return false
	}
	s := in.vals.slots[h]
	if s == nil {
		in.fault(fmt.Errorf("%w: it used value handle %d, which is not live", ErrKernel, h))
	}
	return s.v
}

func (e *emvals) decref(h uint32) {
	if h < firstHandle {
		return
	}
	if s := e.slots[h]; s != nil {
		if s.refs--; s.refs == 0 {
			delete(e.slots, h)
			e.free = append(e.free, h)
		}
	}
}

func emvalDecref(_ context.Context, in *instance, s []uint64) { in.vals.decref(uint32(s[0])) }

func emvalIncref(_ context.Context, in *instance, s []uint64) {
	if h := uint32(s[0]); h >= firstHandle {
		if slot := in.vals.slots[h]; slot != nil {
			slot.refs++
		}
	}
}

func emvalNewCString(_ context.Context, in *instance, s []uint64) {
	s[0] = uint64(in.vals.handle(in.cstring(uint32(s[0]))))
}

func emvalNewObject(_ context.Context, in *instance, s []uint64) {
	s[0] = uint64(in.vals.handle(&jsObject{props: map[string]any{}}))
}

func emvalGetProperty(_ context.Context, in *instance, s []uint64) {
	obj, key := in.emval(uint32(s[0])), in.emval(uint32(s[1]))
	var v any = jsUndefined{}
	name, _ := key.(string)
	switch o := obj.(type) {
	case *jsObject:
		if p, ok := o.props[name]; ok {
			v = p
		}
	case *typedArray:
		if name == "length" {
			v = float64(uint32(len(o.data)) / viewSize(o.view))
		}
	case *memView:
		if name == "length" {
			v = float64(o.n)
		}
	}
	s[0] = uint64(in.vals.handle(v))
}

func emvalSetProperty(_ context.Context, in *instance, s []uint64) {
	obj, ok := in.emval(uint32(s[0])).(*jsObject)
	key, isString := in.emval(uint32(s[1])).(string)
	if !ok || !isString {
		in.fault(fmt.Errorf("%w: it set a property on a value that is not an object", ErrKernel))
	}
	obj.props[key] = in.emval(uint32(s[2]))
}

func emvalEquals(_ context.Context, in *instance, s []uint64) {
	a, b := in.emval(uint32(s[0])), in.emval(uint32(s[1]))
	_, au := a.(jsUndefined)
	_, bu := b.(jsUndefined)
	eq := a == b || ((au || a == nil) && (bu || b == nil)) // loose ==: undefined == null
	s[0] = 0
	if eq {
		s[0] = 1
	}
}

func emvalRunDestructors(_ context.Context, in *instance, s []uint64) {
	// The host never hands destructors back (it writes no destructorsRef), so there are
	// none to run; the handle is still released.
	in.vals.decref(uint32(s[0]))
}

// emvalArrayToMemoryView copies an array (typed or not) into a typed view of the wasm's
// memory, converting element by element as TypedArray.set does.
func emvalArrayToMemoryView(_ context.Context, in *instance, s []uint64) {
	dst, ok := in.emval(uint32(s[0])).(*memView)
	if !ok {
		in.fault(fmt.Errorf("%w: it copied into a value that is not a memory view", ErrKernel))
	}
	size := viewSize(dst.view)
	out := in.bytes(dst.ptr, dst.n*size)
	switch src := in.emval(uint32(s[1])).(type) {
	case *typedArray:
		if src.view == dst.view {
			copy(out, src.data)
			return
		}
		n := min(uint32(len(src.data))/viewSize(src.view), dst.n)
		for k := range n {
			putElement(out[k*size:], dst.view, element(src.data[k*viewSize(src.view):], src.view))
		}
	case *memView:
		data := in.bytes(src.ptr, src.n*viewSize(src.view))
		n := min(src.n, dst.n)
		for k := range n {
			putElement(out[k*size:], dst.view, element(data[k*viewSize(src.view):], src.view))
		}
	default:
		in.fault(fmt.Errorf("%w: it copied from a value that is not an array", ErrKernel))
	}
}

func element(b []byte, view uint32) float64 {
	switch view {
	case 0:
		return float64(int8(b[0]))
	case 1:
		return float64(b[0])
	case 2:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case 3:
		return float64(binary.LittleEndian.Uint16(b))
	case 4:
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case 5:
		return float64(binary.LittleEndian.Uint32(b))
	case 6:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case 7:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case 8:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	}
	return float64(binary.LittleEndian.Uint64(b))
}

func putElement(b []byte, view uint32, x float64) {
	switch view {
	case 0, 1:
		b[0] = byte(int64(x))
	case 2, 3:
		binary.LittleEndian.PutUint16(b, uint16(int64(x)))
	case 4, 5:
		binary.LittleEndian.PutUint32(b, uint32(int64(x)))
	case 6:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(x)))
	case 7:
		binary.LittleEndian.PutUint64(b, math.Float64bits(x))
	default:
		binary.LittleEndian.PutUint64(b, uint64(int64(x)))
	}
}

func emvalCreateInvoker(_ context.Context, in *instance, s []uint64) {
	types := in.typeList(uint32(s[0]), uint32(s[1]))
	in.vals.invoker = append(in.vals.invoker, emvalInvoker{ret: types[0], args: types[1:], kind: uint32(s[2])})
	s[0] = uint64(len(in.vals.invoker) - 1)
}

// emvalInvoke runs an invoker made by emvalCreateInvoker: its arguments sit in 8-byte slots
// at args, each read as its type says; the result goes back as a double.
func emvalInvoke(_ context.Context, in *instance, s []uint64) {
	id, handle, method, args := uint32(s[0]), uint32(s[1]), uint32(s[2]), uint32(s[4])
	if id >= uint32(len(in.vals.invoker)) {
		in.fault(fmt.Errorf("%w: it called value invoker %d, which was never made", ErrKernel, id))
	}
	inv := in.vals.invoker[id]
	argv := make([]any, len(inv.args))
	for k, raw := range inv.args {
		argv[k] = in.readArg(raw, args+8*uint32(k))
	}
	var rv any
	switch inv.kind {
	case 3: // cast: the value itself, as the result type
		rv = argv[0]
	case 1:
		name := in.cstring(method)
		switch obj := in.emval(handle).(type) {
		case *memView:
			if name == "slice" && len(argv) == 0 {
				rv = &typedArray{view: obj.view, data: append([]byte(nil), in.bytes(obj.ptr, obj.n*viewSize(obj.view))...)}
			}
		case *typedArray:
			if name == "slice" && len(argv) == 0 {
				rv = &typedArray{view: obj.view, data: append([]byte(nil), obj.data...)}
			}
		}
		if rv == nil {
			in.fault(fmt.Errorf("%w: it called the JavaScript method %q, which this host does not have", ErrKernel, name))
		}
	default:
		in.fault(fmt.Errorf("%w: it called JavaScript (invoker kind %d), which this host does not do", ErrKernel, inv.kind))
	}
	s[0] = f64Wire(in.returnWire(inv.ret, rv))
}

// f64Wire is a double as a wasm argument or result.
func f64Wire(x float64) uint64 { return math.Float64bits(x) }

// readArg reads one argument slot as embind's readValueFromPointer does.
func (in *instance) readArg(raw, ptr uint32) any {
	t := in.reg.types[raw]
	if t == nil {
		in.fault(fmt.Errorf("%w: an argument of unknown type %d", ErrKernel, raw))
	}
	b := in.bytes(ptr, 8)
	switch t.kind {
	case kindBool:
		return b[0] != 0
	case kindInt:
		switch t.size {
		case 1:
			return intOfSize(uint32(b[0]), 1, t.signed)
		case 2:
			return intOfSize(uint32(binary.LittleEndian.Uint16(b)), 2, t.signed)
		}
		return intOfSize(binary.LittleEndian.Uint32(b), 4, t.signed)
	case kindFloat:
		if t.size == 4 {
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case kindBigInt:
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case kindEmval:
		h := binary.LittleEndian.Uint32(b)
		v := in.emval(h)
		in.vals.decref(h) // the C++ side passed its reference
		return v
	case kindView:
		return &memView{view: t.view, n: binary.LittleEndian.Uint32(b), ptr: binary.LittleEndian.Uint32(b[4:])}
	}
	in.fault(fmt.Errorf("%w: a JavaScript call with a %s argument, which this host does not take", ErrKernel, t.name))
	return nil
}

// returnWire gives a value to the C++ side as the result type wants it.
func (in *instance) returnWire(raw uint32, v any) float64 {
	t := in.reg.types[raw]
	if t == nil {
		in.fault(fmt.Errorf("%w: a result of unknown type %d", ErrKernel, raw))
	}
	switch t.kind {
	case kindVoid:
		return 0
	case kindEmval:
		return float64(in.vals.handle(v))
	case kindBool:
		if b, _ := v.(bool); b {
			return 1
		}
		return 0
	case kindInt, kindFloat, kindBigInt:
		switch x := v.(type) {
		case float64:
			return x
		case bool:
			if x {
				return 1
			}
			return 0
		}
		in.fault(fmt.Errorf("%w: it read a %T as the number %s", ErrKernel, v, t.name))
	}
	in.fault(fmt.Errorf("%w: a JavaScript result of type %s, which this host does not make", ErrKernel, t.name))
	return 0
}
