// Package runtime runs cadrun scripts: a fresh goja realm per run, the JS drawing API bound
// from one table, workspace modules loaded by logical name, limits on time, call depth,
// console output and source size, and diagnostics that name file, line and column.
//
// Start with Run. A run is deterministic: Math.random is seeded the same way each time and
// Date sees a fixed clock, so the same files always give the same scene.
package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/cadrun/cadrun/internal/workerproc"
	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/lint"
	"github.com/cadrun/cadrun/scene/solid"
	"github.com/cadrun/cadrun/scene/text"
)

// Limits bound one run. The zero value of a field means its default (DefaultLimits).
type Limits struct {
	Timeout         time.Duration // wall clock for the whole run
	MaxCallStack    int           // JS call depth
	MaxConsoleBytes int           // console output kept, counting a line break per line; more is cut with a note
	MaxConsoleLines int           // console lines kept; more are cut with a note
	MaxSourceBytes  int           // per file
	MaxNesting      int           // bracket nesting in a file, which guards the parser's stack
	MaxModules      int           // files in one program
	MaxMemory       int64         // bytes of heap; enforced when runs go through a Pool
	MaxEntities     int           // entities in the scene
}

// DefaultLimits are documented in docs/limits.md.
var DefaultLimits = Limits{
	Timeout:         5 * time.Second,
	MaxCallStack:    2000,
	MaxConsoleBytes: 64 << 10,
	MaxConsoleLines: 1000,
	MaxSourceBytes:  500 << 10,
	MaxNesting:      500,
	MaxModules:      256,
	MaxMemory:       workerproc.DefaultMaxMemory, // 512 MB
	MaxEntities:     100_000,
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Timeout > 0 {
		d.Timeout = l.Timeout
	}
	if l.MaxCallStack > 0 {
		d.MaxCallStack = l.MaxCallStack
	}
	if l.MaxConsoleBytes > 0 {
		d.MaxConsoleBytes = l.MaxConsoleBytes
	}
	if l.MaxConsoleLines > 0 {
		d.MaxConsoleLines = l.MaxConsoleLines
	}
	if l.MaxSourceBytes > 0 {
		d.MaxSourceBytes = l.MaxSourceBytes
	}
	if l.MaxNesting > 0 {
		d.MaxNesting = l.MaxNesting
	}
	if l.MaxModules > 0 {
		d.MaxModules = l.MaxModules
	}
	if l.MaxMemory > 0 {
		d.MaxMemory = l.MaxMemory
	}
	if l.MaxEntities > 0 {
		d.MaxEntities = min(l.MaxEntities, scene.MaxEntities)
	}
	return d
}

// Options tune a run.
type Options struct {
	Limits Limits
	Seed   uint64 // Math.random seed; runs with the same seed draw the same numbers
	// Tests binds test, assert, assertClose and assertEqual (the "testing" domain), for
	// test scripts run by `cadrun test`; elsewhere they throw an Error saying so.
	Tests bool `json:",omitempty"`
	// Lint has a good run lint its scene where it ran (lint.Check, in the worker) and answer
	// the findings in Result.Lint: for callers that never see the scene (`cadrun run`, which
	// leaves it in the worker) and for the write path, which must not compute in the server
	// what a script made it. The lint has its own time after the script, MaxLintTime, which
	// the caller's wait for the run grows by when the script is done; it stops there (or at
	// lint.MaxLintChecks), saying so in its last finding, so that it never makes a good run
	// fail.
	Lint bool `json:",omitempty"`
	// PaperMM is how many millimetres of paper a scene unit takes in the output the run is
	// for (render.PaperMM), which the lint holds texts' heights to; 0 is 1:1 in millimetres.
	PaperMM float64 `json:",omitempty"`
}

// Result is what a run produced. On failure Scene holds what was drawn before the error (for
// inspection only) and Diagnostic explains the failure.
type Result struct {
	Scene      *scene.Scene
	Logs       []string // console output, one entry per call
	Warnings   []string
	Modules    []string // logical names evaluated, in order
	Diagnostic *Diagnostic
	Duration   time.Duration
	Tests      []TestResult // the test('name', fn) blocks run, in order (Options.Tests)
	// Booleans are the boolean operations the run made, in order, for the drawing lint
	// (lint.Options.Booleans): the scene does not keep them.
	Booleans []lint.BooleanOp
	// Lint is what the drawing lint found in the scene, when Options.Lint asked for it.
	Lint []lint.Finding
	// SceneJSON is Scene's JSON as a worker sent it (nil from a run in this process): the
	// bytes Scene.MarshalJSON gives, so that a caller storing the scene need not encode it.
	SceneJSON []byte

	entities int // the scene's entities, counted in a worker that kept it (Pool.Count)
}

