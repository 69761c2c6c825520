package jsonschema

// A schema is checked against its draft's meta-schema before it is compiled, as the former
// validator did; here the meta-schemas' rules are written out as a table of what each
// keyword's value must be, so that nothing has to be compiled at start-up and a schema that
// breaks a rule is told which keyword, where, and what it must be.

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// SchemaError is a schema that breaks its draft's rules.
type SchemaError struct {
	URL      string   // the document, when the problems are places in it
	Problems []string // each "at POINTER: what is wrong", sorted
}

// MaxSchemaProblems caps the problems one SchemaError lists.
const MaxSchemaProblems = 10

func (e *SchemaError) Error() string {
	list := e.Problems
	more := ""
	if len(list) > MaxSchemaProblems {
		more = fmt.Sprintf("; and %d more (MaxSchemaProblems)", len(list)-MaxSchemaProblems)
		list = list[:MaxSchemaProblems]
	}
	return strings.Join(list, "; ") + more
}

func (e *SchemaError) Unwrap() error { return ErrSchema }

// rule checks one keyword's value, returning what is wrong ("" for nothing).
type rule func(v any, draft int) string

// checkSchema checks the schema v at ptr of d, and its subschemas, against their drafts'
// rules.
func checkSchema(d *document, v any, ptr string) error {
	var problems []string
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		draft := d.resourceAt(ptr).draft
		if msg := schemaValue(v, draft); msg != "" {
			problems = append(problems, at(ptr, msg))
			return
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for _, k := range keysOf(obj) {
			r := rules(k, draft)
			if r == nil {
				continue
			}
			if msg := r(obj[k], draft); msg != "" {
				problems = append(problems, at(ptr+"/"+escape(k), msg))
			}
		}
		if draft == Draft4 {
			for _, k := range []string{"exclusiveMaximum", "exclusiveMinimum"} {
				if _, ok := obj[k]; ok {
					if _, ok := obj[strings.Replace(k, "exclusiveM", "m", 1)]; !ok {
						problems = append(problems, at(ptr, fmt.Sprintf("%q needs %q beside it (draft-04)", k, strings.Replace(k, "exclusiveM", "m", 1))))
					}
				}
			}
		}
		for _, s := range subschemas(obj, ptr, draft) {
			if !schemaKeywordOK(obj, s.ptr[len(ptr):], draft) {
				continue
			}
			walk(s.v, s.ptr)
		}
	}
	walk(v, ptr)
	if len(problems) == 0 {
		return nil
	}
	sort.Strings(problems)
	return &SchemaError{URL: d.url, Problems: problems}
}

// schemaKeywordOK: a subschema is checked only where its keyword's value has the right
// shape (a problem there is already listed), and only for the keywords the meta-schema reads
// as schemas.
func schemaKeywordOK(obj map[string]any, rel string, draft int) bool {
	kw, _, _ := strings.Cut(rel[1:], "/")
	kw, _ = unescape(kw)
	if rules(kw, draft) == nil {
		return false
	}
	if kw == "dependencies" {
		return true // an array there is a list of names, not a schema
	}
	return rules(kw, draft)(obj[kw], draft) == ""
}

func at(ptr, msg string) string {
	if ptr == "" {
		return "at the root: " + msg
	}
	return "at " + ptr + ": " + msg
}

// schemaValue: a schema is an object, or (draft-06 and later) a boolean.
func schemaValue(v any, draft int) string {
	switch v.(type) {
	case map[string]any:
		return ""
	case bool:
		if draft >= Draft6 {
			return ""
		}
		return "a schema is an object in draft-04, not a boolean"
	}
	if draft >= Draft6 {
		return "a schema is an object or a boolean, not " + kindOf(v)
	}
	return "a schema is an object, not " + kindOf(v)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a number"
}

// The anchor names' patterns, compiled at their first use: nothing is made at start-up.
var anchor2019, anchor2020 lazyRegexp

type lazyRegexp struct {
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get(p string) *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(p) })
	return l.re
}

func anchor2019re() *regexp.Regexp { return anchor2019.get(`^[A-Za-z][-A-Za-z0-9.:_]*$`) }

func anchor2020re() *regexp.Regexp { return anchor2020.get(`^[A-Za-z_][-A-Za-z0-9._]*$`) }

