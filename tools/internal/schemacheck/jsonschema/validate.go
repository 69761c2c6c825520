package jsonschema

// Validation walks the schema and the value together, as the 2020-12 specification's
// "annotation collection" reads: each in-place subschema (allOf, $ref, if, ...) reports the
// properties and items it left unevaluated, and a schema with unevaluatedProperties or
// unevaluatedItems checks what none of its passing subschemas evaluated. Errors are kept as
// the leaves of the former validator's error tree: a keyword whose failure has causes (allOf,
// anyOf, $ref, contains over items that failed) contributes its causes, one without (type,
// minimum, oneOf matching twice) itself.

import (
	"encoding/json"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Error is one failure: a leaf of the error tree.
type Error struct {
	// Instance is the failing value's location in the instance, as JSON pointer tokens.
	Instance []string
	// Schema is the location (URL#pointer) of the schema whose keyword failed.
	Schema string
	// Keyword is the failing keyword's path in that schema (empty for a false schema or a
	// $ref loop).
	Keyword []string
	// Message says what failed, in the former validator's words.
	Message string
}

// Validate checks v (a value Decode made) and returns each failure, nil when v matches.
func (s *Schema) Validate(v any) []Error {
	vd := validator{v: v, vloc: make([]string, 0, 8), sch: s, scp: &scope{sch: s}}
	vd.uneval = unevalFrom(v, s, false)
	_, errs := vd.validate()
	return errs
}

// scope is one step of the way from the root schema to the one being checked: a $ref loop
// that meets the same schema at the same value again, with no value between, is an error.
type scope struct {
	sch    *Schema
	refKw  string // the keyword of a jump ($ref, $dynamicRef, $recursiveRef), else ""
	vid    int    // one per value: the depth in the instance
	parent *scope
}

func (sc *scope) child(sch *Schema, refKw string, vid int) *scope {
	return &scope{sch, refKw, vid, sc}
}

func (sc *scope) cycle() *scope {
	for p := sc.parent; p != nil && p.vid == sc.vid; p = p.parent {
		if p.sch == sc.sch {
			return p
		}
	}
	return nil
}

// kwLoc is the keyword path from the root to sc, as "/allOf/0/$ref".
func (sc *scope) kwLoc() string {
	var loc string
	for ; sc.parent != nil; sc = sc.parent {
		if sc.refKw != "" {
			loc = "/" + escape(sc.refKw) + loc
		} else {
			cur, parent := sc.sch.loc, sc.parent.sch.loc
			loc = cur[min(len(parent), len(cur)):] + loc
		}
	}
	return loc
}

// uneval is what a schema has left unevaluated of the value: properties, and items by index.
type uneval struct {
	props map[string]struct{}
	items map[int]struct{}
}

func unevalFrom(v any, s *Schema, callerNeeds bool) *uneval {
	ue := &uneval{}
	switch v := v.(type) {
	case map[string]any:
		if !s.allPropsEvaluated && (callerNeeds || s.unevaluatedProps != nil) {
			ue.props = make(map[string]struct{}, len(v))
			for k := range v {
				ue.props[k] = struct{}{}
			}
		}
	case []any:
		if !s.allItemsEvaluated && (callerNeeds || s.unevaluatedItems != nil) && s.numItemsEvaluated < len(v) {
			ue.items = map[int]struct{}{}
			for i := s.numItemsEvaluated; i < len(v); i++ {
				ue.items[i] = struct{}{}
			}
		}
	}
	return ue
}

// merge keeps unevaluated only what other left unevaluated too.
func (ue *uneval) merge(other *uneval) {
	for k := range ue.props {
		if _, ok := other.props[k]; !ok {
			delete(ue.props, k)
		}
	}
	for i := range ue.items {
		if _, ok := other.items[i]; !ok {
			delete(ue.items, i)
		}
	}
}

func (ue *uneval) isEmpty() bool { return len(ue.props) == 0 && len(ue.items) == 0 }

// validator checks one value against one schema.
type validator struct {
	v      any
	vloc   []string
	sch    *Schema
	scp    *scope
	uneval *uneval
	errors []Error
	// boolResult: only whether it passes matters (not, if, oneOf past a match); the first
	// failure ends the check and no message is made.
	boolResult bool
}

// failed marks a failure where only the outcome matters (failed[:], made at no start-up).
var failed [1]Error

func (vd *validator) validate() (*uneval, []Error) {
	s := vd.sch
	if s.always != nil {
		if *s.always {
			return vd.uneval, nil
		}
		return nil, vd.leaf(nil, msgFalse)
	}
	if p := vd.scp.cycle(); p != nil {
		return nil, vd.leaf(nil, func() string { return msgRefCycle(s.loc, vd.scp.kwLoc(), p.kwLoc()) })
	}
	if s.types != 0 {
		t := typeOf(vd.v)
		if s.types&t == 0 && !(s.types&integerType != 0 && t == numberType && isInteger(vd.v)) {
			return nil, vd.leaf([]string{"type"}, func() string { return msgType(t, s.types) })
		}
	}
	if s.hasCon && !equal(vd.v, s.konst) {
		return nil, vd.leaf([]string{"const"}, func() string { return msgConst(s.konst) })
	}
	if s.hasEnum && !slices.ContainsFunc(s.enum, func(e any) bool { return equal(vd.v, e) }) {
		return nil, vd.leaf([]string{"enum"}, func() string { return msgEnum(s.enum) })
	}
	if str, ok := vd.v.(string); ok && s.format != nil {
		if why := s.format(str); why != "" {
			return nil, vd.leaf([]string{"format"}, func() string { return msgFormat(str, s.formatName, why) })
		}
	}
	if s.ref != nil {
		errs := vd.validateRef(s.ref, "$ref")
		if s.draft < Draft2019 {
			return vd.uneval, errs
		}
		vd.errors = append(vd.errors, errs...)
	}
	switch v := vd.v.(type) {
	case map[string]any:
		vd.objValidate(v)
	case []any:
		vd.arrValidate(v)
	case string:
		vd.strValidate(v)
	case json.Number:
		vd.numValidate(v)
	}
	if len(vd.errors) == 0 || !vd.boolResult {
		if s.draft >= Draft2019 {
			vd.validateRefs()
		}
		vd.condValidate()
		if s.draft >= Draft2019 {
			vd.unevalValidate()
		}
	}
	if len(vd.errors) == 0 {
		return vd.uneval, nil
	}
	return nil, vd.errors
}

// leaf is one failure of a keyword at the value being checked; msg is called only when the
// message is wanted.
func (vd *validator) leaf(kw []string, msg func() string) []Error {
	if vd.boolResult {
		return failed[:]
	}
	return []Error{{Instance: slices.Clone(vd.vloc), Schema: vd.sch.loc, Keyword: kw, Message: msg()}}
}

func (vd *validator) add(kw []string, msg func() string) {
	vd.errors = append(vd.errors, vd.leaf(kw, msg)...)
}

// addCaused adds causes, or the keyword's own failure when it has none.
func (vd *validator) addCaused(causes []Error, kw []string, msg func() string) {
	if len(causes) > 0 {
		vd.errors = append(vd.errors, causes...)
		return
	}
	vd.add(kw, msg)
}

func (vd *validator) stop() bool { return vd.boolResult && len(vd.errors) > 0 }

func (vd *validator) objValidate(obj map[string]any) {
	s := vd.sch
	if s.minProps >= 0 && len(obj) < s.minProps {
		vd.add([]string{"minProperties"}, func() string { return msgCount("minProperties", len(obj), s.minProps) })
	}
	if s.maxProps >= 0 && len(obj) > s.maxProps {
		vd.add([]string{"maxProperties"}, func() string { return msgCount("maxProperties", len(obj), s.maxProps) })
	}
	if missing := missing(obj, s.required); len(missing) > 0 {
		vd.add([]string{"required"}, func() string { return msgRequired(missing) })
	}
	if vd.stop() {
		return
	}
	for name, dep := range s.dependencies {
		if _, ok := obj[name]; !ok {
			continue
		}
		switch dep := dep.(type) {
		case []string:
			if missing := missing(obj, dep); len(missing) > 0 {
				vd.add([]string{"dependency", name}, func() string { return msgDependent(name, missing) })
			}
		case *Schema:
			vd.errors = append(vd.errors, vd.validateSelf(dep, "", false)...)
		}
	}
	var additional []string
	for name, pv := range obj {
		if vd.stop() {
			return
		}
		evaluated := false
		if sch, ok := s.properties[name]; ok {
			evaluated = true
			vd.errors = append(vd.errors, vd.validateVal(sch, pv, name)...)
		}
		for _, pp := range s.patternProperties {
			if pp.re.MatchString(name) {
				evaluated = true
				vd.errors = append(vd.errors, vd.validateVal(pp.sch, pv, name)...)
			}
		}
		if !evaluated && s.additionalProperties != nil {
			evaluated = true
			switch a := s.additionalProperties.(type) {
			case bool:
				if !a {
					additional = append(additional, name)
				}
			case *Schema:
				vd.errors = append(vd.errors, vd.validateVal(a, pv, name)...)
			}
		}
		if evaluated {
			delete(vd.uneval.props, name)
		}
	}
	if len(additional) > 0 {
		slices.Sort(additional) // the former validator listed them in map order
		vd.add([]string{"additionalProperties"}, func() string { return msgAdditional(additional) })
	}
	if s.draft == Draft4 {
		return
	}
	if s.propertyNames != nil {
		for name := range obj {
			// A name is checked as a value of its own: its failures are at the root of
			// that value, as the former validator reported them.
			sub := validator{v: name, vloc: make([]string, 0, 8), sch: s.propertyNames, scp: &scope{sch: s.propertyNames}, boolResult: vd.boolResult}
			sub.uneval = unevalFrom(name, s.propertyNames, false)
			if _, errs := sub.validate(); len(errs) > 0 {
				vd.errors = append(vd.errors, errs...)
			}
		}
	}
	if s.draft == Draft6 {
		return
	}
	for name, sch := range s.dependentSchemas {
		if _, ok := obj[name]; ok {
			vd.errors = append(vd.errors, vd.validateSelf(sch, "", false)...)
		}
	}
	for name, req := range s.dependentRequired {
		if _, ok := obj[name]; ok {
			if missing := missing(obj, req); len(missing) > 0 {
				vd.add([]string{"dependentRequired", name}, func() string { return msgDependent(name, missing) })
			}
		}
	}
}

func missing(obj map[string]any, names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := obj[n]; !ok {
			out = append(out, n)
		}
	}
	return out
}

