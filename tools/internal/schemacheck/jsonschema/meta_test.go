package jsonschema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSchemaProblemsCapped: a schema with many problems lists MaxSchemaProblems of them and
// says how many more there are, naming the limit.
func TestSchemaProblemsCapped(t *testing.T) {
	t.Parallel()
	props := make([]string, MaxSchemaProblems+2)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%02d":{"minimum":"x"}`, i)
	}
	docs := map[string]string{"s.json": `{"properties":{` + strings.Join(props, ",") + `}}`}
	_, err := askMine(t, docs, "s.json", "{}")
	if !errors.Is(err, ErrSchema) {
		t.Fatalf("got %v, want ErrSchema", err)
	}
	if got := strings.Count(err.Error(), "want a number"); got != MaxSchemaProblems {
		t.Errorf("%d problems listed, want %d: %v", got, MaxSchemaProblems, err)
	}
	if !strings.HasSuffix(err.Error(), "; and 2 more (MaxSchemaProblems)") {
		t.Errorf("no count of the rest: %v", err)
	}
}
