// Package jsonschema is cadrun's JSON Schema validator: 2020-12 by default, and the older
// drafts a schema names by $schema (2019-09, draft-07, -06, -04), each by its own rules.
//
// Why a validator of our own: the one cadrun used compiled the meta-schemas of five drafts
// in its package init, 7 to 14 ms of every process's start-up, whether or not the process ever
// checked a file. This package does nothing at init: a Compiler reads and compiles a schema
// when asked, per schema, and keeps nothing between Compilers.
//
// What it answers is the former validator's answer, word for word: every error that has no
// cause below it (a leaf), with the instance location and the message cadrun's answers print.
// Its tests check it against that validator, schema by schema and at random.
//
// Start with NewCompiler, give it the loader that reads the documents a $ref names, Compile a
// URL, and Validate a value that Decode made.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// Drafts, by the year or number in their names.
const (
	Draft4    = 4
	Draft6    = 6
	Draft7    = 7
	Draft2019 = 2019
	Draft2020 = 2020
)

// ErrSchema is returned for a schema that cannot be compiled: not a schema by its draft's
// rules, a $ref that names nothing, a pattern that is not a regular expression.
var ErrSchema = errors.New("not a usable schema")

// Loader returns the decoded JSON document at an absolute URL (without its fragment), as
// Decode makes it. Its error is wrapped in the compile error, in the former wording
// ("failing loading URL: ...").
type Loader func(url string) (any, error)

// Decode reads one JSON value as the validator wants it: numbers kept as their text
// (json.Number), so that they compare exactly.
func Decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// Compiler compiles schemas and what they $ref. It is not safe for concurrent use.
type Compiler struct {
	load    Loader
	draft   int
	docs    map[string]*document
	schemas map[string]*Schema // by location: URL#pointer
	queue   []*Schema          // made, not yet compiled
}

// NewCompiler is a Compiler that reads documents with load, and takes a schema without
// $schema to be of draft (Draft2020 when 0).
func NewCompiler(load Loader, draft int) *Compiler {
	if draft == 0 {
		draft = Draft2020
	}
	return &Compiler{load: load, draft: draft, docs: map[string]*document{}, schemas: map[string]*Schema{}}
}

// document is one loaded JSON document and the schema resources in it.
type document struct {
	url       string
	v         any
	resources map[string]*resource // by JSON pointer
	walked    map[string]bool      // subschemas whose resources and anchors are collected
}

// resource is a schema with an $id (or a document's root): the base of the $refs in it.
type resource struct {
	ptr     string
	id      string // absolute URL, without fragment
	draft   int
	anchors map[string]string // anchor name -> JSON pointer in the document
	dynamic []string          // the anchors that are $dynamicAnchor
}

// compileError is a compile error in this package's words: a SchemaError with one problem,
// which names its document.
func compileError(format string, args ...any) error {
	return &SchemaError{Problems: []string{fmt.Sprintf(format, args...)}}
}

// LoadError is a document the Loader could not give.
type LoadError struct {
	URL string
	Err error
}

func (e *LoadError) Error() string { return fmt.Sprintf("failing loading %q: %v", e.URL, e.Err) }

func (e *LoadError) Unwrap() error { return e.Err }

// Compile compiles the schema at loc, an absolute URL with an optional fragment, and every
// schema it reaches.
func (c *Compiler) Compile(loc string) (*Schema, error) {
	u, frag, err := splitFragment(loc)
	if err != nil {
		return nil, err
	}
	d, err := c.document(u)
	if err != nil {
		return nil, err
	}
	ptr, err := d.resolveIn(frag, d.resources[""])
	if err != nil {
		return nil, err
	}
	sch, err := c.enqueue(d, ptr)
	if err != nil {
		return nil, err
	}
	for len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = c.queue[1:]
		if err := c.compile(next); err != nil {
			c.queue = nil
			return nil, err
		}
	}
	return sch, nil
}

