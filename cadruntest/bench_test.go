package cadruntest

import (
	"context"
	"testing"

	"github.com/cadrun/cadrun/runtime"
)

// BenchmarkExamples tests the repo's example workspaces against their committed snapshots,
// as `make test` does: through worker processes, all passing.
func BenchmarkExamples(b *testing.B) {
	pool := runtime.NewPool(runtime.PoolOptions{Warm: 2})
	defer pool.Close()
	opt := Options{Runner: pool, CI: true}
	b.ReportAllocs()
	for b.Loop() {
		rs, err := RunDirs(context.Background(), []string{"../examples"}, opt)
		if err != nil {
			b.Fatal(err)
		}
		if _, failed := Count(rs); failed > 0 || len(rs) == 0 {
			b.Fatalf("%d results, %d failed: %+v", len(rs), failed, rs)
		}
	}
}