func (vd *validator) arrValidate(arr []any) {
	s := vd.sch
	if s.minItems >= 0 && len(arr) < s.minItems {
		vd.add([]string{"minItems"}, func() string { return msgCount("minItems", len(arr), s.minItems) })
	}
	if s.maxItems >= 0 && len(arr) > s.maxItems {
		vd.add([]string{"maxItems"}, func() string { return msgCount("maxItems", len(arr), s.maxItems) })
	}
	if s.uniqueItems && len(arr) > 1 {
		if i, j := duplicates(arr); i >= 0 {
			vd.add([]string{"uniqueItems"}, func() string { return msgUnique(i, j) })
		}
	}
	if s.draft < Draft2020 {
		evaluated := 0
		switch items := s.items.(type) {
		case *Schema:
			for i, item := range arr {
				vd.errors = append(vd.errors, vd.validateVal(items, item, strconv.Itoa(i))...)
			}
			evaluated = len(arr)
		case []*Schema:
			n := min(len(arr), len(items))
			for i, item := range arr[:n] {
				vd.errors = append(vd.errors, vd.validateVal(items[i], item, strconv.Itoa(i))...)
			}
			evaluated = n
		}
		switch a := s.additionalItems.(type) {
		case bool:
			if !a && evaluated != len(arr) {
				vd.add([]string{"additionalItems"}, func() string { return msgAdditionalItems(len(arr) - evaluated) })
			}
		case *Schema:
			for i, item := range arr[evaluated:] {
				vd.errors = append(vd.errors, vd.validateVal(a, item, strconv.Itoa(evaluated+i))...)
			}
		}
	} else {
		n := min(len(s.prefixItems), len(arr))
		for i, item := range arr[:n] {
			vd.errors = append(vd.errors, vd.validateVal(s.prefixItems[i], item, strconv.Itoa(i))...)
		}
		if s.items2020 != nil {
			for i, item := range arr[n:] {
				vd.errors = append(vd.errors, vd.validateVal(s.items2020, item, strconv.Itoa(n+i))...)
			}
		}
	}
	if s.contains != nil {
		var causes []Error
		var matched []int
		for i, item := range arr {
			if errs := vd.validateVal(s.contains, item, strconv.Itoa(i)); len(errs) > 0 {
				causes = append(causes, errs...)
			} else {
				matched = append(matched, i)
				if s.draft >= Draft2020 {
					delete(vd.uneval.items, i)
				}
			}
		}
		if s.minContains >= 0 {
			if len(matched) < s.minContains {
				vd.addCaused(causes, []string{"minContains"}, func() string { return msgMinContains(s.minContains, matched) })
			}
		} else if len(matched) == 0 {
			vd.addCaused(causes, []string{"contains"}, func() string { return "no items match contains schema" })
		}
		if s.maxContains >= 0 && len(matched) > s.maxContains {
			vd.add([]string{"maxContains"}, func() string { return msgMaxContains(s.maxContains, matched) })
		}
	}
}

