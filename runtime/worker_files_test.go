package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPoolSendsFilesOnce: a warm worker is sent a big file's content once, and a changed file's
// new content as soon as it changes; going back to content it already has sends nothing.
func TestPoolSendsFilesOnce(t *testing.T) {
	t.Parallel()
	p := NewPool(PoolOptions{Lazy: true}) // one worker, kept between runs, none in the background
	t.Cleanup(func() { p.Close() })
	pad := strings.Repeat("x", inlineFileBytes)
	data := func(tag string) string { return fmt.Sprintf(`{"tag": %q, "pad": %q}`, tag, pad) }
	main := "// " + pad + "\nconsole.log(readJSON('parts').tag)\ndrawRect('r', 0, 0, 1, 1)\n"
	src := MapSource{MainModule: main}

	var first *worker
	framed := 0
	for i, step := range []struct {
		tag  string
		sent int // the file bytes the run sends as raw frames
	}{
		{"A", len(main) + len(data("A"))}, // a fresh worker gets both
		{"A", 0},                          // and keeps them
		{"B", len(data("B"))},             // a changed file is sent again
		{"A", 0},                          // the old content is still kept
	} {
		src["parts.json"] = data(step.tag)
		res, err := p.Run(context.Background(), src, MainModule, Options{})
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if diff := cmp.Diff([]string{step.tag}, res.Logs); diff != "" {
			t.Errorf("run %d: logs mismatch (-want +got):\n%s", i, diff)
		}
		p.mu.Lock()
		w := p.idle[0]
		p.mu.Unlock()
		if first == nil {
			first = w
		} else if w != first {
			t.Fatalf("run %d had another worker", i)
		}
		if got := w.framedBytes - framed; got != step.sent {
			t.Errorf("run %d sent %d bytes of files as frames, want %d", i, got, step.sent)
		}
		framed = w.framedBytes
	}
}

// TestFileCacheBounded: the cache keeps at most workerFileCacheBytes, is emptied when a file
// would pass it, and never keeps a file bigger than that.
func TestFileCacheBounded(t *testing.T) {
	t.Parallel()
	var c fileCache
	half := make([]byte, workerFileCacheBytes/2)
	c.put("a", half)
	c.put("b", half)
	c.put("c", []byte("c")) // over: emptied first
	c.put("big", make([]byte, workerFileCacheBytes+1))
	var kept []string
	for _, h := range []string{"a", "b", "c", "big"} {
		if _, ok := c.get(h); ok {
			kept = append(kept, h)
		}
	}
	if diff := cmp.Diff([]string{"c"}, kept); diff != "" {
		t.Errorf("kept mismatch (-want +got):\n%s", diff)
	}
	if c.bytes != 1 {
		t.Errorf("the cache counts %d bytes, want 1", c.bytes)
	}
}

// TestPoolCount: Count answers the entity count of the scene a worker kept, with an empty
// Scene and no scene JSON; a failing run answers its diagnostic as Run does, and the worker
// serves the next run.
func TestPoolCount(t *testing.T) {
	t.Parallel()
	p := NewPool(PoolOptions{Lazy: true})
	t.Cleanup(func() { p.Close() })
	res, n, err := p.Count(context.Background(), MapSource{MainModule: "for (let i = 0; i < 5; i++) drawCircle('c' + i, i, 0, 1)\nconsole.log('drawn')"}, MainModule, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 5 || res.Scene.Len() != 0 || res.SceneJSON != nil || !cmp.Equal([]string{"drawn"}, res.Logs) {
		t.Errorf("Count = %d entities, scene of %d, %d bytes of scene JSON, logs %q; want 5, 0, 0, [drawn]", n, res.Scene.Len(), len(res.SceneJSON), res.Logs)
	}
	_, _, err = p.Count(context.Background(), MapSource{MainModule: "drawCircle('c', 0, 0, 1)\nthrow new Error('no')"}, MainModule, Options{})
	var d *Diagnostic
	if !errors.As(err, &d) || d.Kind != "Error" || d.Message != "no" {
		t.Errorf("a failing run: %v; want its diagnostic", err)
	}
	if _, n, err := p.Count(context.Background(), MapSource{MainModule: "drawRect('r', 0, 0, 1, 1)"}, MainModule, Options{}); err != nil || n != 1 {
		t.Errorf("the next run: %d, %v; want 1 entity", n, err)
	}
}

// TestPoolSendsTheEntryWithTheRun: the entry file's content goes with the run, so that a run
// asks the parent only for what the entry imports; a big entry the worker already holds is
// not asked for either.
func TestPoolSendsTheEntryWithTheRun(t *testing.T) {
	t.Parallel()
	p := NewPool(PoolOptions{Lazy: true}) // one worker, kept between runs
	t.Cleanup(func() { p.Close() })
	big := "// " + strings.Repeat("x", inlineFileBytes) + "\ndrawRect('r', 0, 0, 1, 1)\n"
	asked := 0
	for i, step := range []struct {
		src  MapSource
		want int // requests from the worker in this run
	}{
		{MapSource{MainModule: "drawCircle('c', 0, 0, 1)"}, 0},
		{MapSource{MainModule: "import { r } from './lib'\ndrawCircle('c', 0, 0, r)", "lib": "export const r = 2"}, 1},
		{MapSource{MainModule: big}, 1}, // its content, by hash, the first time
		{MapSource{MainModule: big}, 0}, // kept
	} {
		if _, err := p.Run(context.Background(), step.src, MainModule, Options{}); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		p.mu.Lock()
		w := p.idle[0]
		p.mu.Unlock()
		if got := w.asked - asked; got != step.want {
			t.Errorf("run %d: the worker asked %d times, want %d", i, got, step.want)
		}
		asked = w.asked
	}
}
