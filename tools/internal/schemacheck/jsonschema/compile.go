package jsonschema

import (
	"math/big"
	"regexp"
	"strconv"
)

// Schema is a compiled schema. Compile makes it; it is then read-only, and Validate is safe
// for concurrent use.
type Schema struct {
	loc   string // URL#pointer
	doc   *document
	ptr   string
	draft int

	resource       *Schema            // the schema whose $id this one is under
	dynamicAnchors map[string]*Schema // on a resource (2020-12): its $dynamicAnchors

	always *bool // a boolean schema (or {}): true passes all, false none

	ref, recursiveRef *Schema
	recursiveAnchor   bool
	dynamicRef        *Schema
	dynamicRefAnchor  string
	dynamicAnchor     string

	types   int // bit set of the types below; 0 for any
	enum    []any
	hasEnum bool
	konst   any
	hasCon  bool

	not, ifS, thenS, elseS *Schema
	allOf, anyOf, oneOf    []*Schema

	minProps, maxProps   int // -1: none
	required             []string
	propertyNames        *Schema
	properties           map[string]*Schema
	patternProperties    []patternSchema
	additionalProperties any            // nil, bool or *Schema
	dependencies         map[string]any // []string or *Schema
	dependentRequired    map[string][]string
	dependentSchemas     map[string]*Schema
	unevaluatedProps     *Schema

	minItems, maxItems       int // -1: none
	uniqueItems              bool
	contains                 *Schema
	minContains, maxContains int // -1: none
	items                    any // draft-04 to 2019-09: nil, *Schema or []*Schema
	additionalItems          any // nil, bool or *Schema
	prefixItems              []*Schema
	items2020                *Schema
	unevaluatedItems         *Schema

	minLength, maxLength int // -1: none
	pattern              *regexp.Regexp
	format               func(string) string // draft-07 and older: why a string is not of formatName
	formatName           string

	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf *big.Rat

	// What the schema itself evaluates, so that an unevaluated* above need not track it.
	allPropsEvaluated bool
	allItemsEvaluated bool
	numItemsEvaluated int
}

type patternSchema struct {
	re  *regexp.Regexp
	sch *Schema
}

// Types, in the order messages list them.
const (
	nullType = 1 << iota
	booleanType
	numberType
	integerType
	stringType
	arrayType
	objectType
)

var typeNames = [...]string{"null", "boolean", "number", "integer", "string", "array", "object"}

