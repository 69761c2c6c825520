package viewer

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cadrun/cadrun/scene"
	"github.com/cadrun/cadrun/scene/geom"
)

// tabs connects n event streams and returns a channel per stream that gets the version of
// every scene event it reads.
func tabs(tb testing.TB, url string, n int) []chan uint64 {
	tb.Helper()
	out := make([]chan uint64, n)
	for i := range out {
		res, err := http.Get(url + "/events")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { res.Body.Close() })
		ch := make(chan uint64, 64)
		out[i] = ch
		go func() {
			r := bufio.NewReader(res.Body)
			var name string
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					close(ch)
					return
				}
				switch {
				case strings.HasPrefix(line, "event: "):
					name = strings.TrimSpace(line[7:])
				case strings.HasPrefix(line, "data: ") && name == "scene":
					var v uint64
					fmt.Sscanf(line, `data: {"version":%d`, &v)
					ch <- v
				}
			}
		}()
	}
	return out
}

// awaitAll waits until every tab has read the scene event of version v.
func awaitAll(tb testing.TB, chs []chan uint64, v uint64) {
	tb.Helper()
	for i, ch := range chs {
		for got := range ch {
			if got == v {
				break
			}
			if got > v {
				tb.Fatalf("tab %d skipped to version %d, waiting for %d", i, got, v)
			}
		}
	}
}

func TestFiftyTabsGetEveryUpdate(t *testing.T) {
	t.Parallel()
	v, ts, _ := start(t, Options{})
	chs := tabs(t, ts.URL, 50)
	awaitAll(t, chs, 0)
	if got := v.Clients(); got != 50 {
		t.Fatalf("Clients() = %d; want 50", got)
	}
	for i := range 3 {
		ver := v.Publish(State{Scene: circles(t, fmt.Sprintf("c%d", i))})
		awaitAll(t, chs, ver)
	}
}

// BenchmarkFanout50 publishes a scene to 50 connected tabs and waits until all of them have
// the event. It also reports the CPU time the process spends per second while the 50 tabs
// sit idle (heartbeats only).
func BenchmarkFanout50(b *testing.B) {
	v := New(Options{})
	ts := httptest.NewServer(v.Handler())
	defer func() { v.Close(); ts.Close() }()
	chs := tabs(b, ts.URL, 50)
	awaitAll(b, chs, 0)
	s := circles(b, "a", "b", "c")
	b.ResetTimer()
	for b.Loop() {
		awaitAll(b, chs, v.Publish(State{Scene: s}))
	}
	b.StopTimer()

	cpu := func() time.Duration {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	before, t0 := cpu(), time.Now()
	time.Sleep(time.Second)
	idle := cpu() - before
	b.ReportMetric(float64(idle.Microseconds())/time.Since(t0).Seconds(), "idle-cpu-µs/s")
	b.ReportMetric(float64(runtime.NumGoroutine()), "goroutines")
}

// bigScene is a 10,000-entity scene: a grid of circles and rects in 100 groups.
func bigScene(tb testing.TB, salt int) *scene.Scene {
	tb.Helper()
	s := scene.New()
	for g := range 100 {
		var names []string
		for i := range 100 {
			n := fmt.Sprintf("e%d_%d_%d", salt, g, i)
			var sh scene.Shape = scene.Circle{Center: geom.Vec{X: float64(i * 10), Y: float64(g * 10)}, Radius: 3}
			if i%2 == 1 {
				sh = scene.Rect{Center: geom.Vec{X: float64(i * 10), Y: float64(g * 10)}, Width: 6, Height: 4}
			}
			if _, err := s.Put(n, sh); err != nil {
				tb.Fatal(err)
			}
			names = append(names, n)
		}
		if _, err := s.CreateGroup(fmt.Sprintf("g%d_%d", salt, g), names[:99]); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

func TestBigSceneCounts(t *testing.T) {
	t.Parallel()
	if n := bigScene(t, 0).Len(); n != 10_100 {
		t.Errorf("bigScene has %d entities", n)
	}
}