// rules is the rule for a keyword in a draft, nil for a keyword it does not constrain.
func rules(k string, draft int) rule {
	since := func(d int, r rule) rule {
		if draft >= d {
			return r
		}
		return nil
	}
	upTo := func(d int, r rule) rule {
		if draft <= d {
			return r
		}
		return nil
	}
	switch k {
	case "$schema":
		if draft == Draft4 {
			return isString
		}
		return isURI
	case "id":
		return upTo(Draft4, isString)
	case "$id":
		switch {
		case draft >= Draft2019:
			return isIDNoFragment
		case draft >= Draft6:
			return isURIRef
		}
		return nil
	case "$ref":
		if draft == Draft4 {
			return isString
		}
		return isURIRef
	case "$comment":
		return since(Draft7, isString)
	case "$anchor":
		if draft == Draft2019 {
			return anchorRule(anchor2019re)
		}
		return since(Draft2020, anchorRule(anchor2020re))
	case "$dynamicAnchor":
		return since(Draft2020, anchorRule(anchor2020re))
	case "$dynamicRef":
		return since(Draft2020, isURIRef)
	case "$recursiveRef":
		return since(Draft2019, isURIRef)
	case "$recursiveAnchor":
		if draft == Draft2019 {
			return isBool
		}
		return since(Draft2020, anchorRule(anchor2020re))
	case "$vocabulary":
		return since(Draft2019, isVocabulary)
	case "$defs":
		return since(Draft2019, isSchemaMap)
	case "definitions", "properties":
		return isSchemaMap
	case "patternProperties":
		return isPatternMap
	case "dependentSchemas":
		return since(Draft2019, isSchemaMap)
	case "dependencies":
		return isDependencies
	case "dependentRequired":
		return since(Draft2019, isRequiredMap)
	case "not", "additionalProperties":
		if draft == Draft4 && k == "additionalProperties" {
			return isBoolOrSchema
		}
		return isSchema
	case "additionalItems":
		if draft == Draft4 {
			return isBoolOrSchema
		}
		return upTo(Draft2019, isSchema)
	case "contains", "propertyNames":
		return since(Draft6, isSchema)
	case "if", "then", "else":
		return since(Draft7, isSchema)
	case "unevaluatedItems", "unevaluatedProperties", "contentSchema":
		return since(Draft2019, isSchema)
	case "items":
		if draft >= Draft2020 {
			return isSchema
		}
		return isSchemaOrArray
	case "prefixItems":
		return since(Draft2020, isSchemaArray)
	case "allOf", "anyOf", "oneOf":
		return isSchemaArray
	case "type":
		return isType
	case "enum":
		if draft <= Draft7 {
			return isEnumUnique
		}
		return isArray
	case "multipleOf":
		return isPositive
	case "maximum", "minimum":
		return isNumber
	case "exclusiveMaximum", "exclusiveMinimum":
		if draft == Draft4 {
			return isBool
		}
		return isNumber
	case "maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties":
		return isCount
	case "maxContains", "minContains":
		return since(Draft2019, isCount)
	case "pattern":
		return isRegexp
	case "uniqueItems":
		return isBool
	case "required":
		return isRequired
	case "format", "title", "description":
		return isString
	case "contentEncoding", "contentMediaType":
		return since(Draft7, isString)
	case "readOnly", "writeOnly":
		return since(Draft7, isBool)
	case "deprecated":
		return since(Draft2019, isBool)
	case "examples":
		return since(Draft6, isArray)
	}
	return nil
}

func isString(v any, _ int) string {
	if _, ok := v.(string); ok {
		return ""
	}
	return "want a string, got " + kindOf(v)
}

func isBool(v any, _ int) string {
	if _, ok := v.(bool); ok {
		return ""
	}
	return "want a boolean, got " + kindOf(v)
}

func isArray(v any, _ int) string {
	if _, ok := v.([]any); ok {
		return ""
	}
	return "want an array, got " + kindOf(v)
}

func isNumber(v any, _ int) string {
	if _, ok := number(v); ok {
		return ""
	}
	return "want a number, got " + kindOf(v)
}

func isPositive(v any, d int) string {
	n, ok := number(v)
	if !ok {
		return isNumber(v, d)
	}
	if n.Sign() <= 0 {
		return "want a number above 0, got " + display(v)
	}
	return ""
}

func isCount(v any, d int) string {
	n, ok := number(v)
	if !ok {
		return "want a whole number, 0 or more, got " + kindOf(v)
	}
	if !n.IsInt() || n.Sign() < 0 {
		return "want a whole number, 0 or more, got " + display(v)
	}
	return ""
}

func isSchema(v any, d int) string { return schemaValue(v, d) }

func isBoolOrSchema(v any, d int) string {
	if _, ok := v.(bool); ok {
		return ""
	}
	return schemaValue(v, d)
}

func isSchemaOrArray(v any, d int) string {
	if a, ok := v.([]any); ok {
		if len(a) == 0 {
			return "want a schema or a non-empty array of schemas, got an empty array"
		}
		return ""
	}
	return schemaValue(v, d)
}

func isSchemaArray(v any, _ int) string {
	a, ok := v.([]any)
	if !ok {
		return "want a non-empty array of schemas, got " + kindOf(v)
	}
	if len(a) == 0 {
		return "want a non-empty array of schemas, got an empty array"
	}
	return ""
}

func isSchemaMap(v any, _ int) string {
	if _, ok := v.(map[string]any); ok {
		return ""
	}
	return "want an object of schemas, got " + kindOf(v)
}

func isPatternMap(v any, d int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return isSchemaMap(v, d)
	}
	if d >= Draft7 {
		for _, k := range keysOf(m) {
			if _, err := compileRegexp(k); err != nil {
				return fmt.Sprintf("%q is not a regular expression (Go's RE2 syntax): %v", k, err)
			}
		}
	}
	return ""
}