// document loads the document at u, collects its resources and anchors, and checks it
// against its draft's rules.
func (c *Compiler) document(u string) (*document, error) {
	if d, ok := c.docs[u]; ok {
		return d, nil
	}
	v, err := c.load(u)
	if err != nil {
		return nil, &LoadError{URL: u, Err: err}
	}
	d := &document{url: u, v: v, resources: map[string]*resource{}, walked: map[string]bool{}}
	if err := d.collect(v, u, "", c.draft); err != nil {
		return nil, err
	}
	if err := checkSchema(d, v, ""); err != nil {
		return nil, err
	}
	c.docs[u] = d
	return d, nil
}

// resourceAt is the resource a pointer is in: the nearest one above it.
func (d *document) resourceAt(ptr string) *resource {
	for {
		if r, ok := d.resources[ptr]; ok {
			return r
		}
		slash := strings.LastIndexByte(ptr, '/')
		if slash < 0 {
			return d.resources[""]
		}
		ptr = ptr[:slash]
	}
}

// draftOf is the draft a $schema names, 0 for none it knows.
func draftOf(s string) int {
	u, frag, _ := strings.Cut(s, "#")
	if frag != "" {
		return 0
	}
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		u, _ = strings.CutPrefix(u, "https://")
	}
	switch u {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return Draft2020
	case "json-schema.org/draft/2019-09/schema":
		return Draft2019
	case "json-schema.org/draft-07/schema":
		return Draft7
	case "json-schema.org/draft-06/schema":
		return Draft6
	case "json-schema.org/draft-04/schema":
		return Draft4
	}
	return 0
}

// idOf is a schema object's $id (id in draft-04) without its fragment; a draft-07 or older
// schema with $ref has none, its other keywords being ignored.
func idOf(obj map[string]any, draft int) string {
	if draft < Draft2019 {
		if _, ok := obj["$ref"]; ok {
			return ""
		}
	}
	key := "$id"
	if draft == Draft4 {
		key = "id"
	}
	id, _ := obj[key].(string)
	id, _, _ = strings.Cut(id, "#")
	return id
}

// collect walks the schema v at ptr, with base its base URL and fallback the draft of the
// schema around it, noting the resources ($id) and anchors it holds.
func (d *document) collect(v any, base, ptr string, fallback int) error {
	if d.walked[ptr] {
		return nil
	}
	d.walked[ptr] = true
	obj, ok := v.(map[string]any)
	if !ok {
		if ptr == "" {
			d.resources[""] = &resource{ptr: "", id: base, draft: fallback, anchors: map[string]string{}}
		}
		return nil
	}
	draft := fallback
	if s, ok := obj["$schema"].(string); ok {
		if draft = draftOf(s); draft == 0 {
			return compileError("$schema %q at %s is not a draft this validator knows; name https://json-schema.org/draft/2020-12/schema (or 2019-09, draft-07, -06, -04), or leave $schema out", s, location(d.url, ptr))
		}
	}
	id := idOf(obj, draft)
	if id == "" && ptr != "" { // $schema counts only in a resource
		draft = fallback
		id = idOf(obj, draft)
	}
	var res *resource
	if id != "" {
		u, err := join(base, id)
		if err != nil {
			return compileError("the id %q at %s is not a URL: %v", id, location(d.url, ptr), err)
		}
		base = u
		res = &resource{ptr: ptr, id: base, draft: draft, anchors: map[string]string{}}
	} else if ptr == "" {
		res = &resource{ptr: ptr, id: base, draft: draft, anchors: map[string]string{}}
	}
	if res != nil {
		found := false
		for _, r := range d.resources {
			if r.id == base {
				found = true
				if r.ptr != ptr {
					return compileError("two schemas in %s have the id %q, at %q and %q; give each its own", d.url, base, ptr, r.ptr)
				}
			}
		}
		if !found {
			d.resources[ptr] = res
		}
	}
	var baseRes *resource
	for _, r := range d.resources {
		if r.id == base {
			baseRes = r
			break
		}
	}
	if err := d.collectAnchors(obj, ptr, baseRes); err != nil {
		return err
	}
	for _, sub := range subschemas(obj, ptr, draft) {
		if err := d.collect(sub.v, base, sub.ptr, baseRes.draft); err != nil {
			return err
		}
	}
	return nil
}

