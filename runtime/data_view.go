package runtime

// readJSON's values are built lazily. Building even a frozen copy eagerly costs a goja object
// per JSON object and array, most of it for items a script never reads. So each object and
// array of the data is a Proxy whose target starts empty and whose get and has traps answer
// from the Go tree; a child's Proxy is made the first time it is read, once per run, so data.a
// === data.a. Everything else a script can ask of an object (its keys, property descriptors,
// extensibility; a set, delete or define) first fills the target with the object's own
// properties, read-only and non-configurable, makes it non-extensible, and removes the traps:
// from then on the Proxy forwards to a frozen target, and the answers are a frozen object's.
// Object.isFrozen is true, a set fails (a TypeError in strict code, silently otherwise) and
// Array.isArray sees an array. A small object or array (smallSize) is built frozen outright
// instead: cheaper than a Proxy, and mostly read whole.
//
// What differs from a plain frozen copy: the first set, delete or define on a value whose
// target was never filled fails with the Proxy's wording ("'set' on proxy: trap returned
// falsish for property 'width'") rather than the frozen object's, and a getter that a script
// adds to Object.prototype sees the target, not the Proxy, as this.

import (
	"strconv"

	"github.com/dop251/goja"
)

// dataView is one object or array of a run's data.
type dataView struct {
	node   *dataNode
	target *goja.Object
	proxy  *goja.Object
	traps  *goja.ProxyTrapConfig // emptied once the target is filled
	kids   []goja.Value          // the values handed out so far, by position
}

// dataValue is the run's value for a node: the primitive itself, or a new lazy view.
func (r *run) dataValue(n *dataNode) goja.Value {
	if n.prim != nil {
		return n.prim
	}
	if n.small {
		return r.frozenSmall(n)
	}
	if r.dataViews == nil {
		r.dataViews = map[*goja.Object]*dataView{}
		r.dataTraps = r.newDataTraps()
	}
	v := &dataView{node: n, traps: new(goja.ProxyTrapConfig)}
	*v.traps = r.dataTraps
	if n.array {
		v.target = r.vm.NewArray()
	} else {
		v.target = r.vm.NewObject()
	}
	r.dataViews[v.target] = v
	v.proxy = r.vm.ToValue(r.vm.NewProxy(v.target, v.traps)).(*goja.Object)
	return v.proxy
}

// frozenSmall builds a small object or array whole, frozen, as Object.freeze leaves it.
func (r *run) frozenSmall(n *dataNode) goja.Value {
	value := func(k *dataNode) goja.Value {
		if k.prim != nil {
			return k.prim
		}
		return r.frozenSmall(k)
	}
	var o *goja.Object
	if n.array {
		o = r.vm.NewArray()
	} else {
		o = r.vm.NewObject()
	}
	r.frozen(o, n, func(i int) goja.Value { return value(&n.kids[i]) })
	return o
}

// frozen gives o, an empty object or array, the properties of node n (values from value, by
// position), read-only and non-configurable, and makes it non-extensible: what Object.freeze
// leaves, without its second walk over the properties (an iterator that allocates per item).
func (r *run) frozen(o *goja.Object, n *dataNode, value func(i int) goja.Value) {
	define := func(k string, v goja.Value, enumerable goja.Flag) {
		if err := o.DefineDataProperty(k, v, goja.FLAG_FALSE, goja.FLAG_FALSE, enumerable); err != nil {
			panic(err)
		}
	}
	if n.array {
		for i := range n.kids {
			define(strconv.Itoa(i), value(i), goja.FLAG_TRUE)
		}
		define("length", r.vm.ToValue(len(n.kids)), goja.FLAG_FALSE)
	} else {
		for i, k := range n.keys {
			define(k, value(i), goja.FLAG_TRUE)
		}
	}
	r.noExtend(goja.FunctionCall{Arguments: []goja.Value{o}})
}

// kid is the value at position i of the view, made on first use.
func (r *run) kid(v *dataView, i int) goja.Value {
	if v.kids == nil {
		v.kids = make([]goja.Value, len(v.node.kids))
	}
	if v.kids[i] == nil {
		v.kids[i] = r.dataValue(&v.node.kids[i])
	}
	return v.kids[i]
}

// fill gives the target the view's own properties, frozen, and stops trapping.
func (r *run) fill(v *dataView) {
	if v.traps.Get == nil {
		return
	}
	*v.traps = goja.ProxyTrapConfig{}
	r.frozen(v.target, v.node, func(i int) goja.Value { return r.kid(v, i) })
}

// own is the position of the view's own property k, or -1; "length" of an array is -2.
func (v *dataView) own(k string) int {
	if !v.node.array {
		return v.node.find(k)
	}
	if k == "length" {
		return -2
	}
	if i, err := strconv.Atoi(k); err == nil && i >= 0 && i < len(v.node.kids) && strconv.Itoa(i) == k {
		return i
	}
	return -1
}

// inherited reads k from the target's prototype chain (the target has no own properties
// while it traps).
func inherited(target *goja.Object, k string) goja.Value {
	if x := target.Get(k); x != nil {
		return x
	}
	return goja.Undefined()
}

// hasInherited reports whether k is on the target's prototype chain, without calling getters.
func hasInherited(target *goja.Object, k string) bool {
	for p := target.Prototype(); p != nil; p = p.Prototype() {
		for _, name := range p.GetOwnPropertyNames() {
			if name == k {
				return true
			}
		}
	}
	return false
}

