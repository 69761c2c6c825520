package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
	"github.com/google/go-cmp/cmp"
)

// TestRedrawWarned: a name drawn again replaces the first drawing, as upstream does, and the
// run says so, naming the name, how often and where; a boolean result written over again (an
// accumulator) is not a drawing and is not warned about (its inputs still drawn are the drawing
// lint's: TestKeptInputsLinted).
func TestRedrawWarned(t *testing.T) {
	t.Parallel()
	src := `for (let i = 0; i < 4; i++) drawCircle('h', i * 5, 0, 1)
drawRect('r', 0, 0, 1, 1)
drawRect('r', 0, 0, 2, 1)
drawCircle('a', 0, 0, 1); drawCircle('b', 1, 0, 1)
booleanUnion('a', 'b', 'acc'); booleanUnion('acc', 'r', 'acc')
drawCircle('once', 9, 9, 1)`
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	tail := "; each drawing replaced the one before, so only the last is in the scene: give each its own name (`name + i` in a loop) to keep them all"
	want := []string{
		`"h" was drawn 4 times in this run (drawn again at scene.code.js:1:29 (3 times))` + tail,
		`"r" was drawn 2 times in this run (drawn again at scene.code.js:3:1)` + tail,
	}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if n := res.Scene.Len(); n != 6 {
		t.Errorf("the scene has %d entities; want 6 (h, r, a, b, acc, once): the semantics changed", n)
	}
}

// TestRedrawWarningsCapped: at most maxRedrawNames names and maxRedrawPlaces places each.
func TestRedrawWarningsCapped(t *testing.T) {
	t.Parallel()
	src := "drawRect('p', 0, 0, 1, 1)\ndrawRect('p', 0, 0, 1, 1)\ndrawRect('p', 0, 0, 1, 1)\ndrawRect('p', 0, 0, 1, 1)\ndrawRect('p', 0, 0, 1, 1)\n"
	for i := range 12 {
		src += fmt.Sprintf("drawCircle('n%d', 0, 0, 1); drawCircle('n%d', 0, 0, 1)\n", i, i)
	}
	res, err := runMain(t, src, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Warnings); got != maxRedrawNames+1 {
		t.Fatalf("%d warnings; want %d:\n%q", got, maxRedrawNames+1, res.Warnings)
	}
	want := `"p" was drawn 5 times in this run (drawn again at scene.code.js:2:1, scene.code.js:3:1, scene.code.js:4:1, 1 more places)` +
		"; each drawing replaced the one before, so only the last is in the scene: give each its own name (`name + i` in a loop) to keep them all"
	if diff := cmp.Diff(want, res.Warnings[0]); diff != "" {
		t.Errorf("first warning mismatch (-want +got):\n%s", diff)
	}
	if got, want := res.Warnings[maxRedrawNames], "3 more names were drawn more than once"; got != want {
		t.Errorf("last warning %q; want %q", got, want)
	}
}