// fixedNow is the clock scripts see: runs must not depend on when they happen.
var fixedNow = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Interrupt values: why a run was stopped.
var (
	errTimeout = errors.New("timeout")
	errMemory  = errors.New("memory")
)

// nativeGrace is how long past its deadline a run may stay inside native code (a huge
// String.repeat, a backtracking regular expression) before Run stops waiting for it.
const nativeGrace = time.Second

// run is the state of one execution; it lives on one goroutine.
type run struct {
	vm    *goja.Runtime
	scene *scene.Scene
	// ctx is the run's context (its timeout), which the solids kernel's calls honour.
	ctx context.Context
	// solids is the run's solids session, made at the first solid (solids.go); inWorker is
	// set in a worker process, which is stopped from outside past its time, so the kernel
	// may run without checking the context inside a call.
	solids    *solid.Session
	inWorker  bool
	src       Source
	limits    Limits
	res       *Result
	console   int                   // bytes logged so far, a line break counted per line
	cut       string                // the console limit that was reached, or ""
	dropped   int                   // console lines dropped since
	fatal     *Diagnostic           // set when a call overflowed (see finite.go): the run fails with it
	calls     []*call               // call records of returned calls, reused (newCall)
	valueTrue goja.Value            // JS true, what drawing and editing calls return
	local     localCache            // the local bounds of the entity last checked (finite.go)
	describe  goja.Callable         // formats thrown values without calling user code
	jsonParse goja.Callable         // the realm's JSON.parse, captured before user code runs
	noExtend  nativeFunc            // the realm's Object.preventExtensions, captured likewise (data_view.go)
	data      map[string]goja.Value // readJSON's frozen values by data file name (data.go)
	modules   map[string]*loaded
	declared  map[string]Note // top-level let/const/class name -> where it is first declared
	order     []string
	fonts     map[string]*text.Font // workspace fonts loaded by this run (fonts.go)
	// fallbackNotes are the fallback warnings made (fonts.go), to say each once.
	fallbackNotes []string
	// angleNotes are the places an angle past a whole turn was noted (notes.go), to say each
	// once.
	angleNotes []string
	tests      bool // Options.Tests
	inTest     bool // inside a test() block
	testErrs   []testErr

	redrawn     map[string]*redraw // names a draw call gave again (notes.go)
	redrawOrder []string

	// readJSON's lazy objects by Proxy target, and their traps (data_view.go)
	dataViews map[*goja.Object]*dataView
	dataTraps goja.ProxyTrapConfig
}

// Run executes entry (normally MainModule) from src in this process and returns the scene it
// drew. The error is the Diagnostic when the script failed, or ctx's error when the caller
// gave up. Run answers within the timeout plus a second even when the script is stuck in
// native code that cannot be interrupted; the stuck goroutine is then abandoned and runs to
// its end in the background. Memory and the Go stack are not bounded in process (an
// allocation the OS refuses or a fatal stack overflow ends the whole process), so every cadrun
// command runs scripts in a Pool's worker processes; Run is for tests and embedding.
func Run(ctx context.Context, src Source, entry string, opt Options) (*Result, error) {
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	ran := make(chan struct{}, 1)
	go func() {
		res, err := execute(ctx, src, entry, opt, nil)
		if err == nil && opt.Lint {
			ran <- struct{}{}
			lintRun(res, opt)
		}
		done <- outcome{res, err}
		spareRealm()
	}()
	limit := opt.Limits.withDefaults().Timeout + nativeGrace
	deadline := time.Now().Add(limit)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case <-ran: // the script is done: the lint's time is its own (lintRun)
			timer.Reset(time.Until(deadline) + MaxLintTime)
		case o := <-done:
			return o.res, o.err
		case <-timer.C:
			d := &Diagnostic{Kind: KindTimeout,
				Message: fmt.Sprintf("the run took longer than %v (Limits.Timeout) and was stopped inside a built-in function", opt.Limits.withDefaults().Timeout),
				Hint:    "a built-in call (a huge String.repeat or Array, a backtracking regular expression) did not return; make it smaller"}
			return &Result{Scene: scene.New(), Diagnostic: d}, d
		}
	}
}