func (d *document) collectAnchors(obj map[string]any, ptr string, res *resource) error {
	add := func(name string) error {
		if at, ok := res.anchors[name]; ok {
			if at == ptr {
				return nil
			}
			return compileError("two schemas in %s have the anchor %q, at %q and %q; give each its own", d.url, name, at, ptr)
		}
		res.anchors[name] = ptr
		return nil
	}
	if res.draft < Draft2019 {
		if _, ok := obj["$ref"]; ok {
			return nil
		}
		key := "$id"
		if res.draft == Draft4 {
			key = "id"
		}
		if id, ok := obj[key].(string); ok {
			_, frag, err := splitFragment(id)
			if err != nil {
				return compileError("the anchor in %q at %s is not valid: %v", id, location(d.url, ptr), err)
			}
			if frag != "" && !strings.HasPrefix(frag, "/") {
				if err := add(frag); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if s, ok := obj["$anchor"].(string); ok {
		if err := add(s); err != nil {
			return err
		}
	}
	if res.draft >= Draft2020 {
		if s, ok := obj["$dynamicAnchor"].(string); ok {
			if err := add(s); err != nil {
				return err
			}
			res.dynamic = append(res.dynamic, s)
		}
	}
	return nil
}

// sub is a subschema's value and pointer.
type sub struct {
	ptr string
	v   any
}

// subschemas lists the values at a schema object's subschema keywords, by draft.
func subschemas(obj map[string]any, ptr string, draft int) []sub {
	var out []sub
	one := func(k string) {
		if v, ok := obj[k]; ok {
			out = append(out, sub{ptr + "/" + escape(k), v})
		}
	}
	each := func(k string) {
		if m, ok := obj[k].(map[string]any); ok {
			for name, v := range m {
				if _, names := v.([]any); names && k == "dependencies" {
					continue // a list of property names
				}
				out = append(out, sub{ptr + "/" + escape(k) + "/" + escape(name), v})
			}
		}
	}
	items := func(k string) {
		if a, ok := obj[k].([]any); ok {
			for i, v := range a {
				out = append(out, sub{ptr + "/" + k + "/" + strconv.Itoa(i), v})
			}
		}
	}
	each("definitions")
	one("not")
	items("allOf")
	items("anyOf")
	items("oneOf")
	each("properties")
	one("additionalProperties")
	each("patternProperties")
	if _, list := obj["items"].([]any); list {
		items("items")
	} else {
		one("items")
	}
	one("additionalItems")
	each("dependencies")
	if draft >= Draft6 {
		one("propertyNames")
		one("contains")
	}
	if draft >= Draft7 {
		one("if")
		one("then")
		one("else")
	}
	if draft >= Draft2019 {
		each("$defs")
		each("dependentSchemas")
		one("unevaluatedProperties")
		one("unevaluatedItems")
		one("contentSchema")
	}
	if draft >= Draft2020 {
		items("prefixItems")
	}
	return out
}

// resolveIn is the pointer a fragment names in resource r: a JSON pointer from r, or an
// anchor of r.
func (d *document) resolveIn(frag string, r *resource) (string, error) {
	if frag == "" || strings.HasPrefix(frag, "/") {
		return r.ptr + frag, nil
	}
	ptr, ok := r.anchors[frag]
	if !ok {
		return "", compileError("no schema in %s has the anchor %q that %s names; add \"$anchor\": %q to the schema meant, or fix the $ref", d.url, frag, r.id+"#"+frag, frag)
	}
	return ptr, nil
}

// lookup is the value at a JSON pointer.
func (d *document) lookup(ptr string) (any, error) {
	v := d.v
	if ptr == "" {
		return v, nil
	}
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok, ok := unescape(tok)
		if !ok {
			return nil, compileError("%q is not a JSON pointer (~ must be followed by 0 or 1)", location(d.url, ptr))
		}
		switch x := v.(type) {
		case map[string]any:
			if next, ok := x[tok]; ok {
				v = next
				continue
			}
		case []any:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(x) {
				v = x[i]
				continue
			}
		}
		return nil, compileError("nothing is at %q; fix the $ref's JSON pointer", location(d.url, ptr))
	}
	return v, nil
}

// enqueue is the schema at ptr in d, made (and queued for compiling) if it is new.
func (c *Compiler) enqueue(d *document, ptr string) (*Schema, error) {
	loc := location(d.url, ptr)
	if s, ok := c.schemas[loc]; ok {
		return s, nil
	}
	s := &Schema{loc: loc, doc: d, ptr: ptr}
	c.schemas[loc] = s
	c.queue = append(c.queue, s)
	return s, nil
}

// ref is the schema a reference names, from the resource the schema at ptr is in.
func (c *Compiler) ref(d *document, ptr, ref string) (*Schema, error) {
	base := d.resourceAt(ptr).id
	u, err := join(base, ref)
	if err != nil {
		return nil, compileError("the reference %q at %s is not a URL: %v", ref, location(d.url, ptr), err)
	}
	_, frag, err := splitFragment(ref)
	if err != nil {
		return nil, compileError("the reference %q at %s is not a URL: %v", ref, location(d.url, ptr), err)
	}
	// A resource of this document?
	var res *resource
	if u == d.url {
		res = d.resources[""]
	} else {
		for _, r := range d.resources {
			if r.id == u {
				res = r
				break
			}
		}
	}
	target := d
	if res == nil {
		if target, err = c.document(u); err != nil {
			return nil, err
		}
		res = target.resources[""]
	}
	p, err := target.resolveIn(frag, res)
	if err != nil {
		return nil, err
	}
	if !target.walked[p] {
		if err := c.subschema(target, p); err != nil {
			return nil, err
		}
	}
	return c.enqueue(target, p)
}

// subschema readies a $ref's target that is no subschema of its document's own (a pointer
// into a keyword this validator does not read as a schema): its resources, anchors and
// keywords as for any schema.
func (c *Compiler) subschema(d *document, ptr string) error {
	v, err := d.lookup(ptr)
	if err != nil {
		return err
	}
	r := d.resourceAt(ptr)
	if err := d.collect(v, r.id, ptr, r.draft); err != nil {
		return err
	}
	if _, ok := d.resources[ptr]; !ok {
		if obj, ok := v.(map[string]any); ok {
			if err := d.collectAnchors(obj, ptr, d.resourceAt(ptr)); err != nil {
				return err
			}
		}
	}
	return checkSchema(d, v, ptr)
}

// join resolves ref against base, keeping base's opaque part as net/url does not.
func join(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	ref, _, _ = strings.Cut(ref, "#")
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	out := b.ResolveReference(r)
	if !r.IsAbs() && b.Opaque != "" {
		out.Opaque = b.Opaque
	}
	return out.String(), nil
}

// splitFragment splits a URL at '#', unescaping the fragment.
func splitFragment(s string) (string, string, error) {
	u, frag, _ := strings.Cut(s, "#")
	f, err := url.PathUnescape(frag)
	if err != nil {
		return "", "", compileError("%q is not a URL: %v", s, err)
	}
	return u, f, nil
}

// location is a schema's location as the former validator printed it: URL#pointer, each
// pointer token path-escaped.
func location(u, ptr string) string {
	var sb strings.Builder
	sb.WriteString(u)
	sb.WriteByte('#')
	for i, tok := range strings.Split(ptr, "/") {
		if i > 0 {
			sb.WriteByte('/')
		}
		sb.WriteString(url.PathEscape(tok))
	}
	return sb.String()
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func unescape(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var sb strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			sb.WriteByte(tok[i])
			continue
		}
		if i+1 == len(tok) {
			return "", false
		}
		switch tok[i+1] {
		case '0':
			sb.WriteByte('~')
		case '1':
			sb.WriteByte('/')
		default:
			return "", false
		}
		i++
	}
	return sb.String(), true
}

// number is a JSON number as an exact rational, false for something else.
func number(v any) (*big.Rat, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// compileRegexp compiles a pattern with Go's regexp, as the former validator did.
func compileRegexp(s string) (*regexp.Regexp, error) { return regexp.Compile(s) }