// TestKeptInputsLinted: a run reports its booleans, and the drawing lint reads them: a
// boolean whose inputs still draw where its result is is a finding, in the words the run's
// warning had; inputs deleted, hidden or moved away from the result are not named. With
// Options.Lint the run answers the findings (Result.Lint), which AllWarnings adds to the
// warnings.
func TestKeptInputsLinted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"a plate and its holes kept", `drawRect('blank', 0, 0, 40, 20); drawCircle('h1', -10, 0, 3); drawCircle('h2', 10, 0, 3)
booleanDifference('blank', ['h1', 'h2'], 'panel')`,
			[]string{`boolean-inputs: booleans keep their inputs, as upstream's do: the inputs of "panel" (booleanDifference of "blank", "h1", "h2") still draw where the result is, so the picture and every export (DXF, PDF) show both; deleteEntity the inputs if only the result should stay (at 0, 0)`}},
		{"an accumulator", `drawRect('r', 0, 0, 2, 1); drawCircle('a', 0, 0, 1); drawCircle('b', 1, 0, 1)
booleanUnion('a', 'b', 'acc'); booleanUnion('acc', 'r', 'acc')`,
			[]string{`boolean-inputs: booleans keep their inputs, as upstream's do: the inputs of "acc" (booleanUnion of "a", "b", "r") still draw where the result is, so the picture and every export (DXF, PDF) show both; deleteEntity the inputs if only the result should stay (at 0.5, 0)`}},
		{"inputs deleted", `drawRect('blank', 0, 0, 40, 20); drawCircle('h', 0, 0, 3)
booleanDifference('blank', 'h', 'panel'); deleteEntity('blank'); deleteEntity('h')`, nil},
		{"an input kept without fill or stroke, for its area", `drawCircle('a', 0, 0, 5); drawCircle('b', 6, 0, 5)
booleanUnion('a', 'b', 'u'); setStroke('a', null); setStroke('b', [0, 0, 0, 0])`, nil},
		{"the result moved away", `drawCircle('a', 0, 0, 5); drawCircle('b', 6, 0, 5)
booleanUnion('a', 'b', 'u'); translate('u', 100, 0)`, nil},
	}
	for _, tt := range tests {
		res, err := runMain(t, tt.src, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(res.Warnings) != 0 {
			t.Errorf("%s: warnings %q without Options.Lint; want none", tt.name, res.Warnings)
		}
		var got []string
		for _, f := range lint.Check(res.Scene, lint.Options{Booleans: res.Booleans}) {
			if f.Rule == lint.RuleBooleanInputs {
				got = append(got, f.String())
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: findings mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	res, err := Run(context.Background(), MapSource{MainModule: tests[0].src}, MainModule, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{tests[0].want[0]}, lintLines(res.Lint)); diff != "" || len(res.Warnings) != 0 {
		t.Errorf("findings with Options.Lint mismatch (-want +got):\n%s\nwarnings %q, want none", diff, res.Warnings)
	}
	if diff := cmp.Diff([]string{"lint: " + tests[0].want[0]}, res.AllWarnings()); diff != "" {
		t.Errorf("all warnings with Options.Lint mismatch (-want +got):\n%s", diff)
	}
}

func lintLines(found []lint.Finding) []string {
	var out []string
	for _, f := range found {
		out = append(out, f.String())
	}
	return out
}

// TestPoolLintsInTheWorker: with Options.Lint a run lints its scene in the worker and answers
// the findings themselves, in Result.Lint, not as warnings; 12,000 texts drawn over each other
// (72 million pairs, which took the server 2 GB) are linted within the lint's budget (or its
// time, on a slow machine or under the race detector), the last finding saying where it
// stopped, and the run is good.
func TestPoolLintsInTheWorker(t *testing.T) {
	t.Parallel()
	p := newTestPool(t, 0)
	const texts = "for (let i = 0; i < 12000; i++) drawText('t'+i, 'WWWW', (i%100)*0.1, Math.floor(i/100)*0.1, 5)\n" // under MaxTextSegments
	res, err := p.Run(context.Background(), MapSource{MainModule: texts}, MainModule, Options{Lint: true, Limits: Limits{Timeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Lint); n < 1 || n > lint.MaxLintFindings+2 {
		t.Fatalf("%d findings; want the first texts' and a note", n)
	}
	last := res.Lint[len(res.Lint)-1]
	if !lint.IsNote(last) || !strings.Contains(last.Message, "in rule text-overlap") {
		t.Fatalf("last finding %q; want the note that the lint stopped", last)
	}
	if strings.Contains(last.Message, "(MaxLintTime)") {
		t.Logf("the lint stopped at its time, %d findings: a slow machine", len(res.Lint)-1)
	} else {
		first := `text-overlap: text "t1" overlaps text "t0" (at `
		if got := res.Lint[0].String(); !strings.HasPrefix(got, first) || !strings.Contains(last.Message, "(MaxLintChecks)") {
			t.Errorf("first finding %q, last %q; want the first to start %q and the last to name MaxLintChecks", got, last, first)
		}
		if want := lint.Check(res.Scene, lint.Options{Booleans: res.Booleans}); !cmp.Equal(want, res.Lint) {
			t.Errorf("the worker's findings are not those of its scene linted here: %d against %d", len(res.Lint), len(want))
		}
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %q; want the findings in Result.Lint only", res.Warnings[:min(3, len(res.Warnings))])
	}
	if got := res.AllWarnings(); len(got) != len(res.Lint) || got[0] != "lint: "+res.Lint[0].String() {
		t.Errorf("AllWarnings = %q...; want a line for each finding", got[:min(3, len(got))])
	}
}

// TestLintTimeIsItsOwn: a run's lint comes after the script, and the wait for the run grows by
// the lint's own time once the script is done, so a lint that takes longer than what is left
// of the run's timeout and its second of grace does not make a good run a TimeoutError. In a
// synctest bubble the lint's time passes on the bubble's clock.
func TestLintTimeIsItsOwn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lintHold = func() { time.Sleep(nativeGrace + time.Second/2) } // past the timeout and its grace
		defer func() { lintHold = nil }()
		res, err := Run(context.Background(), MapSource{MainModule: "drawText('a', 'x', 0, 0, 1)\n"}, MainModule, Options{Lint: true, Limits: Limits{Timeout: time.Second / 2}})
		if err != nil {
			t.Fatalf("a good run whose lint took %v: %v", nativeGrace+time.Second/2, err)
		}
		if len(res.Lint) != 1 || res.Lint[0].Rule != lint.RuleTextSmall {
			t.Errorf("findings %q; want the small text's", res.Lint)
		}
	})
}

// TestSceneComesBeforeTheLint: a worker sends a good run's scene as soon as the script is done
// and before it lints, so that the parent reads the scene while the worker lints; the
// findings come after it, in the result. (Not parallel: it sets lintHold.)
func TestSceneComesBeforeTheLint(t *testing.T) {
	src := MapSource{MainModule: "drawText('a', 'x', 0, 0, 1)\n"}
	first := sendable(readReply(src, MainModule), map[string][]byte{})
	req, err := json.Marshal(message{Type: "run", Entry: MainModule, Options: &Options{Lint: true}, First: &first})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	atLint := ""
	lintHold = func() { atLint = out.String() } // the lint runs on serveWorker's goroutine
	defer func() { lintHold = nil }()
	if err := serveWorker(bytes.NewReader(append(req, '\n')), &out, DefaultLimits.MaxMemory, nil); err != io.EOF {
		t.Fatalf("serveWorker: %v; want io.EOF at the end of its input", err)
	}
	ran, rest, _ := strings.Cut(atLint, "\n")
	sceneLine, sceneJSON, _ := strings.Cut(rest, "\n")
	var m message
	if ran != `{"type":"ran"}` || json.Unmarshal([]byte(sceneLine), &m) != nil || m.Type != "scene" || len(sceneJSON) != m.SceneBytes {
		t.Fatalf("sent before the lint: %q; want the ran line, then the scene line and its %d bytes", atLint, m.SceneBytes)
	}
	if _, err := scene.ReadJSON([]byte(sceneJSON)); err != nil {
		t.Errorf("the scene sent before the lint: %v", err)
	}
	after := strings.TrimPrefix(out.String(), atLint)
	var r message
	if err := json.Unmarshal([]byte(after), &r); err != nil || r.Type != "result" || len(r.Lint) != 1 || r.Lint[0].Rule != lint.RuleTextSmall || r.SceneBytes != 0 {
		t.Errorf("after the lint: %q; want the result with the small text's finding", after)
	}
}