// execute runs a script on the calling goroutine. watch, when set, is started with the realm
// and may interrupt it (the worker's memory watchdog); it returns a function that stops it.
func execute(ctx context.Context, src Source, entry string, opt Options, watch func(vm *goja.Runtime) func()) (*Result, error) {
	return executeIn(ctx, takeRealm(), src, entry, opt, watch)
}

// executeIn is execute in the realm r, which it uses up.
func executeIn(ctx context.Context, r *run, src Source, entry string, opt Options, watch func(vm *goja.Runtime) func()) (*Result, error) {
	start := time.Now()
	r.scene, r.src, r.limits, r.tests = scene.New(), src, opt.Limits.withDefaults(), opt.Tests
	r.res = &Result{Scene: r.scene}
	r.start(opt.Seed)

	ctx, cancel := context.WithTimeout(ctx, r.limits.Timeout)
	defer cancel()
	r.ctx, r.inWorker = ctx, watch != nil
	defer r.closeSolids()
	stop := context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			r.vm.Interrupt(errTimeout)
		} else {
			r.vm.Interrupt(ctx.Err())
		}
	})
	if watch != nil {
		defer watch(r.vm)()
	}
	err := r.load(entry, nil)
	stop()
	r.noteDropped()
	r.noteRedraws()
	if err == nil {
		if ferr := CheckFinite(r.scene); ferr != nil {
			err = &Diagnostic{Kind: "RangeError", Message: ferr.Error(), Hint: nonFiniteHint}
		}
	}
	if err == nil {
		// setLinetype and setLayer check the shape they are given; what the scene's dashed
		// strokes make together, scaled or grouped since, is known once the script is done,
		// and is refused here rather than in every picture of it.
		if derr := r.scene.CheckDashes(); derr != nil {
			err = &Diagnostic{Kind: KindLimit, Message: derr.Error(), Hint: dashHint}
		}
	}
	if r.fatal != nil {
		err = r.fatal
	}
	r.diagnoseTests()
	r.res.Modules = r.order
	r.res.Duration = time.Since(start)
	if err == nil {
		return r.res, nil
	}
	d, ok := err.(*Diagnostic)
	if !ok {
		d = r.diagnose(err)
	}
	if _, ok := err.(*goja.InterruptedError); ok && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return r.res, ctx.Err()
	}
	r.res.Diagnostic = d
	return r.res, d
}

// dashHint is the hint of a scene whose dashes pass scene.MaxDashSegments.
const dashHint = "a dash pattern's lengths are in scene units and a transform does not scale them: give long or scaled-up lines a larger linetype scale (setLinetype(name, type, {scale})), or fewer shapes a linetype"

// spare is the realm made ahead for the next run. A realm is a run before its script: a goja
// runtime with the API, console and helpers bound (newRealm), most of a small run's start; start
// then gives it the run's limits, seeded Math.random and fixed clock. After each run a spare
// realm is made in the background for the next, so that making one is not on the path of a
// write: by Run once it has answered, and by a worker when it waits for its next run (not while
// it writes the last one's scene out). A realm serves one run and is dropped: no runtime ever
// sees two scripts.
//
// A run that starts while the spare is still being made waits for it rather than making a
// second: a fresh worker whose request is already waiting (`cadrun run`) starts making the spare
// as it starts serving and reads the request at once, and two realms made side by side would
// cost it one realm's work on the path of its first run, and the other core besides.
var spare struct {
	sync.Mutex
	r      *run
	making chan struct{} // closed when the realm being made is in r; nil when none is
}

// realmsMade counts the realms newRealm made, for tests: a run must not pay for two.
var realmsMade atomic.Int64

// newRealm makes a realm.
func newRealm() *run {
	realmsMade.Add(1)
	r := &run{vm: goja.New(), modules: map[string]*loaded{}, declared: map[string]Note{}}
	r.bind()
	return r
}

// takeRealm is the spare realm, the one being made once it is done, or a new one when none is.
func takeRealm() *run {
	spare.Lock()
	if made := spare.making; made != nil {
		spare.Unlock()
		<-made
		spare.Lock()
	}
	r := spare.r
	spare.r = nil
	spare.Unlock()
	if r == nil {
		r = newRealm()
	}
	return r
}