func (vd *validator) strValidate(str string) {
	s := vd.sch
	n := -1
	if s.minLength >= 0 || s.maxLength >= 0 {
		n = utf8.RuneCountInString(str)
	}
	if s.minLength >= 0 && n < s.minLength {
		vd.add([]string{"minLength"}, func() string { return msgCount("minLength", n, s.minLength) })
	}
	if s.maxLength >= 0 && n > s.maxLength {
		vd.add([]string{"maxLength"}, func() string { return msgCount("maxLength", n, s.maxLength) })
	}
	if s.pattern != nil && !s.pattern.MatchString(str) {
		vd.add([]string{"pattern"}, func() string { return quote(str) + " does not match pattern " + quote(s.pattern.String()) })
	}
}

func (vd *validator) numValidate(v json.Number) {
	s := vd.sch
	var n *big.Rat
	num := func() *big.Rat {
		if n == nil {
			n, _ = new(big.Rat).SetString(string(v))
		}
		return n
	}
	if s.minimum != nil && num().Cmp(s.minimum) < 0 {
		vd.add([]string{"minimum"}, func() string { return msgBound("minimum", num(), s.minimum) })
	}
	if s.maximum != nil && num().Cmp(s.maximum) > 0 {
		vd.add([]string{"maximum"}, func() string { return msgBound("maximum", num(), s.maximum) })
	}
	if s.exclusiveMinimum != nil && num().Cmp(s.exclusiveMinimum) <= 0 {
		vd.add([]string{"exclusiveMinimum"}, func() string { return msgBound("exclusiveMinimum", num(), s.exclusiveMinimum) })
	}
	if s.exclusiveMaximum != nil && num().Cmp(s.exclusiveMaximum) >= 0 {
		vd.add([]string{"exclusiveMaximum"}, func() string { return msgBound("exclusiveMaximum", num(), s.exclusiveMaximum) })
	}
	if s.multipleOf != nil && s.multipleOf.Sign() != 0 {
		if q := new(big.Rat).Quo(num(), s.multipleOf); !q.IsInt() {
			vd.add([]string{"multipleOf"}, func() string { return msgBound("multipleOf", num(), s.multipleOf) })
		}
	}
}

