package runtime

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHeapGrownForHugePagesOnce pins when a worker grows its heap for huge pages: once its
// run's scene has hugeHeapEntities shapes, not for a small run, and never in process, where
// the heap is the host program's.
func TestHeapGrownForHugePagesOnce(t *testing.T) {
	t.Parallel()
	many := "for (let i = 0; i < " + strconv.Itoa(hugeHeapEntities) + "; i++) drawCircle('c' + i, i, 0, 0.4)"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"small run", typicalScript, "huge false"},
		{"many shapes", many, "huge true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := NewPool(PoolOptions{Lazy: true}) // a fresh worker for the run
			defer p.Close()
			var out bytes.Buffer
			if _, _, err := p.Export(context.Background(), MapSource{MainModule: tc.src}, MainModule, Options{}, []byte("huge"), ExportTo{W: &out}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out.String()); diff != "" {
				t.Errorf("worker after the run: mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("in process", func(t *testing.T) {
		t.Parallel()
		if _, err := Run(context.Background(), MapSource{MainModule: many}, MainModule, Options{}); err != nil {
			t.Fatal(err)
		}
		if hugeHeapGrown.Load() {
			t.Error("an in-process run grew the host program's heap")
		}
	})
}