// spareRealm makes a spare realm in the background, unless there is one or one is being made.
func spareRealm() {
	spare.Lock()
	defer spare.Unlock()
	if spare.r != nil || spare.making != nil {
		return
	}
	made := make(chan struct{})
	spare.making = made
	go func() {
		r := newRealm()
		spare.Lock()
		spare.r, spare.making = r, nil
		spare.Unlock()
		close(made)
	}()
}

// start readies a realm for its run: the limits and the seed are the run's.
func (r *run) start(seed uint64) {
	vm := r.vm
	vm.SetMaxCallStackSize(r.limits.MaxCallStack)
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	vm.SetRandSource(rng.Float64)
	vm.SetTimeSource(func() time.Time { return fixedNow })
}

// bind binds the API, console and the helpers every run uses into r's runtime. The bound
// functions read r's scene, limits and options when they are called, not now.
func (r *run) bind() {
	vm := r.vm
	r.valueTrue = vm.ToValue(true)
	t := table()
	for i := range t {
		f := &t[i]
		fn := func(fc goja.FunctionCall) goja.Value {
			c := r.newCall(f, fc.Arguments)
			if missing := c.missing(f.Params); missing != "" && (f.AltParams == nil || c.missing(f.AltParams) != "") {
				c.fail("TypeError", "missing argument %s%s; the call is %s", missing, c.misplaced(f.Params), strings.Join(f.Signatures(), " or "))
			}
			if f.Replacement != "" {
				panic(vm.NewTypeError(f.Name + " is not available; use " + f.Replacement + " instead"))
			}
			c.noteAngleArgs()
			v := f.impl(c)
			c.checkCall(v)
			if r.scene.Len() > r.limits.MaxEntities {
				c.fail("RangeError", "the scene has more than %d entities (Limits.MaxEntities); draw fewer, or merge shapes with booleanUnion", r.limits.MaxEntities)
			}
			r.noteHeapGrowth()
			r.endCall(c)
			return v
		}
		if err := vm.Set(f.Name, fn); err != nil {
			panic(err)
		}
	}
	console := vm.NewObject()
	for _, level := range []string{"log", "info", "warn", "error", "debug"} {
		_ = console.Set(level, func(fc goja.FunctionCall) goja.Value {
			r.log(level, fc.Arguments)
			return goja.Undefined()
		})
	}
	_ = vm.Set("console", console)
	// The describer is built before any user code runs, from built-ins the user cannot have
	// replaced yet; it reads only data properties, so formatting an error never calls a
	// user's getter or toString.
	v, err := vm.RunProgram(describerProgram())
	if err != nil {
		panic(err)
	}
	r.describe, _ = goja.AssertFunction(v)
	r.jsonParse, _ = goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("parse"))
	r.noExtend = vm.Get("Object").ToObject(vm).Get("preventExtensions").Export().(nativeFunc)
}

// describerProgram is compiled once, at the first run (a worker compiles it as it starts,
// before it reads a request); programs are safe to share between runtimes. Not at package
// initialisation: a process that runs no script (`cadrun version`, the servers until their
// first run) would pay for it.
var describerProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("<cadrun>", describerJS, true)
})

const describerJS = `(function (gopd, gpo, isArr) {
  function data(o, k) {
    for (var p = o, i = 0; p !== null && i < 32; p = gpo(p), i++) {
      var d = gopd(p, k);
      if (d) return ('value' in d) ? d.value : undefined;
    }
    return undefined;
  }
  return function (e) {
    var t = typeof e;
    if (e === null || (t !== 'object' && t !== 'function')) {
      return ['uncaught', t === 'symbol' ? 'a symbol' : String(e)];
    }
    var name = data(e, 'name'), msg = data(e, 'message');
    if (typeof name === 'string' && typeof msg === 'string') return [name, msg];
    return ['uncaught', isArr(e) ? 'an array' : 'an object that is not an Error'];
  };
})(Object.getOwnPropertyDescriptor, Object.getPrototypeOf, Array.isArray)`

