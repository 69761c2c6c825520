package runtime

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestPoolWarmsWorkersStartedAhead pins that a worker a Pool starts ahead of need (refill:
// an idle worker for a run not yet asked) has run its warm-up when its first run comes, so
// that the tables built at first use are built, and that a worker started for a run waiting
// now has not: its run would wait behind the warm-up.
func TestPoolWarmsWorkersStartedAhead(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		ahead bool
		want  string
	}{
		{"started ahead", true, "warmed true"},
		{"started for a run", false, "warmed false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(PoolOptions{Lazy: true})
			defer p.Close()
			if tc.ahead {
				p.refill() // what a pool that is not lazy does as it starts
			}
			var out bytes.Buffer
			if _, _, err := p.Export(context.Background(), MapSource{MainModule: typicalScript}, MainModule, Options{}, []byte("warmed"), ExportTo{W: &out}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out.String()); diff != "" {
				t.Errorf("first run's worker: mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWarmScriptRuns pins that the warm-up runs as a good run does, linted, with nothing to
// say: a warm-up that failed part way (an API call renamed) would leave the tables after the
// failure to the first request again, silently.
func TestWarmScriptRuns(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), MapSource{MainModule: warmScript}, MainModule, Options{Lint: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Errorf("warnings: %q", res.Warnings)
	}
	if res.Scene.Len() == 0 || !res.Scene.Exists("label") || !res.Scene.Exists("width") {
		t.Errorf("the warm-up drew %d entities, want its text and dimension among them", res.Scene.Len())
	}
}

// benchFirstRun times the first run of an idle worker, which a Pool started ahead of need
// and which has had time to get ready (the wait is not timed): an agent's first write to a
// server. ahead says whether the worker warms up (prewarmAhead).
func benchFirstRun(b *testing.B, ahead bool) {
	defer func(was bool) { prewarmAhead = was }(prewarmAhead)
	prewarmAhead = ahead
	ms := MapSource{MainModule: typicalScript}
	for b.Loop() {
		b.StopTimer()
		p := NewPool(PoolOptions{Lazy: true})
		p.refill()
		time.Sleep(500 * time.Millisecond) // the worker starts, and warms up when told to
		b.StartTimer()
		if _, err := p.Run(context.Background(), ms, MainModule, Options{Lint: true}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		p.Close()
		b.StartTimer()
	}
}

// BenchmarkFirstRunWarmed is an idle worker's first run (typicalScript, linted) after its
// warm-up; BenchmarkFirstRunCold the same without one, which builds the tables itself.
func BenchmarkFirstRunWarmed(b *testing.B) { benchFirstRun(b, true) }
func BenchmarkFirstRunCold(b *testing.B)   { benchFirstRun(b, false) }