func (vd *validator) condValidate() {
	s := vd.sch
	if s.not != nil && len(vd.validateSelf(s.not, "", true)) == 0 {
		vd.add(nil, func() string { return "'not' failed" })
	}
	if len(s.allOf) > 0 {
		var causes []Error
		for _, sch := range s.allOf {
			if errs := vd.validateSelf(sch, "", false); len(errs) > 0 {
				causes = append(causes, errs...)
				if vd.boolResult {
					break
				}
			}
		}
		vd.errors = append(vd.errors, causes...)
	}
	if len(s.anyOf) > 0 {
		matched := false
		var causes []Error
		for _, sch := range s.anyOf {
			if errs := vd.validateSelf(sch, "", false); len(errs) > 0 {
				causes = append(causes, errs...)
			} else {
				matched = true
				if vd.uneval.isEmpty() { // else every branch counts for unevaluated*
					break
				}
			}
		}
		if !matched {
			vd.errors = append(vd.errors, causes...)
		}
	}
	if len(s.oneOf) > 0 {
		matched := -1
		var causes []Error
		for i, sch := range s.oneOf {
			if errs := vd.validateSelf(sch, "", matched != -1); len(errs) > 0 {
				if matched == -1 {
					causes = append(causes, errs...)
				}
			} else if matched == -1 {
				matched = i
			} else {
				vd.add([]string{"oneOf"}, func() string {
					return "'oneOf' failed, subschemas " + fmtInt(matched) + ", " + fmtInt(i) + " matched"
				})
				break
			}
		}
		if matched == -1 {
			vd.addCaused(causes, []string{"oneOf"}, func() string { return "'oneOf' failed, none matched" })
		}
	}
	if s.ifS != nil {
		if len(vd.validateSelf(s.ifS, "", true)) == 0 {
			if s.thenS != nil {
				vd.errors = append(vd.errors, vd.validateSelf(s.thenS, "", false)...)
			}
		} else if s.elseS != nil {
			vd.errors = append(vd.errors, vd.validateSelf(s.elseS, "", false)...)
		}
	}
}