// log appends console output, up to the limits. Once a limit is reached every later line is
// dropped (and not even formatted), so the output kept is a prefix of what was logged.
func (r *run) log(level string, args []goja.Value) {
	if r.cut != "" {
		r.dropped++
		return
	}
	var b strings.Builder
	if level == "warn" || level == "error" {
		b.WriteString(level)
		b.WriteString(": ")
	}
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(r.format(a))
	}
	line := b.String()
	switch {
	case len(r.res.Logs) >= r.limits.MaxConsoleLines:
		r.cut = fmt.Sprintf("%d lines (MaxConsoleLines)", r.limits.MaxConsoleLines)
	case r.console+len(line)+1 > r.limits.MaxConsoleBytes:
		r.cut = fmt.Sprintf("%d bytes (MaxConsoleBytes)", r.limits.MaxConsoleBytes)
	default:
		r.console += len(line) + 1
		r.res.Logs = append(r.res.Logs, line)
		return
	}
	r.dropped++
}

// noteDropped adds the warning that says how much console output was dropped.
func (r *run) noteDropped() {
	if r.cut == "" {
		return
	}
	lines := "lines were"
	if r.dropped == 1 {
		lines = "line was"
	}
	r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("console output passed %s; the remaining %d %s dropped", r.cut, r.dropped, lines))
}

// format renders a console argument: strings as they are, other values as JSON when they
// can be, like a browser console's summary.
func (r *run) format(v goja.Value) string {
	if s, ok := asString(v); ok {
		return s
	}
	if o, ok := v.(*goja.Object); ok && o.ClassName() != "Function" {
		if j, err := o.MarshalJSON(); err == nil {
			return string(j)
		}
	}
	return v.String()
}

// missing names the first required parameter of params not given, or "".
func (c *call) missing(params []Param) string {
	for i, p := range params {
		if !p.Optional && goja.IsUndefined(c.arg(i)) {
			return p.Name
		}
	}
	return ""
}

// misplaced names the first argument given whose kind does not fit its parameter (an array
// where a number goes), which is most often why a later one is missing: " (cx is an array,
// where a number goes; ...)", or "".
func (c *call) misplaced(params []Param) string {
	for i, p := range params {
		v := c.arg(i)
		if goja.IsUndefined(v) {
			return ""
		}
		_, isObj := v.(*goja.Object)
		var fits bool
		switch p.Type {
		case "number":
			k := reflect.Invalid
			if !isObj && !goja.IsNull(v) {
				k = v.ExportType().Kind()
			}
			fits = k == reflect.Int64 || k == reflect.Float64
		case "string":
			_, fits = asString(v)
		default:
			continue
		}
		if fits {
			continue
		}
		msg := fmt.Sprintf(" (%s is %s, where a %s goes", p.Name, describe(v), p.Type)
		if isObj && className(v.(*goja.Object)) == "Array" && p.Type == "number" {
			msg += "; give a point's coordinates as separate numbers"
		}
		return msg + ")"
	}
	return ""
}

// newCall starts a call of f: a call record from those of returned calls, or a new one. A
// record outlives its call only on the heap (it escapes through the table's impl), so reusing
// them saves an allocation per call; a call that throws never returns its record, and a call
// made from inside another (a test block's body, a getter) takes another record.
func (r *run) newCall(f *Func, args []goja.Value) *call {
	n := len(r.calls)
	if n == 0 {
		return &call{r: r, fn: f, args: args}
	}
	c := r.calls[n-1]
	r.calls = r.calls[:n-1]
	c.fn, c.args = f, args
	return c
}

// endCall gives back the record of a call that returned.
func (r *run) endCall(c *call) {
	c.fn, c.args = nil, nil // the arguments live on goja's stack: keep no view of it
	r.calls = append(r.calls, c)
}

// put draws shape under the name in argument 0, noting a name drawn again. The scene says
// whether the name was taken as it draws (PutOver), so that a new shape's name is looked up
// once; a draw it refuses before looking is asked about apart, so that the note is the same
// whether or not the draw failed.
func (c *call) put(sh scene.Shape) goja.Value {
	name := c.name(0)
	_, over, err := c.r.scene.PutOver(name, sh)
	if over || (err != nil && c.r.scene.Exists(name)) {
		c.noteRedraw(name)
	}
	c.check(err)
	return c.ok()
}

// jsonValue turns a Go value into a plain JS object through its JSON form, so that query
// results look exactly like the tools' JSON answers.
func (c *call) jsonValue(v any) goja.Value {
	obj, err := c.r.jsonToJS(v)
	var unsupported *json.UnsupportedValueError
	if errors.As(err, &unsupported) {
		c.overflow("it would return %s", unsupported.Str)
	}
	c.check(err)
	return obj
}

func itoa(i int) string { return strconv.Itoa(i) }

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