func typeBit(name string) int {
	for i, n := range typeNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

// compile fills in s from its value.
func (c *Compiler) compile(s *Schema) error {
	d := s.doc
	v, err := d.lookup(s.ptr)
	if err != nil {
		return err
	}
	res := d.resourceAt(s.ptr)
	s.draft = res.draft
	if s.resource, err = c.enqueue(d, res.ptr); err != nil {
		return err
	}
	if s.draft >= Draft2020 && s.ptr == res.ptr {
		for _, name := range res.dynamic {
			ds, err := c.enqueue(d, res.anchors[name])
			if err != nil {
				return err
			}
			if s.dynamicAnchors == nil {
				s.dynamicAnchors = map[string]*Schema{}
			}
			s.dynamicAnchors[name] = ds
		}
	}
	s.minProps, s.maxProps, s.minItems, s.maxItems = -1, -1, -1, -1
	s.minContains, s.maxContains, s.minLength, s.maxLength = -1, -1, -1, -1
	switch v := v.(type) {
	case bool:
		s.always = &v
	case map[string]any:
		if len(v) == 0 {
			t := true
			s.always = &t
		} else if err := c.compileObject(s, v); err != nil {
			return err
		}
	}
	s.allPropsEvaluated = s.additionalProperties != nil
	if s.draft < Draft2020 {
		s.allItemsEvaluated = s.additionalItems != nil
		switch items := s.items.(type) {
		case *Schema:
			s.allItemsEvaluated = true
		case []*Schema:
			s.numItemsEvaluated = len(items)
		}
	} else {
		s.allItemsEvaluated = s.items2020 != nil
		s.numItemsEvaluated = len(s.prefixItems)
	}
	return nil
}

// objc compiles one schema object.
type objc struct {
	c   *Compiler
	s   *Schema
	obj map[string]any
}

func (o objc) at(k string) string { return o.s.ptr + "/" + escape(k) }

func (o objc) prop(k string) (*Schema, error) {
	if _, ok := o.obj[k]; !ok {
		return nil, nil
	}
	return o.c.enqueue(o.s.doc, o.at(k))
}

func (o objc) arr(k string) ([]*Schema, error) {
	a, ok := o.obj[k].([]any)
	if !ok {
		return nil, nil
	}
	out := make([]*Schema, len(a))
	for i := range a {
		sch, err := o.c.enqueue(o.s.doc, o.at(k)+"/"+strconv.Itoa(i))
		if err != nil {
			return nil, err
		}
		out[i] = sch
	}
	return out, nil
}

func (o objc) each(k string) (map[string]*Schema, error) {
	m, ok := o.obj[k].(map[string]any)
	if !ok {
		return nil, nil
	}
	out := make(map[string]*Schema, len(m))
	for name := range m {
		sch, err := o.c.enqueue(o.s.doc, o.at(k)+"/"+escape(name))
		if err != nil {
			return nil, err
		}
		out[name] = sch
	}
	return out, nil
}

func (o objc) additional(k string) (any, error) {
	if b, ok := o.obj[k].(bool); ok {
		return b, nil
	}
	sch, err := o.prop(k)
	if sch == nil || err != nil {
		return nil, err
	}
	return sch, nil
}

func (o objc) refTo(k string) (*Schema, error) {
	r, ok := o.obj[k].(string)
	if !ok {
		return nil, nil
	}
	return o.c.ref(o.s.doc, o.s.ptr, r)
}

func (o objc) integer(k string) int {
	if n, ok := number(o.obj[k]); ok && n.IsInt() {
		return int(n.Num().Int64())
	}
	return -1
}

func (o objc) num(k string) *big.Rat {
	n, _ := number(o.obj[k])
	return n
}

func (o objc) flag(k string) bool {
	b, _ := o.obj[k].(bool)
	return b
}

func (c *Compiler) compileObject(s *Schema, obj map[string]any) error {
	o := objc{c, s, obj}
	var err error
	if s.ref, err = o.refTo("$ref"); err != nil {
		return err
	}
	// Draft-07 and older ignore the keywords beside $ref: all but those the later drafts
	// added (const, contains, propertyNames, if), which the former validator read.
	if s.draft >= Draft2019 || s.ref == nil {
		if err := o.draft4(); err != nil {
			return err
		}
	}
	if s.draft >= Draft6 {
		if s.contains, err = o.prop("contains"); err != nil {
			return err
		}
		if s.propertyNames, err = o.prop("propertyNames"); err != nil {
			return err
		}
		if v, ok := obj["const"]; ok {
			s.konst, s.hasCon = v, true
		}
	}
	if s.draft >= Draft7 {
		if s.ifS, err = o.prop("if"); err != nil {
			return err
		}
		if s.ifS != nil {
			b, isBool := obj["if"].(bool)
			if !isBool || b {
				if s.thenS, err = o.prop("then"); err != nil {
					return err
				}
			}
			if !isBool || !b {
				if s.elseS, err = o.prop("else"); err != nil {
					return err
				}
			}
		}
	}
	if s.draft >= Draft2019 {
		if s.recursiveRef, err = o.refTo("$recursiveRef"); err != nil {
			return err
		}
		s.recursiveAnchor = o.flag("$recursiveAnchor")
		if s.contains != nil {
			s.minContains, s.maxContains = o.integer("minContains"), o.integer("maxContains")
		}
		if m, ok := obj["dependentRequired"].(map[string]any); ok {
			s.dependentRequired = map[string][]string{}
			for name, v := range m {
				if a, ok := v.([]any); ok {
					s.dependentRequired[name] = stringsOf(a)
				}
			}
		}
		if s.dependentSchemas, err = o.each("dependentSchemas"); err != nil {
			return err
		}
		if s.unevaluatedItems, err = o.prop("unevaluatedItems"); err != nil {
			return err
		}
		if s.unevaluatedProps, err = o.prop("unevaluatedProperties"); err != nil {
			return err
		}
	}
	if s.draft >= Draft2020 {
		if s.dynamicRef, err = o.refTo("$dynamicRef"); err != nil {
			return err
		}
		if s.dynamicRef != nil {
			_, frag, _ := splitFragment(obj["$dynamicRef"].(string))
			if frag != "" && frag[0] != '/' {
				s.dynamicRefAnchor = frag
			}
		}
		s.dynamicAnchor, _ = obj["$dynamicAnchor"].(string)
		if s.prefixItems, err = o.arr("prefixItems"); err != nil {
			return err
		}
		if s.items2020, err = o.prop("items"); err != nil {
			return err
		}
	}
	return nil
}

// draft4 compiles the keywords of draft-04, as the later drafts have them.
func (o objc) draft4() error {
	s, obj, d := o.s, o.obj, o.s.doc
	var err error
	if s.allOf, err = o.arr("allOf"); err != nil {
		return err
	}
	if s.anyOf, err = o.arr("anyOf"); err != nil {
		return err
	}
	if s.oneOf, err = o.arr("oneOf"); err != nil {
		return err
	}
	if s.not, err = o.prop("not"); err != nil {
		return err
	}
	if s.draft < Draft2020 {
		if _, ok := obj["items"].([]any); ok {
			if s.items, err = o.arr("items"); err != nil {
				return err
			}
			if s.additionalItems, err = o.additional("additionalItems"); err != nil {
				return err
			}
		} else if sch, err := o.prop("items"); err != nil {
			return err
		} else if sch != nil {
			s.items = sch
		}
	}
	if s.properties, err = o.each("properties"); err != nil {
		return err
	}
	if m, ok := obj["patternProperties"].(map[string]any); ok {
		for name := range m {
			re, err := compileRegexp(name)
			if err != nil {
				return compileError("patternProperties at %s: %q is not a regular expression (Go's RE2 syntax): %v", location(d.url, s.ptr), name, err)
			}
			sch, err := o.c.enqueue(d, o.at("patternProperties")+"/"+escape(name))
			if err != nil {
				return err
			}
			s.patternProperties = append(s.patternProperties, patternSchema{re, sch})
		}
	}
	if s.additionalProperties, err = o.additional("additionalProperties"); err != nil {
		return err
	}
	if m, ok := obj["dependencies"].(map[string]any); ok {
		s.dependencies = map[string]any{}
		for name, dep := range m {
			if a, ok := dep.([]any); ok {
				s.dependencies[name] = stringsOf(a)
				continue
			}
			sch, err := o.c.enqueue(d, o.at("dependencies")+"/"+escape(name))
			if err != nil {
				return err
			}
			s.dependencies[name] = sch
		}
	}
	if t, ok := obj["type"]; ok {
		switch t := t.(type) {
		case string:
			s.types = typeBit(t)
		case []any:
			for _, n := range t {
				if n, ok := n.(string); ok {
					s.types |= typeBit(n)
				}
			}
		}
	}
	if e, ok := obj["enum"].([]any); ok {
		s.enum, s.hasEnum = e, true
	}
	s.multipleOf = o.num("multipleOf")
	s.maximum = o.num("maximum")
	if o.flag("exclusiveMaximum") { // draft-04's boolean form
		s.exclusiveMaximum, s.maximum = s.maximum, nil
	} else {
		s.exclusiveMaximum = o.num("exclusiveMaximum")
	}
	s.minimum = o.num("minimum")
	if o.flag("exclusiveMinimum") {
		s.exclusiveMinimum, s.minimum = s.minimum, nil
	} else {
		s.exclusiveMinimum = o.num("exclusiveMinimum")
	}
	s.minLength, s.maxLength = o.integer("minLength"), o.integer("maxLength")
	if p, ok := obj["pattern"].(string); ok {
		if s.pattern, err = compileRegexp(p); err != nil {
			return compileError("pattern at %s: %q is not a regular expression (Go's RE2 syntax): %v", location(d.url, s.ptr), p, err)
		}
	}
	if name, ok := obj["format"].(string); ok && s.draft < Draft2019 {
		s.format, s.formatName = formatCheck(name), name
	}
	s.minItems, s.maxItems = o.integer("minItems"), o.integer("maxItems")
	s.uniqueItems = o.flag("uniqueItems")
	s.maxProps, s.minProps = o.integer("maxProperties"), o.integer("minProperties")
	if a, ok := obj["required"].([]any); ok {
		s.required = stringsOf(a)
	}
	return nil
}

// stringsOf is the strings of a JSON array, skipping other values.
func stringsOf(a []any) []string {
	var out []string
	for _, v := range a {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
