package runtime

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testOutcome is a test block as the tests compare it: name and the failure's one-line form.
type testOutcome struct{ Name, Failure string }

func outcomes(res *Result) []testOutcome {
	var out []testOutcome
	for _, t := range res.Tests {
		o := testOutcome{Name: t.Name}
		if t.Failure != nil {
			o.Failure = t.Failure.Error()
		}
		out = append(out, o)
	}
	return out
}

func TestTestBlocks(t *testing.T) {
	t.Parallel()
	src := MapSource{
		MainModule: `import {plate} from 'dims'
test('passes', () => {
  assert(plate.width > 0, 'plate has a width')
  assertClose(plate.width, 80.0000001, 1e-3)
  assertClose(0.1 + 0.2, 0.3, 1e-15)
  assertEqual([1, 2], [1, 2])
})
test('assert fails', () => {
  assert(plate.width > 100, 'plate is wide')
})
test('close fails', () => {
    assertClose(plate.width, 81, 0.5, 'width')
})
test('equal fails', () => { assertEqual(plate.name, 'lid') })
test('equal arrays fail', () => { assertEqual([1, 2], [1, 3], 'holes') })
test('throws', () => { throw new RangeError('bad') })
drawRect('after', 0, 0, 1, 1)
`,
		"dims": "export const plate = {width: 80, name: 'base'}\n",
	}
	res, err := Run(context.Background(), src, MainModule, Options{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []testOutcome{
		{Name: "passes"},
		{Name: "assert fails", Failure: "scene.code.js:9:3: AssertionError: plate is wide: the condition was false"},
		{Name: "close fails", Failure: "scene.code.js:12:5: AssertionError: width: got 80, want 81 ± 0.5 (off by 1)"},
		{Name: "equal fails", Failure: `scene.code.js:14:29: AssertionError: got "base", want "lid"`},
		{Name: "equal arrays fail", Failure: "scene.code.js:15:35: AssertionError: holes: got [1,2], want [1,3]"},
		{Name: "throws", Failure: "scene.code.js:16:30: RangeError: bad"},
	}
	if diff := cmp.Diff(want, outcomes(res)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !res.Scene.Exists("after") {
		t.Error("the file did not go on after its failed blocks")
	}
}

func TestTestBlocksOutsideTests(t *testing.T) {
	t.Parallel()
	_, err := runMain(t, "assert(true)", Limits{})
	want := "scene.code.js:1:1: Error: assert: " + testOnlyHint
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestTestBlockMisuse(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{"assertClose(1, 1.1, 1e-9)", "scene.code.js:1:1: AssertionError: got 1, want 1.1 ± 1e-9 (off by 0.10000000000000009)"},
		{"test('a', () => {}); test('a', () => {})", `scene.code.js:1:22: Error: test: a test named "a" already ran in this file; give each test its own name`},
		{"test('a', 3)", "scene.code.js:1:1: TypeError: test: fn must be a function, got 3"},
		{"test('', () => {})", "scene.code.js:1:1: TypeError: test: name must not be empty; name the test after what it checks"},
		{"assertClose(1, 1, -1)", "scene.code.js:1:1: RangeError: assertClose: tol must be a finite number >= 0, got -1"},
		{"assert(false)", "scene.code.js:1:1: AssertionError: the condition was false"},
		{"for (let i = 0; i <= 1000; i++) test('t' + i, () => {})", "scene.code.js:1:33: RangeError: test: more than 1000 test blocks in one run (MaxTests); split the file"},
	}
	for _, tt := range tests {
		_, err := Run(context.Background(), MapSource{MainModule: tt.src}, MainModule, Options{Tests: true})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

func TestTestBlocksDoNotNest(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), MapSource{MainModule: "test('a', () => { test('b', () => {}) })"}, MainModule, Options{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []testOutcome{{Name: "a", Failure: `scene.code.js:1:19: Error: test: test blocks do not nest; call test("b", ...) at the top level of the file`}}
	if diff := cmp.Diff(want, outcomes(res)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestTestBlockTimeoutEndsTheRun(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), MapSource{MainModule: "test('loop', () => { for (;;) {} })"}, MainModule,
		Options{Tests: true, Limits: Limits{Timeout: 100 * time.Millisecond}})
	if err == nil || !strings.Contains(err.Error(), "TimeoutError") {
		t.Errorf("err = %v, want a TimeoutError", err)
	}
}

func TestTestBlocksThroughPool(t *testing.T) {
	p := NewPool(PoolOptions{})
	defer p.Close()
	res, err := p.Run(context.Background(), MapSource{MainModule: "test('x', () => assertEqual(1, 2))"}, MainModule, Options{Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []testOutcome{{Name: "x", Failure: "scene.code.js:1:17: AssertionError: got 1, want 2"}}
	if diff := cmp.Diff(want, outcomes(res)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
