package schemacheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cadrun/cadrun/runtime"
)

// bombSchema has two anyOf branches that each $ref back into it: a check of data nested n
// deep is exponential in n.
const bombSchema = `{"anyOf":[{"type":"array","items":{"$ref":"#"}},{"type":"array","items":{"$ref":"#"}}]}`

func nested(n int) string { return strings.Repeat("[", n) + "true" + strings.Repeat("]", n) }

func deepSchema(n int) string { return strings.Repeat(`{"items":`, n) + "{}" + strings.Repeat("}", n) }

const simplify = "simplify the schema (anyOf or oneOf branches that each $ref back into it make the check exponential in the data's depth; " +
	"a schema nested hundreds of levels deep is slow to compile) or make the data smaller or shallower"

// TestCheckStopsAtLimits: a check past its time or memory is stopped, with an error naming
// the limit, and the Checker's next check runs in a fresh worker. Each case sets the other
// limit far out of reach, so that the one under test is met first.
func TestCheckStopsAtLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opt  Options
		src  runtime.MapSource
		want string
	}{
		{"exponential anyOf, memory", Options{Time: time.Minute, Memory: 64 << 20},
			runtime.MapSource{"d.json": nested(40), "d.schema.json": bombSchema},
			"schema validation limit exceeded: checking data/d.json against data/d.schema.json needed more than 64 MB of memory (MaxSchemaMemory) and was stopped; " + simplify},
		{"exponential anyOf, time", Options{Time: 100 * time.Millisecond, Memory: 4 << 30},
			runtime.MapSource{"d.json": nested(40), "d.schema.json": bombSchema},
			"schema validation limit exceeded: checking data/d.json against data/d.schema.json took longer than 100ms (MaxSchemaTime) and was stopped; " + simplify},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := NewChecker(tc.opt)
			defer c.Close()
			err := c.Check(context.Background(), tc.src, "d.json", "d.schema.json")
			if !errors.Is(err, ErrSchemaLimit) {
				t.Fatalf("got %v, want ErrSchemaLimit", err)
			}
			if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			ok := runtime.MapSource{"d.json": "[[]]", "d.schema.json": bombSchema}
			if err := c.Check(context.Background(), ok, "d.json", "d.schema.json"); err != nil {
				t.Errorf("the check after the limit: %v", err)
			}
		})
	}
}

// TestDeepSchemaRefusedByTheInputRule: a schema nested 9,000 deep (which ran the checker out of
// memory) is refused before it is compiled, by the one input rule's nesting cap.
func TestDeepSchemaRefusedByTheInputRule(t *testing.T) {
	t.Parallel()
	c := NewChecker(Options{Time: time.Minute, Memory: 64 << 20})
	defer c.Close()
	err := c.Check(context.Background(), runtime.MapSource{"d.json": "[]", "d.schema.json": deepSchema(9000)}, "d.json", "d.schema.json")
	want := "invalid data: data/d.schema.json:1:9001: arrays and objects nest more than 1000 levels deep (strictjson.MaxDepth); flatten the value"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestCheckAnswersAsValidate: in its worker a check answers what Validate answers in process,
// word for word, for every outcome.
func TestCheckAnswersAsValidate(t *testing.T) {
	t.Parallel()
	door := `{"type":"object","properties":{"width":{"type":"number","minimum":600}},"required":["width"]}`
	many := "[" + strings.Repeat(`"x",`, 99) + `"x"]`
	for _, tc := range []struct {
		name string
		src  runtime.MapSource
	}{
		{"matches", runtime.MapSource{"d.json": `{"width": 900}`, "d.schema.json": door}},
		{"does not match", runtime.MapSource{"d.json": "{\n  \"width\": 300\n}", "d.schema.json": door}},
		{"more errors than listed", runtime.MapSource{"d.json": many, "d.schema.json": `{"items":{"type":"number"}}`}},
		{"no data", runtime.MapSource{"d.schema.json": door}},
		{"no schema", runtime.MapSource{"d.json": "{}"}},
		{"schema not JSON", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"type":`}},
		{"data not JSON", runtime.MapSource{"d.json": "{,}", "d.schema.json": door}},
		{"schema not usable", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"type":"nothing"}`}},
		{"ref to another data file", runtime.MapSource{"d.json": `{"width": 1}`, "d.schema.json": `{"properties":{"width":{"$ref":"w.json"}}}`, "w.json": `{"minimum": 5}`}},
		{"ref to a missing data file", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$ref":"gone.json"}`}},
		{"ref outside the data files", runtime.MapSource{"d.json": "{}", "d.schema.json": `{"$ref":"file:///etc/passwd"}`}},
		{"a draft-07 format", runtime.MapSource{"d.json": `{"at": "noon"}`, "d.schema.json": `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"at":{"format":"time"}}}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := NewChecker(Options{})
			defer c.Close()
			want := Validate(tc.src, "d.json", "d.schema.json")
			got := c.Check(context.Background(), tc.src, "d.json", "d.schema.json")
			if diff := cmp.Diff(fmt.Sprint(want), fmt.Sprint(got)); diff != "" {
				t.Errorf("mismatch (-in process +in the worker):\n%s", diff)
			}
			if errors.Is(want, ErrInvalidData) != errors.Is(got, ErrInvalidData) {
				t.Errorf("in process %v, in the worker %v: one is ErrInvalidData, the other not", want, got)
			}
		})
	}
}

// brokenFiles fails to read one file with its own error.
type brokenFiles struct {
	runtime.MapSource
	broken string
}

var errBroken = errors.New("the disk is on fire")

func (b brokenFiles) Read(name string) ([]byte, string, error) {
	if name == b.broken {
		return nil, runtime.PathOf(name), errBroken
	}
	return b.MapSource.Read(name)
}

// TestCheckKeepsReadErrors: a read that fails in the caller's Source fails the check with
// that very error, not its text.
func TestCheckKeepsReadErrors(t *testing.T) {
	t.Parallel()
	c := NewChecker(Options{})
	defer c.Close()
	for _, broken := range []string{"d.json", "d.schema.json"} {
		src := brokenFiles{runtime.MapSource{"d.json": "{}", "d.schema.json": "{}"}, broken}
		if err := c.Check(context.Background(), src, "d.json", "d.schema.json"); err != errBroken {
			t.Errorf("reading %s broken: got %v, want %v", broken, err, errBroken)
		}
	}
}

// TestCheckCancelled: a cancelled check ends with the context's error.
func TestCheckCancelled(t *testing.T) {
	t.Parallel()
	c := NewChecker(Options{Time: time.Minute})
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	src := runtime.MapSource{"d.json": nested(40), "d.schema.json": bombSchema}
	done := make(chan error, 1)
	go func() { done <- c.Check(ctx, src, "d.json", "d.schema.json") }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
}
