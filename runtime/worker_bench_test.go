package runtime

import (
	"context"
	"testing"
)

// BenchmarkDrawCircle10kPool is 10,000 circles through a warm worker process: the scene comes
// back as a frame of about 2 MB of JSON, the part of the round trip that grows with the scene.
func BenchmarkDrawCircle10kPool(b *testing.B) {
	p := NewPool(PoolOptions{})
	defer p.Close()
	ms := MapSource{MainModule: "for (let i = 0; i < 10000; i++) drawCircle('c' + i, i % 100, Math.floor(i / 100), 0.4)"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Run(context.Background(), ms, MainModule, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
