package runtime

// Test scripts (tests/NAME.test.js, run by `cadrun test`) get four more functions: test
// blocks and three assertions. They are bound only when Options.Tests is set, so that a
// drawing never depends on them; elsewhere each name throws an Error that says where it
// works. A failed assertion throws an AssertionError, whose diagnostic names the file, line
// and column of the assert call; test() catches it, records it, and goes on with the next
// block, so every block of a file reports on its own. Limits (time, memory) are not caught:
// they end the run.

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// MaxTests is how many test blocks one run may hold.
const MaxTests = 1000

// TestResult is one test('name', fn) block of a run.
type TestResult struct {
	Name     string        `json:"name"`
	Failure  *Diagnostic   `json:"failure,omitempty"` // nil when the block passed
	Duration time.Duration `json:"duration"`
}

const testOnlyHint = "test, assert, assertClose and assertEqual work only in test scripts (tests/NAME.test.js) run by `cadrun test`"

// onlyInTests guards a testing function outside test runs.
func onlyInTests(c *call) {
	if !c.r.tests {
		c.fail("Error", "%s", testOnlyHint)
	}
}

func testBlock(c *call) goja.Value {
	onlyInTests(c)
	name := c.str(0)
	fn, ok := goja.AssertFunction(c.arg(1))
	if !ok {
		c.fail("TypeError", "fn must be a function, got %s", describe(c.arg(1)))
	}
	switch {
	case name == "":
		c.fail("TypeError", "name must not be empty; name the test after what it checks")
	case c.r.inTest:
		c.fail("Error", "test blocks do not nest; call test(%q, ...) at the top level of the file", name)
	case len(c.r.res.Tests) >= MaxTests:
		c.fail("RangeError", "more than %d test blocks in one run (MaxTests); split the file", MaxTests)
	}
	for _, t := range c.r.res.Tests {
		if t.Name == name {
			c.fail("Error", "a test named %q already ran in this file; give each test its own name", name)
		}
	}
	c.r.inTest = true
	start := time.Now()
	_, err := fn(goja.Undefined())
	c.r.inTest = false
	res := TestResult{Name: name, Duration: time.Since(start)}
	if err != nil {
		var ex *goja.Exception
		if !errors.As(err, &ex) {
			panic(err) // a timeout, a memory limit, a stack overflow: the run ends
		}
		// Diagnosed when the run ends (diagnoseTests): diagnose reads the table, which
		// holds this function, and Go refuses that initialization cycle.
		c.r.testErrs = append(c.r.testErrs, testErr{len(c.r.res.Tests), ex})
	}
	c.r.res.Tests = append(c.r.res.Tests, res)
	return goja.Undefined()
}

// testErr is a failed test block waiting for its diagnostic.
type testErr struct {
	index int
	ex    *goja.Exception
}

// diagnoseTests explains the failed test blocks of the run.
func (r *run) diagnoseTests() {
	for _, e := range r.testErrs {
		r.res.Tests[e.index].Failure = r.diagnose(e.ex)
	}
	r.testErrs = nil
}

// assertFail throws an AssertionError: "what: message".
func (c *call) assertFail(what string, msgArg int) {
	msg := what
	if c.present(msgArg) {
		if s, ok := asString(c.arg(msgArg)); ok && s != "" {
			msg = s + ": " + what
		}
	}
	obj := c.r.vm.NewGoError(errors.New(msg))
	_ = obj.Set("name", "AssertionError")
	panic(obj)
}

func assertTrue(c *call) goja.Value {
	onlyInTests(c)
	if !c.arg(0).ToBoolean() {
		c.assertFail("the condition was "+c.r.show(c.arg(0)), 1)
	}
	return goja.Undefined()
}

func assertClose(c *call) goja.Value {
	onlyInTests(c)
	a, b, tol := c.num(0), c.num(1), c.num(2)
	if tol < 0 || math.IsNaN(tol) || math.IsInf(tol, 0) {
		c.fail("RangeError", "tol must be a finite number >= 0, got %v", tol)
	}
	if d := math.Abs(a - b); !(d <= tol) {
		c.assertFail(fmt.Sprintf("got %s, want %s ± %s (off by %s)", fnum(a), fnum(b), fnum(tol), fnum(d)), 3)
	}
	return goja.Undefined()
}

func assertEqual(c *call) goja.Value {
	onlyInTests(c)
	got, want := c.arg(0), c.arg(1)
	if !got.SameAs(want) {
		g, w := c.r.show(got), c.r.show(want)
		_, gObj := got.(*goja.Object)
		_, wObj := want.(*goja.Object)
		if !gObj || !wObj || g != w {
			c.assertFail("got "+g+", want "+w, 2)
		}
	}
	return goja.Undefined()
}

// show renders a value for an assertion message: strings quoted, objects and arrays as JSON
// (so that two arrays with the same items are equal), the rest as JS prints them.
func (r *run) show(v goja.Value) string {
	if s, ok := asString(v); ok {
		return strconv.Quote(s)
	}
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	return truncate(r.format(v), 500)
}

// fnum prints a number as JS would write it in source: 1e-9, not 1e-09.
func fnum(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	s = strings.Replace(s, "e-0", "e-", 1)
	return strings.Replace(s, "e+0", "e+", 1)
}
