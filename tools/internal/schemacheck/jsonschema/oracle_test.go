package jsonschema

// The former validator, santhosh-tekuri/jsonschema, is this package's oracle: a test-only
// dependency that every answer here is checked against.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	oracle "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/cadrun/cadrun/runtime"
)

const base = "cadrun:///data/"

// outcome is what a validator answers for a schema and an instance: whether the schema
// compiled, and each leaf error as "instance pointer | schema location | keyword | message",
// sorted.
type outcome struct {
	compiled bool
	leaves   []string
}

func pointer(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteString("/" + escape(t))
	}
	return sb.String()
}

// normalize puts the names of "additional properties" in order: the former validator
// listed them in Go's map order.
func normalize(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "additional properties "); ok {
		if names, ok := strings.CutSuffix(rest, " not allowed"); ok {
			list := strings.Split(names, ", ")
			slices.Sort(list)
			return "additional properties " + strings.Join(list, ", ") + " not allowed"
		}
	}
	return msg
}

func sortedUnique(l []string) []string {
	slices.Sort(l)
	return slices.Compact(l)
}

func askOracle(t testing.TB, docs map[string]string, root, inst string) outcome {
	t.Helper()
	c := oracle.NewCompiler()
	c.DefaultDraft(oracle.Draft2020)
	c.UseLoader(oracleLoader(docs))
	sch, err := c.Compile(base + root)
	if err != nil {
		return outcome{}
	}
	v, err := oracle.UnmarshalJSON(strings.NewReader(inst))
	if err != nil {
		t.Fatalf("instance %s: %v", inst, err)
	}
	err = sch.Validate(v)
	var ve *oracle.ValidationError
	if err != nil && !errors.As(err, &ve) {
		t.Fatalf("oracle: %v", err)
	}
	out := outcome{compiled: true}
	p := message.NewPrinter(language.English)
	var walk func(e *oracle.ValidationError)
	walk = func(e *oracle.ValidationError) {
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) == 0 {
			out.leaves = append(out.leaves, fmt.Sprintf("%s | %s | %s | %s", pointer(e.InstanceLocation), e.SchemaURL,
				strings.Join(e.ErrorKind.KeywordPath(), "/"), normalize(e.ErrorKind.LocalizedString(p))))
		}
	}
	if ve != nil {
		walk(ve)
	}
	out.leaves = sortedUnique(out.leaves)
	return out
}

type oracleLoader map[string]string

func (l oracleLoader) Load(url string) (any, error) {
	name, ok := strings.CutPrefix(url, base)
	src, found := l[name]
	if !ok || !found {
		return nil, fmt.Errorf("no document %q", url)
	}
	return oracle.UnmarshalJSON(strings.NewReader(src))
}

func askMine(t testing.TB, docs map[string]string, root, inst string) (outcome, error) {
	t.Helper()
	c := NewCompiler(func(url string) (any, error) {
		name, ok := strings.CutPrefix(url, base)
		src, found := docs[name]
		if !ok || !found {
			return nil, fmt.Errorf("no document %q", url)
		}
		return Decode([]byte(src))
	}, Draft2020)
	sch, err := c.Compile(base + root)
	if err != nil {
		return outcome{}, err
	}
	v, err := Decode([]byte(inst))
	if err != nil {
		t.Fatalf("instance %s: %v", inst, err)
	}
	out := outcome{compiled: true}
	for _, e := range sch.Validate(v) {
		out.leaves = append(out.leaves, fmt.Sprintf("%s | %s | %s | %s", pointer(e.Instance), e.Schema, strings.Join(e.Keyword, "/"), e.Message))
	}
	out.leaves = sortedUnique(out.leaves)
	return out, nil
}

// strictJSON: the inputs cadrun gives a validator pass its one rule for JSON input.
func strictJSON(s string) bool {
	return runtime.JSONSyntaxError([]byte(s)) == "" && bytes.TrimSpace([]byte(s)) != nil
}
