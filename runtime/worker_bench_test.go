package runtime

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
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

// BenchmarkW5Pool is the reference workload W5 as bench/w5.js has it (a plate drilled with 200
// holes, ten ribs added) through a warm worker process, whose kernel runs without interrupts
// as cadrun run's does: the solid calls, the booleans and the scene's mesh sent back. The
// worker has compiled the kernel at the first iteration. Its time limit is a minute: a
// limit changes no work, and the default 5 s can pass on a busy machine.
func BenchmarkW5Pool(b *testing.B) {
	src, err := os.ReadFile("../bench/w5.js")
	if err != nil {
		b.Fatal(err)
	}
	p := NewPool(PoolOptions{})
	defer p.Close()
	ms := MapSource{MainModule: string(src)}
	opts := Options{Limits: Limits{Timeout: time.Minute}}
	for b.Loop() {
		if _, err := p.Run(context.Background(), ms, MainModule, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkW1ExportPool is W1 as `cadrun run -o` runs it in a warm worker: linted, then
// written by the worker into a new file (the tests' export, the scene's JSON, stands in for
// the SVG), which a worker writes beside the lint.
func BenchmarkW1ExportPool(b *testing.B) {
	p := NewPool(PoolOptions{})
	defer p.Close()
	ms := MapSource{MainModule: w1Script}
	dir := b.TempDir()
	n := 0
	for b.Loop() {
		n++
		file := filepath.Join(dir, "w1-"+strconv.Itoa(n)+".json")
		_, made, err := p.Export(context.Background(), ms, MainModule, Options{Lint: true}, []byte("whole"), ExportTo{File: file, W: io.Discard})
		if err != nil || !made {
			b.Fatalf("made %v, %v", made, err)
		}
		os.Remove(file)
	}
}