// keysOf is an object's keys, sorted, so that the first problem found is always the same.
func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isDependencies(v any, d int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "want an object of schemas or lists of property names, got " + kindOf(v)
	}
	for _, k := range keysOf(m) {
		if _, ok := m[k].([]any); ok {
			if msg := isRequired(m[k], d); msg != "" {
				return fmt.Sprintf("%q: %s", k, msg)
			}
			continue
		}
		if msg := schemaValue(m[k], d); msg != "" {
			return fmt.Sprintf("%q: %s", k, msg)
		}
	}
	return ""
}

func isRequiredMap(v any, d int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "want an object of lists of property names, got " + kindOf(v)
	}
	for _, k := range keysOf(m) {
		if msg := isRequired(m[k], d); msg != "" {
			return fmt.Sprintf("%q: %s", k, msg)
		}
	}
	return ""
}

// isRequired: property names, each once (and at least one in draft-04).
func isRequired(v any, d int) string {
	a, ok := v.([]any)
	if !ok {
		return "want an array of property names, got " + kindOf(v)
	}
	if d == Draft4 && len(a) == 0 {
		return "want at least one property name (draft-04), got an empty array"
	}
	seen := map[string]bool{}
	for _, x := range a {
		s, ok := x.(string)
		if !ok {
			return "want an array of property names (strings), got " + kindOf(x) + " in it"
		}
		if seen[s] {
			return fmt.Sprintf("%q is listed twice; list each name once", s)
		}
		seen[s] = true
	}
	return ""
}

func isType(v any, _ int) string {
	const want = "want one of array, boolean, integer, null, number, object, string, or a non-empty array of them, each once"
	switch v := v.(type) {
	case string:
		if typeBit(v) == 0 {
			return want + "; got " + quote(v)
		}
		return ""
	case []any:
		if len(v) == 0 {
			return want + "; got an empty array"
		}
		seen := 0
		for _, x := range v {
			s, ok := x.(string)
			if !ok || typeBit(s) == 0 {
				return want + "; got " + kindOf(x) + " in the array"
			}
			if seen&typeBit(s) != 0 {
				return want + "; got " + quote(s) + " twice"
			}
			seen |= typeBit(s)
		}
		return ""
	}
	return want + "; got " + kindOf(v)
}

func isEnumUnique(v any, _ int) string {
	a, ok := v.([]any)
	if !ok {
		return "want a non-empty array of values, got " + kindOf(v)
	}
	if len(a) == 0 {
		return "want a non-empty array of values (draft-07 and older), got an empty array"
	}
	if i, j := duplicates(a); i >= 0 {
		return fmt.Sprintf("values %d and %d are equal; list each once (draft-07 and older)", i, j)
	}
	return ""
}

func isRegexp(v any, d int) string {
	s, ok := v.(string)
	if !ok {
		return isString(v, d)
	}
	if _, err := compileRegexp(s); err != nil {
		return fmt.Sprintf("%q is not a regular expression (Go's RE2 syntax): %v", s, err)
	}
	return ""
}

func anchorRule(re func() *regexp.Regexp) rule {
	return func(v any, d int) string {
		s, ok := v.(string)
		if !ok {
			return isString(v, d)
		}
		if !re().MatchString(s) {
			return fmt.Sprintf("%q is not an anchor name (%s)", s, re().String())
		}
		return ""
	}
}

func isURIRef(v any, d int) string {
	s, ok := v.(string)
	if !ok {
		return isString(v, d)
	}
	if strings.Contains(s, `\`) {
		return fmt.Sprintf("%q is not a URI reference: it holds a backslash", s)
	}
	if _, why := parseURL(s); why != "" {
		return fmt.Sprintf("%q is not a URI reference: %s", s, why)
	}
	return ""
}

func isURI(v any, d int) string {
	s, ok := v.(string)
	if !ok {
		return isString(v, d)
	}
	u, why := parseURL(s)
	if why != "" {
		return fmt.Sprintf("%q is not a URI: %s", s, why)
	}
	if !u.IsAbs() {
		return fmt.Sprintf("%q is not an absolute URI", s)
	}
	return ""
}

func isIDNoFragment(v any, d int) string {
	if msg := isURIRef(v, d); msg != "" {
		return msg
	}
	if _, frag, _ := strings.Cut(v.(string), "#"); frag != "" {
		return fmt.Sprintf("%q has a fragment; an $id has none (name an anchor with $anchor)", v)
	}
	return ""
}

func isVocabulary(v any, d int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "want an object of URIs to booleans, got " + kindOf(v)
	}
	for _, k := range keysOf(m) {
		if msg := isURI(k, d); msg != "" {
			return msg
		}
		if _, ok := m[k].(bool); !ok {
			return fmt.Sprintf("%q: want a boolean, got %s", k, kindOf(m[k]))
		}
	}
	return ""
}
