package watch

// Watch mode as a person feels it: real filesystem events (fsnotify), the debounce, a run in a
// worker process (runtime.Pool), on the street example (a class module and a row of houses).
//
//	go test ./tools/ -run '^$' -bench 'Watch' -benchtime 200x -benchmem

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
)

// benchWatch starts a watch on a copy of the street example and returns its workspace, the
// original main and the channel of updates (after the first run).
func benchWatch(b *testing.B) (dir, main string, updates chan RunUpdate, stop func()) {
	b.Helper()
	dir = b.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../examples/street")); err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "scene.code.js"))
	if err != nil {
		b.Fatal(err)
	}
	w, err := modules.Watch(dir, modules.WatchOptions{})
	if err != nil {
		b.Fatal(err)
	}
	pool := runtime.NewPool(runtime.PoolOptions{})
	updates = make(chan RunUpdate, 10_000)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, Config{
			Open:    func() (runtime.Source, error) { return modules.Open(dir) },
			Feed:    w,
			Runner:  pool,
			Publish: func(u RunUpdate) { updates <- u },
		})
	}()
	if u := <-updates; !u.OK() {
		b.Fatalf("the first run failed: %s", describeUpdate(u))
	}
	return dir, string(src), updates, func() {
		cancel()
		<-done
		w.Close()
		pool.Close()
	}
}

// renameSave saves content the way most editors do: a temp file beside it, renamed over it.
func renameSave(b *testing.B, dir, content string) {
	tmp := filepath.Join(dir, ".scene.code.js.tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "scene.code.js")); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWatchSaveToResult is the latency from an editor's rename save to the run's result,
// quiet window included; p50-ms and p99-ms are over the iterations.
func BenchmarkWatchSaveToResult(b *testing.B) {
	dir, main, updates, stop := benchWatch(b)
	defer stop()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		renameSave(b, dir, fmt.Sprintf("%s// save %d\n", main, i))
		u := <-updates
		lat = append(lat, time.Since(start))
		if !u.OK() {
			b.Fatalf("run failed: %s", describeUpdate(u))
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkWatchSaveStorm is 1,000 rename saves within one second (one a millisecond), until
// the result of the last arrives: runs/op counts the runs, and goroutines and live heap are
// compared before the first storm and after the last. Each iteration takes over a second:
// run it with -benchtime 10x.
func BenchmarkWatchSaveStorm(b *testing.B) {
	dir, main, updates, stop := benchWatch(b)
	defer stop()
	goroutines, heap := snapshotRuntime()
	runs, n := 0, 0
	for b.Loop() {
		n++
		start := time.Now()
		for i := range 1000 {
			// Paced by the clock, not by sleeps that each overshoot: 1,000 saves in one second.
			if d := time.Until(start.Add(time.Duration(i) * time.Millisecond)); d > 0 {
				time.Sleep(d)
			}
			content := fmt.Sprintf("%s// storm %d save %d\n", main, n, i)
			if i == 999 { // the last save draws one more entity: its run is the one to wait for
				content += "drawCircle('storm_end', 0, 0, 1)\n"
			}
			renameSave(b, dir, content)
		}
		for {
			u := <-updates
			runs++
			if !u.OK() {
				b.Fatalf("run failed: %s", describeUpdate(u))
			}
			if _, err := u.Scene.Get("storm_end"); err == nil {
				break
			}
		}
	}
	b.StopTimer()
	time.Sleep(200 * time.Millisecond) // let the last timers and workers settle before counting
	g2, h2 := snapshotRuntime()
	b.ReportMetric(float64(runs)/float64(n), "runs/op")
	b.ReportMetric(float64(g2-goroutines), "goroutines-delta")
	b.ReportMetric(float64(h2-heap)/(1<<20), "heap-delta-MB")
}

func snapshotRuntime() (goroutines int, heap int64) {
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return goruntime.NumGoroutine(), int64(m.HeapAlloc)
}