func (vd *validator) unevalValidate() {
	s := vd.sch
	if obj, ok := vd.v.(map[string]any); ok && s.unevaluatedProps != nil {
		names := make([]string, 0, len(vd.uneval.props))
		for name := range vd.uneval.props {
			names = append(names, name)
		}
		for _, name := range names {
			if pv, ok := obj[name]; ok {
				vd.errors = append(vd.errors, vd.validateVal(s.unevaluatedProps, pv, name)...)
			}
		}
		vd.uneval.props = nil
	}
	if arr, ok := vd.v.([]any); ok && s.unevaluatedItems != nil {
		for i := range vd.uneval.items {
			vd.errors = append(vd.errors, vd.validateVal(s.unevaluatedItems, arr[i], strconv.Itoa(i))...)
		}
		vd.uneval.items = nil
	}
}

// validateSelf checks the same value against an in-place subschema, taking what it
// evaluated when it passes.
func (vd *validator) validateSelf(sch *Schema, refKw string, boolResult bool) []Error {
	sub := validator{
		v:          vd.v,
		vloc:       vd.vloc,
		sch:        sch,
		scp:        vd.scp.child(sch, refKw, vd.scp.vid),
		uneval:     unevalFrom(vd.v, sch, !vd.uneval.isEmpty()),
		boolResult: vd.boolResult || boolResult,
	}
	ue, errs := sub.validate()
	if len(errs) == 0 {
		vd.uneval.merge(ue)
	}
	return errs
}

// validateVal checks a property's or item's value, at token tok of the instance.
func (vd *validator) validateVal(sch *Schema, v any, tok string) []Error {
	sub := validator{
		v:          v,
		vloc:       append(vd.vloc, tok),
		sch:        sch,
		scp:        vd.scp.child(sch, "", vd.scp.vid+1),
		uneval:     unevalFrom(v, sch, false),
		boolResult: vd.boolResult,
	}
	_, errs := sub.validate()
	return errs
}

func (vd *validator) validateRef(sch *Schema, kw string) []Error {
	return vd.validateSelf(sch, kw, false)
}

func (vd *validator) validateRefs() {
	if sch := vd.sch.recursiveRef; sch != nil {
		if sch.recursiveAnchor {
			for scp := vd.scp; scp != nil; scp = scp.parent {
				if scp.sch.resource.recursiveAnchor {
					sch = scp.sch
				}
			}
		}
		vd.errors = append(vd.errors, vd.validateRef(sch, "$recursiveRef")...)
	}
	if sch := vd.sch.dynamicRef; sch != nil {
		if a := vd.sch.dynamicRefAnchor; a != "" && sch.dynamicAnchor == a {
			for scp := vd.scp; scp != nil; scp = scp.parent {
				if ds, ok := scp.sch.resource.dynamicAnchors[a]; ok {
					sch = ds
				}
			}
		}
		vd.errors = append(vd.errors, vd.validateRef(sch, "$dynamicRef")...)
	}
}

// typeOf is a value's type bit; a number is numberType, whether or not it is an integer.
func typeOf(v any) int {
	switch v.(type) {
	case nil:
		return nullType
	case bool:
		return booleanType
	case json.Number:
		return numberType
	case string:
		return stringType
	case []any:
		return arrayType
	case map[string]any:
		return objectType
	}
	return 0
}

func isInteger(v any) bool {
	n, ok := number(v)
	return ok && n.IsInt()
}

// equal is JSON equality: numbers by value (1 and 1.0 are equal), objects whatever their
// order.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		if a == bn {
			return true
		}
		x, ok1 := new(big.Rat).SetString(string(a))
		y, ok2 := new(big.Rat).SetString(string(bn))
		return ok1 && ok2 && x.Cmp(y) == 0
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	}
	return false
}

// duplicates is the first pair of equal items (j < i, i the least with an equal item before
// it, j the least of those), or -1, -1.
func duplicates(arr []any) (int, int) {
	if len(arr) <= 20 {
		for i := 1; i < len(arr); i++ {
			for j := 0; j < i; j++ {
				if equal(arr[i], arr[j]) {
					return j, i
				}
			}
		}
		return -1, -1
	}
	seen := make(map[string][]int, len(arr))
	for i, item := range arr {
		k := hashKey(item)
		for _, j := range seen[k] {
			if equal(item, arr[j]) {
				return j, i
			}
		}
		seen[k] = append(seen[k], i)
	}
	return -1, -1
}

// hashKey is a key equal for equal values (a number by its exact value).
func hashKey(v any) string {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := "{"
		for _, k := range keys {
			out += strconv.Quote(k) + ":" + hashKey(v[k]) + ","
		}
		return out + "}"
	case []any:
		out := "["
		for _, x := range v {
			out += hashKey(x) + ","
		}
		return out + "]"
	case json.Number:
		if n, ok := new(big.Rat).SetString(string(v)); ok {
			return "n" + n.RatString()
		}
		return "n" + string(v)
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return "null"
}
