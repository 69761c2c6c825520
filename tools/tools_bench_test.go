package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/cadrun/cadrun/internal/benchtime"
	"github.com/cadrun/cadrun/modules"
	"github.com/cadrun/cadrun/runtime"
	"github.com/cadrun/cadrun/scene/lint"
)

// BenchmarkWriteAndRun is a typical write through the tool layer: lock, run in process,
// atomic write with fsync, scene.json, history, answer. p50-ms is the median write, the
// figure its target speaks of.
func BenchmarkWriteAndRun(b *testing.B) { benchWrite(b, b.TempDir()) }

// BenchmarkWriteAndRunTmpfs is the same on a memory filesystem, where fsync costs nothing:
// the difference to BenchmarkWriteAndRun is the share of the disk: the two fsyncs (the
// script's file and its directory) and the file creations and renames.
func BenchmarkWriteAndRunTmpfs(b *testing.B) {
	dir, err := os.MkdirTemp("/dev/shm", "cadrun-bench-")
	if err != nil {
		b.Skip("no /dev/shm here")
	}
	defer os.RemoveAll(dir)
	benchWrite(b, dir)
}

// BenchmarkWriteAndRunPool is BenchmarkWriteAndRun with the script run in a warm worker
// process, as cadrun mcp and cadrun watch run it: the pipe's round trip and the scene's JSON
// read back come on top.
func BenchmarkWriteAndRunPool(b *testing.B) {
	p := runtime.NewPool(runtime.PoolOptions{})
	defer p.Close()
	benchWriteWith(b, b.TempDir(), p)
}

func benchWrite(b *testing.B, dir string) { benchWriteWith(b, dir, runtime.InProcess{}) }

func benchWriteWith(b *testing.B, dir string, runner runtime.Runner) {
	ws, err := modules.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	s := NewServer(context.Background(), ws, runner, runtime.Options{}).Session()
	i := 0
	b.ReportAllocs()
	p := benchtime.New(b)
	defer p.Report()
	for b.Loop() {
		start := time.Now()
		i++
		code := fmt.Sprintf("drawRect('plate', 0, 0, 80, 40)\ndrawCircle('h1', -25, 0, 5)\ndrawCircle('h2', 25, 0, %d)\nsetFill('plate', [0.7, 0.7, 0.75, 1])\ndrawLine('axis', [-40, 0, 40, 0])\ndrawArc('bend', 0, 20, 10, 0, Math.PI)\ncreateGroup('part', ['plate', 'h1', 'h2'])", 1+i%5)
		raw, _ := json.Marshal(WriteIn{File: "main", Code: code})
		if _, err := s.Call(context.Background(), "write", raw); err != nil {
			b.Fatal(err)
		}
		p.Add(start)
	}
}

// BenchmarkSceneViews answers each text view of a 10,000-entity scene (W1 with each row in a
// group), within the default budget.
func BenchmarkSceneViews(b *testing.B) {
	s, _ := newSession(b, map[string]string{"scene.code.js": bigScene(100)})
	for _, in := range []SceneIn{
		{Command: "info"}, {Command: "tree"}, {Command: "groups"}, {Command: "draw_order", Group: "row5"},
		{Command: "entity", Name: "blob"}, {Command: "json"}, {Command: "svg", Name: "row5"},
	} {
		raw, _ := json.Marshal(in)
		b.Run(in.Command, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Call(context.Background(), "scene", raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEditLargeScene is a small edit of a 10,000-entity scene (W1's shapes in rows of
// groups): the script runs again in process, the lint checks the new scene, and the rest of a
// write follows. lint-ms is the lint of that scene alone, the share of each edit it takes
// (issue 38: at most a tenth of the run).
func BenchmarkEditLargeScene(b *testing.B) { benchEditLarge(b, runtime.InProcess{}) }

// BenchmarkEditLargeScenePool is BenchmarkEditLargeScene as cadrun mcp and cadrun watch make
// the edit: the script runs in a warm worker process, and its scene comes back through the
// pipe as JSON to be compared with the last.
func BenchmarkEditLargeScenePool(b *testing.B) {
	p := runtime.NewPool(runtime.PoolOptions{})
	defer p.Close()
	benchEditLarge(b, p)
}

func benchEditLarge(b *testing.B, runner runtime.Runner) {
	dir := b.TempDir()
	ws, err := modules.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	s := NewServer(context.Background(), ws, runner, runtime.Options{}).Session()
	raw, _ := json.Marshal(WriteIn{File: "main", Code: bigScene(100)})
	if _, err := s.Call(context.Background(), "write", raw); err != nil {
		b.Fatal(err)
	}
	radius := []string{"drawCircle('u1', 0, -50, 7)", "drawCircle('u1', 0, -50, 8)"}
	i := 0
	p := benchtime.New(b)
	defer p.Report()
	for b.Loop() {
		start := time.Now()
		raw, _ := json.Marshal(EditIn{File: "main", OldCode: radius[i%2], NewCode: radius[(i+1)%2]})
		i++
		if _, err := s.Call(context.Background(), "edit", raw); err != nil {
			b.Fatal(err)
		}
		p.Add(start)
	}
	b.StopTimer()
	res, err := runtime.Run(context.Background(), runtime.MapSource{runtime.MainModule: bigScene(100)}, runtime.MainModule, runtime.Options{})
	if err != nil {
		b.Fatal(err)
	}
	const n = 20
	t0 := time.Now()
	for range n {
		lint.Check(res.Scene, lint.Options{Booleans: res.Booleans})
	}
	b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/n, "lint-ms")
}