// newDataTraps makes the run's traps; each finds its view by the target it is given.
func (r *run) newDataTraps() goja.ProxyTrapConfig {
	view := func(t *goja.Object) *dataView { return r.dataViews[t] }
	get := func(t *goja.Object, k string, _ goja.Value) goja.Value {
		v := view(t)
		switch i := v.own(k); {
		case i >= 0:
			return r.kid(v, i)
		case i == -2:
			return r.vm.ToValue(len(v.node.kids))
		}
		return inherited(t, k)
	}
	has := func(t *goja.Object, k string) bool {
		return view(t).own(k) != -1 || hasInherited(t, k)
	}
	// A reflective trap fills the target, then answers as the frozen target would.
	filled := func(t *goja.Object) *dataView {
		v := view(t)
		r.fill(v)
		return v
	}
	desc := func(t *goja.Object, k string) goja.PropertyDescriptor {
		v := filled(t)
		switch i := v.own(k); {
		case i >= 0:
			return goja.PropertyDescriptor{Value: r.kid(v, i), Writable: goja.FLAG_FALSE, Enumerable: goja.FLAG_TRUE, Configurable: goja.FLAG_FALSE}
		case i == -2:
			return goja.PropertyDescriptor{Value: r.vm.ToValue(len(v.node.kids)), Writable: goja.FLAG_FALSE, Enumerable: goja.FLAG_FALSE, Configurable: goja.FLAG_FALSE}
		}
		return goja.PropertyDescriptor{}
	}
	define := func(t *goja.Object, k string, d goja.PropertyDescriptor) bool {
		// A frozen object accepts only a definition that changes nothing.
		cur := desc(t, k)
		if cur.Value == nil || d.Getter != nil || d.Setter != nil ||
			d.Writable == goja.FLAG_TRUE || d.Configurable == goja.FLAG_TRUE ||
			d.Enumerable != goja.FLAG_NOT_SET && d.Enumerable != cur.Enumerable {
			return false
		}
		return d.Value == nil || d.Value.SameAs(cur.Value)
	}
	set := func(t *goja.Object, k string, val, rcv goja.Value) bool {
		v := filled(t)
		ro, ok := rcv.(*goja.Object)
		if !ok || ro == v.proxy {
			return false
		}
		// An object that inherits from the data (Object.create(data)): with the traps gone,
		// the set goes the ordinary way, through the frozen target, to the receiver.
		return ro.Set(k, val) == nil
	}
	return goja.ProxyTrapConfig{
		Get:                      get,
		GetIdx:                   func(t *goja.Object, i int, rcv goja.Value) goja.Value { return get(t, strconv.Itoa(i), rcv) },
		Has:                      has,
		HasIdx:                   func(t *goja.Object, i int) bool { return has(t, strconv.Itoa(i)) },
		GetOwnPropertyDescriptor: desc,
		GetOwnPropertyDescriptorIdx: func(t *goja.Object, i int) goja.PropertyDescriptor {
			return desc(t, strconv.Itoa(i))
		},
		DefineProperty: define,
		DefinePropertyIdx: func(t *goja.Object, i int, d goja.PropertyDescriptor) bool {
			return define(t, strconv.Itoa(i), d)
		},
		DefinePropertySym: func(t *goja.Object, _ *goja.Symbol, _ goja.PropertyDescriptor) bool { filled(t); return false },
		Set:               set,
		SetIdx:            func(t *goja.Object, i int, val, rcv goja.Value) bool { return set(t, strconv.Itoa(i), val, rcv) },
		SetSym:            func(t *goja.Object, _ *goja.Symbol, _, _ goja.Value) bool { filled(t); return false },
		DeleteProperty:    func(t *goja.Object, k string) bool { return filled(t).own(k) == -1 },
		DeletePropertyIdx: func(t *goja.Object, i int) bool { return filled(t).own(strconv.Itoa(i)) == -1 },
		DeletePropertySym: func(t *goja.Object, _ *goja.Symbol) bool { filled(t); return true },
		IsExtensible:      func(t *goja.Object) bool { filled(t); return false },
		PreventExtensions: func(t *goja.Object) bool { filled(t); return true },
		SetPrototypeOf:    func(t *goja.Object, p *goja.Object) bool { filled(t); return p == t.Prototype() },
		OwnKeys: func(t *goja.Object) *goja.Object {
			v := filled(t)
			keys := make([]any, 0, len(v.node.kids)+1)
			if v.node.array {
				for i := range v.node.kids {
					keys = append(keys, strconv.Itoa(i))
				}
				keys = append(keys, "length")
			} else {
				for _, k := range t.Keys() { // the target's order, as a frozen object lists them
					keys = append(keys, k)
				}
			}
			return r.vm.NewArray(keys...)
		},
	}
}

// className is o's class, a Proxy's being its target's: readJSON's arrays are Proxies of
// arrays, and the API takes them wherever it takes an array. Reading the target runs no trap.
func className(o *goja.Object) string {
	for range 64 { // a Proxy of a Proxy of ...: goja bounds nothing here, so this does
		if o.ExportType() != proxyType {
			break
		}
		t := o.Export().(goja.Proxy).Target()
		if t == nil {
			break // revoked
		}
		o = t
	}
	return o.ClassName()
}

// isDataTarget reports whether t is the target of one of the run's data Proxies.
func (r *run) isDataTarget(t *goja.Object) bool {
	_, ok := r.dataViews[t]
	return ok
}
